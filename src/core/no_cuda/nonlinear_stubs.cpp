// The CUDA backend of the non-linear filters in a build without CUDA: every operation throws
// Error(NotCompiled).
#include "src/core/nonlinear_desc.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {
[[noreturn]] void not_compiled(const char* op) {
  fail(ErrorCode::NotCompiled, op,
       "this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use device "
       "images");
}
}  // namespace

void median_blur(const ImageView&, const ImageView&, const detail::MedianDesc&, void*) {
  not_compiled("median_blur");
}
void bilateral_filter(const ImageView&, const ImageView&, const detail::BilateralDesc&, void*) {
  not_compiled("bilateral_filter");
}

}  // namespace texcv::cuda
