// The CUDA backend of the non-linear filters in a build without CUDA: every operation throws
// Error(NotCompiled).
#include "src/core/no_cuda/not_compiled.hpp"
#include "src/core/nonlinear_desc.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void median_blur(const ImageView&, const ImageView&, const detail::MedianDesc&, void*) {
  not_compiled("median_blur");
}
void bilateral_filter(const ImageView&, const ImageView&, const detail::BilateralDesc&, void*) {
  not_compiled("bilateral_filter");
}

}  // namespace texcv::cuda
