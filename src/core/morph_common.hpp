// What erode, dilate and morphology share (src/core/morph_common.cpp): the run of one of them
// (its rule checked, the element built, the passes on the source's backend), and the parameters
// their specs declare alike (shape, sizes, anchor, iterations, border).
#pragma once

#include <string>
#include <vector>

#include "src/core/op_spec.hpp"
#include "texcv/image.hpp"
#include "texcv/morphology.hpp"

namespace texcv::morph_common {

// Runs op (erode ... blackhat, valid) from src into dst after checking p and the views; messages
// name `name`.
void run(const char* name, MorphOp op, const ImageView& src, const ImageView& dst,
         const MorphParams& p, void* stream);

}  // namespace texcv::morph_common

namespace texcv::reg {

inline MorphParams morph_params(const Args& a) {
  MorphParams p;
  p.shape = parse_morph_shape(a.e("shape"));
  p.ksize_x = a.i("ksize");
  p.ksize_y = a.has("ksize_y") ? a.i("ksize_y") : p.ksize_x;
  p.anchor_x = a.i("anchor_x");
  p.anchor_y = a.i("anchor_y");
  p.iterations = a.i("iterations");
  p.border.border = parse_border(a.e("border"));
  if (a.has("border_value")) p.border.value = a.border_value();
  return p;
}

// The structuring element, iterations and border parameters (after morphology's op), and their
// rule (src/core/param_checks.hpp: check_morph).
inline void add_morph_params(OpEntry& e) {
  auto& ps = e.spec.params;
  ps.push_back(p_enum("shape", "rect", {"rect", "ellipse", "cross"},
                      "structuring element, as cv::getStructuringElement"));
  ps.push_back(p_int("ksize", "3", 1, "odd element width, 1 to 255"));
  ps.push_back(p_int("ksize_y", "", 1, "odd element height (default: ksize)"));
  ps.push_back(p_int("anchor_x", "-1", -1, "anchor column in the element; -1: the centre"));
  ps.push_back(p_int("anchor_y", "-1", -1, "anchor row in the element; -1: the centre"));
  ps.push_back(p_int("iterations", "1", 1, "times erode/dilate are applied, 1 to 1000"));
  ps.push_back(p_enum("border", "constant", kBorders,
                      "how pixels outside the image are read; constant without border_value: "
                      "they never win (OpenCV's morphology default)"));
  ps.push_back(p_floats("border_value", "", 1, 4,
                        "value outside the image for border=constant: one number for every "
                        "channel, or one per channel"));
  e.check = [name = e.spec.name](const Args& a, detail::Naming n) {
    detail::check_morph(name.c_str(), n, morph_params(a));
  };
  e.size = same_size;
}

}  // namespace texcv::reg
