// cvt_color's device code: src/core/color_pixel.hpp's per-pixel conversions (shared with the
// CPU) on the per-pixel kernel shape (point.cuh), 4 pixels a thread.
#pragma once

#include "src/core/color_pixel.hpp"
#include "src/cuda/ops/common/point.cuh"
#include "src/cuda/ops/cvt_color/cvt_color_launch.hpp"

namespace texcv::cuda::ops {

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

#define TEXCV_INSTANTIATE_CVT_COLOR(T) \
  template void launch_cvt_color<T>(const PointSrc&, const DstArgs&, ColorCode, cudaStream_t);
