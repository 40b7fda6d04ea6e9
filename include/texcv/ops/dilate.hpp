// dilate (src/core/ops/dilate.cpp), a morphology operation: texcv/morphology.hpp has what they
// share (views, element types, borders, iterations, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/morph_types.hpp"

namespace texcv {

// The same as erode (texcv/ops/erode.hpp) with max.
void dilate(const ImageView& src, const ImageView& dst, const MorphParams& p = {},
            void* stream = nullptr);

}  // namespace texcv
