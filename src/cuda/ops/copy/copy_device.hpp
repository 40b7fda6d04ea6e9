// Device-to-device copy of a pitched 2-D region (crop and texcv::copy between device views).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace texcv::cuda::ops {

// Copies `height` rows of `row_bytes` bytes. Uses a kernel with 16-byte (or 4-byte) loads and
// stores when the pointers, pitches and row length allow it: on the H200 that runs at the copy
// floor (about 3.8 TB/s), where cudaMemcpy2DAsync reaches about 1.7 TB/s. Otherwise falls back
// to cudaMemcpy2DAsync. Returns the CUDA error of the launch or the copy.
cudaError_t copy_device_2d(const void* src, std::size_t src_pitch, void* dst, std::size_t dst_pitch,
                           std::size_t row_bytes, std::size_t height, cudaStream_t stream);

}  // namespace texcv::cuda::ops
