// erode (include/texcv/ops/erode.hpp): its entry point, routed through the morphology engine
// (src/core/morph_common.hpp: the rule, the element, the passes on the source's backend), and
// its spec (the registry entry).
#include "texcv/ops/erode.hpp"

#include <utility>
#include <vector>

#include "src/core/morph_common.hpp"
#include "src/core/op_spec.hpp"

namespace texcv {

void erode(const ImageView& src, const ImageView& dst, const MorphParams& p, void* stream) {
  morph_common::run("erode", MorphOp::erode, src, dst, p, stream);
}

namespace reg {

void declare_erode(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "erode";
  e.spec.summary = "minimum over a structuring element, as cv::erode";
  add_morph_params(e);
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    erode(src, dst, morph_params(a), stream);
  };
  e.spec.doc =
      "Minimum over a structuring element (\"rect\", \"ellipse\", \"cross\"), as cv2.erode. The\n"
      "constant border without a value never wins (OpenCV's default). Exact.";
  declare_python(e.spec, {"ksize"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
