// invert (include/texcv/ops/invert.hpp): its spec (the registry entry: the pipeline step, the
// Python functions, texcv ops), its validation and its routing to the CPU or CUDA backend
// (src/core/ops/invert.hpp). The registry finds declare_invert through CMake
// (src/CMakeLists.txt: one TEXCV_OP line per file of src/core/ops/).
#include "texcv/ops/invert.hpp"

#include <utility>
#include <vector>

#include "src/core/cuda_call.hpp"
#include "src/core/op_spec.hpp"
#include "src/core/ops/invert.hpp"
#include "src/core/view_checks.hpp"

namespace texcv {

void invert(const ImageView& src, const ImageView& dst, void* stream) {
  const char* op = "invert";
  detail::check_pair(op, src, dst);
  detail::check_same_size(op, src, dst);
  if (src.location == Location::device) return TEXCV_CUDA(op, cuda::invert(src, dst, stream));
  cpu::invert(src, dst);
}

namespace reg {

void declare_invert(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "invert";
  e.spec.summary = "the negative: out = max - in (max 255, 65535 or 1), as cv::bitwise_not";
  e.spec.doc =
      "The negative, max - src per element (max 255, 65535 or 1.0), as cv2.bitwise_not for "
      "uint8 and uint16. Exact.";
  e.size = same_size;
  e.run = [](const Args&, const ImageView& src, const ImageView& dst, void* stream) {
    invert(src, dst, stream);
  };
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
