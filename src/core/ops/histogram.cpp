// histogram (include/texcv/ops/histogram.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the Python functions; not a pipeline step).
#include "texcv/ops/histogram.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

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

namespace reg {

void declare_histogram(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "histogram";
  e.spec.summary = "counts per channel in equal bins over [lo, hi), as cv::calcHist";
  e.spec.pipeline = false;  // counts, not an image
  e.spec.output = "counts";
  auto& ps = e.spec.params;
  ps.push_back(p_int("bins", "256", 1, "number of equal bins, at most 16777216"));
  ps.push_back(p_floats("range", "0|256", 2, 2, "lo|hi: the half-open range the bins cover"));
  e.run_counts = [](const Args& a, const ImageView& src, void* stream) {
    const auto r = a.fs("range");
    return histogram(src, a.i("bins"), {r[0], r[1]}, stream);
  };
  e.spec.doc =
      "Counts per channel in `bins` equal bins over [range[0], range[1]), as cv2.calcHist:\n"
      "a uint64 numpy array (bins,) for an H x W source, (C, bins) for H x W x C. For CUDA arrays\n"
      "the counts come back to the host (the call synchronizes the stream).";
  declare_python(e.spec, {"bins", "range"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
