// equalize_hist (include/texcv/ops/equalize_hist.hpp): its validation and routing to the CPU or
// CUDA backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv
// ops).
#include "texcv/ops/equalize_hist.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

void equalize_hist(const ImageView& src, const ImageView& dst, void* stream) {
  const char* op = "equalize_hist";
  check_views(op, src, dst);
  check_u8_gray(op, src, "source");
  check_u8_gray(op, dst, "destination");
  if (src.location == Location::device)
    return TEXCV_CUDA(op, cuda::equalize_hist(src, dst, stream));  // no synchronization
  cpu::equalize_hist(src, dst);
}

namespace reg {

void declare_equalize_hist(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "equalize_hist";
  e.spec.summary = "histogram equalization, as cv::equalizeHist (u8 1-channel)";
  e.size = same_size;
  e.run = [](const Args&, const ImageView& src, const ImageView& dst, void* stream) {
    equalize_hist(src, dst, stream);
  };
  e.spec.doc = "Histogram equalization, as cv2.equalizeHist (u8, 1 channel). Exact.";
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
