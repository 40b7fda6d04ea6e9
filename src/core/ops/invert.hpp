// invert's contract between src/core/ops/invert.cpp and the backends: dst = max - src per element
// (max: 255, 65535, or 1.0 for f32), src and dst validated (same size, type and channels, no
// overlap), on host views (CPU) or device views (CUDA, on the caller's stream).
#pragma once

#include "texcv/image.hpp"

namespace texcv::cpu {
void invert(const ImageView& src, const ImageView& dst);
}  // namespace texcv::cpu

namespace texcv::cuda {
void invert(const ImageView& src, const ImageView& dst, void* stream);
}  // namespace texcv::cuda
