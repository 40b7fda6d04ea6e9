// crop (src/core/ops/crop.cpp), a geometric operation: texcv/geometry.hpp has what they share
// (views, backends, supported types).
#pragma once

#include "texcv/image.hpp"

namespace texcv {

// crop: copies the rectangle r of src into dst (of r's size). r must lie inside src.
// (For a view without a copy use ImageView::roi.)
void crop(const ImageView& src, const ImageView& dst, const Rect& r, void* stream = nullptr);

}  // namespace texcv
