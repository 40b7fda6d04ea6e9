// Launchers of the reduction and histogram kernels (hist_kernels.cuh), one explicit instantiation
// per source element type (hist.<type>.cu): the engine of normalize's min/max and mean/std
// (src/cuda/ops/normalize), histogram, Otsu's threshold and equalize_hist (src/cuda/ops/histogram).
// hist_host.hpp has the host side's helpers.
//
// Reductions and histograms: block b reads the rows b, b + blocks, b + 2 blocks, ...; inside a
// row its threads read the elements tid, tid + blockDim, ... with blockDim a multiple of the
// channel count (192 threads for 3 channels, 256 otherwise), so each thread only ever sees one
// channel (tid % channels) and a block's tree reduction keeps the channels apart. Per-block
// partial results go to global memory and the host combines them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"

namespace texcv::cuda::ops {

// A source read by the reduction kernels.
struct ReduceSrc {
  const unsigned char* data = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0, channels = 1;
};

// The threads of a reduction block for `channels` (a multiple of it).
constexpr int reduce_threads(int channels) {
  return channels == 3 ? 192 : 256;
}

// min_max: out[2 b] and out[2 b + 1] the smallest and largest element block b saw (all
// channels; f32 ignores NaN: a block that saw only NaN reports +inf and -inf).
template <typename T>
void launch_min_max(const ReduceSrc& s, int blocks, double* out, cudaStream_t st);

// Integer sums (u8, u16): out[8 b + 2 c] the sum and out[8 b + 2 c + 1] the sum of squares of
// channel c over block b's elements, exact in 64 bits.
template <typename T>
void launch_int_sums(const ReduceSrc& s, int blocks, unsigned long long* out, cudaStream_t st);

// f32 sums in double: out[4 b + c] the sum over block b of channel c's values (centre.use false)
// or of their squared deviations (v - centre.c[c])^2 (centre.use true).
struct Centre {
  double c[4] = {0, 0, 0, 0};
  bool use = false;
};
void launch_f32_sums(const ReduceSrc& s, int blocks, const Centre& centre, double* out,
                     cudaStream_t st);

// histogram: element v of channel c counts in counts[c * bins + floor(v a + b)] when that bin is
// in [0, bins) (double arithmetic, as the CPU). shared: per-block 32-bit counters in shared memory
// (channels * bins * 4 bytes of dynamic shared memory), added to the global 64-bit counters at the
// end; otherwise 64-bit atomics on the global counters directly.
struct HistArgs {
  int bins = 1;
  double a = 1.0, b = 0.0;
  bool shared = false;
};
template <typename T>
void launch_histogram(const char* op, const ReduceSrc& s, int blocks, const HistArgs& h,
                      unsigned long long* counts, cudaStream_t st);

}  // namespace texcv::cuda::ops
