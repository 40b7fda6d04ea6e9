// The CUDA backend of the linear filters in a build without CUDA: every operation throws
// Error(NotCompiled).
#include "src/core/filters_desc.hpp"
#include "src/core/no_cuda/not_compiled.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void filter_2d(const char* op, const ImageView&, const ImageView&, const detail::Filter2DDesc&,
               void*) {
  not_compiled(op);
}
void filter_separable(const char* op, const ImageView&, const ImageView&,
                      const detail::SepFilterDesc&, void*) {
  not_compiled(op);
}
void unsharp_mask(const ImageView&, const ImageView&, const detail::UnsharpDesc&, void*) {
  not_compiled("unsharp_mask");
}

}  // namespace texcv::cuda
