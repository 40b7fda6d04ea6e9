// equalize_hist on the CUDA backend, on the caller's stream without a synchronization: the
// counts, then the table (the histogram kernel's last block, in the CPU's arithmetic:
// src/core/color_stats.hpp's equalize_lut), then the lookup (lut_u8.cu). Each block counts into
// one 256-bin histogram per warp in shared memory (16-byte loads where the image allows), then
// adds its bins to the global counts.
#include <cstddef>
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/point.hpp"
#include "src/cuda/ops/hist/hist_host.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda {

namespace {

constexpr int kThreads = 256;  // one bin a thread when merging and making the table
constexpr int kWarps = kThreads / 32;
constexpr int kMaxBlocks = 1024;
constexpr int kWordsPerThread = 4;  // 16-byte loads in flight before their counting

struct EqArgs {
  const unsigned char* data;
  std::size_t pitch;
  int width, height;
  bool vec;                    // data and pitch 16-byte aligned
  unsigned long long total;    // width * height
  unsigned long long* counts;  // 256, zeroed
  unsigned int* done;          // blocks finished, zeroed
  std::uint8_t* lut;           // 256: written by the last block
};

__device__ __forceinline__ void count_word(unsigned int* h, unsigned w) {
  atomicAdd(&h[w & 0xffu], 1u);
  atomicAdd(&h[(w >> 8) & 0xffu], 1u);
  atomicAdd(&h[(w >> 16) & 0xffu], 1u);
  atomicAdd(&h[w >> 24], 1u);
}

__global__ void __launch_bounds__(kThreads) equalize_counts_kernel(const EqArgs a) {
  __shared__ unsigned int hist[kWarps][256];
  __shared__ unsigned long long cdf[256];
  __shared__ int first;
  __shared__ bool last;
  const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) hist[w][tid] = 0;
  __syncthreads();
  unsigned int* h = hist[tid / 32];
  const int nvec = a.vec ? a.width / 16 : 0;  // 16-byte words a row; the rest byte by byte
  const long long words = static_cast<long long>(nvec) * a.height;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  // The rows' words as one range, kWordsPerThread loads before their counting.
  for (long long i0 = static_cast<long long>(blockIdx.x) * kThreads + tid; i0 < words;
       i0 += stride * kWordsPerThread) {
    uint4 v[kWordsPerThread];
    bool have[kWordsPerThread];
#pragma unroll
    for (int k = 0; k < kWordsPerThread; ++k) {
      const long long i = i0 + k * stride;
      have[k] = i < words;
      if (have[k]) {
        const long long y = i / nvec, x = i - y * nvec;
        v[k] = __ldg(
            reinterpret_cast<const uint4*>(a.data + a.pitch * static_cast<std::size_t>(y)) + x);
      }
    }
#pragma unroll
    for (int k = 0; k < kWordsPerThread; ++k)
      if (have[k]) {
        count_word(h, v[k].x);
        count_word(h, v[k].y);
        count_word(h, v[k].z);
        count_word(h, v[k].w);
      }
  }
  // The bytes past the last whole word of each row (every byte without 16-byte loads).
  const int rest = a.width - nvec * 16;
  if (rest > 0) {
    const long long n = static_cast<long long>(rest) * a.height;
    for (long long i = static_cast<long long>(blockIdx.x) * kThreads + tid; i < n; i += stride) {
      const long long y = i / rest, x = nvec * 16 + (i - y * rest);
      atomicAdd(&h[__ldg(a.data + a.pitch * static_cast<std::size_t>(y) + x)], 1u);
    }
  }
  __syncthreads();
  unsigned long long mine = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) mine += hist[w][tid];
  if (mine != 0) atomicAdd(&a.counts[tid], mine);

  // The last block to finish makes the table: every thread's additions made visible, then the
  // block counted as finished once all of them are.
  __threadfence();
  __syncthreads();
  if (tid == 0) {
    last = atomicAdd(a.done, 1u) == gridDim.x - 1;
    first = 256;
  }
  __syncthreads();
  if (!last) return;
  const unsigned long long c = __ldcg(&a.counts[tid]);
  if (c != 0) atomicMin(&first, tid);
  cdf[tid] = c;
  __syncthreads();
  // Inclusive prefix sums (integers: exact in any order).
  for (int s = 1; s < 256; s *= 2) {
    const unsigned long long add = tid >= s ? cdf[tid - s] : 0;
    __syncthreads();
    cdf[tid] += add;
    __syncthreads();
  }
  const int f = first;
  const unsigned long long hf = cdf[f] - (f > 0 ? cdf[f - 1] : 0);
  std::uint8_t out = 0;
  if (hf == a.total) {
    out = static_cast<std::uint8_t>(f);  // a constant image maps to itself
  } else if (tid > f) {
    // equalize_lut: the sum of the counts above the first occupied level, times 255 / (total -
    // its count), in float.
    const float scale = 255.0f / static_cast<float>(a.total - hf);
    out = detail::saturate<std::uint8_t>(static_cast<float>(cdf[tid] - cdf[f]) * scale);
  }
  a.lut[tid] = out;
}

}  // namespace

void equalize_hist(const ImageView& src, const ImageView& dst, void* stream) {
  constexpr const char* kOp = "equalize_hist";
  ops::check_device_view(kOp, src, "src");
  ops::check_device_view(kOp, dst, "dst");
  const auto st = static_cast<cudaStream_t>(stream);
  if (src.width == 0 || src.height == 0) return;
  // counts (256 x 8 bytes), the finished-block counter (8 bytes, zeroed with them), the table.
  constexpr std::size_t kCounts = 256 * sizeof(unsigned long long);
  hist::StreamTemp tmp(kCounts + 8 + 256, st, kOp);
  TEXCV_CUDA_CHECK(kOp, cudaMemsetAsync(tmp.as<void>(), 0, kCounts + 8, st));
  EqArgs a;
  a.data = static_cast<const unsigned char*>(src.data);
  a.pitch = src.pitch;
  a.width = src.width;
  a.height = src.height;
  a.vec = reinterpret_cast<std::uintptr_t>(src.data) % 16 == 0 && src.pitch % 16 == 0;
  a.total =
      static_cast<unsigned long long>(src.width) * static_cast<unsigned long long>(src.height);
  a.counts = tmp.as<unsigned long long>();
  a.done = reinterpret_cast<unsigned int*>(tmp.as<unsigned char>() + kCounts);
  a.lut = tmp.as<std::uint8_t>() + kCounts + 8;
  const long long per_block = static_cast<long long>(kThreads) * kWordsPerThread * 16;
  const long long want = (static_cast<long long>(a.total) + per_block - 1) / per_block;
  const int blocks = static_cast<int>(want < 1 ? 1 : (want > kMaxBlocks ? kMaxBlocks : want));
  equalize_counts_kernel<<<blocks, kThreads, 0, st>>>(a);
  TEXCV_CUDA_CHECK_LAUNCH(kOp);
  ops::launch_lut_u8_device(kOp, ops::point_src(src), ops::dst_args(dst), a.lut, st);
  tmp.release(kOp);
}

}  // namespace texcv::cuda
