// The CUDA runtime layer: move-only RAII owners with noexcept destructors, the checking macro,
// live-handle counters and the texture-object cache. Host code only (no kernels here).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <string>

#include "texcv/error.hpp"
#include "texcv/image.hpp"
#include "texcv/runtime.hpp"

namespace texcv::cuda {

// Throws Error(Cuda, "<op>: <call> failed: <cudaGetErrorName>: <cudaGetErrorString>")
// (OutOfMemory for cudaErrorMemoryAllocation). It first clears the thread's last-error state
// (cudaGetLastError) so a non-sticky failure, such as an allocation, is not reported again by a
// later TEXCV_CUDA_CHECK_LAUNCH. Every CUDA call in texcv goes through TEXCV_CUDA_CHECK.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* op, const char* call);
#define TEXCV_CUDA_CHECK(op, call)                                                         \
  do {                                                                                     \
    const cudaError_t texcv_err_ = (call);                                                 \
    if (texcv_err_ != cudaSuccess) ::texcv::cuda::throw_cuda_error(texcv_err_, op, #call); \
  } while (0)
// After a kernel launch: checks cudaGetLastError.
#define TEXCV_CUDA_CHECK_LAUNCH(op) TEXCV_CUDA_CHECK(op, cudaGetLastError())

// Live-handle counters (read through texcv::live_handles()).
struct Counters {
  std::atomic<long> textures{0}, arrays{0}, streams{0}, events{0}, device_buffers{0},
      pinned_buffers{0};
  // Failures of release calls (cudaFree, cudaStreamDestroy, ...) in destructors, which must not
  // throw: they are counted here and otherwise ignored.
  std::atomic<long> release_errors{0};
};
Counters& counters() noexcept;
// For destructors: counts err (when not cudaSuccess) in release_errors and clears the thread's
// last-error state. Never throws.
void record_release_error(cudaError_t err) noexcept;

// The current device (cudaGetDevice).
int current_device(const char* op);
// cudaGetDeviceProperties of a device, queried once per device and cached (thread-safe; the
// reference stays valid for the life of the process).
const cudaDeviceProp& device_properties(int device, const char* op);

// Pitched device memory (cudaMallocPitch).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::size_t width_bytes, std::size_t height, const char* op = "DeviceBuffer");
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();
  void* data() const noexcept { return ptr_; }
  std::size_t pitch() const noexcept { return pitch_; }
  std::size_t width_bytes() const noexcept { return width_bytes_; }
  std::size_t height() const noexcept { return height_; }
  // A view over this buffer with the given pixel layout (must fit).
  ImageView view(int width, int height, int channels, ElemType type) const;

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0, width_bytes_ = 0, height_ = 0;
};

// Page-locked host memory: cudaMallocHost, or for 4 MB and more memory of the process's own
// (huge pages where host images have them) page-locked with cudaHostRegister (handles.cpp).
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes, const char* op = "PinnedBuffer");
  PinnedBuffer(PinnedBuffer&& o) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer();
  void* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }

 private:
  void* ptr_ = nullptr;
  std::size_t size_ = 0;
  std::size_t align_ = 0;  // registered memory's alignment; 0: cudaMallocHost's
};

class Stream {
 public:
  // A new non-blocking stream.
  explicit Stream(const char* op = "Stream");
  Stream(Stream&& o) noexcept;
  Stream& operator=(Stream&& o) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();
  cudaStream_t get() const noexcept { return s_; }
  void synchronize(const char* op = "Stream") const;

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault, const char* op = "Event");
  Event(Event&& o) noexcept;
  Event& operator=(Event&& o) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();
  cudaEvent_t get() const noexcept { return e_; }
  void record(cudaStream_t s, const char* op = "Event");
  void synchronize(const char* op = "Event") const;
  // Milliseconds from start to this event (both recorded and complete).
  float elapsed_since(const Event& start, const char* op = "Event") const;

 private:
  cudaEvent_t e_ = nullptr;
};

// A CUDA array (cudaMallocArray) of width x height texels of the given channel format.
class CudaArray {
 public:
  CudaArray() = default;
  CudaArray(const cudaChannelFormatDesc& fmt, std::size_t width, std::size_t height,
            const char* op = "CudaArray");
  CudaArray(CudaArray&& o) noexcept;
  CudaArray& operator=(CudaArray&& o) noexcept;
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;
  ~CudaArray();
  cudaArray_t get() const noexcept { return a_; }

 private:
  cudaArray_t a_ = nullptr;
};

// Owns one cudaTextureObject_t.
class TextureObject {
 public:
  TextureObject() = default;
  TextureObject(const cudaResourceDesc& res, const cudaTextureDesc& tex,
                const char* op = "TextureObject");
  TextureObject(TextureObject&& o) noexcept;
  TextureObject& operator=(TextureObject&& o) noexcept;
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;
  ~TextureObject();
  cudaTextureObject_t get() const noexcept { return t_; }

 private:
  cudaTextureObject_t t_ = 0;
};

// How a texture reads an image.
struct TextureSpec {
  cudaTextureFilterMode filter = cudaFilterModePoint;
  cudaTextureAddressMode address = cudaAddressModeClamp;  // both axes
  bool normalized_coords = false;
  bool read_normalized = false;  // u8/u16 read as float in [0, 1] (needed for linear filtering)
  float border_color[4] = {0, 0, 0, 0};
};

// True when a Pitch2D texture can bind v directly: device memory, data aligned to
// textureAlignment, pitch a multiple of texturePitchAlignment, size within the device limits,
// and a channel count with a texture format (1 or 4; 3 has none).
bool can_bind_pitch2d(const ImageView& v, std::string* why = nullptr);

// The channel format of a view's pixel (u8/u16/f32 x 1/2/4 channels).
cudaChannelFormatDesc channel_format(ElemType type, int channels);

// Returns a texture object over the device view v (Pitch2D, zero copy) with spec, reusing a
// cached one keyed by (device, pointer, size, pitch, format, spec). The cache holds at most a
// fixed number of entries (least recently used dropped). Precondition: can_bind_pitch2d(v)
// (otherwise Error InvalidArgument naming op and the reason). For f32 views read_normalized is
// ignored (normalized reads exist only for 8/16-bit formats). Thread-safe. An object that leaves
// the cache (eviction, forget_textures) is destroyed only after a synchronization of its device,
// so kernels already queued with it finish first; callers use a handle only for work they queue
// before they return.
cudaTextureObject_t cached_texture(const ImageView& v, const TextureSpec& spec, const char* op);

// Number of entries in the texture cache (objects retired but not yet destroyed not counted).
std::size_t texture_cache_size();
// The most entries the cache holds.
std::size_t texture_cache_capacity() noexcept;
// Drops every cached texture object: synchronizes the devices they live on, then destroys them.
void clear_texture_cache();
// Called when device memory [begin, begin + bytes) is freed: cached objects over it leave the
// cache (they are destroyed later, after a device synchronization). Never throws.
void forget_textures(const void* begin, std::size_t bytes) noexcept;

}  // namespace texcv::cuda
