// median_blur (include/texcv/ops/median_blur.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/median_blur.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"
#include "src/core/nonlinear_desc.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

void detail::check_median(const char* op, Naming n, int ksize) {
  const ParamName name{"ksize", n};
  const std::string k = std::to_string(ksize);
  const std::string expected = "an odd number from 1 to " + std::to_string(kMaxNonlinear);
  if (ksize % 2 == 0) fail(kInvalid, op, name.subject() + " must be odd", name.got(k), expected);
  if (ksize < 1 || ksize > kMaxNonlinear)
    fail(kInvalid, op, name.subject() + " is out of range", name.got(k), expected);
}

void median_blur(const ImageView& src, const ImageView& dst, int ksize, void* stream) {
  const char* op = "median_blur";
  check_io(op, src, dst, false);
  detail::check_median(op, detail::Naming::api, ksize);
  detail::MedianDesc d;
  d.ksize = ksize;
  if (src.location == Location::device)
    TEXCV_CUDA("median_blur", cuda::median_blur(src, dst, d, stream));
  else
    cpu::median_blur(src, dst, d);
}

namespace reg {

void declare_median_blur(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "median_blur";
  e.spec.summary = "median of a ksize x ksize window, as cv::medianBlur (edges replicated)";
  e.spec.params.push_back(p_int("ksize", "3", 1, "odd window size, 1 to 255"));
  e.check = [](const Args& a, detail::Naming n) {
    detail::check_median("median_blur", n, a.i("ksize"));
  };
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    median_blur(src, dst, a.i("ksize"), stream);
  };
  e.spec.doc =
      "Median of each ksize x ksize window (odd, 1 to 255; edges replicated), as\n"
      "cv2.medianBlur. Exact (identical to OpenCV).";
  declare_python(e.spec, {"ksize"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
