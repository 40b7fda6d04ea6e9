// cvt_color (include/texcv/ops/cvt_color.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/cvt_color.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

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

namespace reg {

void declare_cvt_color(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "cvt_color";
  e.spec.summary =
      "colour conversion, as cv::cvtColor (output: source type, the code's channel count)";
  e.spec.params.push_back(required(
      p_enum("code", "", enum_names(ColorCode::hsv2bgr),
             "conversion; the source must have the code's input channels (docs/ops/color.md)")));
  e.size = same_size;
  e.format = [](const Args& a, ElemType&, int& channels) {
    channels = info(parse_color_code(a.e("code"))).dst_channels;
  };
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    cvt_color(src, dst, parse_color_code(a.e("code")), stream);
  };
  e.spec.doc =
      "Colour conversion, as cv2.cvtColor (\"rgb2gray\", \"gray2rgb\", \"rgb2yuv_bt709\", "
      "\"rgb2hsv\",\n"
      "...; docs/ops/color.md). u8 gray is bit-exact with OpenCV.";
  declare_python(e.spec, {"code"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
