// CPU backend: resize (nearest, linear, cubic, area), parallel over destination rows.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

struct Tap {
  int index;
  float weight;
};

// Taps of every destination index along one axis for Interp::area shrinking; offsets[d] ..
// offsets[d + 1] are the taps of destination index d.
void area_table(int dst_n, double scale, int src_n, std::vector<Tap>& taps,
                std::vector<int>& offsets) {
  offsets.assign(static_cast<std::size_t>(dst_n) + 1, 0);
  taps.clear();
  for (int d = 0; d < dst_n; ++d) {
    offsets[d] = static_cast<int>(taps.size());
    sd::area_taps(d, scale, src_n, [&](int i, float w) { taps.push_back({i, w}); });
  }
  offsets[dst_n] = static_cast<int>(taps.size());
}

template <typename T, int C>
void resize_nearest(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  std::vector<int> xs(dst.width);
  for (int x = 0; x < dst.width; ++x) xs[x] = d.ax.nearest(x, src.width);
  const int* xi = xs.data();
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    const T* srow = src.row<const T>(d.ay.nearest(y, src.height));
    T* drow = dst.row<T>(y);
    for (int x = 0; x < dst.width; ++x) {
      const T* p = srow + static_cast<std::size_t>(xi[x]) * C;
      for (int c = 0; c < C; ++c) drow[static_cast<std::size_t>(x) * C + c] = p[c];
    }
  }
}

// Interp::area, both axes shrinking (scale >= 1): weighted average of the covered pixels; each
// source row is summed with the x weights first, then the rows with the y weights (as OpenCV).
template <typename T, int C>
void resize_area_shrink(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  std::vector<Tap> xt, yt;
  std::vector<int> xo, yo;
  area_table(dst.width, d.scale_x, src.width, xt, xo);
  area_table(dst.height, d.scale_y, src.height, yt, yo);
  const auto s = detail::source_of<T, C>(src);
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    T* drow = dst.row<T>(y);
    for (int x = 0; x < dst.width; ++x) {
      float out[C] = {};
      for (int j = yo[y]; j < yo[y + 1]; ++j) {
        float row[C] = {};
        for (int i = xo[x]; i < xo[x + 1]; ++i) {
          float p[C];
          s.load(xt[i].index, yt[j].index, p);
          for (int c = 0; c < C; ++c) row[c] += p[c] * xt[i].weight;
        }
        for (int c = 0; c < C; ++c) out[c] += row[c] * yt[j].weight;
      }
      sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
    }
  }
}

// Interp::area when an axis enlarges: bilinear with OpenCV's INTER_AREA fractions
// (area_upscale_coord) on both axes.
template <typename T, int C>
void resize_area_upscale(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  std::vector<int> xi(dst.width);
  std::vector<float> xf(dst.width);
  for (int x = 0; x < dst.width; ++x)
    sd::area_upscale_coord(x, d.scale_x, d.inv_scale_x, xi[x], xf[x]);
  const auto s = detail::source_of<T, C>(src);
  const sd::SamplingDesc& sp = d.sampling;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    int y0;
    float fy;
    sd::area_upscale_coord(y, d.scale_y, d.inv_scale_y, y0, fy);
    const float gy = 1.0f - fy;
    T* drow = dst.row<T>(y);
    for (int x = 0; x < dst.width; ++x) {
      const int x0 = xi[x];
      const float fx = xf[x], gx = 1.0f - fx;
      float p00[C], p01[C], p10[C], p11[C], out[C];
      sd::fetch<C>(s, x0, y0, sp.border, sp.border_value, p00);
      sd::fetch<C>(s, x0 + 1, y0, sp.border, sp.border_value, p01);
      sd::fetch<C>(s, x0, y0 + 1, sp.border, sp.border_value, p10);
      sd::fetch<C>(s, x0 + 1, y0 + 1, sp.border, sp.border_value, p11);
      for (int c = 0; c < C; ++c) {
        const float r0 = p00[c] * gx + p01[c] * fx;
        const float r1 = p10[c] * gx + p11[c] * fx;
        out[c] = r0 * gy + r1 * fy;
      }
      sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
    }
  }
}

// cubic: sample the shared sampler at the ResizeAxis coordinates (double: exact far out).
template <typename T, int C>
void resize_interp(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  std::vector<double> xs(dst.width);
  for (int x = 0; x < dst.width; ++x) xs[x] = d.ax(x);
  const auto s = detail::source_of<T, C>(src);
  const sd::SamplingDesc& sp = d.sampling;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    const double sy = d.ay(y);
    T* drow = dst.row<T>(y);
    for (int x = 0; x < dst.width; ++x) {
      float out[C];
      sd::sample<C>(s, xs[x], sy, sp.interp, sp.border, sp.border_value, out);
      sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
    }
  }
}

// Interp::linear: sample_linear's arithmetic with the per-column coordinates, weights and
// interior flags computed once per image and the per-row ones once per row, instead of per pixel
// through the generic sampler. Same operations in the same order (r0 = p00 gx + p01 fx, r1 =
// p10 gx + p11 fx, r0 gy + r1 fy), so the same floats; a pixel whose 2x2 neighbourhood leaves
// the image goes through sd::sample as before.
template <typename T, int C>
void resize_linear(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  const int w = dst.width;
  std::vector<int> x0s(static_cast<std::size_t>(w));
  std::vector<float> fxs(static_cast<std::size_t>(w)), gxs(static_cast<std::size_t>(w));
  std::vector<double> raw(static_cast<std::size_t>(w));
  std::vector<unsigned char> inside(static_cast<std::size_t>(w));
  for (int x = 0; x < w; ++x) {
    raw[x] = d.ax(x);
    const double sx = sd::sanitize_coord(raw[x]);
    const int x0 = sd::floor_to_int(sx);
    x0s[x] = x0;
    fxs[x] = sd::coord_fraction(sx, x0);
    gxs[x] = 1.0f - fxs[x];
    inside[x] = x0 >= 0 && x0 + 1 < src.width;
  }
  const auto s = detail::source_of<T, C>(src);
  const sd::SamplingDesc& sp = d.sampling;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    const double rawy = d.ay(y);
    const double sy = sd::sanitize_coord(rawy);
    const int y0 = sd::floor_to_int(sy);
    const float fy = sd::coord_fraction(sy, y0);
    const float gy = 1.0f - fy;
    const bool inside_y = y0 >= 0 && y0 + 1 < src.height;
    const T* a = inside_y ? src.row<const T>(y0) : nullptr;
    const T* b = inside_y ? src.row<const T>(y0 + 1) : nullptr;
    T* drow = dst.row<T>(y);
    for (int x = 0; x < w; ++x) {
      float out[C];
      if (inside_y && inside[x]) {
        const T* pa = a + static_cast<std::size_t>(x0s[x]) * C;
        const T* pb = b + static_cast<std::size_t>(x0s[x]) * C;
        const float fx = fxs[x], gx = gxs[x];
        for (int c = 0; c < C; ++c) {
          const float r0 = static_cast<float>(pa[c]) * gx + static_cast<float>(pa[C + c]) * fx;
          const float r1 = static_cast<float>(pb[c]) * gx + static_cast<float>(pb[C + c]) * fx;
          out[c] = r0 * gy + r1 * fy;
        }
      } else {
        sd::sample<C>(s, raw[x], rawy, sp.interp, sp.border, sp.border_value, out);
      }
      sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
    }
  }
}

// Interp::linear at exactly half size on both axes (scale 2, no align_corners, every 2x2 block
// inside the source): the source position of dst (x, y) is (2x + 0.5, 2y + 0.5), so the taps are
// the block at (2x, 2y) and every weight is 0.5. resize_linear's floats then are exact for u8 and
// u16, (a + b + c + d) / 4, and its rounding (half to even) is
// (s + 1 + ((s >> 2) & 1)) >> 2 on the integer sum s; f32 takes resize_linear's operations with
// the weights 0.5. The same results as resize_linear, without its per-pixel tables (the batch
// pipeline's "resize:scale=0.5" is this case). u8/u16 Interp::area at half size too.
// (Without align_corners both axes' scale is ResizeDesc's scale_x / scale_y, area's too.)
bool half_size(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  return !d.align_corners && d.scale_x == 2.0 && d.scale_y == 2.0 && 2L * dst.width <= src.width &&
         2L * dst.height <= src.height;
}

template <typename T, int C>
void resize_half_linear(const ImageView& src, const ImageView& dst) {
  const int w = dst.width;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    const T* a = src.row<const T>(2 * y);
    const T* b = src.row<const T>(2 * y + 1);
    T* o = dst.row<T>(y);
    if constexpr (!std::is_same_v<T, float>) {
      if (simd::half_mean_row(a, b, o, w, C)) continue;  // Highway's vectors (simd.hpp)
    }
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < C; ++c) {
        const std::size_t e0 = static_cast<std::size_t>(2 * x) * C + c, e1 = e0 + C;
        if constexpr (std::is_same_v<T, float>) {
          const float r0 = a[e0] * 0.5f + a[e1] * 0.5f;
          const float r1 = b[e0] * 0.5f + b[e1] * 0.5f;
          o[static_cast<std::size_t>(x) * C + c] = r0 * 0.5f + r1 * 0.5f;
        } else {
          const std::uint32_t sum = static_cast<std::uint32_t>(a[e0]) + a[e1] + b[e0] + b[e1];
          o[static_cast<std::size_t>(x) * C + c] =
              static_cast<T>((sum + 1 + ((sum >> 2) & 1)) >> 2);
        }
      }
  }
}

}  // namespace

void resize(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  detail::dispatch(src.type, src.channels, "resize", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    switch (d.sampling.interp) {
      case Interp::nearest:
        return resize_nearest<T, C>(src, dst, d);
      case Interp::area:
        // At exactly half size the area weights are 0.5 per axis on the 2x2 block: the same
        // exact mean for u8/u16 (f32 sums from 0, which turns a -0 block into +0: its own path).
        if (!std::is_same_v<T, float> && half_size(src, dst, d))
          return resize_half_linear<T, C>(src, dst);
        if (d.scale_x >= 1.0 && d.scale_y >= 1.0) return resize_area_shrink<T, C>(src, dst, d);
        return resize_area_upscale<T, C>(src, dst, d);
      case Interp::linear:
        if (half_size(src, dst, d)) return resize_half_linear<T, C>(src, dst);
        return resize_linear<T, C>(src, dst, d);
      default:
        return resize_interp<T, C>(src, dst, d);
    }
  });
}

}  // namespace texcv::cpu
