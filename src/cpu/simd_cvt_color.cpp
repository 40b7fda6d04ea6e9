// cvt_color's rows in Highway vectors (see simd.hpp). To gray: the channels deinterleaved and
// widened to 32 bits, and color_pixel.hpp's arithmetic (u8/u16: the same integer weights,
// rounding and shift, u8 on AVX2/AVX-512 by 16-bit pairwise multiply-adds; f32: the same products
// and sums in the same order), narrowed again. Channel swaps and gray to RGB(A) move elements
// only. The YUV matrices and HSV: color_pixel.hpp's float operations in the same order in float
// lanes, its branches as selects (lanes compute every branch; the selected values are the plain
// code's), and where a shortcut replaces an operation, a comment says why it gives the same value.
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_cvt_color.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR  // (its row functions return false; it lacks Combine, UpperHalf)

// u8 pixels of three channels on vectors of 8 or 16 32-bit lanes (AVX2, AVX-512), one pixel per
// 32-bit lane: each 128-bit block takes its 4 pixels by one 16-byte load (block 0 from byte 0,
// block k > 0 from byte 12k - 4, so that no load passes the 3 * Lanes bytes: the pixels sit at
// byte 0 of block 0 and byte 4 of the others), and then one byte shuffle (px4_index) per value
// wanted puts them in the lanes: fewer shuffles than LoadInterleaved3 of u8 vectors and
// widening.
template <class D8>
HWY_INLINE hn::Vec<D8> load_px4(D8 d8, const std::uint8_t* p) {
  const hn::Half<D8> d8h;
  if constexpr (hn::MaxLanes(D8()) == 32) {
    return hn::Combine(d8, hn::LoadU(d8h, p + 8), hn::LoadU(d8h, p));
  } else {
    static_assert(hn::MaxLanes(D8()) == 64, "8 or 16 pixels");
    const hn::Half<decltype(d8h)> d8q;
    return hn::Combine(d8, hn::Combine(d8h, hn::LoadU(d8q, p + 32), hn::LoadU(d8q, p + 20)),
                       hn::Combine(d8h, hn::LoadU(d8q, p + 8), hn::LoadU(d8q, p)));
  }
}

// The byte shuffle of load_px4's blocks giving 32-bit lane i channel k0 of pixel i in its byte 0
// and channel k1 (-1: none) in its byte 2 (so the lane holds the 16-bit pair k0, k1); other
// bytes zero. Channels >= 3 (4-channel pixels loaded whole) read the pixel's 4 bytes.
struct Px4Index {
  alignas(64) std::uint8_t i[64];
};
constexpr Px4Index px4_index(int k0, int k1, int channels = 3) {
  Px4Index t{};
  for (int blk = 0; blk < 4; ++blk)
    for (int px = 0; px < 4; ++px) {
      const int base = channels == 4 ? 4 * px : (blk == 0 ? 0 : 4) + 3 * px;
      std::uint8_t* l = t.i + 16 * blk + 4 * px;
      l[0] = static_cast<std::uint8_t>(base + k0);
      l[1] = l[3] = 0x80;  // TableLookupBytesOr0: zero
      l[2] = static_cast<std::uint8_t>(k1 < 0 ? 0x80 : base + k1);
    }
  return t;
}

// u8 gray of 8 or 16 pixels (3 or 4 channels) per vector: px_to_gray's integer sum as two
// 16-bit multiply-adds of pairs (c0 k0 + c1 k1, then c2 k2 added to the rounding half), exact in
// 32 bits like the plain code's; the byte of each lane stored.
template <int C>
bool gray_u8_pairs(const std::uint8_t* s, std::uint8_t* d, int w, const std::uint32_t* ki) {
  const hn::ScalableTag<std::int32_t> di;
  const hn::RebindToUnsigned<decltype(di)> du;
  const hn::Repartition<std::uint8_t, decltype(di)> d8;
  const hn::Repartition<std::int16_t, decltype(di)> d16;
  const hn::Rebind<std::uint8_t, decltype(di)> dout;  // one byte per 32-bit lane
  const int n = static_cast<int>(hn::Lanes(di));
  if (w < n) return false;
  static constexpr Px4Index kA = px4_index(0, 1, C), kB = px4_index(2, -1, C);
  const auto ia = hn::LoadU(d8, kA.i), ib = hn::LoadU(d8, kB.i);
  const auto wa = hn::BitCast(d16, hn::Set(du, ki[0] | ki[1] << 16));
  const auto wb = hn::BitCast(d16, hn::Set(du, ki[2]));
  const auto half = hn::Set(di, 1 << 14);
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;
    const std::uint8_t* p = s + static_cast<std::size_t>(x0) * C;
    const auto bytes = C == 3 ? load_px4(d8, p) : hn::LoadU(d8, p);
    auto sum1 = hn::Zero(di);  // (x86 adds all pairs into the first sum)
    auto sum = hn::ReorderWidenMulAccumulate(
        di, hn::BitCast(d16, hn::TableLookupBytesOr0(bytes, ia)), wa, half, sum1);
    sum = hn::ReorderWidenMulAccumulate(di, hn::BitCast(d16, hn::TableLookupBytesOr0(bytes, ib)),
                                        wb, sum, sum1);
    sum = hn::RearrangeToOddPlusEven(sum, sum1);
    hn::StoreU(hn::U8FromU32(hn::BitCast(du, hn::ShiftRight<15>(sum))), dout, d + x0);
    if (x0 + n >= w) break;
  }
  return true;
}

#endif  // HWY_TARGET != HWY_SCALAR

// Pixels [0, w) of one row; C = 3 or 4 channels (the 4th ignored); weights k[] in channel order.
template <typename T, int C>
bool gray_impl(const T* s, T* d, int w, const float* kf, const std::uint32_t* ki) {
  if constexpr (sizeof(T) == 4) {
    const hn::ScalableTag<float> df;
    const int n = static_cast<int>(hn::Lanes(df));
    if (w < n) return false;
    const auto k0 = hn::Set(df, kf[0]), k1 = hn::Set(df, kf[1]), k2 = hn::Set(df, kf[2]);
    for (int x = 0;; x += n) {
      const int x0 = x + n <= w ? x : w - n;  // the last vector ends at w (overlapping)
      hn::Vec<decltype(df)> c0, c1, c2, c3;
      if constexpr (C == 3)
        hn::LoadInterleaved3(df, s + static_cast<std::size_t>(x0) * 3, c0, c1, c2);
      else
        hn::LoadInterleaved4(df, s + static_cast<std::size_t>(x0) * 4, c0, c1, c2, c3);
      const auto g = hn::Add(hn::Add(hn::Mul(c0, k0), hn::Mul(c1, k1)), hn::Mul(c2, k2));
      hn::StoreU(g, df, d + x0);
      if (x0 + n >= w) break;
    }
    return true;
  } else {
    const hn::ScalableTag<std::uint32_t> d32;
    const hn::RebindToSigned<decltype(d32)> di;
    const hn::Rebind<T, decltype(d32)> dt;  // as many T lanes as 32-bit lanes
    const int n = static_cast<int>(hn::Lanes(d32));
    if (w < n) return false;
    constexpr int kShift = sizeof(T) == 1 ? 15 : 14;
    const auto k0 = hn::Set(d32, ki[0]), k1 = hn::Set(d32, ki[1]), k2 = hn::Set(d32, ki[2]);
    const auto half = hn::Set(d32, 1u << (kShift - 1));
    for (int x = 0;; x += n) {
      const int x0 = x + n <= w ? x : w - n;
      hn::Vec<decltype(dt)> c0, c1, c2, c3;
      if constexpr (C == 3)
        hn::LoadInterleaved3(dt, s + static_cast<std::size_t>(x0) * 3, c0, c1, c2);
      else
        hn::LoadInterleaved4(dt, s + static_cast<std::size_t>(x0) * 4, c0, c1, c2, c3);
      const auto sum = hn::Add(
          hn::Add(hn::Add(hn::Mul(hn::PromoteTo(d32, c0), k0), hn::Mul(hn::PromoteTo(d32, c1), k1)),
                  hn::Mul(hn::PromoteTo(d32, c2), k2)),
          half);
      // The gray value fits T: narrowed from int32 (Highway 1.0 demotes signed lanes only).
      hn::StoreU(hn::DemoteTo(dt, hn::BitCast(di, hn::ShiftRight<kShift>(sum))), dt, d + x0);
      if (x0 + n >= w) break;
    }
    return true;
  }
}

template <typename T>
bool gray(const T* s, T* d, int w, int channels, bool bgr) {
  const int r = bgr ? 2 : 0, b = bgr ? 0 : 2;
  float kf[3];
  kf[r] = 0.299f;
  kf[1] = 0.587f;
  kf[b] = 0.114f;
  constexpr bool kU8 = sizeof(T) == 1;
  std::uint32_t ki[3];
  ki[r] = kU8 ? 9798 : 4899;
  ki[1] = kU8 ? 19235 : 9617;
  ki[b] = kU8 ? 3735 : 1868;
#if HWY_TARGET != HWY_SCALAR
  if constexpr (sizeof(T) == 1 && hn::MaxLanes(hn::ScalableTag<std::int32_t>()) >= 8) {
    if (channels == 3) return gray_u8_pairs<3>(s, d, w, ki);
    if (channels == 4) return gray_u8_pairs<4>(s, d, w, ki);
    return false;
  }
#endif
  if (channels == 3) return gray_impl<T, 3>(s, d, w, kf, ki);
  if (channels == 4) return gray_impl<T, 4>(s, d, w, kf, ki);
  return false;
}

bool gray_u8(const std::uint8_t* s, std::uint8_t* d, int w, int c, bool bgr) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)c, (void)bgr;
  return false;  // one lane: nothing to gain over the plain loop
#else
  return gray(s, d, w, c, bgr);
#endif
}
bool gray_u16(const std::uint16_t* s, std::uint16_t* d, int w, int c, bool bgr) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)c, (void)bgr;
  return false;
#else
  return gray(s, d, w, c, bgr);
#endif
}
bool gray_f32(const float* s, float* d, int w, int c, bool bgr) {
#if HWY_TARGET == HWY_SCALAR
  (void)s, (void)d, (void)w, (void)c, (void)bgr;
  return false;
#else
  return gray(s, d, w, c, bgr);
#endif
}

// The byte shuffles of a three-channel swap of 48 bytes (16, 8 or 4 pixels of E-byte elements)
// held in three 16-byte blocks: output block o takes from source block b the bytes i[o][b]
// (0x80: none); an element moves at most 2E <= 8 bytes, so block 0 draws on blocks 0 and 1,
// block 1 on all three, block 2 on blocks 1 and 2.
struct Swap3Index {
  alignas(16) std::uint8_t i[3][3][16];
};
constexpr Swap3Index swap3_index(int e) {
  Swap3Index t{};
  for (int o = 0; o < 3; ++o)
    for (int b = 0; b < 3; ++b)
      for (int j = 0; j < 16; ++j) {
        const int out = 16 * o + j, el = out / e, px = el / 3, ch = el % 3;
        const int src = (3 * px + 2 - ch) * e + out % e;
        t.i[o][b][j] = static_cast<std::uint8_t>(src / 16 == b ? src % 16 : 0x80);
      }
  return t;
}

// Channels 0 and 2 swapped (px_swap_rb). Three channels: 48 bytes at a time in 16-byte blocks,
// each output block or'ed from byte shuffles of its source blocks (swap3_index: 7 shuffles, fewer
// than LoadInterleaved3 and StoreInterleaved3 take). Four: pixels of 4, 8 or 16 bytes tile a
// 16-byte block, so one byte shuffle per block does it (alpha stays in place).
template <typename T>
bool swap_rb_impl(const T* s, T* d, int w, int channels) {
  if (channels == 3) {
    const hn::CappedTag<std::uint8_t, 16> d8;
    constexpr int n = 16 / static_cast<int>(sizeof(T));  // pixels per 48 bytes
    if (hn::Lanes(d8) != 16 || w < n) return false;
    static constexpr Swap3Index k = swap3_index(sizeof(T));
    const auto* sb = reinterpret_cast<const std::uint8_t*>(s);
    auto* db = reinterpret_cast<std::uint8_t*>(d);
    const auto idx = [&](int o, int b) { return hn::Load(d8, k.i[o][b]); };
    for (int x = 0;; x += n) {
      const int x0 = x + n <= w ? x : w - n;  // the last 48 bytes end at w (overlapping)
      const std::size_t at = static_cast<std::size_t>(x0) * 3 * sizeof(T);
      const auto a = hn::LoadU(d8, sb + at), b = hn::LoadU(d8, sb + at + 16),
                 c = hn::LoadU(d8, sb + at + 32);
      hn::StoreU(
          hn::Or(hn::TableLookupBytesOr0(a, idx(0, 0)), hn::TableLookupBytesOr0(b, idx(0, 1))), d8,
          db + at);
      hn::StoreU(
          hn::Or3(hn::TableLookupBytesOr0(a, idx(1, 0)), hn::TableLookupBytesOr0(b, idx(1, 1)),
                  hn::TableLookupBytesOr0(c, idx(1, 2))),
          d8, db + at + 16);
      hn::StoreU(
          hn::Or(hn::TableLookupBytesOr0(b, idx(2, 1)), hn::TableLookupBytesOr0(c, idx(2, 2))), d8,
          db + at + 32);
      if (x0 + n >= w) break;
    }
    return true;
  }
  if (channels != 4) return false;
  const hn::ScalableTag<std::uint8_t> d8;
  const int n = static_cast<int>(hn::Lanes(d8));
  const int bytes = w * 4 * static_cast<int>(sizeof(T));
  if (bytes < n) return false;
  // Byte i of a block takes byte kIdx[i]: the first and third element of each pixel exchanged.
  alignas(16) static constexpr std::uint8_t kIdx1[16] = {2,  1, 0, 3,  6,  5,  4,  7,
                                                         10, 9, 8, 11, 14, 13, 12, 15};
  alignas(16) static constexpr std::uint8_t kIdx2[16] = {4,  5,  2,  3,  0, 1, 6,  7,
                                                         12, 13, 10, 11, 8, 9, 14, 15};
  alignas(16) static constexpr std::uint8_t kIdx4[16] = {8, 9, 10, 11, 4,  5,  6,  7,
                                                         0, 1, 2,  3,  12, 13, 14, 15};
  const auto idx = hn::LoadDup128(d8, sizeof(T) == 1 ? kIdx1 : sizeof(T) == 2 ? kIdx2 : kIdx4);
  const auto* sb = reinterpret_cast<const std::uint8_t*>(s);
  auto* db = reinterpret_cast<std::uint8_t*>(d);
  // Vectors are whole blocks, so every vector (the last one too: bytes and n are multiples of
  // the pixel size) starts at a pixel boundary.
  for (int x = 0;; x += n) {
    const int x0 = x + n <= bytes ? x : bytes - n;
    hn::StoreU(hn::TableLookupBytes(hn::LoadU(d8, sb + x0), idx), d8, db + x0);
    if (x0 + n >= bytes) break;
  }
  return true;
}

// Gray to RGB(A) (px_from_gray): the value three times, then the opaque alpha (kColorMax).
// u8: each 16-byte block of gray pixels spread into 3 or 4 blocks by byte shuffles (faster than
// Highway's StoreInterleaved3/4 of whole vectors, which reshuffle across blocks).
template <typename T>
bool from_gray_impl(const T* s, T* d, int w, int channels) {
  if constexpr (sizeof(T) == 1) {
    const hn::CappedTag<std::uint8_t, 16> d8;
    const int n = static_cast<int>(hn::Lanes(d8));
    if (n == 16 && w >= n && (channels == 3 || channels == 4)) {
      constexpr std::uint8_t Z = 0x80;  // TableLookupBytesOr0: a zero byte, then alpha or'ed in
      alignas(16) static constexpr std::uint8_t k3[3][16] = {
          {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5},
          {5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10},
          {10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15}};
      alignas(16) static constexpr std::uint8_t k4[4][16] = {
          {0, 0, 0, Z, 1, 1, 1, Z, 2, 2, 2, Z, 3, 3, 3, Z},
          {4, 4, 4, Z, 5, 5, 5, Z, 6, 6, 6, Z, 7, 7, 7, Z},
          {8, 8, 8, Z, 9, 9, 9, Z, 10, 10, 10, Z, 11, 11, 11, Z},
          {12, 12, 12, Z, 13, 13, 13, Z, 14, 14, 14, Z, 15, 15, 15, Z}};
      alignas(16) static constexpr std::uint8_t kAlpha[16] = {0, 0, 0, 255, 0, 0, 0, 255,
                                                              0, 0, 0, 255, 0, 0, 0, 255};
      const auto alpha = hn::Load(d8, kAlpha);
      for (int x = 0;; x += n) {
        const int x0 = x + n <= w ? x : w - n;
        const auto v = hn::LoadU(d8, s + x0);
        T* o = d + static_cast<std::size_t>(x0) * channels;
        if (channels == 3) {
          for (int k = 0; k < 3; ++k)
            hn::StoreU(hn::TableLookupBytes(v, hn::Load(d8, k3[k])), d8, o + 16 * k);
        } else {
          for (int k = 0; k < 4; ++k)
            hn::StoreU(hn::Or(hn::TableLookupBytesOr0(v, hn::Load(d8, k4[k])), alpha), d8,
                       o + 16 * k);
        }
        if (x0 + n >= w) break;
      }
      return true;
    }
  }
  const hn::ScalableTag<T> dt;
  const int n = static_cast<int>(hn::Lanes(dt));
  if (w < n || (channels != 3 && channels != 4)) return false;
  const auto alpha = hn::Set(dt, static_cast<T>(sizeof(T) == 1   ? 255.0f
                                                : sizeof(T) == 2 ? 65535.0f
                                                                 : 1.0f));
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;
    const auto v = hn::LoadU(dt, s + x0);
    if (channels == 3)
      hn::StoreInterleaved3(v, v, v, dt, d + static_cast<std::size_t>(x0) * 3);
    else
      hn::StoreInterleaved4(v, v, v, alpha, dt, d + static_cast<std::size_t>(x0) * 4);
    if (x0 + n >= w) break;
  }
  return true;
}

#if HWY_TARGET != HWY_SCALAR  // (its wrappers below return false; it lacks Combine, UpperHalf)

// ---- The float arithmetic of three-channel pixels (px_matrix, px_to_hsv, px_from_hsv).

// Pixels [0, Lanes(df)) of a three-channel row as float lanes (u8/u16 widened: exact; u8 with 8
// or 16 lanes by load_px4).
template <class DF, typename T>
HWY_INLINE void load3(DF df, const T* p, hn::Vec<DF>& a, hn::Vec<DF>& b, hn::Vec<DF>& c) {
  const hn::RebindToSigned<DF> di;
  if constexpr (sizeof(T) == 1 && hn::MaxLanes(DF()) >= 8) {
    const hn::Repartition<std::uint8_t, DF> d8;
    const auto bytes = load_px4(d8, p);
    static constexpr Px4Index kIdx[3] = {px4_index(0, -1), px4_index(1, -1), px4_index(2, -1)};
    a = hn::ConvertTo(df,
                      hn::BitCast(di, hn::TableLookupBytesOr0(bytes, hn::LoadU(d8, kIdx[0].i))));
    b = hn::ConvertTo(df,
                      hn::BitCast(di, hn::TableLookupBytesOr0(bytes, hn::LoadU(d8, kIdx[1].i))));
    c = hn::ConvertTo(df,
                      hn::BitCast(di, hn::TableLookupBytesOr0(bytes, hn::LoadU(d8, kIdx[2].i))));
  } else if constexpr (sizeof(T) == 4) {
    hn::LoadInterleaved3(df, p, a, b, c);
  } else {
    const hn::Rebind<T, DF> dt;
    hn::Vec<decltype(dt)> x, y, z;
    hn::LoadInterleaved3(dt, p, x, y, z);
    a = hn::ConvertTo(df, hn::PromoteTo(di, x));
    b = hn::ConvertTo(df, hn::PromoteTo(di, y));
    c = hn::ConvertTo(df, hn::PromoteTo(di, z));
  }
}

// Three int32 lanes whose low 16 bits hold values of T's range (the bits above are ignored:
// int_bits' lanes) stored as pixels of T. u8 with 8 or 16 lanes: the channels shifted into one
// 32-bit lane per pixel (only the first channel's upper bits need clearing: the others' move
// into the fourth byte or out), one byte shuffle packs each block's 4 pixels into its first 12
// bytes, one 32-bit lane permutation the blocks' 12 bytes together, and the first 3 * Lanes
// bytes are stored (half a vector, then a quarter). (Masked loads and stores of exactly 3 * Lanes
// bytes measured slower.)
template <typename T, class DI>
HWY_INLINE void store3(DI di, hn::Vec<DI> a, hn::Vec<DI> b, hn::Vec<DI> c, T* p) {
  if constexpr (sizeof(T) == 1 && hn::MaxLanes(DI()) >= 8) {
    const hn::RebindToUnsigned<DI> du;
    const hn::Repartition<std::uint8_t, DI> d8;
    const hn::Half<decltype(d8)> d8h;
    const hn::Half<decltype(d8h)> d8q;
    const auto px =
        hn::Or3(hn::And(a, hn::Set(di, 0xFF)), hn::ShiftLeft<8>(b), hn::ShiftLeft<16>(c));
    alignas(16) static constexpr std::uint8_t kPack[16] = {0,  1,  2,  4,  5,    6,    8,    9,
                                                           10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80};
    const auto packed = hn::TableLookupBytes(hn::BitCast(d8, px), hn::LoadDup128(d8, kPack));
    alignas(64) static constexpr std::uint32_t kWords16[16] = {0,  1,  2,  4,  5, 6, 8,  9,
                                                               10, 12, 13, 14, 3, 7, 11, 15};
    alignas(32) static constexpr std::uint32_t kWords8[8] = {0, 1, 2, 4, 5, 6, 3, 7};
    const auto words =
        hn::TableLookupLanes(hn::BitCast(du, packed),
                             hn::SetTableIndices(du, hn::MaxLanes(DI()) == 8 ? kWords8 : kWords16));
    const auto out = hn::BitCast(d8, words);
    hn::StoreU(hn::LowerHalf(d8h, out), d8h, p);
    hn::StoreU(hn::LowerHalf(d8q, hn::UpperHalf(d8h, out)), d8q, p + hn::Lanes(d8h));
  } else {
    const hn::Rebind<T, DI> dt;
    const auto low = hn::Set(di, 0xFFFF);
    hn::StoreInterleaved3(hn::DemoteTo(dt, hn::And(a, low)), hn::DemoteTo(dt, hn::And(b, low)),
                          hn::DemoteTo(dt, hn::And(c, low)), dt, p);
  }
}

// 1.5 * 2^23: for 0 <= v < 2^22, v + kRound rounds v to an integer, half to even (the ulp there
// is 1 and kRound is even), and that integer is the low 16 bits of the sum's bits (the rounding
// of detail::saturate and round_half_even in the default rounding mode).
constexpr float kRound = 12582912.0f;

// Float lanes of [0, 65535] (-0.5 < v < 65535.5), rounded half to even: the integer in the low
// 16 bits of each int32 lane, the bits above not cleared (store3 ignores them).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> int_bits(DF df, hn::Vec<DF> v) {
  return hn::BitCast(hn::RebindToSigned<DF>(), hn::Add(v, hn::Set(df, kRound)));
}

// detail::saturate<T> (u8, u16) of finite lanes as the CPU compiles it (sampling.hpp): clamped
// to [0, maximum] (for finite values v > 0 ? v : 0 and c < max ? c : max are Max and Min; NaN
// never reaches here: u8/u16 sources give finite values), then int_bits' addition rounds half to
// even.
template <typename T, class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> saturate_int(DF df, hn::Vec<DF> v) {
  const auto c = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, sizeof(T) == 1 ? 255.0f : 65535.0f));
  return int_bits(df, c);
}

// m ? x + k : x and m ? x : x + k, for x that is never -0 (so that x + 0 = x): AVX-512 adds under
// a mask register in one instruction; elsewhere a variable blend costs more than adding k and'ed
// with the mask.
template <class M, class V>
HWY_INLINE V add_if(M m, V x, V k) {
#if HWY_TARGET <= HWY_AVX3
  return hn::IfThenElse(m, hn::Add(x, k), x);
#else
  return hn::Add(x, hn::IfThenElseZero(m, k));
#endif
}
template <class M, class V>
HWY_INLINE V add_unless(M m, V x, V k) {
#if HWY_TARGET <= HWY_AVX3
  return hn::IfThenElse(m, x, hn::Add(x, k));
#else
  return hn::Add(x, hn::IfThenZeroElse(m, k));
#endif
}

// Lanes holding a value that is not finite.
template <class DF>
HWY_INLINE hn::Mask<DF> non_finite(DF, hn::Vec<DF> a, hn::Vec<DF> b, hn::Vec<DF> c) {
  return hn::Not(hn::And(hn::IsFinite(a), hn::And(hn::IsFinite(b), hn::IsFinite(c))));
}

// px_matrix: out_i = ((m[3i] a + m[3i+1] b) + m[3i+2] c) + o[i], saturated. f32 vectors holding
// a non-finite value go to the plain loop: NaN payloads and the NaN of inf - inf would then meet
// in an order that the compiler, not the source, decides.
template <typename T>
bool matrix_impl(const T* s, T* d, int w, const float* m, const float* o,
                 const PlainPixels* plain) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const int n = static_cast<int>(hn::Lanes(df));
  if (w < n) return false;
  hn::Vec<decltype(df)> mv[9], ov[3];
  for (int i = 0; i < 9; ++i) mv[i] = hn::Set(df, m[i]);
  for (int i = 0; i < 3; ++i) ov[i] = hn::Set(df, o[i]);
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;
    const T* sp = s + static_cast<std::size_t>(x0) * 3;
    T* dp = d + static_cast<std::size_t>(x0) * 3;
    hn::Vec<decltype(df)> a, b, c;
    load3(df, sp, a, b, c);
    hn::Vec<decltype(df)> y[3];
    for (int i = 0; i < 3; ++i)
      y[i] = hn::Add(hn::Add(hn::Add(hn::Mul(mv[3 * i], a), hn::Mul(mv[3 * i + 1], b)),
                             hn::Mul(mv[3 * i + 2], c)),
                     ov[i]);
    if constexpr (sizeof(T) == 4) {
      if (!hn::AllFalse(df, non_finite(df, a, b, c)))
        plain->run(plain->ctx, sp, dp, n);
      else
        hn::StoreInterleaved3(y[0], y[1], y[2], df, dp);
    } else {
      store3(di, saturate_int<T>(df, y[0]), saturate_int<T>(df, y[1]), saturate_int<T>(df, y[2]),
             dp);
    }
    if (x0 + n >= w) break;
  }
  return true;
}

// px_to_hsv. u8: one division for the hue (the numerator and the sector offset selected first;
// the red sector adds no offset) and one for the saturation, by max(diff, 1) and max(v, 1) (see
// below). f32: the plain code's two divisions; its vectors holding a non-finite value or
// a negative zero go to the plain loop (fmaxf/fminf's choice between -0 and +0 is the C
// library's; vector max/min follow other rules for zeros and NaN).
template <typename T, bool Bgr>
bool to_hsv_impl(const T* s, T* d, int w, const PlainPixels* plain) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::RebindToUnsigned<decltype(df)> du;
  const int n = static_cast<int>(hn::Lanes(df));
  if (w < n) return false;
  const auto zero = hn::Zero(df);
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;
    const T* sp = s + static_cast<std::size_t>(x0) * 3;
    T* dp = d + static_cast<std::size_t>(x0) * 3;
    hn::Vec<decltype(df)> c0, c1, c2;
    load3(df, sp, c0, c1, c2);
    const auto r = Bgr ? c2 : c0, g = c1, b = Bgr ? c0 : c2;
    bool vectors = true;
    if constexpr (sizeof(T) == 4) {
      const auto nz = hn::Set(du, 0x80000000u);
      const auto neg0 =
          hn::Or(hn::Eq(hn::BitCast(du, r), nz),
                 hn::Or(hn::Eq(hn::BitCast(du, g), nz), hn::Eq(hn::BitCast(du, b), nz)));
      if (!hn::AllFalse(df, hn::Or(non_finite(df, r, g, b), hn::RebindMask(df, neg0)))) {
        plain->run(plain->ctx, sp, dp, n);
        vectors = false;
      }
    }
    if (vectors) {
      const auto v = hn::Max(r, hn::Max(g, b));
      const auto mn = hn::Min(r, hn::Min(g, b));
      const auto diff = hn::Sub(v, mn);
      const auto is_r = hn::Eq(v, r), is_g = hn::Eq(v, g);
      if constexpr (sizeof(T) == 4) {
        const auto eps = hn::Set(df, FLT_EPSILON);
        const auto sat = hn::Div(diff, hn::Add(hn::Abs(v), eps));
        const auto k = hn::Div(hn::Set(df, 60.0f), hn::Add(diff, eps));
        auto h = hn::IfThenElse(
            is_r, hn::Mul(hn::Sub(g, b), k),
            hn::IfThenElse(is_g, hn::Add(hn::Mul(hn::Sub(b, r), k), hn::Set(df, 120.0f)),
                           hn::Add(hn::Mul(hn::Sub(r, g), k), hn::Set(df, 240.0f))));
        h = hn::IfThenElse(hn::Lt(h, zero), hn::Add(h, hn::Set(df, 360.0f)), h);
        hn::StoreInterleaved3(h, sat, v, df, dp);
      } else {
        // The divisions by max(diff, 1) and max(v, 1): the same quotients where diff, v > 0;
        // where diff = 0 all channels are equal, so the numerator is 0 and the red branch gives
        // h = 0 (the plain code's value), and where v = 0 so is diff: saturation 0.
        const auto one = hn::Set(df, 1.0f);
        const auto num =
            hn::IfThenElse(is_r, hn::Sub(g, b), hn::IfThenElse(is_g, hn::Sub(b, r), hn::Sub(r, g)));
        const auto q = hn::Div(num, hn::Max(diff, one));
        // (q and h are never -0: x - x is +0.)
        auto h = add_unless(is_r, q, hn::IfThenElse(is_g, hn::Set(df, 2.0f), hn::Set(df, 4.0f)));
        h = add_if(hn::Lt(h, zero), h, hn::Set(df, 6.0f));
        // round_half_even(h * 30) (in [0, 180]) as kRound + the integer, exactly; 180 -> 0.
        auto hq = hn::Add(hn::Mul(h, hn::Set(df, 30.0f)), hn::Set(df, kRound));
        hq = add_if(hn::Ge(hq, hn::Set(df, kRound + 180.0f)), hq, hn::Set(df, -180.0f));
        // 255 diff / v lies in [0, 255] (diff <= v; both products exact): saturate only rounds.
        const auto sat = hn::Div(hn::Mul(hn::Set(df, 255.0f), diff), hn::Max(v, one));
        store3(di, hn::BitCast(di, hq), int_bits(df, sat), int_bits(df, v), dp);
      }
    }
    if (x0 + n >= w) break;
  }
  return true;
}

// px_from_hsv: the sector as a float (floorf's value; the plain code's int round trip turns -0
// into +0, as adding +0 does here), out of [0, 6) (also NaN) reset to sector 0 and fraction 0;
// the switch as selects on the sector. The plain code's sat == 0 branch (r = g = b = v) needs no
// select: with sat = +-0 and finite h in [0, 1), sat h and sat (1 - h) are +-0, so p, q and t are
// v * 1 = v, bit for bit. f32 vectors holding a non-finite value go to the plain loop (it
// converts NaN and huge sectors to int: INT_MIN on x86, something else elsewhere).
template <typename T, bool Bgr>
bool from_hsv_impl(const T* s, T* d, int w, const PlainPixels* plain) {
  constexpr bool kU8 = sizeof(T) == 1;
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const int n = static_cast<int>(hn::Lanes(df));
  if (w < n) return false;
  const auto zero = hn::Zero(df), one = hn::Set(df, 1.0f), six = hn::Set(df, 6.0f);
  const auto hscale = hn::Set(df, kU8 ? 6.0f / 180.0f : 6.0f / 360.0f);
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;
    const T* sp = s + static_cast<std::size_t>(x0) * 3;
    T* dp = d + static_cast<std::size_t>(x0) * 3;
    hn::Vec<decltype(df)> h, sat, v;
    load3(df, sp, h, sat, v);
    bool vectors = true;
    if constexpr (!kU8) {
      if (!hn::AllFalse(df, non_finite(df, h, sat, v))) {
        plain->run(plain->ctx, sp, dp, n);
        vectors = false;
      }
    }
    if (vectors) {
      h = hn::Mul(h, hscale);
      hn::Vec<decltype(df)> sector;
      if constexpr (kU8) {
        sat = hn::Mul(sat, hn::Set(df, 1.0f / 255.0f));
        v = hn::Mul(v, hn::Set(df, 1.0f / 255.0f));
        // h = H * (6 / 180) < 8.6: floorf(h / 6) is 1 where h >= 6 (fl(h / 6) >= 1 exactly then:
        // the float below 6 divided by 6 rounds below 1), else 0, so h - 6 floorf(h / 6) is
        // h - 6 or h (h - 0 = h for h >= +0); the result lies in [0, 6) (h - 6 exact), so the
        // sector is never reset.
        h = add_if(hn::Ge(h, six), h, hn::Set(df, -6.0f));  // (h >= +0)
        sector = hn::Floor(h);
        h = hn::Sub(h, sector);
      } else {
        h = hn::Sub(h, hn::Mul(six, hn::Floor(hn::Div(h, six))));
        sector = hn::Add(hn::Floor(h), zero);
        h = hn::Sub(h, sector);
        const auto bad = hn::Not(hn::And(hn::Ge(sector, zero), hn::Lt(sector, six)));
        sector = hn::IfThenZeroElse(bad, sector);
        h = hn::IfThenZeroElse(bad, h);
      }
      const auto p = hn::Mul(v, hn::Sub(one, sat));
      const auto q = hn::Mul(v, hn::Sub(one, hn::Mul(sat, h)));
      const auto t = hn::Mul(v, hn::Sub(one, hn::Mul(sat, hn::Sub(one, h))));
      const auto s0 = hn::Eq(sector, zero), s1 = hn::Eq(sector, one),
                 s2 = hn::Eq(sector, hn::Set(df, 2.0f)), s3 = hn::Eq(sector, hn::Set(df, 3.0f)),
                 s4 = hn::Eq(sector, hn::Set(df, 4.0f));
      // Sectors 0 .. 5 (5: the switch's default): r = v q p p t v, g = t v v q p p,
      // b = p p t v v q.
      const auto r =
          hn::IfThenElse(s1, q, hn::IfThenElse(hn::Or(s2, s3), p, hn::IfThenElse(s4, t, v)));
      const auto g =
          hn::IfThenElse(s0, t, hn::IfThenElse(hn::Or(s1, s2), v, hn::IfThenElse(s3, q, p)));
      const auto b = hn::IfThenElse(hn::Or(s0, s1), p,
                                    hn::IfThenElse(s2, t, hn::IfThenElse(hn::Or(s3, s4), v, q)));
      const auto& o0 = Bgr ? b : r;
      const auto& o2 = Bgr ? r : b;
      if constexpr (kU8) {
        // v, p, q, t are products of factors in [0, 1] (S / 255 and V / 255 are at most
        // fl(255 fl(1 / 255)) = 1), so x * 255 lies in [0, 255]: saturate only rounds.
        const auto k = hn::Set(df, 255.0f);
        store3(di, int_bits(df, hn::Mul(o0, k)), int_bits(df, hn::Mul(g, k)),
               int_bits(df, hn::Mul(o2, k)), dp);
      } else {
        hn::StoreInterleaved3(o0, g, o2, df, dp);  // saturate<float> and * 1.0f: the value
      }
    }
    if (x0 + n >= w) break;
  }
  return true;
}

#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_TARGET == HWY_SCALAR
// One lane: nothing to gain over the plain loops.
#define TEXCV_COLOR_ROW(name, impl, T)               \
  bool name(const T* s, T* d, int w, int channels) { \
    (void)s, (void)d, (void)w, (void)channels;       \
    return false;                                    \
  }
#else
#define TEXCV_COLOR_ROW(name, impl, T)               \
  bool name(const T* s, T* d, int w, int channels) { \
    return impl(s, d, w, channels);                  \
  }
#endif
TEXCV_COLOR_ROW(swap_rb_u8, swap_rb_impl, std::uint8_t)
TEXCV_COLOR_ROW(swap_rb_u16, swap_rb_impl, std::uint16_t)
TEXCV_COLOR_ROW(swap_rb_f32, swap_rb_impl, float)
TEXCV_COLOR_ROW(from_gray_u8, from_gray_impl, std::uint8_t)
TEXCV_COLOR_ROW(from_gray_u16, from_gray_impl, std::uint16_t)
TEXCV_COLOR_ROW(from_gray_f32, from_gray_impl, float)
#undef TEXCV_COLOR_ROW

#if HWY_TARGET == HWY_SCALAR
bool matrix_u8(const std::uint8_t*, std::uint8_t*, int, const float*, const float*) {
  return false;
}
bool matrix_u16(const std::uint16_t*, std::uint16_t*, int, const float*, const float*) {
  return false;
}
bool matrix_f32(const float*, float*, int, const float*, const float*, const PlainPixels*) {
  return false;
}
bool to_hsv_u8(const std::uint8_t*, std::uint8_t*, int, bool) {
  return false;
}
bool to_hsv_f32(const float*, float*, int, bool, const PlainPixels*) {
  return false;
}
bool from_hsv_u8(const std::uint8_t*, std::uint8_t*, int, bool) {
  return false;
}
bool from_hsv_f32(const float*, float*, int, bool, const PlainPixels*) {
  return false;
}
#else
bool matrix_u8(const std::uint8_t* s, std::uint8_t* d, int w, const float* m, const float* o) {
  return matrix_impl(s, d, w, m, o, nullptr);
}
bool matrix_u16(const std::uint16_t* s, std::uint16_t* d, int w, const float* m, const float* o) {
  return matrix_impl(s, d, w, m, o, nullptr);
}
bool matrix_f32(const float* s, float* d, int w, const float* m, const float* o,
                const PlainPixels* plain) {
  return matrix_impl(s, d, w, m, o, plain);
}
bool to_hsv_u8(const std::uint8_t* s, std::uint8_t* d, int w, bool bgr) {
  return bgr ? to_hsv_impl<std::uint8_t, true>(s, d, w, nullptr)
             : to_hsv_impl<std::uint8_t, false>(s, d, w, nullptr);
}
bool to_hsv_f32(const float* s, float* d, int w, bool bgr, const PlainPixels* plain) {
  return bgr ? to_hsv_impl<float, true>(s, d, w, plain) : to_hsv_impl<float, false>(s, d, w, plain);
}
bool from_hsv_u8(const std::uint8_t* s, std::uint8_t* d, int w, bool bgr) {
  return bgr ? from_hsv_impl<std::uint8_t, true>(s, d, w, nullptr)
             : from_hsv_impl<std::uint8_t, false>(s, d, w, nullptr);
}
bool from_hsv_f32(const float* s, float* d, int w, bool bgr, const PlainPixels* plain) {
  return bgr ? from_hsv_impl<float, true>(s, d, w, plain)
             : from_hsv_impl<float, false>(s, d, w, plain);
}
#endif

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(gray_u8);
HWY_EXPORT(gray_u16);
HWY_EXPORT(gray_f32);
bool to_gray_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(gray_u8)(s, d, w, channels, bgr);
}
bool to_gray_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(gray_u16)(s, d, w, channels, bgr);
}
bool to_gray_row(const float* s, float* d, int w, int channels, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(gray_f32)(s, d, w, channels, bgr);
}
HWY_EXPORT(swap_rb_u8);
HWY_EXPORT(swap_rb_u16);
HWY_EXPORT(swap_rb_f32);
bool swap_rb_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(swap_rb_u8)(s, d, w, channels);
}
bool swap_rb_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(swap_rb_u16)(s, d, w, channels);
}
bool swap_rb_row(const float* s, float* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(swap_rb_f32)(s, d, w, channels);
}
HWY_EXPORT(from_gray_u8);
HWY_EXPORT(from_gray_u16);
HWY_EXPORT(from_gray_f32);
bool from_gray_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(from_gray_u8)(s, d, w, channels);
}
bool from_gray_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(from_gray_u16)(s, d, w, channels);
}
bool from_gray_row(const float* s, float* d, int w, int channels) {
  return HWY_DYNAMIC_DISPATCH(from_gray_f32)(s, d, w, channels);
}
HWY_EXPORT(matrix_u8);
HWY_EXPORT(matrix_u16);
HWY_EXPORT(matrix_f32);
bool matrix_row(const std::uint8_t* s, std::uint8_t* d, int w, const float* m, const float* o) {
  return HWY_DYNAMIC_DISPATCH(matrix_u8)(s, d, w, m, o);
}
bool matrix_row(const std::uint16_t* s, std::uint16_t* d, int w, const float* m, const float* o) {
  return HWY_DYNAMIC_DISPATCH(matrix_u16)(s, d, w, m, o);
}
bool matrix_row(const float* s, float* d, int w, const float* m, const float* o,
                const PlainPixels& plain) {
  return HWY_DYNAMIC_DISPATCH(matrix_f32)(s, d, w, m, o, &plain);
}
HWY_EXPORT(to_hsv_u8);
HWY_EXPORT(to_hsv_f32);
HWY_EXPORT(from_hsv_u8);
HWY_EXPORT(from_hsv_f32);
bool to_hsv_row(const std::uint8_t* s, std::uint8_t* d, int w, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(to_hsv_u8)(s, d, w, bgr);
}
bool to_hsv_row(const float* s, float* d, int w, bool bgr, const PlainPixels& plain) {
  return HWY_DYNAMIC_DISPATCH(to_hsv_f32)(s, d, w, bgr, &plain);
}
bool from_hsv_row(const std::uint8_t* s, std::uint8_t* d, int w, bool bgr) {
  return HWY_DYNAMIC_DISPATCH(from_hsv_u8)(s, d, w, bgr);
}
bool from_hsv_row(const float* s, float* d, int w, bool bgr, const PlainPixels& plain) {
  return HWY_DYNAMIC_DISPATCH(from_hsv_f32)(s, d, w, bgr, &plain);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool to_gray_row(const std::uint8_t*, std::uint8_t*, int, int, bool) {
  return false;
}
bool to_gray_row(const std::uint16_t*, std::uint16_t*, int, int, bool) {
  return false;
}
bool to_gray_row(const float*, float*, int, int, bool) {
  return false;
}
bool swap_rb_row(const std::uint8_t*, std::uint8_t*, int, int) {
  return false;
}
bool swap_rb_row(const std::uint16_t*, std::uint16_t*, int, int) {
  return false;
}
bool swap_rb_row(const float*, float*, int, int) {
  return false;
}
bool from_gray_row(const std::uint8_t*, std::uint8_t*, int, int) {
  return false;
}
bool from_gray_row(const std::uint16_t*, std::uint16_t*, int, int) {
  return false;
}
bool from_gray_row(const float*, float*, int, int) {
  return false;
}
bool matrix_row(const std::uint8_t*, std::uint8_t*, int, const float*, const float*) {
  return false;
}
bool matrix_row(const std::uint16_t*, std::uint16_t*, int, const float*, const float*) {
  return false;
}
bool matrix_row(const float*, float*, int, const float*, const float*, const PlainPixels&) {
  return false;
}
bool to_hsv_row(const std::uint8_t*, std::uint8_t*, int, bool) {
  return false;
}
bool to_hsv_row(const float*, float*, int, bool, const PlainPixels&) {
  return false;
}
bool from_hsv_row(const std::uint8_t*, std::uint8_t*, int, bool) {
  return false;
}
bool from_hsv_row(const float*, float*, int, bool, const PlainPixels&) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
