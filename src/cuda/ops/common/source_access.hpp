// Host side of reading a source: resolve the path, get a texture object (cached, zero copy) or
// copy an unbindable view into an aligned scratch buffer first, and check device views.
#pragma once

#include <cuda_runtime.h>

#include "src/core/backends.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"
#include "src/cuda/ops/common/path_rule.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// Throws Error unless v is a device view whose data and pitch are multiples of the element
// size (CUDA loads and stores need aligned elements) and whose height fits the launch grid.
void check_device_view(const char* op, const ImageView& v, const char* which);

// The source of one operation call, prepared for its kernel.
//
// Path::automatic goes through choose_path(). An explicit texture path on a view that cannot be
// bound as a Pitch2D texture (pointer or pitch misaligned) copies the view into an aligned
// scratch buffer on the stream first, with its own texture object; the object and the buffer are
// released after the stream is synchronized (in finish(), or in the destructor on an error
// path), so that case costs a copy and a synchronization.
class SourcePlan {
 public:
  SourcePlan(const char* op, GeomOp gop, const ImageView& src, const detail::SamplingDesc& s,
             cudaStream_t stream);
  ~SourcePlan();
  SourcePlan(const SourcePlan&) = delete;
  SourcePlan& operator=(const SourcePlan&) = delete;

  const SourceArgs& args() const noexcept { return args_; }
  Path path() const noexcept { return args_.path; }
  // Call after the launches: waits for the scratch copy's users (no-op without scratch).
  void finish();

 private:
  const char* op_;
  cudaStream_t stream_;
  SourceArgs args_{};
  DeviceBuffer scratch_;
  TextureObject own_tex_;
  bool pending_ = false;
};

}  // namespace texcv::cuda::ops
