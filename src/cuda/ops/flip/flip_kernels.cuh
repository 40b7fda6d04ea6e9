// Device code of flip: pure data movement on plain loads. Each thread moves one 16-byte chunk
// (48 bytes for 3 channels) of a destination row, with vector loads and stores where the
// addresses allow, and reverses the pixels in registers for a horizontal flip.
#pragma once

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/launch_batch.cuh"
#include "src/cuda/ops/flip/flip_launch.hpp"
#include "src/cuda/ops/flip/flip_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

template <typename T, int C>
constexpr int kFlipPx = C == 3 ? static_cast<int>(tuning::Flip::kBytesPerThread / sizeof(T))
                               : static_cast<int>(tuning::Flip::kBytesPerThread / (C * sizeof(T)));

template <typename T, int C>
__device__ __forceinline__ void flip_body(const FlipArgs a, const DstArgs dst) {
  constexpr int PX = kFlipPx<T, C>;
  constexpr int N = PX * C;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  const int sy = a.flip_y ? dst.height - 1 - y : y;
  const T* __restrict__ srow =
      reinterpret_cast<const T*>(a.src + a.src_pitch * static_cast<std::size_t>(sy));
  T e[N];
  if (a.flip_x) {
    if (n == PX) {
      // Destination pixels x0 .. x0+PX-1 are source pixels W-1-x0 .. W-PX-x0, one block reversed.
      T t[N];
      load_elems<T, N>(srow + static_cast<std::size_t>(dst.width - x0 - PX) * C, t, N);
#pragma unroll
      for (int i = 0; i < PX; ++i)
#pragma unroll
        for (int c = 0; c < C; ++c) e[i * C + c] = t[(PX - 1 - i) * C + c];
    } else {
#pragma unroll
      for (int i = 0; i < PX; ++i)
#pragma unroll
        for (int c = 0; c < C; ++c)
          e[i * C + c] =
              i < n ? __ldg(srow + static_cast<std::size_t>(dst.width - 1 - x0 - i) * C + c) : T(0);
    }
  } else {
    load_elems<T, N>(srow + static_cast<std::size_t>(x0) * C, e, n * C);
  }
  T* drow = reinterpret_cast<T*>(dst.data + dst.pitch * static_cast<std::size_t>(y));
  store_elems<T, N>(drow + static_cast<std::size_t>(x0) * C, e, n * C);
}

template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    flip_kernel(const FlipArgs a, const DstArgs dst) {
  flip_body<T, C>(a, dst);
}

// flip_body on each image of a LaunchBatch (launch_batch.cuh).
template <typename T, int C>
struct FlipCall {
  FlipArgs a;
  DstArgs d;
  __device__ __forceinline__ void operator()() const { flip_body<T, C>(a, d); }
};

template <typename T, int C>
void launch_flip(const FlipArgs& a, const DstArgs& d, cudaStream_t st) {
  const dim3 grid = grid_for(d.width, d.height, kFlipPx<T, C>);
  const dim3 block(kBlockX, kBlockY);
  if (defer_launch<kBlockX * kBlockY>(grid, block, st, FlipCall<T, C>{a, d})) return;
  flip_kernel<T, C><<<grid, block, 0, st>>>(a, d);
  TEXCV_CUDA_CHECK_LAUNCH("flip");
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_FLIP(T)                                                 \
  template void launch_flip<T, 1>(const FlipArgs&, const DstArgs&, cudaStream_t); \
  template void launch_flip<T, 3>(const FlipArgs&, const DstArgs&, cudaStream_t); \
  template void launch_flip<T, 4>(const FlipArgs&, const DstArgs&, cudaStream_t);
