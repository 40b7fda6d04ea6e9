// Plain argument structs shared by the host code (.cpp, compiled by the C++ compiler) and the
// kernels (.cu). Per-call parameters travel in these, by value, as kernel arguments: never in
// __constant__ or global memory (that races across streams).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/core/sampling.hpp"
#include "texcv/geometry.hpp"

namespace texcv::cuda::ops {

// How a kernel reads its source, after the path was resolved (never Path::automatic).
struct SourceArgs {
  Path path = Path::global;
  // Path::global: plain loads.
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;
  bool vec_load = false;  // 4-channel pixels may be loaded as one vector (aligned data and pitch)
  // Path::texture (point sampling, element type) and Path::texture_filter (hardware bilinear).
  cudaTextureObject_t tex = 0;
  bool normalized_coords = false;  // texture_filter with wrap or reflect
  float inv_width = 1.0f, inv_height = 1.0f;
  float value_scale = 1.0f;  // texture_filter: 255 (u8) or 65535 (u16) undo read-normalized
};

// The destination: written with vector stores where the address allows.
struct DstArgs {
  unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;
};

// Software sampling parameters (runtime values: a switch on a uniform value is nearly free).
struct SampleArgs {
  Interp interp = Interp::linear;
  Border border = Border::constant;
  float bv[4] = {0, 0, 0, 0};
};

struct ResizeArgs {
  SampleArgs s;
  detail::ResizeAxis ax{1.0, false};
  detail::ResizeAxis ay{1.0, false};
  double scale_x = 1.0, scale_y = 1.0;          // Interp::area: 1 / inv_scale
  double inv_scale_x = 1.0, inv_scale_y = 1.0;  // Interp::area: dst / src or fx (ResizeDesc)
  bool area_shrink = false;                     // Interp::area: both axes shrink (averaging)
};

struct WarpArgs {
  SampleArgs s;
  bool perspective = false;
  // destination -> source, row-major; double: the exact paths evaluate the coordinates in double
  // (sampling.hpp's AffineMap), the fast path rounds them to float.
  double m[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
};

struct RemapArgs {
  SampleArgs s;
  const unsigned char* map_x = nullptr;
  std::size_t map_x_pitch = 0;
  const unsigned char* map_y = nullptr;
  std::size_t map_y_pitch = 0;
};

struct FlipArgs {
  const unsigned char* src = nullptr;
  std::size_t src_pitch = 0;
  bool flip_x = false, flip_y = false;
};

}  // namespace texcv::cuda::ops
