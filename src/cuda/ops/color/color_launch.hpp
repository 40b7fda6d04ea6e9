// Launchers of the pointwise colour and intensity kernels, one explicit instantiation per source
// element type (color.<type>.cu). Host code (color.cpp) calls them. DstArgs::width counts the
// kernel's pixels: elements per row (width * channels) for the per-element ops (convert, gamma,
// threshold), pixels for cvt_color.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

struct PointSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
};

template <typename S>
void launch_convert(const PointSrc& s, const DstArgs& d, ElemType dst_type,
                    const detail::ScaleDesc& sd, cudaStream_t st);
template <typename T>
void launch_threshold(const PointSrc& s, const DstArgs& d, const detail::ThresholdDesc& td,
                      cudaStream_t st);
template <typename T>
void launch_cvt_color(const PointSrc& s, const DstArgs& d, ColorCode code, cudaStream_t st);

// gamma: u8 through a 256-entry table passed by value (copied to shared memory), u16 through a
// 65536-entry table in device memory, f32 computed per element.
struct GammaLut8 {
  std::uint8_t v[256];
};
void launch_gamma_u8(const PointSrc& s, const DstArgs& d, const GammaLut8& lut, cudaStream_t st);
void launch_gamma_u16(const PointSrc& s, const DstArgs& d, const std::uint16_t* lut,
                      cudaStream_t st);
void launch_gamma_f32(const PointSrc& s, const DstArgs& d, float g, cudaStream_t st);

}  // namespace texcv::cuda::ops
