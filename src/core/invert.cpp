// invert (include/texcv/color.hpp): validation and routing to the CPU or CUDA backend.
#include "src/core/cuda_call.hpp"
#include "src/core/invert_desc.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/color.hpp"

namespace texcv {

void invert(const ImageView& src, const ImageView& dst, void* stream) {
  const char* op = "invert";
  detail::check_pair(op, src, dst);
  detail::check_same_size(op, src, dst);
  if (src.location == Location::device) return TEXCV_CUDA(op, cuda::invert(src, dst, stream));
  cpu::invert(src, dst);
}

}  // namespace texcv
