// The contract between src/core/ops/<op>.cpp and the backends for the colour and intensity ops.
// src/core validates every call and resolves its parameters into these descriptors; the
// backends implement them in files named by their op (src/cpu/<op>.cpp,
// src/cuda/ops/<op>/), the per-pixel ones on the CUDA side on one kernel shape
// (src/cuda/ops/common/point.cuh); the reductions, histograms and clahe share src/cpu/
// value_counts.hpp and src/cuda/ops/hist/ (src/core/ops/normalize.cpp, equalize_hist.cpp,
// threshold.cpp combine them for normalize, equalize_hist and Otsu).
#pragma once

#include <cstdint>
#include <vector>

#include "texcv/color.hpp"
#include "texcv/image.hpp"

namespace texcv::detail {

// Per-element linear map dst = saturate(src * scale + offset), computed in float.
struct ScaleDesc {
  float scale = 1.0f, offset = 0.0f;
  bool identity = true;  // scale 1, offset 0: a plain saturating conversion
};

// mean_std: per channel dst = src * scale[c] + offset[c] (float).
struct AffineChannelDesc {
  float scale[4] = {1, 1, 1, 1};
  float offset[4] = {0, 0, 0, 0};
};

// threshold with the threshold and maximum converted as OpenCV converts them per type.
struct ThresholdDesc {
  ThresholdType type = ThresholdType::binary;  // never otsu (resolved to binary)
  double thresh = 0, maxval = 0;
};

// A 3x3 matrix and offset applied in float: out_i = m[3i] a + m[3i+1] b + m[3i+2] c + o[i]
// (summed left to right). Used for the YUV codes; docs/ops/color.md gives the definitions.
struct ColorMatrix {
  float m[9];
  float o[3];
};

// The YUV (Y'CbCr) matrix of a code for an element type, built in double and rounded once.
// Full range: Y = Kr R + Kg G + Kb B, U = (B - Y) / (2 (1 - Kb)) + C0, V = (R - Y) / (2 (1 - Kr))
// + C0 with C0 = 128 (u8), 32768 (u16), 0.5 (f32). Limited range (u8 levels; u16 levels << 8;
// f32 = u8 / 255): Y = 16 + 219 Y', U, V = 128 + 224 P.
inline ColorMatrix yuv_matrix(ColorCode code, ElemType type) {
  const bool bt709 = code == ColorCode::rgb2yuv_bt709 || code == ColorCode::rgb2yuv_bt709_limited ||
                     code == ColorCode::yuv2rgb_bt709 || code == ColorCode::yuv2rgb_bt709_limited;
  const bool limited =
      code == ColorCode::rgb2yuv_bt601_limited || code == ColorCode::rgb2yuv_bt709_limited ||
      code == ColorCode::yuv2rgb_bt601_limited || code == ColorCode::yuv2rgb_bt709_limited;
  const bool forward = code == ColorCode::rgb2yuv_bt601 ||
                       code == ColorCode::rgb2yuv_bt601_limited ||
                       code == ColorCode::rgb2yuv_bt709 || code == ColorCode::rgb2yuv_bt709_limited;
  const double kr = bt709 ? 0.2126 : 0.299, kb = bt709 ? 0.0722 : 0.114, kg = 1.0 - kr - kb;
  const double mx = type == ElemType::u8 ? 255.0 : type == ElemType::u16 ? 65535.0 : 1.0;
  // Offsets and scales: full range ys = cs = 1, yoff = 0.
  double ys = 1, cs = 1, yoff = 0,
         coff = type == ElemType::u8    ? 128.0
                : type == ElemType::u16 ? 32768.0
                                        : 0.5;
  if (limited) {
    const double unit = type == ElemType::u16 ? 256.0 : type == ElemType::u8 ? 1.0 : 1.0 / 255.0;
    ys = 219.0 * unit / mx;
    cs = 224.0 * unit / mx;
    yoff = 16.0 * unit;
    coff = 128.0 * unit;
  }
  const double ub = 0.5 / (1.0 - kb), vr = 0.5 / (1.0 - kr);
  // Forward rows (R, G, B columns).
  double f[9] = {kr * ys,
                 kg * ys,
                 kb * ys,  // Y
                 -kr * ub * cs,
                 -kg * ub * cs,
                 (1.0 - kb) * ub * cs,  // U
                 (1.0 - kr) * vr * cs,
                 -kg * vr * cs,
                 -kb * vr * cs};  // V
  ColorMatrix r{};
  if (forward) {
    for (int i = 0; i < 9; ++i) r.m[i] = static_cast<float>(f[i]);
    r.o[0] = static_cast<float>(yoff);
    r.o[1] = r.o[2] = static_cast<float>(coff);
    return r;
  }
  // Inverse: Y' = (Y - yoff) / ys, Pb = (U - coff) / cs, Pr = (V - coff) / cs;
  // R = Y' + 2 (1 - kr) Pr, B = Y' + 2 (1 - kb) Pb, G = (Y' - kr R - kb B) / kg.
  const double a = 1.0 / ys, pr = 2.0 * (1.0 - kr) / cs, pb = 2.0 * (1.0 - kb) / cs;
  const double gu = -kb * pb / kg, gv = -kr * pr / kg;
  const double inv[9] = {a, 0.0, pr, a, gu, gv, a, pb, 0.0};
  for (int i = 0; i < 9; ++i) r.m[i] = static_cast<float>(inv[i]);
  for (int i = 0; i < 3; ++i)
    r.o[i] = static_cast<float>(-(inv[3 * i] * yoff + (inv[3 * i + 1] + inv[3 * i + 2]) * coff));
  return r;
}

}  // namespace texcv::detail

namespace texcv::cpu {

void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code);
void gamma(const ImageView& src, const ImageView& dst, double gamma);
// Smallest and largest element over all channels.
void min_max(const ImageView& src, double& lo, double& hi);
// Per-channel mean and population standard deviation.
void mean_std(const ImageView& src, double mean[4], double std[4]);
void convert(const ImageView& src, const ImageView& dst, const detail::ScaleDesc& d);
void affine_channels(const ImageView& src, const ImageView& dst,
                     const detail::AffineChannelDesc& d);
void threshold(const ImageView& src, const ImageView& dst, const detail::ThresholdDesc& d);
// Otsu's threshold of a u8 1-channel image.
int otsu_threshold(const ImageView& src);
std::vector<std::vector<std::uint64_t>> histogram(const ImageView& src, int bins, double lo,
                                                  double hi);
void equalize_hist(const ImageView& src, const ImageView& dst);
void clahe(const ImageView& src, const ImageView& dst, double clip_limit, int tiles_x, int tiles_y);

}  // namespace texcv::cpu

namespace texcv::cuda {

// The CUDA backend of the pointwise operations (src/cuda/ops/<op>/), on the caller's stream;
// without CUDA, the core's call throws NotCompiled (cuda_call.hpp).
void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code, void* stream);
void gamma(const ImageView& src, const ImageView& dst, double gamma, void* stream);
void convert(const ImageView& src, const ImageView& dst, const detail::ScaleDesc& d, void* stream);
void threshold(const ImageView& src, const ImageView& dst, const detail::ThresholdDesc& d,
               void* stream);

// The CUDA backend of the reductions and histograms (src/cuda/ops/hist/); without CUDA, the
// core's call throws NotCompiled (cuda_call.hpp). The functions that return host values
// (min_max, mean_std, histogram) read them back and synchronize the stream; the others only
// enqueue work on it.
// Smallest and largest element over all channels (f32: NaN ignored).
void min_max(const ImageView& src, double& lo, double& hi, void* stream);
// Per-channel mean and population standard deviation, as cpu::mean_std: u8/u16 from exact integer
// sums (identical), f32 from double sums in another order.
void mean_std(const ImageView& src, double mean[4], double std[4], void* stream);
void affine_channels(const ImageView& src, const ImageView& dst, const detail::AffineChannelDesc& d,
                     void* stream);
// op names errors (histogram, or threshold and equalize_hist, which use it).
std::vector<std::vector<std::uint64_t>> histogram(const char* op, const ImageView& src, int bins,
                                                  double lo, double hi, void* stream);
// equalize_hist (u8, 1 channel) on the stream, without synchronizing it: the counts, the CPU's
// table (detail::equalize_lut's arithmetic) and the lookup, all on the GPU.
void equalize_hist(const ImageView& src, const ImageView& dst, void* stream);
void clahe(const ImageView& src, const ImageView& dst, double clip_limit, int tiles_x, int tiles_y,
           void* stream);

}  // namespace texcv::cuda
