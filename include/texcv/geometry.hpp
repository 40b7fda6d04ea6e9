// Geometric operations: resize, warp_affine, warp_perspective, rotate, remap, flip, crop.
//
// Every operation reads src and writes dst; dst must already have the output size and the same
// element type and channel count as src. Both views must be in the same location: host views
// run on the CPU backend, device views on the CUDA backend (queued on `stream`, a cudaStream_t;
// nullptr is the default stream). Outputs may not overlap inputs.
//
// Supported: u8, u16, f32 x 1, 3, 4 channels; all five border modes. Semantics follow OpenCV's
// pixel-centre convention (docs/conventions.md).
#pragma once

#include "texcv/ops/geometry_types.hpp"

#include "texcv/ops/crop.hpp"
#include "texcv/ops/flip.hpp"
#include "texcv/ops/remap.hpp"
#include "texcv/ops/resize.hpp"
#include "texcv/ops/rotate.hpp"
#include "texcv/ops/warp_affine.hpp"
#include "texcv/ops/warp_perspective.hpp"
