// Runs a check once per Highway target this CPU runs (src/cpu/simd.hpp), the dispatch forced to
// each in turn and restored afterwards; the check gets the target's name for its messages. A
// build without Highway skips the test, saying so; a build with it must find a target. Prints
// the targets checked, e.g. "[ simd     ] flip checked on: AVX3 AVX2 SSE4 SSSE3 SCALAR".
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "src/cpu/simd.hpp"

namespace texcv::test {

template <class Check>
void on_every_simd_target(const char* what, Check&& check) {
  const int targets = cpu::simd::simd_target_count();
#if TEXCV_TEST_HAS_HWY
  ASSERT_GT(targets, 0) << "built with Highway, but no target found";
#else
  GTEST_SKIP() << "built without Google Highway (TEXCV_HWY): " << what
               << " runs its plain loops only";
#endif
  struct Restore {
    ~Restore() { cpu::simd::simd_force_target(-1); }
  } restore;
  std::string checked;
  for (int t = 0; t < targets; ++t) {
    cpu::simd::simd_force_target(t);
    const std::string name = cpu::simd::simd_target_name(t);
    checked += " " + name;
    ASSERT_EQ(std::string(cpu::simd::simd_target()), name) << "the dispatch did not follow";
    check(name);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("[ simd     ] %s checked on:%s\n", what, checked.c_str());
}

// The target whose output the "same on every target" tests take as the reference: SCALAR (whose
// Highway functions decline, so that the plain loops run) where it is compiled in, else the
// lowest target there is (a Highway built with EMU128 as its fallback, as on the GPU machine,
// has no SCALAR: its emulated vectors are then the reference, and the tests against independent
// references, OpenCV's and the CUDA backend's, hold the best target). -1 without Highway.
inline int reference_simd_target() {
  const int n = cpu::simd::simd_target_count();
  for (int t = 0; t < n; ++t)
    if (std::string(cpu::simd::simd_target_name(t)) == "SCALAR") return t;
  return n - 1;
}

}  // namespace texcv::test
