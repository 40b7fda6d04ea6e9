// The CUDA backend's entry points that are not kernels: device queries, allocation for Image,
// copies between any pair of locations, handle counts and build information.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/core/backends.hpp"
#include "src/cuda/ops/copy/copy_device.hpp"
#include "src/cuda/runtime/runtime.hpp"

#ifndef TEXCV_CUDA_ARCHITECTURES
#define TEXCV_CUDA_ARCHITECTURES ""
#endif

namespace texcv::cuda {

namespace {

// cudaGetDeviceCount, with its error; never throws. On a machine with the toolkit but no driver
// or no GPU this reports cudaErrorInsufficientDriver or cudaErrorNoDevice.
cudaError_t device_count(int& count) noexcept {
  count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    count = 0;
  }
  return err;
}

// Throws a clear error naming op when no GPU can be used.
void require_device(const char* op) {
  int count = 0;
  const cudaError_t err = device_count(count);
  if (err != cudaSuccess)
    fail(ErrorCode::Cuda, op, "no usable CUDA device",
         std::string("cudaGetDeviceCount: ") + cudaGetErrorName(err) + ": " +
             cudaGetErrorString(err),
         "a CUDA GPU and driver");
  if (count <= 0) fail(ErrorCode::Cuda, op, "no usable CUDA device", "0 GPUs", "at least 1 GPU");
}

std::string shape(const ImageView& v) {
  return std::to_string(v.width) + "x" + std::to_string(v.height) + "x" +
         std::to_string(v.channels) + " " + to_string(v.type);
}

// The bytes a view spans: from data to the end of its last row.
std::uintptr_t view_end(const ImageView& v) {
  return reinterpret_cast<std::uintptr_t>(v.data) +
         v.pitch * static_cast<std::size_t>(v.height - 1) + v.row_bytes();
}

}  // namespace

bool available() {
  try {
    int count = 0;
    return device_count(count) == cudaSuccess && count > 0;
  } catch (...) {
    return false;
  }
}

std::vector<GpuInfo> gpus() {
  std::vector<GpuInfo> out;
  int count = 0;
  if (device_count(count) != cudaSuccess || count <= 0) return out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const cudaDeviceProp& p = device_properties(i, "gpus");
    GpuInfo g;
    g.index = i;
    g.name = p.name;
    g.compute_major = p.major;
    g.compute_minor = p.minor;
    g.multiprocessors = p.multiProcessorCount;
    g.total_memory = p.totalGlobalMem;
    g.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    g.texture_alignment = p.textureAlignment;
    g.texture_pitch_alignment = p.texturePitchAlignment;
    g.max_texture_2d_width = p.maxTexture2D[0];
    g.max_texture_2d_height = p.maxTexture2D[1];
    g.max_texture_2d_linear_width = p.maxTexture2DLinear[0];
    g.max_texture_2d_linear_height = p.maxTexture2DLinear[1];
    g.max_texture_2d_linear_pitch = p.maxTexture2DLinear[2];
    out.push_back(std::move(g));
  }
  return out;
}

HandleCounts live_handles() {
  const Counters& c = counters();
  HandleCounts h;
  h.textures = c.textures.load();
  h.arrays = c.arrays.load();
  h.streams = c.streams.load();
  h.events = c.events.load();
  h.device_buffers = c.device_buffers.load();
  h.pinned_buffers = c.pinned_buffers.load();
  return h;
}

// clear_texture_cache() is defined with the cache (src/cuda/runtime/texture_cache.cpp).

MemoryInfo device_memory_info() {
  MemoryInfo m;
  if (!available()) return m;
  std::size_t free_bytes = 0, total_bytes = 0;
  TEXCV_CUDA_CHECK("device_memory_info", cudaMemGetInfo(&free_bytes, &total_bytes));
  m.free = free_bytes;
  m.total = total_bytes;
  return m;
}

std::shared_ptr<void> allocate_device(int width_bytes, int height, std::size_t& pitch) {
  constexpr const char* kOp = "Image";
  if (width_bytes <= 0 || height <= 0)
    fail(ErrorCode::InvalidArgument, kOp, "device allocation size must be positive",
         std::to_string(width_bytes) + " x " + std::to_string(height) + " bytes",
         "width and height > 0");
  require_device(kOp);
  void* p = nullptr;
  std::size_t got_pitch = 0;
  const cudaError_t err = cudaMallocPitch(&p, &got_pitch, static_cast<std::size_t>(width_bytes),
                                          static_cast<std::size_t>(height));
  if (err != cudaSuccess) {
    const std::string call = "cudaMallocPitch(" + std::to_string(width_bytes) + " x " +
                             std::to_string(height) + " bytes)";
    throw_cuda_error(err, kOp, call.c_str());
  }
  counters().device_buffers.fetch_add(1, std::memory_order_relaxed);
  const std::size_t bytes = got_pitch * static_cast<std::size_t>(height);
  // If shared_ptr cannot allocate its control block it calls the deleter, so nothing leaks.
  std::shared_ptr<void> owner(p, [bytes](void* q) noexcept {
    forget_textures(q, bytes);
    record_release_error(cudaFree(q));
    counters().device_buffers.fetch_sub(1, std::memory_order_relaxed);
  });
  pitch = got_pitch;
  return owner;
}

void copy(const ImageView& src, const ImageView& dst, void* stream) {
  constexpr const char* kOp = "copy";
  validate_view(src, kOp, "source");
  validate_view(dst, kOp, "destination");
  if (src.width != dst.width || src.height != dst.height || src.channels != dst.channels ||
      src.type != dst.type)
    fail(ErrorCode::InvalidArgument, kOp, "destination shape differs from the source", shape(dst),
         shape(src));
  const bool same_space = src.location == dst.location;
  if (same_space) {
    const auto s0 = reinterpret_cast<std::uintptr_t>(src.data);
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst.data);
    const bool overlap = s0 < view_end(dst) && d0 < view_end(src);
    if (overlap && !(s0 == d0 && src.pitch == dst.pitch))
      fail(ErrorCode::InvalidArgument, kOp, "source and destination overlap",
           "dst " + dst.describe() + ", src " + src.describe(), "disjoint memory");
    if (overlap) return;  // the same view: nothing to do
  }
  cudaMemcpyKind kind = cudaMemcpyDefault;
  if (src.location == Location::host)
    kind = dst.location == Location::host ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice;
  else
    kind = dst.location == Location::host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
  const auto s = static_cast<cudaStream_t>(stream);
  if (kind == cudaMemcpyDeviceToDevice) {
    TEXCV_CUDA_CHECK(kOp,
                     ops::copy_device_2d(src.data, src.pitch, dst.data, dst.pitch, src.row_bytes(),
                                         static_cast<std::size_t>(src.height), s));
    return;
  }
  TEXCV_CUDA_CHECK(kOp, cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                                          static_cast<std::size_t>(src.height), kind, s));
  if (src.location == Location::host || dst.location == Location::host)
    TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(s));
}

std::string compiled_version() {
  return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
}

std::string compiled_architectures() {
  return TEXCV_CUDA_ARCHITECTURES;
}

}  // namespace texcv::cuda
