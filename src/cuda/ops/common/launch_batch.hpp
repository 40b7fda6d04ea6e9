// Variable-shape batched launches (issue 15, item 3): while a LaunchBatch is active on a stream,
// the launchers that support it (resize, warp_affine / warp_perspective, flip, the pointwise
// colour ops, the register convolution kernels) do not launch: they record their kernel's
// arguments and grid. flush() then launches each kernel once for all the images recorded, with
// blockIdx.z selecting the image and each image's own arguments, sizes and grid (blocks beyond an
// image's grid return at once). Each op call is still made per image, through the registry, so
// validation and errors stay per image; a batched kernel runs the very same device code as the
// single-image kernel, so the outputs are equal bit for bit (tests/cpp/cuda/test_launch_batch).
//
// Only a launch that is the last of its op call, reads a plain device pointer (Path::global) and
// needs no temporary is deferred; everything else launches at once, in stream order, as before.
// The caller keeps every source and destination alive until flush() has been called (the
// launches are then on the stream, ordered as the recording was).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace texcv::cuda::ops {

class LaunchBatch {
 public:
  // Launches entries [0, n) of one kernel (laid out as launch_batch.cuh's Entry) with the given
  // block and dynamic shared memory; returns the number of launches it made.
  using FlushFn = std::size_t (*)(const unsigned char* entries, std::size_t n, dim3 block,
                                  std::size_t smem, cudaStream_t stream);

  // Active on this thread for `stream` until destroyed (scopes nest: the innermost is active).
  explicit LaunchBatch(cudaStream_t stream) noexcept;
  ~LaunchBatch();
  LaunchBatch(const LaunchBatch&) = delete;
  LaunchBatch& operator=(const LaunchBatch&) = delete;

  // Launches what was recorded, one kernel after another in the order each was first recorded,
  // and clears it. Throws Error(Cuda) when a launch fails. What is not flushed is dropped.
  void flush();

  std::size_t recorded() const noexcept { return recorded_; }
  std::size_t launches() const noexcept { return launches_; }

  // For the launchers (launch_batch.cuh's defer_launch).
  void add(FlushFn fn, std::size_t entry_bytes, const void* entry, dim3 block, std::size_t smem);

 private:
  struct Group {
    FlushFn fn;
    std::size_t entry_bytes;
    dim3 block;
    std::size_t smem;
    std::vector<unsigned char> bytes;
    std::size_t n = 0;
  };
  friend LaunchBatch* active_launch_batch(cudaStream_t stream) noexcept;
  friend class LaunchAtOnce;
  cudaStream_t stream_;
  LaunchBatch* outer_;
  std::vector<Group> groups_;
  std::size_t recorded_ = 0, launches_ = 0;
};

// The LaunchBatch active on this thread for `stream`, or nullptr (launch at once).
LaunchBatch* active_launch_batch(cudaStream_t stream) noexcept;

// While it lives, launches on this thread are made at once even inside a LaunchBatch: for an op
// call whose launch uses memory it frees when it returns.
class LaunchAtOnce {
 public:
  LaunchAtOnce() noexcept;
  ~LaunchAtOnce();
  LaunchAtOnce(const LaunchAtOnce&) = delete;
  LaunchAtOnce& operator=(const LaunchAtOnce&) = delete;

 private:
  LaunchBatch* saved_;
};

}  // namespace texcv::cuda::ops
