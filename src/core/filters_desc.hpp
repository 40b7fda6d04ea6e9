// The contract between src/core/ops/<op>.cpp (and filter_common.cpp) and the backends for the
// linear filters (include/texcv/filters.hpp). src/core validates every call and resolves the public
// parameters (kernel sizes, sigmas, anchors, border values) into these descriptors; the CPU backend
// (src/cpu/filter_*.cpp) and the CUDA backend (src/cuda/ops/filter/) implement them.
#pragma once

#include <vector>

#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv::detail {

// Border mode and the constant value per channel, already converted to the element type.
// path: the CUDA access path of the linear filters (automatic, global, shared or texture).
struct FilterBorderDesc {
  Border border = Border::reflect101;
  float value[4] = {0, 0, 0, 0};
  Path path = Path::automatic;
};

// dst(x, y) = scale * sum_{j,i} k[j * kw + i] * src(x + i - ax, y + j - ay) + delta.
// dst has src's element type or f32. Zero coefficients are skipped (as OpenCV's filter2D).
struct Filter2DDesc {
  int kw = 0, kh = 0;  // 1..kMaxKernel2D
  int ax = 0, ay = 0;  // inside the kernel
  std::vector<float> k;
  float scale = 1.0f, delta = 0.0f;
  FilterBorderDesc border;
};

// Row pass: r(x, y) = sum_i kx[i] * src(x + i - ax, y) into float rows; column pass:
// dst(x, y) = scale * sum_j ky[j] * r(x, y + j - ay) + delta. dst has src's type or f32.
struct SepFilterDesc {
  std::vector<float> kx, ky;  // 1..kMaxKernel1D taps each
  int ax = 0, ay = 0;
  float scale = 1.0f, delta = 0.0f;
  FilterBorderDesc border;
};

// blur = separable blur stored in src's type; out = src + amount * (src - blur) where
// |src - blur| >= threshold, else src. dst has src's type.
struct UnsharpDesc {
  SepFilterDesc blur;
  float amount = 1.0f, threshold = 0.0f;
};

}  // namespace texcv::detail

namespace texcv::cpu {
void filter_2d(const ImageView& src, const ImageView& dst, const texcv::detail::Filter2DDesc& d);
void filter_separable(const ImageView& src, const ImageView& dst,
                      const texcv::detail::SepFilterDesc& d);
void unsharp_mask(const ImageView& src, const ImageView& dst, const texcv::detail::UnsharpDesc& d);
}  // namespace texcv::cpu

namespace texcv::cuda {
// The CUDA backend (src/cuda/ops/filter/), on the caller's stream, identical to the CPU backend;
// without CUDA, the core's call throws NotCompiled (cuda_call.hpp). op names the public
// operation in error messages.
void filter_2d(const char* op, const ImageView& src, const ImageView& dst,
               const texcv::detail::Filter2DDesc& d, void* stream);
void filter_separable(const char* op, const ImageView& src, const ImageView& dst,
                      const texcv::detail::SepFilterDesc& d, void* stream);
void unsharp_mask(const ImageView& src, const ImageView& dst, const texcv::detail::UnsharpDesc& d,
                  void* stream);
}  // namespace texcv::cuda
