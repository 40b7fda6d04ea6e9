// morphology (include/texcv/ops/morphology.hpp): its entry point (open, close, gradient, tophat,
// blackhat, or erode and dilate), routed through the morphology engine
// (src/core/morph_common.hpp), and its spec (the registry entry).
#include "texcv/ops/morphology.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/morph_common.hpp"
#include "src/core/op_spec.hpp"
#include "texcv/error.hpp"

namespace texcv {

void morphology(const ImageView& src, const ImageView& dst, MorphOp op, const MorphParams& p,
                void* stream) {
  const char* name = "morphology";
  if (static_cast<unsigned>(op) > static_cast<unsigned>(MorphOp::blackhat))
    fail(ErrorCode::InvalidArgument, name, "operation is not valid",
         std::to_string(static_cast<int>(op)),
         "erode, dilate, open, close, gradient, tophat or blackhat");
  morph_common::run(name, op, src, dst, p, stream);
}

namespace reg {

void declare_morphology(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "morphology";
  e.spec.summary =
      "open, close, gradient, tophat or blackhat (or erode, dilate), as cv::morphologyEx";
  e.spec.params.push_back(required(
      p_enum("op", "", {"erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"},
             "the operation")));
  add_morph_params(e);
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    morphology(src, dst, parse_morph_op(a.e("op")), morph_params(a), stream);
  };
  e.spec.doc =
      "\"open\", \"close\", \"gradient\", \"tophat\" or \"blackhat\" (or \"erode\", \"dilate\"), "
      "as\ncv2.morphologyEx. Exact.";
  declare_python(e.spec, {"op", "ksize"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
