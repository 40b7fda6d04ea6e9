// Highway's dynamic dispatch: this file is compiled once per target by foreach_target.h
// (HWY_TARGET_INCLUDE), and HWY_DYNAMIC_DISPATCH calls the best one the CPU supports.
#include "src/cpu/simd.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_median_blur.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "src/cpu/median_networks.hpp"

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The lane type the network compares: u8 and u16 as they are; f32 as the signed order key
// bits ^ ((bits >> 31) & 0x7fffffff) (texcv::detail::float_key with the sign bit flipped), its
// own inverse.
template <typename T>
struct Lane {
  using type = T;
};
template <>
struct Lane<float> {
  using type = std::int32_t;
};

template <class D, typename T>
HWY_INLINE hn::Vec<D> load_key(D d, const T* HWY_RESTRICT p) {
  if constexpr (std::is_same_v<T, float>) {
    const auto b = hn::LoadU(d, reinterpret_cast<const std::int32_t*>(p));
    return hn::Xor(b, hn::And(hn::ShiftRight<31>(b), hn::Set(d, 0x7fffffff)));
  } else {
    return hn::LoadU(d, p);
  }
}

template <class D, typename T>
HWY_INLINE void store_value(D d, hn::Vec<D> k, T* HWY_RESTRICT p) {
  if constexpr (std::is_same_v<T, float>) {
    const auto b = hn::Xor(k, hn::And(hn::ShiftRight<31>(k), hn::Set(d, 0x7fffffff)));
    hn::StoreU(b, d, reinterpret_cast<std::int32_t*>(p));
  } else {
    hn::StoreU(k, d, p);
  }
}

template <int K>
constexpr const auto& median_net_for() {
  static_assert(K == 5, "3x3 takes the sorted columns");
  return median_net::k25;
}

template <int K, typename T>
bool row_impl(const T* const* rows, int channels, int lo, int hi, T* out) {
  using L = typename Lane<T>::type;
  const hn::ScalableTag<L> d;
  const int n = static_cast<int>(hn::Lanes(d));
  if (hi - lo < n) return false;
  constexpr int M = K * K;
  constexpr int r = K / 2;
  static_assert(M == 9 || M == 25, "3x3 and 5x5 only");
  for (int e = lo;; e += n) {
    const int e0 = e + n <= hi ? e : hi - n;  // the last vector ends at hi (overlapping)
    if constexpr (K == 3) {
      // Sorted columns: each column of the window sorted (3 comparators), then the median is the
      // median of (the largest minimum, the median of the middles, the smallest maximum), exact
      // for any 9 values and 30 min/max against the network's 48.
      hn::Vec<decltype(d)> cmin[3], cmid[3], cmax[3];
      for (int i = 0; i < 3; ++i) {
        const auto a = load_key(d, rows[0] + e0 + (i - 1) * channels);
        const auto b = load_key(d, rows[1] + e0 + (i - 1) * channels);
        const auto c = load_key(d, rows[2] + e0 + (i - 1) * channels);
        const auto ab_lo = hn::Min(a, b), ab_hi = hn::Max(a, b);
        cmax[i] = hn::Max(ab_hi, c);
        const auto t = hn::Min(ab_hi, c);
        cmin[i] = hn::Min(ab_lo, t);
        cmid[i] = hn::Max(ab_lo, t);
      }
      const auto med3 = [](auto x, auto y, auto z)
                            HWY_ATTR { return hn::Max(hn::Min(x, y), hn::Min(hn::Max(x, y), z)); };
      const auto a = hn::Max(hn::Max(cmin[0], cmin[1]), cmin[2]);
      const auto b = med3(cmid[0], cmid[1], cmid[2]);
      const auto c = hn::Min(hn::Min(cmax[0], cmax[1]), cmax[2]);
      store_value(d, med3(a, b, c), out + e0);
    } else {
      constexpr const auto& net = median_net_for<K>();
      hn::Vec<decltype(d)> v[M];
      for (int j = 0; j < K; ++j)
        for (int i = 0; i < K; ++i) v[j * K + i] = load_key(d, rows[j] + e0 + (i - r) * channels);
      // Every comparator's indices are constants after the fold unrolls: the window stays in
      // registers (25 vectors: all of AVX-512's 32, most of AVX2's 16).
      const auto cmp = [&](int a, int b) HWY_ATTR {
        const auto x = v[a];
        v[a] = hn::Min(x, v[b]);
        v[b] = hn::Max(x, v[b]);
      };
      [&]<std::size_t... I>(std::index_sequence<I...>) HWY_ATTR {
        (cmp(net[I].first, net[I].second), ...);
      }
      (std::make_index_sequence<net.size()>{});
      store_value(d, v[M / 2], out + e0);
    }
    if (e0 + n >= hi) break;
  }
  return true;
}

template <typename T>
bool row_any(int k, const T* const* rows, int channels, int lo, int hi, T* out) {
  if (k == 3) return row_impl<3>(rows, channels, lo, hi, out);
  if (k == 5) return row_impl<5>(rows, channels, lo, hi, out);
  return false;
}

bool row_u8(int k, const std::uint8_t* const* rows, int c, int lo, int hi, std::uint8_t* out) {
  return row_any(k, rows, c, lo, hi, out);
}
bool row_u16(int k, const std::uint16_t* const* rows, int c, int lo, int hi, std::uint16_t* out) {
  return row_any(k, rows, c, lo, hi, out);
}
bool row_f32(int k, const float* const* rows, int c, int lo, int hi, float* out) {
  return row_any(k, rows, c, lo, hi, out);
}
const char* target_name() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {

HWY_EXPORT(row_u8);
HWY_EXPORT(row_u16);
HWY_EXPORT(row_f32);
HWY_EXPORT(target_name);

bool median_row(int k, const std::uint8_t* const* rows, int c, int lo, int hi, std::uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(row_u8)(k, rows, c, lo, hi, out);
}
bool median_row(int k, const std::uint16_t* const* rows, int c, int lo, int hi,
                std::uint16_t* out) {
  return HWY_DYNAMIC_DISPATCH(row_u16)(k, rows, c, lo, hi, out);
}
bool median_row(int k, const float* const* rows, int c, int lo, int hi, float* out) {
  return HWY_DYNAMIC_DISPATCH(row_f32)(k, rows, c, lo, hi, out);
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
bool median_row(int, const std::uint8_t* const*, int, int, int, std::uint8_t*) {
  return false;
}
bool median_row(int, const std::uint16_t* const*, int, int, int, std::uint16_t*) {
  return false;
}
bool median_row(int, const float* const*, int, int, int, float*) {
  return false;
}
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
