// The comparator networks of median_blur's 3x3 and 5x5 windows (median_networks.hpp) over blocks
// of keys, through Google Highway with run-time dispatch: the widest vector unit the CPU has
// (SSE4, AVX2, AVX-512; NEON on ARM) from one binary. v holds `rows` rows of `block` keys each
// (block a multiple of 64, v 64-byte aligned); every comparator (a, b) of net[0..n) leaves the
// minimum of rows a and b in row a and the maximum in row b, lane by lane. Min and max are
// exact, so every target gives the same median. Without Highway (TEXCV_HAS_HWY unset) the
// caller runs its plain loops instead.
#pragma once

#include <cstdint>
#include <utility>

namespace texcv::cpu::simd {

void median_net(std::uint8_t* v, int block, const std::pair<int, int>* net, int n);
void median_net(std::int16_t* v, int block, const std::pair<int, int>* net, int n);
void median_net(std::int32_t* v, int block, const std::pair<int, int>* net, int n);

// The name of the Highway target the dispatch picks on this CPU (e.g. "AVX2"), or "none".
const char* simd_target();

// For tests: the targets compiled in that this CPU runs (empty without Highway), and
// simd_force_target(i) to make the dispatch use the i-th of them (-1: back to the best).
int simd_target_count();
const char* simd_target_name(int i);
void simd_force_target(int i);

}  // namespace texcv::cpu::simd
