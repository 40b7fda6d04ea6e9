// What the colour and intensity operations share (src/core/color_common.hpp): the checks of
// their views, the colour codes' names and channel counts, the enums' names and parsers. Each
// op's own validation, routing and spec sit in src/core/ops/<op>.cpp.
#include "src/core/color_common.hpp"

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

namespace color_common {

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

}  // namespace color_common

using namespace color_common;  // NOLINT: this file's own helpers

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

}  // namespace texcv
