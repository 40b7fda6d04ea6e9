// The CUDA backend of the morphology operations in a build without CUDA: every entry point throws
// Error(NotCompiled), naming the public operation.
#include "src/core/morph_desc.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {
[[noreturn]] void not_compiled(const char* op) {
  fail(ErrorCode::NotCompiled, op,
       "this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use device "
       "images");
}
}  // namespace

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
