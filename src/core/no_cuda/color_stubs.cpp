// The CUDA backend of the colour and intensity operations in a build without CUDA: every
// operation throws Error(NotCompiled).
#include "src/core/color_desc.hpp"
#include "src/core/no_cuda/not_compiled.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

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
