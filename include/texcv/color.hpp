// Colour and intensity operations: cvt_color, gamma, normalize, convert, threshold, histogram,
// equalize_hist, clahe. Semantics follow OpenCV 4.6 where OpenCV has the operation
// (docs/ops/color.md gives every formula and the measured agreement with OpenCV).
//
// Every operation reads src and writes dst (dst already sized; outputs may not overlap inputs).
// Both views must be in the same location.
//
// BACKENDS: the CPU backend and the CUDA backend implement every operation (device views run on
// the given stream) with the same results, except f32 gamma (within 1 ulp) and f32 normalize
// mean_std (within a stated bound): docs/ops/color.md. On device views, histogram returns host
// vectors and, like normalize, equalize_hist and threshold(otsu), reads a reduction or histogram
// back to the host, which synchronizes the stream.
//
// Supported element types and channel counts (src -> dst):
// | op            | u8 | u16 | f32 | channels                                               |
// | cvt_color     | x  | x   | x   | per code (below); HSV codes: u8 and f32 only             |
// | gamma         | x  | x   | x   | 1, 3, 4 (alpha is transformed too)                     |
// | normalize     | x  | x   | x   | 1, 3, 4; dst same type and channels                    |
// | convert       | x  | x   | x   | 1, 3, 4; dst any type, same channels                   |
// | threshold     | x  | x   | x   | 1, 3, 4 (per element); otsu: u8 1-channel              |
// | histogram     | x  | x   | x   | 1, 3, 4 (one histogram per channel)                    |
// | equalize_hist | x  |     |     | 1                                                      |
// | clahe         | x  | x   |     | 1                                                      |
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "texcv/image.hpp"

namespace texcv {

// Colour conversion codes. Channel counts: src -> dst. Same element type on both sides.
enum class ColorCode : std::uint8_t {
  rgb2bgr,    // 3 -> 3 (swap R and B; also BGR -> RGB)
  rgba2bgra,  // 4 -> 4 (swap R and B, keep alpha; also BGRA -> RGBA)
  rgb2gray,   // 3 -> 1: 0.299 R + 0.587 G + 0.114 B
  bgr2gray,   // 3 -> 1
  rgba2gray,  // 4 -> 1
  bgra2gray,  // 4 -> 1
  gray2rgb,   // 1 -> 3
  gray2rgba,  // 1 -> 4 (alpha = 255, 65535 or 1.0)
  // YUV = Y'CbCr: U = Cb, V = Cr (docs/ops/color.md defines the matrices); 3 -> 3.
  rgb2yuv_bt601,          // BT.601, full range
  rgb2yuv_bt601_limited,  // BT.601, limited (video) range
  rgb2yuv_bt709,
  rgb2yuv_bt709_limited,
  yuv2rgb_bt601,
  yuv2rgb_bt601_limited,
  yuv2rgb_bt709,
  yuv2rgb_bt709_limited,
  // HSV as OpenCV: u8 H in [0, 180), S, V in [0, 255]; f32 H in [0, 360), S in [0, 1], V = max.
  rgb2hsv,  // 3 -> 3
  bgr2hsv,
  hsv2rgb,
  hsv2bgr,
};
const char* to_string(ColorCode v) noexcept;
// Parses the names above ("rgb2gray", "rgb2yuv_bt709_limited", ...).
ColorCode parse_color_code(std::string_view s);

// cvt_color: converts between colour spaces. dst has src's size and type and the code's channel
// count. Gray: u8 in OpenCV's 15-bit fixed point (bit-exact with cv::cvtColor 4.6), u16 the
// 14-bit sum rounded once (within 2 levels of OpenCV), f32 in float. docs/ops/color.md has the
// formulas and accuracy of every code.
void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code, void* stream = nullptr);

// gamma: out = max * (in / max)^gamma, max = 255 (u8), 65535 (u16), 1 (f32); u8/u16 through a
// lookup table rounded half to even; f32 computed as is (sign(in) * |in|^gamma). gamma > 0, finite.
void gamma(const ImageView& src, const ImageView& dst, double gamma, void* stream = nullptr);

// invert: out = max - in per element, max = 255 (u8), 65535 (u16), 1 (f32): the negative, as
// cv::bitwise_not for u8 and u16; exact. dst: src's size, type and channels (src/core/invert.cpp).
void invert(const ImageView& src, const ImageView& dst, void* stream = nullptr);

enum class NormalizeMode : std::uint8_t { minmax, mean_std };
const char* to_string(NormalizeMode v) noexcept;
NormalizeMode parse_normalize_mode(std::string_view s);
struct NormalizeParams {
  NormalizeMode mode = NormalizeMode::minmax;
  // minmax: as cv::normalize(NORM_MINMAX): the smallest and largest element over all channels
  // map to min(alpha, beta) and max(alpha, beta).
  double alpha = 0.0, beta = 1.0;
  // mean_std: each channel c becomes (in - mean_c) / std_c * std + mean (population std; a
  // channel with std_c = 0 becomes mean).
  double mean = 0.0, std = 1.0;
};
void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& p = {},
               void* stream = nullptr);

// convert: dst = saturate(src * scale + offset) in dst's element type, as cv::Mat::convertTo
// (float arithmetic, rounded half to even, saturated). Same size and channels.
void convert(const ImageView& src, const ImageView& dst, double scale = 1.0, double offset = 0.0,
             void* stream = nullptr);

enum class ThresholdType : std::uint8_t { binary, binary_inv, trunc, tozero, tozero_inv, otsu };
const char* to_string(ThresholdType v) noexcept;
ThresholdType parse_threshold_type(std::string_view s);
// threshold: as cv::threshold, per element. otsu = binary with Otsu's threshold (u8 1-channel;
// thresh is ignored). Returns the threshold used, as OpenCV: floor(thresh) for u8/u16, thresh
// itself for f32 (compared in float), Otsu's level for otsu.
double threshold(const ImageView& src, const ImageView& dst, double thresh, double maxval,
                 ThresholdType type, void* stream = nullptr);

// histogram: per-channel counts of `bins` equal bins over [range[0], range[1]) (as cv::calcHist,
// uniform): element v counts in bin floor(v * a + b), a = bins / (hi - lo), b = -lo * a (double),
// when that is in [0, bins). bins in 1 .. 2^24, lo < hi, both finite. A device src is counted on
// the GPU on `stream`, and the counts are copied back (the call synchronizes the stream).
std::vector<std::vector<std::uint64_t>> histogram(const ImageView& src, int bins,
                                                  std::array<double, 2> range,
                                                  void* stream = nullptr);

// equalize_hist: as cv::equalizeHist (u8 1-channel).
void equalize_hist(const ImageView& src, const ImageView& dst, void* stream = nullptr);

// clahe: contrast-limited adaptive histogram equalization as cv::createCLAHE(clip_limit,
// tile_grid)->apply (u8 or u16, 1 channel; u16 uses 65536 bins as OpenCV). clip_limit >= 0 (0: no
// clipping); tile grid >= 1 x 1 and at most the image size.
struct ClaheParams {
  double clip_limit = 40.0;
  int tiles_x = 8, tiles_y = 8;
};
void clahe(const ImageView& src, const ImageView& dst, const ClaheParams& p = {},
           void* stream = nullptr);

}  // namespace texcv
