// The warps' and remap's bilinear sampling of one-channel images in Highway vectors (see
// simd.hpp): a vector
// of destination pixels of one row at a time. Their source positions in double lanes, as
// sampling.hpp's AffineMap / PerspectiveMap compute them (the same operations in the same order,
// no fused multiply-add); sanitize_coord, floor and the float32 fraction as sample_linear; the
// taps by gathers (u8 and u16: one 32-bit gather per source row brings both horizontal
// neighbours; f32: one per tap); the weights' products and sums in float32 in sample_linear's
// order; u8/u16 rounded half to even and saturated as detail::saturate. A vector with any tap
// outside the image (the border modes) goes through sample_linear pixel by pixel. Same values
// as warp.cpp's plain loop; the test SimdTargets.WarpLinearRowsAreThePlainLoopOnEveryTarget.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "src/core/sampling.hpp"
#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_warp.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "src/cpu/simd_saturate-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace sd = texcv::detail;

#if HWY_TARGET != HWY_SCALAR
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the u8/u16 gathers take a pixel's right neighbour from the higher bytes");

// A one-channel source for the vector sampler below.
struct Src1 {
  const unsigned char* data;
  std::size_t pitch;
  int width, height;
  Border border;
  float border_value;
  std::int32_t max_dy;  // gather offsets are int32 bytes from lane 0's row: rows at most this far
};

Src1 src1(const unsigned char* data, std::size_t pitch, int width, int height, Border border,
          float border_value, std::size_t elem) {
  // Rows further apart than max_dy in one vector take the plain loop (a huge image under a strong
  // shrink).
  const std::int64_t row_bytes = static_cast<std::int64_t>(width) * elem + 8;
  const std::int64_t max_rows = (std::int64_t{0x7fffffff} - row_bytes) /
                                std::max<std::int64_t>(static_cast<std::int64_t>(pitch), 1);
  return {data,
          pitch,
          width,
          height,
          border,
          border_value,
          static_cast<std::int32_t>(
              std::min<std::int64_t>(std::max<std::int64_t>(max_rows - 1, 0), 1 << 30))};
}

// sample_linear for a vector of pixels given their taps' integer parts (ix, iy) and fractions,
// stored to out[0 .. lanes) as detail::saturate (f32 as is). Returns false, writing nothing,
// for a vector it does not cover (some lane with taps both inside and outside, or a border other
// than constant with taps outside): the caller samples those pixels one by one.
template <typename T, class DF, class VI, class VF>
HWY_INLINE bool bilinear_vec(DF df, const Src1& s, VI ix, VI iy, VF fxf, VF fyf, T* out) {
  const hn::RebindToSigned<DF> di;
  const auto one = hn::Set(df, 1.0f);
  const auto neg1 = hn::Set(di, -1);  // Highway 1.0 has no integer Ge
  const auto w1 = hn::Set(di, s.width - 1), h1 = hn::Set(di, s.height - 1);
  const auto pitch = hn::Set(di, static_cast<std::int32_t>(s.pitch));
  const auto max_dy = hn::Set(di, s.max_dy);
  // The bilinear sum of sample_linear and detail::saturate's store.
  const auto blend = [&](VF p00, VF p01, VF p10, VF p11) HWY_ATTR {
    const auto gx = hn::Sub(one, fxf), gy = hn::Sub(one, fyf);
    const auto r0 = hn::Add(hn::Mul(p00, gx), hn::Mul(p01, fxf));
    const auto r1 = hn::Add(hn::Mul(p10, gx), hn::Mul(p11, fxf));
    const auto v = hn::Add(hn::Mul(r0, gy), hn::Mul(r1, fyf));
    store_saturated(df, v, out);
  };
  // Every tap inside, and the gather offsets (int32 bytes from lane 0's source row) in range.
  const std::int32_t y0 = hn::GetLane(iy);
  const auto dy = hn::Sub(iy, hn::Set(di, y0));
  auto inside =
      hn::And(hn::And(hn::Gt(ix, neg1), hn::Gt(iy, neg1)), hn::And(hn::Lt(ix, w1), hn::Lt(iy, h1)));
  inside = hn::And(inside, hn::And(hn::Lt(dy, max_dy), hn::Gt(dy, hn::Neg(max_dy))));
  if constexpr (sizeof(T) == 1) {
    // A 32-bit gather at pixel x0 reads x0 .. x0 + 3: past the row's end only where the next
    // row exists (then inside the image's memory), so on the last row x0 + 3 < width.
    const auto last = hn::Eq(iy, hn::Sub(h1, hn::Set(di, 1)));
    inside = hn::AndNot(hn::And(last, hn::Gt(ix, hn::Set(di, s.width - 4))), inside);
  }
  if (hn::AllTrue(di, inside)) {
    const auto off =
        hn::Add(hn::Mul(dy, pitch), hn::Mul(ix, hn::Set(di, static_cast<std::int32_t>(sizeof(T)))));
    const unsigned char* b0 = s.data + static_cast<std::size_t>(y0) * s.pitch;
    if constexpr (sizeof(T) == 4) {
      const auto* bf = reinterpret_cast<const float*>(b0);
      const auto off1 = hn::Add(off, hn::Set(di, 4));
      blend(hn::GatherOffset(df, bf, off), hn::GatherOffset(df, bf, off1),
            hn::GatherOffset(df, bf, hn::Add(off, pitch)),
            hn::GatherOffset(df, bf, hn::Add(off1, pitch)));
    } else {
      const auto* bi = reinterpret_cast<const std::int32_t*>(b0);
      const auto g0 = hn::GatherOffset(di, bi, off);
      const auto g1 = hn::GatherOffset(di, bi, hn::Add(off, pitch));
      constexpr int kBits = 8 * sizeof(T);
      const auto mask = hn::Set(di, (1 << kBits) - 1);
      blend(hn::ConvertTo(df, hn::And(g0, mask)),
            hn::ConvertTo(df, hn::And(hn::ShiftRight<kBits>(g0), mask)),
            hn::ConvertTo(df, hn::And(g1, mask)),
            hn::ConvertTo(df, hn::And(hn::ShiftRight<kBits>(g1), mask)));
    }
    return true;
  }
  if (s.border == Border::constant &&
      hn::AllTrue(di, hn::Or(hn::Or(hn::Lt(ix, neg1), hn::Gt(ix, w1)),
                             hn::Or(hn::Lt(iy, neg1), hn::Gt(iy, h1))))) {
    // Every tap of every lane outside: four border values, blended as sample_linear does.
    const auto bv = hn::Set(df, s.border_value);
    blend(bv, bv, bv, bv);
    return true;
  }
  return false;
}

// Cubic (sample_cubic) for u8 images of C = 1, 3 or 4 channels: the 16 taps by 32-bit gathers
// (C = 1: one per source row brings its 4 taps; C = 3, 4: one per tap brings its channels), the
// weights as cubic_weights, the row sums and the column sum in sample_cubic's order. Returns false,
// writing nothing, for a vector it does not cover (taps both inside and outside, or outside under
// a border other than constant).
template <int C, class DF, class VI, class VF>
HWY_INLINE bool cubic_vec_u8(DF df, const Src1& s, const float* bvals, VI ix, VI iy, VF fxf, VF fyf,
                             std::uint8_t* out) {
  const hn::RebindToSigned<DF> di;
  const hn::Rebind<std::uint8_t, DF> d8;
  // cubic_weights(t): A = -0.75, the same float operations in the same order.
  const auto weights = [&](VF t, VF* w) HWY_ATTR {
    const auto a = hn::Set(df, -0.75f);
    const auto t1 = hn::Add(t, hn::Set(df, 1.0f));
    const auto u = hn::Sub(hn::Set(df, 1.0f), t);
    w[0] = hn::Sub(hn::Mul(hn::Add(hn::Mul(hn::Sub(hn::Mul(a, t1), hn::Set(df, 5.0f * -0.75f)), t1),
                                   hn::Set(df, 8.0f * -0.75f)),
                           t1),
                   hn::Set(df, 4.0f * -0.75f));
    const auto a2 = hn::Set(df, -0.75f + 2.0f), a3 = hn::Set(df, -0.75f + 3.0f);
    w[1] = hn::Add(hn::Mul(hn::Mul(hn::Sub(hn::Mul(a2, t), a3), t), t), hn::Set(df, 1.0f));
    w[2] = hn::Add(hn::Mul(hn::Mul(hn::Sub(hn::Mul(a2, u), a3), u), u), hn::Set(df, 1.0f));
    w[3] = hn::Sub(hn::Sub(hn::Sub(hn::Set(df, 1.0f), w[0]), w[1]), w[2]);
  };
  VF wx[4], wy[4];
  const auto finish = [&](auto tap) HWY_ATTR {  // tap(j, i, c): the float tap value
    weights(fxf, wx);
    weights(fyf, wy);
    hn::Vec<decltype(d8)> o[C];
    for (int c = 0; c < C; ++c) {
      auto acc = hn::Zero(df);
      for (int j = 0; j < 4; ++j) {
        auto row = hn::Zero(df);
        for (int i = 0; i < 4; ++i) row = hn::Add(row, hn::Mul(tap(j, i, c), wx[i]));
        acc = hn::Add(acc, hn::Mul(row, wy[j]));
      }
      o[c] = saturated<std::uint8_t>(df, acc);
    }
    if constexpr (C == 1) hn::StoreU(o[0], d8, out);
    if constexpr (C == 3) hn::StoreInterleaved3(o[0], o[1], o[2], d8, out);
    if constexpr (C == 4) hn::StoreInterleaved4(o[0], o[1], o[2], o[3], d8, out);
  };
  const std::int32_t y0 = hn::GetLane(iy);
  const auto dy = hn::Sub(iy, hn::Set(di, y0));
  const auto max_dy = hn::Set(di, s.max_dy - 4);
  // Taps x0 - 1 .. x0 + 2, y0 - 1 .. y0 + 2 inside, offsets in range.
  auto inside =
      hn::And(hn::And(hn::Gt(ix, hn::Set(di, 0)), hn::Gt(iy, hn::Set(di, 0))),
              hn::And(hn::Lt(ix, hn::Set(di, s.width - 2)), hn::Lt(iy, hn::Set(di, s.height - 2))));
  inside = hn::And(inside, hn::And(hn::Lt(dy, max_dy), hn::Gt(dy, hn::Neg(max_dy))));
  if constexpr (C == 3) {
    // The 32-bit read of tap x0 + 2 takes one byte past its pixel: on the last row that pixel
    // must not be the image's last.
    const auto last = hn::Eq(iy, hn::Set(di, s.height - 3));
    inside = hn::AndNot(hn::And(last, hn::Gt(ix, hn::Set(di, s.width - 4))), inside);
  }
  if (hn::AllTrue(di, inside)) {
    const unsigned char* b0 = s.data + static_cast<std::size_t>(y0) * s.pitch;
    const auto* bi = reinterpret_cast<const std::int32_t*>(b0);
    const auto pitch = hn::Set(di, static_cast<std::int32_t>(s.pitch));
    const auto off0 = hn::Add(hn::Mul(hn::Sub(dy, hn::Set(di, 1)), pitch),
                              hn::Mul(hn::Sub(ix, hn::Set(di, 1)), hn::Set(di, C)));
    const auto mask = hn::Set(di, 0xFF);
    if constexpr (C == 1) {
      hn::Vec<decltype(di)> g[4];
      for (int j = 0; j < 4; ++j)
        g[j] = hn::GatherOffset(di, bi, hn::Add(off0, hn::Mul(hn::Set(di, j), pitch)));
      finish([&](int j, int i, int) HWY_ATTR {
        return hn::ConvertTo(df, hn::And(hn::ShiftRightSame(g[j], 8 * i), mask));
      });
    } else {
      hn::Vec<decltype(di)> g[4][4];
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i)
          g[j][i] = hn::GatherOffset(
              di, bi, hn::Add(off0, hn::Add(hn::Mul(hn::Set(di, j), pitch), hn::Set(di, i * C))));
      finish([&](int j, int i, int c) HWY_ATTR {
        return hn::ConvertTo(df, hn::And(hn::ShiftRightSame(g[j][i], 8 * c), mask));
      });
    }
    return true;
  }
  if (s.border == Border::constant &&
      hn::AllTrue(di,
                  hn::Or(hn::Or(hn::Lt(ix, hn::Set(di, -2)), hn::Gt(ix, hn::Set(di, s.width))),
                         hn::Or(hn::Lt(iy, hn::Set(di, -2)), hn::Gt(iy, hn::Set(di, s.height)))))) {
    // Every tap of every lane outside: the border value in every tap.
    finish([&](int, int, int c) HWY_ATTR { return hn::Set(df, bvals[c]); });
    return true;
  }
  return false;
}

template <typename T, int C = 1, bool Cubic = false>
bool warp_impl(const WarpRow& r, T* out) {
  const hn::ScalableTag<float> df;                   // fractions, taps, sums: one lane per pixel
  const hn::RebindToSigned<decltype(df)> di;         // integer parts, gather offsets
  const hn::Half<decltype(df)> dh;                   // half of them
  const hn::Rebind<double, decltype(dh)> dd;         // their source positions (full width)
  const hn::Rebind<std::int32_t, decltype(dd)> dih;  // half of di
  const int n = static_cast<int>(hn::Lanes(df)), nh = n / 2;
  if (r.x1 - r.x0 < n) return false;
  const sd::PitchedSource<T, C> src{r.src, r.pitch, r.width, r.height};
  const double* m = r.m;
  const double fy = r.y;
  // Per row: the terms of y (AffineMap: (m0 x + m1 y) + m2; PerspectiveMap: the same for its
  // three rows, then the division).
  const auto m0 = hn::Set(dd, m[0]), m3 = hn::Set(dd, m[3]);
  const auto t0 = hn::Set(dd, m[1] * fy), t1 = hn::Set(dd, m[4] * fy);
  const auto c0 = hn::Set(dd, m[2]), c1 = hn::Set(dd, m[5]);
  const auto lim = hn::Set(dd, static_cast<double>(sd::kCoordLimit));
  const auto nlim = hn::Neg(lim);
  const auto sanitize = [&](auto v) {  // sampling.hpp's sanitize_coord(double)
    const auto in = hn::And(hn::Gt(v, nlim), hn::Lt(v, lim));
    return hn::IfThenElse(in, v, hn::IfThenElse(hn::Ge(v, lim), lim, nlim));
  };
  // Source positions of pixels xs .. xs + nh - 1 as the maps compute them, sanitized.
  const auto position = [&](int xs, hn::Vec<decltype(dd)>& sx, hn::Vec<decltype(dd)>& sy) {
    const auto fx = hn::Iota(dd, static_cast<double>(xs));
    sx = hn::Add(hn::Add(hn::Mul(m0, fx), t0), c0);
    sy = hn::Add(hn::Add(hn::Mul(m3, fx), t1), c1);
    if (r.perspective) {
      const auto w = hn::Add(hn::Add(hn::Mul(hn::Set(dd, m[6]), fx), hn::Set(dd, m[7] * fy)),
                             hn::Set(dd, m[8]));
      const auto nz = hn::Ne(w, hn::Zero(dd));
      const auto iw = hn::IfThenElseZero(nz, hn::Div(hn::Set(dd, 1.0), w));
      sx = hn::IfThenElse(nz, hn::Mul(sx, iw), lim);
      sy = hn::IfThenElse(nz, hn::Mul(sy, iw), lim);
    }
    sx = sanitize(sx);
    sy = sanitize(sy);
  };
  const Src1 s1 = src1(r.src, r.pitch, r.width, r.height, r.border, r.border_value, sizeof(T) * C);
  for (int x = r.x0;; x += n) {
    const int xs = x + n <= r.x1 ? x : r.x1 - n;  // the last vector ends at x1 (overlapping)
    hn::Vec<decltype(dd)> sx0, sy0, sx1, sy1;     // the lower and upper halves
    position(xs, sx0, sy0);
    position(xs + nh, sx1, sy1);
    const auto flx0 = hn::Floor(sx0), fly0 = hn::Floor(sy0);
    const auto flx1 = hn::Floor(sx1), fly1 = hn::Floor(sy1);
    const auto ix = hn::Combine(di, hn::DemoteTo(dih, flx1), hn::DemoteTo(dih, flx0));
    const auto iy = hn::Combine(di, hn::DemoteTo(dih, fly1), hn::DemoteTo(dih, fly0));
    // coord_fraction(v, floor(v))
    const auto fxf =
        hn::Combine(df, hn::DemoteTo(dh, hn::Sub(sx1, flx1)), hn::DemoteTo(dh, hn::Sub(sx0, flx0)));
    const auto fyf =
        hn::Combine(df, hn::DemoteTo(dh, hn::Sub(sy1, fly1)), hn::DemoteTo(dh, hn::Sub(sy0, fly0)));
    bool done;
    if constexpr (Cubic)
      done = cubic_vec_u8<C>(df, s1, r.border_values, ix, iy, fxf, fyf, out + xs * C);
    else
      done = bilinear_vec(df, s1, ix, iy, fxf, fyf, out + xs);
    if (!done) {
      HWY_ALIGN double bx[2 * HWY_MAX_BYTES / sizeof(double)];
      HWY_ALIGN double by[2 * HWY_MAX_BYTES / sizeof(double)];
      hn::Store(sx0, dd, bx);
      hn::Store(sx1, dd, bx + nh);
      hn::Store(sy0, dd, by);
      hn::Store(sy1, dd, by + nh);
      for (int i = 0; i < n; ++i) {
        float v[C];
        if constexpr (Cubic)
          sd::sample_cubic<C>(src, bx[i], by[i], r.border, r.border_values, v);
        else
          sd::sample_linear<C>(src, bx[i], by[i], r.border, &r.border_value, v);
        sd::store<T, C>(out + static_cast<std::size_t>(xs + i) * C, v);
      }
    }
    if (xs + n >= r.x1) break;
  }
  return true;
}

// remap's bilinear row: positions from the float maps, sanitized and split in float as
// sample_linear<float> does (floor, v - floor(v): exact in float32).
template <typename T>
bool remap_impl(const RemapRow& r, T* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const int n = static_cast<int>(hn::Lanes(df));
  if (r.n < n) return false;
  const sd::PitchedSource<T, 1> src{r.src, r.pitch, r.width, r.height};
  const Src1 s1 = src1(r.src, r.pitch, r.width, r.height, r.border, r.border_value, sizeof(T));
  const auto lim = hn::Set(df, sd::kCoordLimit);
  const auto nlim = hn::Neg(lim);
  const auto sanitize = [&](auto v) HWY_ATTR {  // sampling.hpp's sanitize_coord(float)
    const auto in = hn::And(hn::Gt(v, nlim), hn::Lt(v, lim));
    return hn::IfThenElse(in, v, hn::IfThenElse(hn::Ge(v, lim), lim, nlim));
  };
  for (int x = 0;; x += n) {
    const int xs = x + n <= r.n ? x : r.n - n;  // the last vector ends at n (overlapping)
    const auto sx = sanitize(hn::LoadU(df, r.mx + xs));
    const auto sy = sanitize(hn::LoadU(df, r.my + xs));
    const auto flx = hn::Floor(sx), fly = hn::Floor(sy);
    if (!bilinear_vec(df, s1, hn::ConvertTo(di, flx), hn::ConvertTo(di, fly), hn::Sub(sx, flx),
                      hn::Sub(sy, fly), out + xs)) {
      for (int i = xs; i < xs + n; ++i) {
        float v;
        sd::sample_linear<1>(src, r.mx[i], r.my[i], r.border, &r.border_value, &v);
        out[i] = sd::saturate<T>(v);
      }
    }
    if (xs + n >= r.n) break;
  }
  return true;
}
#endif

#if HWY_TARGET == HWY_SCALAR
#define TEXCV_WARP_SIMD(expr) return false  // one lane: nothing to gain over the plain loop
#else
#define TEXCV_WARP_SIMD(expr) return expr
#endif
bool warp_u8(const WarpRow& r, std::uint8_t* out) {
  (void)r, (void)out;
  TEXCV_WARP_SIMD(warp_impl(r, out));
}
bool warp_u16(const WarpRow& r, std::uint16_t* out) {
  (void)r, (void)out;
  TEXCV_WARP_SIMD(warp_impl(r, out));
}
bool warp_f32(const WarpRow& r, float* out) {
  (void)r, (void)out;
  TEXCV_WARP_SIMD(warp_impl(r, out));
}
bool warp_cubic_u8(const WarpRow& r, int channels, std::uint8_t* out) {
  (void)r, (void)channels, (void)out;
  TEXCV_WARP_SIMD((channels == 1   ? warp_impl<std::uint8_t, 1, true>(r, out)
                   : channels == 3 ? warp_impl<std::uint8_t, 3, true>(r, out)
                   : channels == 4 ? warp_impl<std::uint8_t, 4, true>(r, out)
                                   : false));
}
bool remap_u8(const RemapRow& r, std::uint8_t* out) {
  (void)r, (void)out;
  TEXCV_WARP_SIMD(remap_impl(r, out));
}
bool remap_u16(const RemapRow& r, std::uint16_t* out) {
  (void)r, (void)out;
  TEXCV_WARP_SIMD(remap_impl(r, out));
}
bool remap_f32(const RemapRow& r, float* out) {
  (void)r, (void)out;
  TEXCV_WARP_SIMD(remap_impl(r, out));
}
#undef TEXCV_WARP_SIMD

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(warp_u8);
HWY_EXPORT(warp_u16);
HWY_EXPORT(warp_f32);
HWY_EXPORT(remap_u8);
HWY_EXPORT(warp_cubic_u8);
bool warp_cubic_row(const WarpRow& r, int channels, std::uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(warp_cubic_u8)(r, channels, out);
}
HWY_EXPORT(remap_u16);
HWY_EXPORT(remap_f32);
bool remap_linear_row(const RemapRow& r, std::uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(remap_u8)(r, out);
}
bool remap_linear_row(const RemapRow& r, std::uint16_t* out) {
  return HWY_DYNAMIC_DISPATCH(remap_u16)(r, out);
}
bool remap_linear_row(const RemapRow& r, float* out) {
  return HWY_DYNAMIC_DISPATCH(remap_f32)(r, out);
}
bool warp_linear_row(const WarpRow& r, std::uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(warp_u8)(r, out);
}
bool warp_linear_row(const WarpRow& r, std::uint16_t* out) {
  return HWY_DYNAMIC_DISPATCH(warp_u16)(r, out);
}
bool warp_linear_row(const WarpRow& r, float* out) {
  return HWY_DYNAMIC_DISPATCH(warp_f32)(r, out);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
bool warp_linear_row(const WarpRow&, std::uint8_t*) {
  return false;
}
bool warp_linear_row(const WarpRow&, std::uint16_t*) {
  return false;
}
bool warp_linear_row(const WarpRow&, float*) {
  return false;
}
bool warp_cubic_row(const WarpRow&, int, std::uint8_t*) {
  return false;
}
bool remap_linear_row(const RemapRow&, std::uint8_t*) {
  return false;
}
bool remap_linear_row(const RemapRow&, std::uint16_t*) {
  return false;
}
bool remap_linear_row(const RemapRow&, float*) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
