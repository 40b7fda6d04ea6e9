// invert on the CUDA backend: dst = max - src per element, on plain loads (each thread 16 bytes
// of a row, vector loads and stores where aligned), on the caller's stream.
#include <cstdint>

#include "src/core/ops/invert.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda {
namespace {

template <typename T>
constexpr int kInvertPx = static_cast<int>(16 / sizeof(T));  // elements a thread

template <typename T>
__global__ void __launch_bounds__(ops::kBlockX* ops::kBlockY)
    invert_kernel(const unsigned char* __restrict__ src, std::size_t src_pitch,
                  const ops::DstArgs dst, int elems) {
  constexpr int N = kInvertPx<T>;
  constexpr T kMax = sizeof(T) == 4 ? T(1) : T(sizeof(T) == 1 ? 255 : 65535);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * N;
  if (y >= dst.height || x0 >= elems) return;
  const int n = min(N, elems - x0);
  const T* s = reinterpret_cast<const T*>(src + src_pitch * static_cast<std::size_t>(y)) + x0;
  T* d = reinterpret_cast<T*>(dst.data + dst.pitch * static_cast<std::size_t>(y)) + x0;
  T e[N];
  ops::load_elems<T, N>(s, e, n);
#pragma unroll
  for (int i = 0; i < N; ++i) e[i] = static_cast<T>(kMax - e[i]);
  ops::store_elems<T, N>(d, e, n);
}

}  // namespace

void invert(const ImageView& src, const ImageView& dst, void* stream) {
  constexpr const char* kOp = "invert";
  ops::check_views(kOp, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  const int elems = src.width * src.channels;
  ops::by_type(kOp, src.type, [&]<typename T>() {
    const dim3 grid = ops::grid_for(elems, src.height, kInvertPx<T>);
    const dim3 block(ops::kBlockX, ops::kBlockY);
    invert_kernel<T><<<grid, block, 0, st>>>(static_cast<const unsigned char*>(src.data), src.pitch,
                                             ops::dst_args(dst), elems);
    TEXCV_CUDA_CHECK_LAUNCH(kOp);
  });
}

}  // namespace texcv::cuda
