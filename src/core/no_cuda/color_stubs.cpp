// The CUDA backend of the colour and intensity operations in a build without CUDA: every
// operation throws Error(NotCompiled).
#include "src/core/color_desc.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {
[[noreturn]] void not_compiled(const char* op) {
  fail(ErrorCode::NotCompiled, op,
       "this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use device "
       "images");
}
}  // namespace

void cvt_color(const ImageView&, const ImageView&, ColorCode, void*) {
  not_compiled("cvt_color");
}
void gamma(const ImageView&, const ImageView&, double, void*) {
  not_compiled("gamma");
}
void convert(const ImageView&, const ImageView&, const detail::ScaleDesc&, void*) {
  not_compiled("convert");
}
void threshold(const ImageView&, const ImageView&, const detail::ThresholdDesc&, void*) {
  not_compiled("threshold");
}

}  // namespace texcv::cuda
