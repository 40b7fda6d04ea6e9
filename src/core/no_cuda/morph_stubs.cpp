// The CUDA backend of the morphology operations in a build without CUDA: every entry point throws
// Error(NotCompiled), naming the public operation.
#include "src/core/morph_desc.hpp"
#include "src/core/no_cuda/not_compiled.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void morph(const ImageView&, const ImageView&, const detail::MorphDesc& d, void*) {
  not_compiled(d.op);
}
void morph_subtract(const ImageView&, const ImageView&, const ImageView&, void*) {
  not_compiled("morphology");
}

MorphScratch::MorphScratch(const char* op, const ImageView&, void*) : op_(op) {
  not_compiled(op);
}
MorphScratch::~MorphScratch() = default;
void MorphScratch::release() {}

}  // namespace texcv::cuda
