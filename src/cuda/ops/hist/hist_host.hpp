// Host helpers of the reductions and histograms and of the ops built on them (normalize,
// histogram, clahe): stream-ordered temporaries, the reduction's source and block count, and
// reading the per-block results back.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "src/cuda/ops/hist/hist_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/image.hpp"

namespace texcv::cuda::hist {

// Stream-ordered device memory for one call, freed on the stream (the destructor covers the
// error paths; release() reports a failing free).
class StreamTemp {
 public:
  StreamTemp(std::size_t bytes, cudaStream_t st, const char* op) : st_(st) {
    TEXCV_CUDA_CHECK(op, cudaMallocAsync(&p_, bytes, st));
  }
  StreamTemp(const StreamTemp&) = delete;
  StreamTemp& operator=(const StreamTemp&) = delete;
  ~StreamTemp() {
    if (p_) record_release_error(cudaFreeAsync(p_, st_));
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(p_);
  }
  void release(const char* op) {
    void* p = p_;
    p_ = nullptr;
    TEXCV_CUDA_CHECK(op, cudaFreeAsync(p, st_));
  }

 private:
  void* p_ = nullptr;
  cudaStream_t st_ = nullptr;
};

inline ops::ReduceSrc reduce_src(const ImageView& v) {
  return ops::ReduceSrc{static_cast<const unsigned char*>(v.data), v.pitch, v.width, v.height,
                        v.channels};
}

// Blocks of a reduction: about 8192 elements each, at most one per row and 1024 in all.
inline int reduce_blocks(const ImageView& v) {
  const long long elems = static_cast<long long>(v.width) * v.height * v.channels;
  const long long want = (elems + 8191) / 8192;
  const long long cap = std::min<long long>(v.height, 1024);
  return static_cast<int>(std::clamp<long long>(want, 1, cap));
}

// Copies n values of T from device memory back to the host and waits for the stream.
template <typename T>
inline std::vector<T> read_back(const char* op, const T* dev, std::size_t n, cudaStream_t st) {
  std::vector<T> h(n);
  TEXCV_CUDA_CHECK(op, cudaMemcpyAsync(h.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost, st));
  return h;
}

inline void sync(const char* op, cudaStream_t st) {
  TEXCV_CUDA_CHECK(op, cudaStreamSynchronize(st));
}

}  // namespace texcv::cuda::hist
