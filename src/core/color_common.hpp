// What the colour and intensity operations share (src/core/ops/: cvt_color, gamma, normalize,
// convert, threshold, equalize_hist, clahe, histogram): the checks of their views, the
// largest level of a type and the colour codes' channel counts (src/core/color_common.cpp).
#pragma once

#include <string>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/core/cuda_call.hpp"
#include "src/core/op_spec.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/color.hpp"
#include "texcv/error.hpp"

namespace texcv::color_common {

using detail::size_str;

// v with 17 significant digits; "[lo, hi)".
std::string num(double v);
std::string range_str(double lo, double hi);
// Both views valid, same location and size, no overlap.
void check_views(const char* op, const ImageView& src, const ImageView& dst);
void check_same_type(const char* op, const ImageView& src, const ImageView& dst);
void check_same_channels(const char* op, const ImageView& src, const ImageView& dst);
// v (which: "source" or "destination") is 1-channel u8 (else Unsupported).
void check_u8_gray(const char* op, const ImageView& v, const char* which);
// The largest level of an element type: 255, 65535 or 1.
double type_max(ElemType t);

// A conversion code's name and channel counts ({nullptr, 0, 0} for a value out of the enum).
struct CodeInfo {
  const char* name;
  int src_channels, dst_channels;
};
CodeInfo info(ColorCode c);
bool is_hsv(ColorCode c);

}  // namespace texcv::color_common
