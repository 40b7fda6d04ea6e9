// The contract between src/core/ops/{median_blur,bilateral_filter}.cpp and the backends for the
// non-linear filters (include/texcv/filters.hpp: median_blur, bilateral_filter). src/core validates
// every call and resolves the parameters; the CPU backend (src/cpu/median_blur.cpp,
// bilateral_filter.cpp) and the CUDA backend (src/cuda/ops/median_blur/,
// src/cuda/ops/bilateral_filter/) implement them with the same element order (median) and the same
// weight tables and float order (bilateral), so their results are identical.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/filters_desc.hpp"
#include "src/core/sampling.hpp"
#include "texcv/image.hpp"

namespace texcv::detail {

// Median of the ksize x ksize window (odd ksize >= 1), replicated border. dst has src's type.
// Both backends select by median_key order: for u8/u16 the value; for f32 the float bits mapped
// to an order-preserving unsigned key (a total order: -0 below +0, NaNs by their bits, those with
// the sign bit below -inf, the others above +inf), so the result is the same element bit for bit.
struct MedianDesc {
  int ksize = 3;
};

TEXCV_HD std::uint32_t float_key(std::uint32_t bits) {
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}
TEXCV_HD std::uint32_t key_float_bits(std::uint32_t key) {
  return (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
}

// Bilateral filter over the disc of radius `radius` (>= 1): weights space[k] * colour(D), D the
// L1 colour distance (sum over channels of |q - p|); coefficients are -0.5 / sigma^2. src is u8 or
// f32 with 1 or 3 channels; dst has src's type. src/core fills the disc (bilateral_disc): the
// offsets with sqrt(dx^2 + dy^2) <= radius in row-major order (as OpenCV) and their space weights
// (float)exp(r^2 * space_coeff) computed in double.
struct BilateralDesc {
  int radius = 1;
  double color_coeff = -0.5, space_coeff = -0.5;
  FilterBorderDesc border;
  std::vector<int> dx, dy;
  std::vector<float> space;
};
void bilateral_disc(BilateralDesc& d);

// Colour weights, computed once on the host and used by both backends.
// u8: table[D] = (float)exp(D^2 * color_coeff) for D = 0 .. 255 * channels (OpenCV's table).
// f32: OpenCV's table of bins + 2 entries (bins = 4096 * channels) over the distances
//   0 .. channels * (hi - lo), read with linear interpolation by bilateral_f32_weight. [lo, hi]
//   is the range of the finite source values, widened to the constant border value when the
//   border is constant. copy: the range is empty or narrower than FLT_EPSILON (as OpenCV: dst is
//   a copy of src), or no source value is finite.
struct BilateralColor {
  std::vector<float> table;
  float scale = 0.0f;
  int bins = 0;
  bool copy = false;
};
BilateralColor bilateral_color_u8(const BilateralDesc& d, int channels);
BilateralColor bilateral_color_f32(const BilateralDesc& d, int channels, bool any_finite, float lo,
                                   float hi);

// The f32 colour weight of distance `dist` (OpenCV's interpolation: a = dist * scale, weight
// t[a0] + (a - a0) * (t[a0 + 1] - t[a0])); a distance at or past the table's end (or NaN) reads
// its last bin.
TEXCV_HD float bilateral_f32_weight(const float* t, float scale, int bins, float dist) {
  float a = dist * scale;
  int i = bins;
  if (a < static_cast<float>(bins)) {
    i = static_cast<int>(a);
    a = a - static_cast<float>(i);
  } else {
    a = 0.0f;
  }
  return t[i] + a * (t[i + 1] - t[i]);
}

}  // namespace texcv::detail

namespace texcv::cpu {
void median_blur(const ImageView& src, const ImageView& dst, const texcv::detail::MedianDesc& d);
void bilateral_filter(const ImageView& src, const ImageView& dst,
                      const texcv::detail::BilateralDesc& d);
}  // namespace texcv::cpu

namespace texcv::cuda {
// The CUDA backend (src/cuda/ops/median_blur/, src/cuda/ops/bilateral_filter/), on the caller's
// stream, identical to the CPU backend; without CUDA, the core's call throws NotCompiled
// (cuda_call.hpp).
void median_blur(const ImageView& src, const ImageView& dst, const texcv::detail::MedianDesc& d,
                 void* stream);
void bilateral_filter(const ImageView& src, const ImageView& dst,
                      const texcv::detail::BilateralDesc& d, void* stream);
}  // namespace texcv::cuda
