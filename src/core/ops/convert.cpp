// convert (include/texcv/ops/convert.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/convert.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

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

namespace reg {

void declare_convert(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "convert";
  e.spec.summary =
      "change the element type: out = saturate(in * scale + offset), as cv::Mat::convertTo";
  auto& ps = e.spec.params;
  ps.push_back(
      p_enum("type", "", enum_names(ElemType::f32), "output element type (default: the source's)"));
  ps.back().numpy_dtype = true;  // Python: dtype=np.float32 (or "float32")
  ps.push_back(p_float("scale", "1", "factor applied to every element"));
  ps.push_back(p_float("offset", "0", "added after scaling (before rounding and saturation)"));
  e.size = same_size;
  e.format = [](const Args& a, ElemType& type, int&) {
    if (a.has("type")) type = parse_elem_type(a.e("type"));
  };
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    convert(src, dst, a.f("scale"), a.f("offset"), stream);
  };
  e.spec.doc =
      "saturate(src * scale + offset) in dtype (\"uint8\", \"uint16\", \"float32\"; default "
      "src's),\n"
      "as cv2.Mat.convertTo.";
  declare_python(e.spec, {"type"}, {"type"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
