// Device side of LaunchBatch (launch_batch.hpp): the batched kernel and defer_launch.
//
// A launcher wraps its kernel's body in a Call: a trivially copyable struct of the kernel's
// arguments with a __device__ operator()() that runs the body (the single-image __global__ kernel
// runs the same body). defer_launch records {grid, call} when a LaunchBatch is active on the
// stream; flush launches batch_kernel over dim3(max grid x, max grid y, images), up to kBatchN
// images a launch (the arguments travel as kernel parameters, within 4 KB).
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "src/cuda/ops/common/launch_batch.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

template <class Call>
struct BatchEntry {
  unsigned gx, gy;
  Call call;
};

template <class Call>
constexpr int kBatchN = static_cast<int>(
    std::clamp<std::size_t>((4096 - 64) / (sizeof(Call) + 2 * sizeof(unsigned)), 1, 64));

template <class Call, int N>
struct BatchParams {
  unsigned gx[N];
  unsigned gy[N];
  Call call[N];
};

template <class Call, int Threads, int N>
__global__ void __launch_bounds__(Threads)
    batch_kernel(const __grid_constant__ BatchParams<Call, N> p) {
  const unsigned i = blockIdx.z;
  if (blockIdx.x >= p.gx[i] || blockIdx.y >= p.gy[i]) return;
  p.call[i]();
}

template <class Call, int Threads>
std::size_t flush_calls(const unsigned char* bytes, std::size_t n, dim3 block, std::size_t smem,
                        cudaStream_t st) {
  constexpr int N = kBatchN<Call>;
  static_assert(sizeof(BatchParams<Call, N>) <= 4096, "batched kernel parameters over 4 KB");
  std::size_t launches = 0;
  for (std::size_t i0 = 0; i0 < n; i0 += N) {
    BatchParams<Call, N> p;
    unsigned mx = 0, my = 0;
    int k = 0;
    for (; k < N && i0 + static_cast<std::size_t>(k) < n; ++k) {
      BatchEntry<Call> e;
      std::memcpy(static_cast<void*>(&e), bytes + (i0 + static_cast<std::size_t>(k)) * sizeof e,
                  sizeof e);
      p.gx[k] = e.gx;
      p.gy[k] = e.gy;
      p.call[k] = e.call;
      mx = std::max(mx, e.gx);
      my = std::max(my, e.gy);
    }
    batch_kernel<Call, Threads, N><<<dim3(mx, my, static_cast<unsigned>(k)), block, smem, st>>>(p);
    TEXCV_CUDA_CHECK_LAUNCH("batched launch");
    ++launches;
  }
  return launches;
}

// Records the launch of `call` over `grid` (z = 1) with `block` threads when a LaunchBatch is
// active on st, and returns true; returns false (the caller launches its kernel) otherwise.
template <int Threads, class Call>
bool defer_launch(dim3 grid, dim3 block, cudaStream_t st, const Call& call) {
  static_assert(std::is_trivially_copyable_v<Call>, "a batched call is copied as bytes");
  LaunchBatch* b = active_launch_batch(st);
  if (b == nullptr || grid.z != 1) return false;
  if (grid.x == 0 || grid.y == 0) return true;  // nothing to run
  const BatchEntry<Call> e{grid.x, grid.y, call};
  b->add(&flush_calls<Call, Threads>, sizeof e, &e, block, 0);
  return true;
}

}  // namespace texcv::cuda::ops
