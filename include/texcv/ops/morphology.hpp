// morphology (src/core/ops/morphology.cpp), the compound morphology operations:
// texcv/morphology.hpp has what they share (views, element types, borders, iterations, backends).
#pragma once

#include <string_view>

#include "texcv/image.hpp"
#include "texcv/ops/morph_types.hpp"

namespace texcv {

enum class MorphOp { erode, dilate, open, close, gradient, tophat, blackhat };

// open = dilate(erode(src)); close = erode(dilate(src)); gradient = dilate(src) - erode(src);
// tophat = src - open(src); blackhat = close(src) - src. erode and dilate are accepted too.
void morphology(const ImageView& src, const ImageView& dst, MorphOp op, const MorphParams& p = {},
                void* stream = nullptr);

const char* to_string(MorphOp op) noexcept;
// The names to_string gives; anything else throws Error(InvalidArgument) listing them.
MorphOp parse_morph_op(std::string_view s);

}  // namespace texcv
