// erode (src/core/ops/erode.cpp), a morphology operation: texcv/morphology.hpp has what they share
// (views, element types, borders, iterations, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/morph_types.hpp"

namespace texcv {

// dst(x, y) = min over the element's ones (i, j) of src(x + i - anchor_x, y + j - anchor_y).
void erode(const ImageView& src, const ImageView& dst, const MorphParams& p = {},
           void* stream = nullptr);

}  // namespace texcv
