// threshold (include/texcv/ops/threshold.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/threshold.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

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

namespace reg {

void declare_threshold(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "threshold";
  e.spec.summary = "per-element threshold, as cv::threshold (otsu: u8 1-channel)";
  auto& ps = e.spec.params;
  ps.push_back(p_float("thresh", "", "the threshold (required unless type=otsu)"));
  ps.push_back(p_float("maxval", "", "value of the elements above (default: 255, 65535 or 1)"));
  ps.push_back(p_enum("type", "binary", enum_names(ThresholdType::otsu),
                      "as cv::THRESH_*; otsu: binary at Otsu's level, thresh ignored"));
  e.check = [](const Args& a, detail::Naming) {
    if (!a.has("thresh") && parse_threshold_type(a.e("type")) != ThresholdType::otsu)
      fail(kInvalid, "threshold", "parameter 'thresh' is required", "no thresh",
           "thresh=<a number>, or type=otsu");
  };
  e.size = same_size;
  // The image and the threshold used (Otsu's level, or thresh floored for integer types).
  e.spec.output = "image_value";
  e.run_value = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    const ThresholdType type = parse_threshold_type(a.e("type"));
    const double maxval = a.has("maxval") ? a.f("maxval") : type_max(src.type);
    return threshold(src, dst, a.has("thresh") ? a.f("thresh") : 0.0, maxval, type, stream);
  };
  e.spec.doc =
      "As cv2.threshold: returns (threshold used, dst). type: \"binary\", \"binary_inv\", "
      "\"trunc\",\n"
      "\"tozero\", \"tozero_inv\" or \"otsu\" (u8 1-channel; thresh ignored).";
  declare_python(e.spec, {"thresh", "maxval", "type"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
