// flip's row mirror in Highway vectors (see simd.hpp): one lane per pixel of 1, 2, 4 or 8
// bytes, lanes reversed within the vector, vectors taken from the row's other end. And resize's
// nearest rows: the same copies of whole pixels, gathered by a table of source columns, or
// shuffled out of 16-byte loads by a plan of byte indices.
#include <algorithm>
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

// shuffle_row's blocks: L 16-byte loads, a byte shuffle of each (pshufb, tbl; 0x80 gives 0), ORed,
// and one store.
template <int L>
int shuffle_impl(const unsigned char* s, const int* src, const std::uint8_t* ctl, int blocks,
                 unsigned char* d) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)src, (void)ctl, (void)blocks, (void)d;
  return 0;  // no 16-byte vectors
#else
  const hn::Full128<std::uint8_t> d16;
  for (int b = 0; b < blocks; ++b) {
    const unsigned char* p = s + src[b];
    const std::uint8_t* c = ctl + static_cast<std::size_t>(16 * L) * b;
    auto v = hn::TableLookupBytesOr0(hn::LoadU(d16, p), hn::LoadU(d16, c));
    for (int l = 1; l < L; ++l)
      v = hn::Or(v,
                 hn::TableLookupBytesOr0(hn::LoadU(d16, p + 16 * l), hn::LoadU(d16, c + 16 * l)));
    hn::StoreU(v, d16, d + 16 * static_cast<std::size_t>(b));
  }
  return blocks;
#endif
}

int shuffle(const unsigned char* s, int loads, const int* src, const std::uint8_t* ctl, int blocks,
            unsigned char* d) {
  switch (loads) {
    case 1:
      return shuffle_impl<1>(s, src, ctl, blocks, d);
    case 2:
      return shuffle_impl<2>(s, src, ctl, blocks, d);
    case 3:
      return shuffle_impl<3>(s, src, ctl, blocks, d);
    case 4:
      return shuffle_impl<4>(s, src, ctl, blocks, d);
    default:
      return 0;
  }
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
  const int done =
      HWY_DYNAMIC_DISPATCH(shuffle)(s, plan.loads, plan.src.data(), plan.ctl.data(), blocks, d);
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
  constexpr long kMaxLoads = 4;
  const long px = static_cast<long>(pixel_bytes);
  const int per = static_cast<int>(16 / pixel_bytes);  // pixels a block
  const long row_bytes = static_cast<long>(src_width) * px;
  // The loads each block needs (its first pixel's byte to its last pixel's end), block by block
  // until one needs more than kMaxLoads or reads before its first pixel; the plan takes the most.
  std::vector<int> need;
  for (int x = 0; x + per <= w; x += per) {
    const long first = static_cast<long>(xi[x]) * px;
    long end = first;
    bool ok = first >= 0;
    for (int i = 0; i < per && ok; ++i) {
      const long o = static_cast<long>(xi[x + i]) * px;
      ok = o >= first;
      end = std::max(end, o + px);
    }
    const long loads = (end - first + 15) / 16;
    if (!ok || loads > kMaxLoads) break;
    need.push_back(static_cast<int>(loads));
  }
  for (const int n : need) p.loads = std::max(p.loads, n);
  const int L = p.loads;
  for (int b = 0; b < static_cast<int>(need.size()); ++b) {
    const int x = b * per;
    const long first = static_cast<long>(xi[x]) * px;
    if (first + 16L * L > row_bytes) break;  // the loads would pass the row's end
    p.src.push_back(static_cast<int>(first));
    const std::size_t at = p.ctl.size();
    p.ctl.resize(at + static_cast<std::size_t>(16 * L), 0x80);
    for (int i = 0; i < per; ++i)
      for (long k = 0; k < px; ++k) {
        const long o = static_cast<long>(xi[x + i]) * px - first + k;  // < 16 L
        p.ctl[at + static_cast<std::size_t>(o / 16 * 16 + i * px + k)] =
            static_cast<std::uint8_t>(o % 16);
      }
  }
  return p;
}

}  // namespace texcv::cpu::simd
#endif
