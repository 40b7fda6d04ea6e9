// The CUDA backend of the reductions, histograms and clahe in a build without CUDA: every entry
// point throws Error(NotCompiled).
#include "src/core/color_desc.hpp"
#include "src/core/no_cuda/not_compiled.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void min_max(const ImageView&, double&, double&, void*) {
  not_compiled("normalize");
}
void mean_std(const ImageView&, double*, double*, void*) {
  not_compiled("normalize");
}
void affine_channels(const ImageView&, const ImageView&, const detail::AffineChannelDesc&, void*) {
  not_compiled("normalize");
}
std::vector<std::vector<std::uint64_t>> histogram(const char* op, const ImageView&, int, double,
                                                  double, void*) {
  not_compiled(op);
}
void apply_lut_u8(const char* op, const ImageView&, const ImageView&, const std::uint8_t*, void*) {
  not_compiled(op);
}
void clahe(const ImageView&, const ImageView&, double, int, int, void*) {
  not_compiled("clahe");
}

}  // namespace texcv::cuda
