// dilate (include/texcv/ops/dilate.hpp): its entry point, routed through the morphology engine
// (src/core/morph_common.hpp: the rule, the element, the passes on the source's backend), and
// its spec (the registry entry).
#include "texcv/ops/dilate.hpp"

#include <utility>
#include <vector>

#include "src/core/morph_common.hpp"
#include "src/core/op_spec.hpp"

namespace texcv {

void dilate(const ImageView& src, const ImageView& dst, const MorphParams& p, void* stream) {
  morph_common::run("dilate", MorphOp::dilate, src, dst, p, stream);
}

namespace reg {

void declare_dilate(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "dilate";
  e.spec.summary = "maximum over a structuring element, as cv::dilate";
  add_morph_params(e);
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    dilate(src, dst, morph_params(a), stream);
  };
  e.spec.doc = "Maximum over a structuring element, as cv2.dilate. Exact.";
  declare_python(e.spec, {"ksize"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
