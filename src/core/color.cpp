// The public colour and intensity operations: validate, resolve parameters into the descriptors
// of src/core/color_desc.hpp, and forward to the CPU backend, or for device views to the CUDA
// backend. normalize, equalize_hist and threshold(otsu) are composed here from backend steps
// (a reduction or histogram read back to the host, a host computation shared by both backends in
// src/core/color_stats.hpp, then a per-pixel map), so both backends compute the same parameters.
#include "texcv/color.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/core/cuda_call.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/error.hpp"

namespace texcv {

namespace {

using detail::size_str;

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string range_str(double lo, double hi) {
  std::string s = num(lo);
  s.insert(0, 1, '[');
  s.append(", ").append(num(hi)).append(")");
  return s;
}

// Both views valid, same location and size, no overlap.
void check_views(const char* op, const ImageView& src, const ImageView& dst) {
  validate_view(src, op, "source");
  validate_view(dst, op, "destination");
  if (src.location != dst.location)
    fail(ErrorCode::InvalidArgument, op, "destination location differs from the source",
         to_string(dst.location), to_string(src.location));
  if (src.width != dst.width || src.height != dst.height)
    fail(ErrorCode::InvalidArgument, op, "destination size differs from the source",
         size_str(dst.width, dst.height), size_str(src.width, src.height));
  detail::check_no_overlap(op, dst, src, "source");
}

void check_same_type(const char* op, const ImageView& src, const ImageView& dst) {
  if (src.type != dst.type)
    fail(ErrorCode::InvalidArgument, op, "destination element type differs from the source",
         to_string(dst.type), to_string(src.type));
}

void check_same_channels(const char* op, const ImageView& src, const ImageView& dst) {
  if (src.channels != dst.channels)
    fail(ErrorCode::InvalidArgument, op, "destination channel count differs from the source",
         std::to_string(dst.channels), std::to_string(src.channels));
}

void check_u8_gray(const char* op, const ImageView& v, const char* which) {
  if (v.type != ElemType::u8)
    fail(ErrorCode::Unsupported, op, std::string(which) + " element type is not supported",
         to_string(v.type), "u8");
  if (v.channels != 1)
    fail(ErrorCode::Unsupported, op, std::string(which) + " channel count is not supported",
         std::to_string(v.channels), "1");
}

double type_max(ElemType t) {
  return t == ElemType::u8 ? 255.0 : t == ElemType::u16 ? 65535.0 : 1.0;
}

struct CodeInfo {
  const char* name;
  int src_channels, dst_channels;
};

CodeInfo info(ColorCode c) {
  switch (c) {
    case ColorCode::rgb2bgr:
      return {"rgb2bgr", 3, 3};
    case ColorCode::rgba2bgra:
      return {"rgba2bgra", 4, 4};
    case ColorCode::rgb2gray:
      return {"rgb2gray", 3, 1};
    case ColorCode::bgr2gray:
      return {"bgr2gray", 3, 1};
    case ColorCode::rgba2gray:
      return {"rgba2gray", 4, 1};
    case ColorCode::bgra2gray:
      return {"bgra2gray", 4, 1};
    case ColorCode::gray2rgb:
      return {"gray2rgb", 1, 3};
    case ColorCode::gray2rgba:
      return {"gray2rgba", 1, 4};
    case ColorCode::rgb2yuv_bt601:
      return {"rgb2yuv_bt601", 3, 3};
    case ColorCode::rgb2yuv_bt601_limited:
      return {"rgb2yuv_bt601_limited", 3, 3};
    case ColorCode::rgb2yuv_bt709:
      return {"rgb2yuv_bt709", 3, 3};
    case ColorCode::rgb2yuv_bt709_limited:
      return {"rgb2yuv_bt709_limited", 3, 3};
    case ColorCode::yuv2rgb_bt601:
      return {"yuv2rgb_bt601", 3, 3};
    case ColorCode::yuv2rgb_bt601_limited:
      return {"yuv2rgb_bt601_limited", 3, 3};
    case ColorCode::yuv2rgb_bt709:
      return {"yuv2rgb_bt709", 3, 3};
    case ColorCode::yuv2rgb_bt709_limited:
      return {"yuv2rgb_bt709_limited", 3, 3};
    case ColorCode::rgb2hsv:
      return {"rgb2hsv", 3, 3};
    case ColorCode::bgr2hsv:
      return {"bgr2hsv", 3, 3};
    case ColorCode::hsv2rgb:
      return {"hsv2rgb", 3, 3};
    case ColorCode::hsv2bgr:
      return {"hsv2bgr", 3, 3};
  }
  return {nullptr, 0, 0};
}

constexpr int kNumCodes = static_cast<int>(ColorCode::hsv2bgr) + 1;

bool is_hsv(ColorCode c) {
  return c == ColorCode::rgb2hsv || c == ColorCode::bgr2hsv || c == ColorCode::hsv2rgb ||
         c == ColorCode::hsv2bgr;
}

template <typename E, int N>
E parse_enum(std::string_view s, const char* op, const char* what, const char* (*name)(E)) {
  std::string accepted;
  for (int i = 0; i < N; ++i) {
    const E e = static_cast<E>(i);
    if (s == name(e)) return e;
    if (i) accepted.append(i + 1 == N ? " or " : ", ");
    accepted.append(name(e));
  }
  std::string got(s);
  got.insert(got.begin(), '"');
  got.push_back('"');
  fail(ErrorCode::InvalidArgument, op, what, got, accepted);
}

const char* color_name(ColorCode c) {
  return to_string(c);
}
const char* normalize_name(NormalizeMode m) {
  return to_string(m);
}
const char* threshold_name(ThresholdType t) {
  return to_string(t);
}

}  // namespace

const char* to_string(ColorCode v) noexcept {
  const char* n = info(v).name;
  return n ? n : "unknown";
}

ColorCode parse_color_code(std::string_view s) {
  return parse_enum<ColorCode, kNumCodes>(s, "cvt_color", "unknown colour conversion code",
                                          color_name);
}

const char* to_string(NormalizeMode v) noexcept {
  switch (v) {
    case NormalizeMode::minmax:
      return "minmax";
    case NormalizeMode::mean_std:
      return "mean_std";
  }
  return "unknown";
}

NormalizeMode parse_normalize_mode(std::string_view s) {
  return parse_enum<NormalizeMode, 2>(s, "normalize", "unknown normalize mode", normalize_name);
}

const char* to_string(ThresholdType v) noexcept {
  switch (v) {
    case ThresholdType::binary:
      return "binary";
    case ThresholdType::binary_inv:
      return "binary_inv";
    case ThresholdType::trunc:
      return "trunc";
    case ThresholdType::tozero:
      return "tozero";
    case ThresholdType::tozero_inv:
      return "tozero_inv";
    case ThresholdType::otsu:
      return "otsu";
  }
  return "unknown";
}

ThresholdType parse_threshold_type(std::string_view s) {
  return parse_enum<ThresholdType, 6>(s, "threshold", "unknown threshold type", threshold_name);
}

void detail::check_normalize(const char* op, Naming n, const NormalizeParams& p) {
  const bool api = n == Naming::api;
  if (p.mode == NormalizeMode::minmax) {
    if (!std::isfinite(p.alpha) || !std::isfinite(p.beta))
      fail(ErrorCode::InvalidArgument, op, "alpha and beta must be finite",
           api ? num(p.alpha) + ", " + num(p.beta)
               : "alpha=" + num(p.alpha) + ", beta=" + num(p.beta),
           "finite values");
    return;
  }
  if (p.mode != NormalizeMode::mean_std)
    fail(ErrorCode::InvalidArgument, op, "normalize mode is not valid",
         std::to_string(static_cast<int>(p.mode)), "minmax or mean_std");
  if (!std::isfinite(p.mean) || !(p.std >= 0.0) || !std::isfinite(p.std))
    fail(ErrorCode::InvalidArgument, op, "target mean must be finite and std >= 0",
         api ? num(p.mean) + ", " + num(p.std) : "mean=" + num(p.mean) + ", std=" + num(p.std),
         "a finite mean and a finite std >= 0");
}

void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code, void* stream) {
  const char* op = "cvt_color";
  check_views(op, src, dst);
  check_same_type(op, src, dst);
  const CodeInfo ci = info(code);
  if (ci.name == nullptr)
    fail(ErrorCode::InvalidArgument, op, "colour conversion code is not valid",
         std::to_string(static_cast<int>(code)), "a ColorCode");
  if (src.channels != ci.src_channels)
    fail(ErrorCode::Unsupported, op,
         std::string("source channel count does not fit the code ").append(ci.name),
         std::to_string(src.channels), std::to_string(ci.src_channels));
  if (dst.channels != ci.dst_channels)
    fail(ErrorCode::InvalidArgument, op,
         std::string("destination channel count does not fit the code ").append(ci.name),
         std::to_string(dst.channels), std::to_string(ci.dst_channels));
  if (is_hsv(code) && src.type == ElemType::u16)
    fail(ErrorCode::Unsupported, op,
         std::string("element type is not supported by ").append(ci.name), "u16", "u8 or f32");
  if (src.location == Location::device)
    return TEXCV_CUDA("cvt_color", cuda::cvt_color(src, dst, code, stream));
  cpu::cvt_color(src, dst, code);
}

void gamma(const ImageView& src, const ImageView& dst, double g, void* stream) {
  const char* op = "gamma";
  check_views(op, src, dst);
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  if (!(g > 0.0) || !std::isfinite(g))
    fail(ErrorCode::InvalidArgument, op, "gamma must be positive and finite", num(g), "> 0");
  if (src.location == Location::device)
    return TEXCV_CUDA("gamma", cuda::gamma(src, dst, g, stream));
  cpu::gamma(src, dst, g);
}

void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& p, void* stream) {
  const char* op = "normalize";
  const bool dev = src.location == Location::device;
  check_views(op, src, dst);
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  detail::check_normalize(op, detail::Naming::api, p);
  if (p.mode == NormalizeMode::minmax) {
    // As cv::normalize(NORM_MINMAX): scale = (dmax - dmin) / (smax - smin) (0 when the range is
    // below DBL_EPSILON), shift = dmin - smin * scale, then convertTo in float.
    double smin = 0, smax = 0;
    if (dev)
      TEXCV_CUDA("normalize", cuda::min_max(src, smin, smax, stream));
    else
      cpu::min_max(src, smin, smax);
    const double dmin = std::fmin(p.alpha, p.beta), dmax = std::fmax(p.alpha, p.beta);
    double scale =
        (dmax - dmin) * (smax - smin > 2.220446049250313e-16 ? 1.0 / (smax - smin) : 0.0);
    double shift = dmin - smin * scale;
    if (src.type == ElemType::f32) {
      scale = static_cast<float>(scale);
      shift = static_cast<double>(static_cast<float>(dmin)) -
              static_cast<double>(static_cast<float>(smin * scale));
    }
    detail::ScaleDesc d;
    d.scale = static_cast<float>(scale);
    d.offset = static_cast<float>(shift);
    d.identity = false;
    if (dev) return TEXCV_CUDA("convert", cuda::convert(src, dst, d, stream));
    cpu::convert(src, dst, d);
    return;
  }
  double mean[4], sd[4];
  if (dev)
    TEXCV_CUDA("normalize", cuda::mean_std(src, mean, sd, stream));
  else
    cpu::mean_std(src, mean, sd);
  detail::AffineChannelDesc d;
  for (int c = 0; c < src.channels; ++c) {
    const double s = sd[c] > 0.0 ? p.std / sd[c] : 0.0;
    d.scale[c] = static_cast<float>(s);
    d.offset[c] = static_cast<float>(p.mean - mean[c] * s);
  }
  if (dev) return TEXCV_CUDA("normalize", cuda::affine_channels(src, dst, d, stream));
  cpu::affine_channels(src, dst, d);
}

void convert(const ImageView& src, const ImageView& dst, double scale, double offset,
             void* stream) {
  const char* op = "convert";
  check_views(op, src, dst);
  check_same_channels(op, src, dst);
  if (!std::isfinite(scale) || !std::isfinite(offset))
    fail(ErrorCode::InvalidArgument, op, "scale and offset must be finite",
         num(scale) + ", " + num(offset), "finite values");
  detail::ScaleDesc d;
  d.scale = static_cast<float>(scale);
  d.offset = static_cast<float>(offset);
  d.identity = scale == 1.0 && offset == 0.0;
  if (src.location == Location::device)
    return TEXCV_CUDA("convert", cuda::convert(src, dst, d, stream));
  cpu::convert(src, dst, d);
}

double threshold(const ImageView& src, const ImageView& dst, double thresh, double maxval,
                 ThresholdType type, void* stream) {
  const char* op = "threshold";
  check_views(op, src, dst);
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  if (static_cast<unsigned>(type) > static_cast<unsigned>(ThresholdType::otsu))
    fail(ErrorCode::InvalidArgument, op, "threshold type is not valid",
         std::to_string(static_cast<int>(type)),
         "binary, binary_inv, trunc, tozero, tozero_inv or otsu");
  if (!std::isfinite(maxval))
    fail(ErrorCode::InvalidArgument, op, "maxval must be finite", num(maxval), "a finite value");
  if (type == ThresholdType::otsu) {
    if (src.type != ElemType::u8 || src.channels != 1)
      fail(ErrorCode::Unsupported, op, "otsu needs a 1-channel u8 source",
           std::to_string(src.channels) + "-channel " + to_string(src.type), "1-channel u8");
  } else if (!std::isfinite(thresh)) {
    fail(ErrorCode::InvalidArgument, op, "thresh must be finite", num(thresh), "a finite value");
  }
  detail::ThresholdDesc d;
  d.type = type == ThresholdType::otsu ? ThresholdType::binary : type;
  if (type == ThresholdType::otsu) {
    // Device: the histogram on the GPU (read back, synchronizing the stream), Otsu's level on the
    // host by the CPU's function.
    if (src.location == Location::device)
      thresh = detail::otsu_from_hist(
          TEXCV_CUDA(op, cuda::histogram(op, src, 256, 0.0, 256.0, stream))[0].data(),
          static_cast<std::uint64_t>(src.width) * src.height);
    else
      thresh = cpu::otsu_threshold(src);
  }
  if (src.type == ElemType::f32) {
    // OpenCV compares and stores in float and returns thresh unchanged.
    d.thresh = static_cast<float>(thresh);
    d.maxval = static_cast<float>(maxval);
  } else {
    // As OpenCV for integer images: threshold floor(thresh), maxval rounded; trunc stores the
    // threshold. Stored values saturate to the type.
    thresh = std::floor(thresh);
    d.thresh = thresh;
    const double m = d.type == ThresholdType::trunc ? thresh : std::nearbyint(maxval);
    d.maxval = std::fmin(std::fmax(m, 0.0), type_max(src.type));
  }
  if (src.location == Location::device)
    TEXCV_CUDA("threshold", cuda::threshold(src, dst, d, stream));
  else
    cpu::threshold(src, dst, d);
  return thresh;
}

std::vector<std::vector<std::uint64_t>> histogram(const ImageView& src, int bins,
                                                  std::array<double, 2> range, void* stream) {
  const char* op = "histogram";
  validate_view(src, op, "source");
  if (bins <= 0)
    fail(ErrorCode::InvalidArgument, op, "bins must be positive", std::to_string(bins), "> 0");
  if (bins > (1 << 24))
    fail(ErrorCode::InvalidArgument, op, "too many bins", std::to_string(bins), "<= 16777216");
  if (!std::isfinite(range[0]) || !std::isfinite(range[1]) || !(range[0] < range[1]))
    fail(ErrorCode::InvalidArgument, op, "range is empty or not finite",
         range_str(range[0], range[1]), "finite lo < hi");
  if (src.location == Location::device)
    return TEXCV_CUDA(op, cuda::histogram(op, src, bins, range[0], range[1], stream));
  return cpu::histogram(src, bins, range[0], range[1]);
}

void equalize_hist(const ImageView& src, const ImageView& dst, void* stream) {
  const char* op = "equalize_hist";
  check_views(op, src, dst);
  check_u8_gray(op, src, "source");
  check_u8_gray(op, dst, "destination");
  if (src.location == Location::device) {
    // The histogram on the GPU (read back, synchronizing the stream), the CPU's table on the
    // host, the lookup on the GPU.
    const std::vector<std::uint64_t> h =
        TEXCV_CUDA(op, cuda::histogram(op, src, 256, 0.0, 256.0, stream))[0];
    std::uint8_t lut[256];
    detail::equalize_lut(h.data(), static_cast<std::uint64_t>(src.width) * src.height, lut);
    return TEXCV_CUDA(op, cuda::apply_lut_u8(op, src, dst, lut, stream));
  }
  cpu::equalize_hist(src, dst);
}

void clahe(const ImageView& src, const ImageView& dst, const ClaheParams& p, void* stream) {
  const char* op = "clahe";
  check_views(op, src, dst);
  if (src.type == ElemType::f32)
    fail(ErrorCode::Unsupported, op, "source element type is not supported", "f32", "u8 or u16");
  if (src.channels != 1)
    fail(ErrorCode::Unsupported, op, "source channel count is not supported",
         std::to_string(src.channels), "1");
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  if (!(p.clip_limit >= 0.0) || !std::isfinite(p.clip_limit))
    fail(ErrorCode::InvalidArgument, op, "clip limit must be finite and >= 0", num(p.clip_limit),
         ">= 0");
  if (p.tiles_x < 1 || p.tiles_y < 1 || p.tiles_x > src.width || p.tiles_y > src.height)
    fail(ErrorCode::InvalidArgument, op,
         "tile grid must be at least 1x1 and at most the image size",
         size_str(p.tiles_x, p.tiles_y), "1x1 .. " + size_str(src.width, src.height));
  if (src.location == Location::device)
    return TEXCV_CUDA("clahe", cuda::clahe(src, dst, p.clip_limit, p.tiles_x, p.tiles_y, stream));
  cpu::clahe(src, dst, p.clip_limit, p.tiles_x, p.tiles_y);
}

}  // namespace texcv
