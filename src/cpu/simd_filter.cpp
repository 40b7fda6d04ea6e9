// The separable filters' two float passes in Highway vectors (see simd.hpp): the same
// multiplications and additions in the same order per element as the plain loops
// (filter_rows.hpp), each sum kept in a register across the taps instead of in memory.
#include <cstddef>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_filter.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// acc[i] += kern[k] * src[k * step + i] for k = 0 .. taps - 1 in order (zero taps skipped), i < n.
void taps_add(const float* src, std::size_t step, const float* kern, int taps, int n, float* acc) {
  const hn::ScalableTag<float> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  int i = 0;
  // Four vectors at a time: four independent sums hide the addition's latency (one sum's chain
  // of adds over the taps is otherwise the bound), and each tap's broadcast serves four.
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    auto a0 = hn::LoadU(d, acc + i);
    auto a1 = hn::LoadU(d, acc + i + lanes);
    auto a2 = hn::LoadU(d, acc + i + 2 * lanes);
    auto a3 = hn::LoadU(d, acc + i + 3 * lanes);
    for (int k = 0; k < taps; ++k) {
      if (kern[k] == 0.0f) continue;
      const auto kv = hn::Set(d, kern[k]);
      const float* p = src + k * step + i;
      a0 = hn::Add(a0, hn::Mul(kv, hn::LoadU(d, p)));
      a1 = hn::Add(a1, hn::Mul(kv, hn::LoadU(d, p + lanes)));
      a2 = hn::Add(a2, hn::Mul(kv, hn::LoadU(d, p + 2 * lanes)));
      a3 = hn::Add(a3, hn::Mul(kv, hn::LoadU(d, p + 3 * lanes)));
    }
    hn::StoreU(a0, d, acc + i);
    hn::StoreU(a1, d, acc + i + lanes);
    hn::StoreU(a2, d, acc + i + 2 * lanes);
    hn::StoreU(a3, d, acc + i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) {
    auto a = hn::LoadU(d, acc + i);
    for (int k = 0; k < taps; ++k) {
      if (kern[k] == 0.0f) continue;
      a = hn::Add(a, hn::Mul(hn::Set(d, kern[k]), hn::LoadU(d, src + k * step + i)));
    }
    hn::StoreU(a, d, acc + i);
  }
  for (; i < n; ++i) {
    float a = acc[i];
    for (int k = 0; k < taps; ++k)
      if (kern[k] != 0.0f) a += kern[k] * src[k * step + i];
    acc[i] = a;
  }
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(taps_add);
bool filter_taps_add(const float* src, std::size_t step, const float* kern, int taps, int n,
                     float* acc) {
  HWY_DYNAMIC_DISPATCH(taps_add)(src, step, kern, taps, n, acc);
  return true;
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool filter_taps_add(const float*, std::size_t, const float*, int, int, float*) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
