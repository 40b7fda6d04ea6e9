// flip's row mirror in Highway vectors (see simd.hpp): one lane per pixel of 1, 2, 4 or 8
// bytes, lanes reversed within the vector, vectors taken from the row's other end. And resize's
// nearest rows: the same copies of whole pixels, gathered by a table of source columns, or, while
// enlarging, shuffled out of 16-byte loads by a plan of byte indices.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_flip.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Pixels of sizeof(L) bytes as lanes of L (L = uint8_t: pairs of bytes as 16-bit lanes, reversed,
// then the two bytes of each swapped: Highway 1.0 has no 8-bit Reverse). Rows are bytes with no
// alignment: loads and stores are of bytes, reinterpreted in registers.
template <typename L>
bool mirror_impl(const unsigned char* s, unsigned char* d, int w) {
  const hn::ScalableTag<std::uint8_t> d8;
  using W = std::conditional_t<sizeof(L) == 1, std::uint16_t, L>;
  const hn::Repartition<W, decltype(d8)> dw;
  const int n = static_cast<int>(hn::Lanes(d8) / sizeof(L));  // pixels per vector
  if (w < n) return false;
  constexpr std::size_t B = sizeof(L);
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;  // the last vector ends at w (overlapping)
    auto v = hn::Reverse(
        dw, hn::BitCast(dw, hn::LoadU(d8, s + B * static_cast<std::size_t>(w - n - x0))));
    if constexpr (sizeof(L) == 1) v = hn::Or(hn::ShiftLeft<8>(v), hn::ShiftRight<8>(v));
    hn::StoreU(hn::BitCast(d8, v), d8, d + B * static_cast<std::size_t>(x0));
    if (x0 + n >= w) break;
  }
  return true;
}

bool mirror(const unsigned char* s, unsigned char* d, int w, std::size_t px) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)px;
  return false;  // one lane: nothing to gain over the plain loop
#else
  switch (px) {
    case 1:
      return mirror_impl<std::uint8_t>(s, d, w);
    case 2:
      return mirror_impl<std::uint16_t>(s, d, w);
    case 4:
      return mirror_impl<std::uint32_t>(s, d, w);
    case 8:
      return mirror_impl<std::uint64_t>(s, d, w);
    default:
      return false;
  }
#endif
}

// One 32-bit gather per vector of pixels at byte offsets xi * B, then the low B bytes of each lane
// kept (B = 1, 2: DemoteTo after masking, exact). Vectors whose last read (xi * B + 4 bytes)
// would pass the row's end are left to the caller's loop, as is the tail.
template <std::size_t B>
int gather_impl(const unsigned char* s, int src_width, const int* xi, unsigned char* d, int w) {
  const hn::ScalableTag<std::int32_t> di;
  const hn::RebindToUnsigned<decltype(di)> du;
  const int n = static_cast<int>(hn::Lanes(di));
  // The largest source column whose 4-byte read stays inside the row.
  const int last = src_width - static_cast<int>((4 + B - 1) / B);
  if (last < 0) return 0;
  const auto vlast = hn::Set(di, last);
  const auto scale = hn::Set(di, static_cast<std::int32_t>(B));
  const auto* base = reinterpret_cast<const std::uint32_t*>(s);
  int x = 0;
  for (; x + n <= w; x += n) {
    const auto idx = hn::LoadU(di, xi + x);
    if (!hn::AllFalse(di, hn::Gt(idx, vlast))) break;
    const auto v = hn::GatherOffset(du, base, hn::Mul(idx, scale));
    if constexpr (B == 4) {
      hn::StoreU(v, du, reinterpret_cast<std::uint32_t*>(d + 4 * static_cast<std::size_t>(x)));
    } else {
      using L = std::conditional_t<B == 1, std::uint8_t, std::uint16_t>;
      const hn::Rebind<L, decltype(di)> dl;
      const auto low = hn::BitCast(di, hn::And(v, hn::Set(du, (1u << (8 * B)) - 1u)));
      hn::StoreU(hn::DemoteTo(dl, low), dl,
                 reinterpret_cast<L*>(d + B * static_cast<std::size_t>(x)));
    }
  }
  return x;
}

int gather(const unsigned char* s, int src_width, const int* xi, unsigned char* d, int w,
           std::size_t px) {
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  switch (px) {
    case 1:
      return gather_impl<1>(s, src_width, xi, d, w);
    case 2:
      return gather_impl<2>(s, src_width, xi, d, w);
    case 4:
      return gather_impl<4>(s, src_width, xi, d, w);
    default:
      return 0;
  }
#else
  // No gather instruction (SSE4, NEON, the scalar target): Highway would emulate it lane by lane,
  // no faster than the plain loop.
  (void)s, (void)src_width, (void)xi, (void)d, (void)w, (void)px;
  return 0;
#endif
}

// shuffle_row's blocks: one 16-byte load, one byte shuffle (pshufb, tbl) and one store each.
int shuffle(const unsigned char* s, const int* src, const std::uint8_t* ctl, int blocks,
            unsigned char* d) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)src, (void)ctl, (void)blocks, (void)d;
  return 0;  // no 16-byte vectors
#else
  const hn::Full128<std::uint8_t> d16;
  for (int b = 0; b < blocks; ++b) {
    const auto v = hn::TableLookupBytes(hn::LoadU(d16, s + src[b]), hn::LoadU(d16, ctl + 16 * b));
    hn::StoreU(v, d16, d + 16 * static_cast<std::size_t>(b));
  }
  return blocks;
#endif
}

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(mirror);
HWY_EXPORT(gather);
HWY_EXPORT(shuffle);
int shuffle_row(const unsigned char* s, const ShufflePlan& plan, unsigned char* d,
                std::size_t pixel_bytes) {
  const int blocks = static_cast<int>(plan.src.size());
  if (blocks == 0) return 0;
  const int done = HWY_DYNAMIC_DISPATCH(shuffle)(s, plan.src.data(), plan.ctl.data(), blocks, d);
  return done * static_cast<int>(16 / pixel_bytes);
}
int gather_row(const unsigned char* s, int src_width, const int* xi, unsigned char* d, int w,
               std::size_t pixel_bytes) {
  return HWY_DYNAMIC_DISPATCH(gather)(s, src_width, xi, d, w, pixel_bytes);
}
bool mirror_row(const unsigned char* s, unsigned char* d, int w, std::size_t pixel_bytes) {
  return HWY_DYNAMIC_DISPATCH(mirror)(s, d, w, pixel_bytes);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool mirror_row(const unsigned char*, unsigned char*, int, std::size_t) {
  return false;
}
int gather_row(const unsigned char*, int, const int*, unsigned char*, int, std::size_t) {
  return 0;
}
int shuffle_row(const unsigned char*, const ShufflePlan&, unsigned char*, std::size_t) {
  return 0;
}
}  // namespace texcv::cpu::simd

#endif

#if !TEXCV_HAS_HWY || HWY_ONCE  // once, not per Highway target
namespace texcv::cpu::simd {

ShufflePlan shuffle_plan(const int* xi, int w, int src_width, std::size_t pixel_bytes) {
  ShufflePlan p;
  if (pixel_bytes == 0 || 16 % pixel_bytes != 0) return p;
  const long px = static_cast<long>(pixel_bytes);
  const int per = static_cast<int>(16 / pixel_bytes);  // pixels a block
  const long row_bytes = static_cast<long>(src_width) * px;
  for (int x = 0; x + per <= w; x += per) {
    const long first = static_cast<long>(xi[x]) * px;
    bool ok = first >= 0 && first + 16 <= row_bytes;
    for (int i = 0; i < per && ok; ++i) {
      const long o = static_cast<long>(xi[x + i]) * px - first;
      ok = o >= 0 && o + px <= 16;
    }
    if (!ok) break;
    p.src.push_back(static_cast<int>(first));
    for (int i = 0; i < per; ++i)
      for (long k = 0; k < px; ++k)
        p.ctl.push_back(static_cast<std::uint8_t>(static_cast<long>(xi[x + i]) * px - first + k));
  }
  return p;
}

}  // namespace texcv::cpu::simd
#endif
