// Highway's dynamic dispatch: this file is compiled once per target by foreach_target.h
// (HWY_TARGET_INCLUDE), and HWY_DYNAMIC_DISPATCH calls the best one the CPU supports.
#include "src/cpu/median_net_simd.hpp"

#include <cstddef>
#include <vector>

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/median_net_simd.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <typename K>
void net_impl(K* HWY_RESTRICT v, int block, const std::pair<int, int>* net, int n) {
  const hn::ScalableTag<K> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  for (int p = 0; p < n; ++p) {
    K* HWY_RESTRICT a = v + static_cast<std::ptrdiff_t>(net[p].first) * block;
    K* HWY_RESTRICT b = v + static_cast<std::ptrdiff_t>(net[p].second) * block;
    for (int l = 0; l < block; l += lanes) {
      const auto x = hn::Load(d, a + l);
      const auto y = hn::Load(d, b + l);
      hn::Store(hn::Min(x, y), d, a + l);
      hn::Store(hn::Max(x, y), d, b + l);
    }
  }
}

void net_u8(std::uint8_t* v, int block, const std::pair<int, int>* net, int n) {
  net_impl(v, block, net, n);
}
void net_i16(std::int16_t* v, int block, const std::pair<int, int>* net, int n) {
  net_impl(v, block, net, n);
}
void net_i32(std::int32_t* v, int block, const std::pair<int, int>* net, int n) {
  net_impl(v, block, net, n);
}
const char* target_name() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {

HWY_EXPORT(net_u8);
HWY_EXPORT(net_i16);
HWY_EXPORT(net_i32);
HWY_EXPORT(target_name);

void median_net(std::uint8_t* v, int block, const std::pair<int, int>* net, int n) {
  HWY_DYNAMIC_DISPATCH(net_u8)(v, block, net, n);
}
void median_net(std::int16_t* v, int block, const std::pair<int, int>* net, int n) {
  HWY_DYNAMIC_DISPATCH(net_i16)(v, block, net, n);
}
void median_net(std::int32_t* v, int block, const std::pair<int, int>* net, int n) {
  HWY_DYNAMIC_DISPATCH(net_i32)(v, block, net, n);
}
const char* simd_target() {
  return HWY_DYNAMIC_DISPATCH(target_name)();
}

// The targets as found before any simd_force_target (which narrows what Highway reports).
static const std::vector<std::int64_t>& all_targets() {
  static const std::vector<std::int64_t> t = hwy::SupportedAndGeneratedTargets();
  return t;
}
int simd_target_count() {
  return static_cast<int>(all_targets().size());
}
const char* simd_target_name(int i) {
  return hwy::TargetName(all_targets().at(static_cast<std::size_t>(i)));
}
void simd_force_target(int i) {
  // SetSupportedTargetsForTest(0) ends the mock; the dispatch tables choose again on next use.
  const std::int64_t t = i < 0 ? 0 : all_targets().at(static_cast<std::size_t>(i));
  hwy::SetSupportedTargetsForTest(t);
}

}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
const char* simd_target() {
  return "none";
}
int simd_target_count() {
  return 0;
}
const char* simd_target_name(int) {
  return "none";
}
void simd_force_target(int) {}
}  // namespace texcv::cpu::simd

#endif
