// Device code of the pointwise colour and intensity ops. One kernel shape: each thread maps PX
// consecutive pixels of a row (SC source and DC destination elements each), loaded and stored
// as 16-, 8- or 4-byte vectors where the addresses allow (a warp covers one contiguous span of a
// row: coalesced). The per-pixel arithmetic is src/core/color_pixel.hpp, shared with the CPU.
#pragma once

#include "src/core/color_pixel.hpp"
#include "src/cuda/ops/color/color_launch.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/launch_batch.cuh"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// Pixels per thread: 16 source bytes for the per-element ops, 4 pixels for cvt_color.
template <typename S, int SC, int DC>
constexpr int kPointPx = SC == 1 && DC == 1 ? static_cast<int>(16 / sizeof(S)) : 4;

template <typename S, typename D, int SC, int DC, int PX, class F>
__device__ __forceinline__ void point_body(const PointSrc& s, const DstArgs& d, const F& f) {
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= d.height || x0 >= d.width) return;
  const int n = min(PX, d.width - x0);
  const S* srow = reinterpret_cast<const S*>(s.data + s.pitch * static_cast<std::size_t>(y));
  S in[PX * SC];
  load_elems<S, PX * SC>(srow + static_cast<std::size_t>(x0) * SC, in, n * SC);
  D out[PX * DC];
#pragma unroll
  for (int i = 0; i < PX; ++i) f(in + i * SC, out + i * DC);
  D* drow = reinterpret_cast<D*>(d.data + d.pitch * static_cast<std::size_t>(y));
  store_elems<D, PX * DC>(drow + static_cast<std::size_t>(x0) * DC, out, n * DC);
}

template <typename S, typename D, int SC, int DC, int PX, class F>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    point_kernel(const PointSrc s, const DstArgs d, const F f) {
  point_body<S, D, SC, DC, PX>(s, d, f);
}

// point_body on each image of a LaunchBatch (launch_batch.cuh).
template <typename S, typename D, int SC, int DC, int PX, class F>
struct PointCall {
  PointSrc s;
  DstArgs d;
  F f;
  __device__ __forceinline__ void operator()() const { point_body<S, D, SC, DC, PX>(s, d, f); }
};

template <typename S, typename D, int SC, int DC, class F>
void launch_point(const char* op, const PointSrc& s, const DstArgs& d, const F& f,
                  cudaStream_t st) {
  constexpr int PX = kPointPx<S, SC, DC>;
  const dim3 grid = grid_for(d.width, d.height, PX);
  const dim3 block(kBlockX, kBlockY);
  if (defer_launch<kBlockX * kBlockY>(grid, block, st, PointCall<S, D, SC, DC, PX, F>{s, d, f}))
    return;
  point_kernel<S, D, SC, DC, PX, F><<<grid, block, 0, st>>>(s, d, f);
  TEXCV_CUDA_CHECK_LAUNCH(op);
}

// ---- Functors: f(source pixel, destination pixel) ----

template <typename S, typename D>
struct ConvertF {
  float a, b;
  __device__ __forceinline__ void operator()(const S* s, D* d) const {
    d[0] = detail::px_convert<D>(s[0], a, b);
  }
};
template <typename S, typename D>
struct ConvertIdF {
  __device__ __forceinline__ void operator()(const S* s, D* d) const {
    d[0] = detail::px_convert_identity<D>(s[0]);
  }
};

template <typename T, ThresholdType TT>
struct ThresholdF {
  detail::ThreshValues<T> v;
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    d[0] = detail::px_threshold<TT, T>(s[0], v.th, v.mv, v.tv);
  }
};

template <typename T, int C>
struct SwapRbF {
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    detail::px_swap_rb<T, C>(s, d);
  }
};
template <typename T, bool Bgr>
struct ToGrayF {
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    detail::px_to_gray<T, Bgr>(s, d);
  }
};
template <typename T, int C>
struct FromGrayF {
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    detail::px_from_gray<T, C>(s, d);
  }
};
template <typename T>
struct MatrixF {
  detail::ColorMatrix m;
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    detail::px_matrix<T>(s, d, m);
  }
};
template <typename T, bool Bgr>
struct ToHsvF {
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    detail::px_to_hsv<T, Bgr>(s, d);
  }
};
template <typename T, bool Bgr>
struct FromHsvF {
  __device__ __forceinline__ void operator()(const T* s, T* d) const {
    detail::px_from_hsv<T, Bgr>(s, d);
  }
};

// ---- Launchers ----

template <typename S>
void launch_convert(const PointSrc& s, const DstArgs& d, ElemType dst_type,
                    const detail::ScaleDesc& sd, cudaStream_t st) {
  auto go = [&]<typename D>() {
    if (sd.identity)
      launch_point<S, D, 1, 1>("convert", s, d, ConvertIdF<S, D>{}, st);
    else
      launch_point<S, D, 1, 1>("convert", s, d, ConvertF<S, D>{sd.scale, sd.offset}, st);
  };
  switch (dst_type) {
    case ElemType::u8:
      return go.template operator()<std::uint8_t>();
    case ElemType::u16:
      return go.template operator()<std::uint16_t>();
    case ElemType::f32:
      return go.template operator()<float>();
  }
  fail(ErrorCode::Internal, "convert", "unsupported destination element type reached the kernel",
       to_string(dst_type), "u8, u16 or f32");
}

template <typename T>
void launch_threshold(const PointSrc& s, const DstArgs& d, const detail::ThresholdDesc& td,
                      cudaStream_t st) {
  const detail::ThreshValues<T> v = detail::thresh_values<T>(td);
  constexpr const char* kOp = "threshold";
  switch (td.type) {
    case ThresholdType::binary:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::binary>{v}, st);
    case ThresholdType::binary_inv:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::binary_inv>{v}, st);
    case ThresholdType::trunc:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::trunc>{v}, st);
    case ThresholdType::tozero:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::tozero>{v}, st);
    case ThresholdType::tozero_inv:
      return launch_point<T, T, 1, 1>(kOp, s, d, ThresholdF<T, ThresholdType::tozero_inv>{v}, st);
    case ThresholdType::otsu:
      break;
  }
  fail(ErrorCode::Internal, kOp, "threshold type not resolved before the kernel",
       to_string(td.type), "binary, binary_inv, trunc, tozero or tozero_inv");
}

template <typename T>
void launch_cvt_color(const PointSrc& s, const DstArgs& d, ColorCode code, cudaStream_t st) {
  constexpr const char* kOp = "cvt_color";
  switch (code) {
    case ColorCode::rgb2bgr:
      return launch_point<T, T, 3, 3>(kOp, s, d, SwapRbF<T, 3>{}, st);
    case ColorCode::rgba2bgra:
      return launch_point<T, T, 4, 4>(kOp, s, d, SwapRbF<T, 4>{}, st);
    case ColorCode::rgb2gray:
      return launch_point<T, T, 3, 1>(kOp, s, d, ToGrayF<T, false>{}, st);
    case ColorCode::bgr2gray:
      return launch_point<T, T, 3, 1>(kOp, s, d, ToGrayF<T, true>{}, st);
    case ColorCode::rgba2gray:
      return launch_point<T, T, 4, 1>(kOp, s, d, ToGrayF<T, false>{}, st);
    case ColorCode::bgra2gray:
      return launch_point<T, T, 4, 1>(kOp, s, d, ToGrayF<T, true>{}, st);
    case ColorCode::gray2rgb:
      return launch_point<T, T, 1, 3>(kOp, s, d, FromGrayF<T, 3>{}, st);
    case ColorCode::gray2rgba:
      return launch_point<T, T, 1, 4>(kOp, s, d, FromGrayF<T, 4>{}, st);
    case ColorCode::rgb2yuv_bt601:
    case ColorCode::rgb2yuv_bt601_limited:
    case ColorCode::rgb2yuv_bt709:
    case ColorCode::rgb2yuv_bt709_limited:
    case ColorCode::yuv2rgb_bt601:
    case ColorCode::yuv2rgb_bt601_limited:
    case ColorCode::yuv2rgb_bt709:
    case ColorCode::yuv2rgb_bt709_limited:
      return launch_point<T, T, 3, 3>(
          kOp, s, d, MatrixF<T>{detail::yuv_matrix(code, detail::ElemTraits<T>::kType)}, st);
    case ColorCode::rgb2hsv:
      if constexpr (sizeof(T) != 2)
        return launch_point<T, T, 3, 3>(kOp, s, d, ToHsvF<T, false>{}, st);
      break;
    case ColorCode::bgr2hsv:
      if constexpr (sizeof(T) != 2)
        return launch_point<T, T, 3, 3>(kOp, s, d, ToHsvF<T, true>{}, st);
      break;
    case ColorCode::hsv2rgb:
      if constexpr (sizeof(T) != 2)
        return launch_point<T, T, 3, 3>(kOp, s, d, FromHsvF<T, false>{}, st);
      break;
    case ColorCode::hsv2bgr:
      if constexpr (sizeof(T) != 2)
        return launch_point<T, T, 3, 3>(kOp, s, d, FromHsvF<T, true>{}, st);
      break;
  }
  fail(ErrorCode::Internal, kOp, "unsupported conversion reached the CUDA backend", to_string(code),
       "a validated code");
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_COLOR(T)                                                                 \
  template void launch_convert<T>(const PointSrc&, const DstArgs&, ElemType,                       \
                                  const detail::ScaleDesc&, cudaStream_t);                         \
  template void launch_threshold<T>(const PointSrc&, const DstArgs&, const detail::ThresholdDesc&, \
                                    cudaStream_t);                                                 \
  template void launch_cvt_color<T>(const PointSrc&, const DstArgs&, ColorCode, cudaStream_t);
