// sharpen (src/core/ops/sharpen.cpp), a linear filter: texcv/filters.hpp has what the filters
// share (views, element types, borders, backends).
#pragma once

#include "texcv/image.hpp"
#include "texcv/ops/filter_types.hpp"

namespace texcv {

// sharpen: out = src + strength * (k * src - src) with k = [[0,-1,0],[-1,5,-1],[0,-1,0]], i.e. the
// 3x3 kernel [[0,-s,0],[-s,1+4s,-s],[0,-s,0]] in one float pass (strength 1 = the plain kernel).
void sharpen(const ImageView& src, const ImageView& dst, double strength = 1.0,
             const FilterBorder& border = {}, void* stream = nullptr);

}  // namespace texcv
