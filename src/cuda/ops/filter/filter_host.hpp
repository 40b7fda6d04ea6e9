// The filter engine's host pieces other ops build on (unsharp_mask's blur): the separable passes
// into any destination, and a pitched stream-ordered temporary.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "src/core/filters_desc.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::filter {

// A pitched block of stream-ordered device memory, freed on the stream (release() reports a
// failure; the destructor, reached only while already failing, records it).
class PitchedTemp {
 public:
  PitchedTemp(std::size_t row_bytes, int rows, cudaStream_t st, const char* op) : st_(st) {
    pitch_ = (row_bytes + 255) / 256 * 256;
    TEXCV_CUDA_CHECK(op, cudaMallocAsync(&p_, pitch_ * static_cast<std::size_t>(rows), st));
  }
  PitchedTemp(const PitchedTemp&) = delete;
  PitchedTemp& operator=(const PitchedTemp&) = delete;
  ~PitchedTemp() {
    if (p_) record_release_error(cudaFreeAsync(p_, st_));
  }
  unsigned char* data() const { return static_cast<unsigned char*>(p_); }
  std::size_t pitch() const { return pitch_; }
  void release(const char* op) {
    void* p = p_;
    p_ = nullptr;
    TEXCV_CUDA_CHECK(op, cudaFreeAsync(p, st_));
  }

 private:
  void* p_ = nullptr;
  std::size_t pitch_ = 0;
  cudaStream_t st_ = nullptr;
};

// Row pass + column pass of src into d (element type dst_type): in one kernel on the shared
// path, else through a float temporary (filter.cpp).
void separable(const char* op, const ImageView& src, const ops::DstArgs& d, ElemType dst_type,
               const detail::SepFilterDesc& desc, cudaStream_t st);

}  // namespace texcv::cuda::filter
