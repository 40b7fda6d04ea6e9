// Move-only owners of CUDA resources. Constructors throw Error (through TEXCV_CUDA_CHECK);
// destructors never throw: a failed release is counted in Counters::release_errors.
#include <new>
#include <string>
#include <utility>

#include "src/core/host_cache.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda {

namespace {

void add(std::atomic<long>& c) noexcept {
  c.fetch_add(1, std::memory_order_relaxed);
}
void sub(std::atomic<long>& c) noexcept {
  c.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace

// ---- DeviceBuffer ----

DeviceBuffer::DeviceBuffer(std::size_t width_bytes, std::size_t height, const char* op) {
  if (width_bytes == 0 || height == 0)
    fail(ErrorCode::InvalidArgument, op, "device buffer size must be positive",
         std::to_string(width_bytes) + " x " + std::to_string(height) + " bytes",
         "width and height > 0");
  void* p = nullptr;
  std::size_t pitch = 0;
  const cudaError_t err = cudaMallocPitch(&p, &pitch, width_bytes, height);
  if (err != cudaSuccess) {
    const std::string call = "cudaMallocPitch(" + std::to_string(width_bytes) + " x " +
                             std::to_string(height) + " bytes)";
    throw_cuda_error(err, op, call.c_str());
  }
  ptr_ = p;
  pitch_ = pitch;
  width_bytes_ = width_bytes;
  height_ = height;
  add(counters().device_buffers);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)),
      pitch_(std::exchange(o.pitch_, 0)),
      width_bytes_(std::exchange(o.width_bytes_, 0)),
      height_(std::exchange(o.height_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    DeviceBuffer old(std::move(*this));  // released at the end of this scope
    ptr_ = std::exchange(o.ptr_, nullptr);
    pitch_ = std::exchange(o.pitch_, 0);
    width_bytes_ = std::exchange(o.width_bytes_, 0);
    height_ = std::exchange(o.height_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_ == nullptr) return;
  forget_textures(ptr_, pitch_ * height_);
  record_release_error(cudaFree(ptr_));
  sub(counters().device_buffers);
}

ImageView DeviceBuffer::view(int width, int height, int channels, ElemType type) const {
  ImageView v;
  v.data = ptr_;
  v.width = width;
  v.height = height;
  v.channels = channels;
  v.type = type;
  v.pitch = pitch_;
  v.location = Location::device;
  validate_view(v, "DeviceBuffer::view", "view");
  if (v.row_bytes() > width_bytes_ || static_cast<std::size_t>(height) > height_)
    fail(ErrorCode::InvalidArgument, "DeviceBuffer::view", "view does not fit in the buffer",
         std::to_string(v.row_bytes()) + " x " + std::to_string(height) + " bytes",
         "at most " + std::to_string(width_bytes_) + " x " + std::to_string(height_) + " bytes");
  return v;
}

// ---- PinnedBuffer ----

namespace {

// Buffers of kRegisterMinBytes or more are memory of the process's own, page-locked with
// cudaHostRegister: 2 MB aligned and marked MADV_HUGEPAGE where host images get huge pages
// (detail::host_huge_pages), else 4 KB aligned; every page touched first (the registration
// would fault them in one by one). On the H100 machine, 8 threads making two 75 MB buffers each
// (bench/pinned_alloc.cpp, twenty-second session): cudaMallocHost 3.4-3.6 GB/s, so 1 GB for the
// TIFF task's decoders took their first files 0.63-0.66 s; touched huge pages registered 30.6
// GB/s, touched 4 KB pages 14.2 GB/s. Smaller buffers, and any the registration refuses, come
// from cudaMallocHost.
constexpr std::size_t kRegisterMinBytes = std::size_t{4} << 20;
constexpr std::size_t kSmallPage = 4096;

// Registered memory of at least `bytes` (its alignment in `align`), or nullptr.
void* registered_alloc(std::size_t bytes, std::size_t& align) noexcept {
  const bool huge = detail::host_huge_pages();
  align = huge ? detail::kHugePageBytes : kSmallPage;
  const std::size_t rounded = (bytes + align - 1) / align * align;
  void* p = huge ? detail::huge_page_new(rounded)
                 : ::operator new (rounded, std::align_val_t{align}, std::nothrow);
  if (p == nullptr) return nullptr;
  for (std::size_t o = 0; o < rounded; o += kSmallPage) static_cast<volatile char*>(p)[o] = 0;
  if (cudaHostRegister(p, rounded, cudaHostRegisterDefault) != cudaSuccess) {
    (void)cudaGetLastError();  // the caller takes cudaMallocHost's way, with its own error
    ::operator delete (p, std::align_val_t{align}, std::nothrow);
    return nullptr;
  }
  return p;
}

}  // namespace

PinnedBuffer::PinnedBuffer(std::size_t bytes, const char* op) {
  if (bytes == 0)
    fail(ErrorCode::InvalidArgument, op, "pinned buffer size must be positive", "0 bytes",
         "> 0 bytes");
  if (bytes >= kRegisterMinBytes) {
    std::size_t align = 0;
    if (void* r = registered_alloc(bytes, align)) {
      ptr_ = r;
      size_ = bytes;
      align_ = align;
      add(counters().pinned_buffers);
      return;
    }
  }
  void* p = nullptr;
  const cudaError_t err = cudaMallocHost(&p, bytes);
  if (err != cudaSuccess) {
    const std::string call = "cudaMallocHost(" + std::to_string(bytes) + " bytes)";
    throw_cuda_error(err, op, call.c_str());
  }
  ptr_ = p;
  size_ = bytes;
  add(counters().pinned_buffers);
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      align_(std::exchange(o.align_, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& o) noexcept {
  if (this != &o) {
    PinnedBuffer old(std::move(*this));
    ptr_ = std::exchange(o.ptr_, nullptr);
    size_ = std::exchange(o.size_, 0);
    align_ = std::exchange(o.align_, 0);
  }
  return *this;
}

PinnedBuffer::~PinnedBuffer() {
  if (ptr_ == nullptr) return;
  if (align_ != 0) {
    record_release_error(cudaHostUnregister(ptr_));
    ::operator delete (ptr_, std::align_val_t{align_}, std::nothrow);
  } else {
    record_release_error(cudaFreeHost(ptr_));
  }
  sub(counters().pinned_buffers);
}

// ---- Stream ----

Stream::Stream(const char* op) {
  cudaStream_t s = nullptr;
  TEXCV_CUDA_CHECK(op, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  s_ = s;
  add(counters().streams);
}

Stream::Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}

Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    Stream old(std::move(*this));
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}

Stream::~Stream() {
  if (s_ == nullptr) return;
  // cudaStreamDestroy returns at once; work already queued still completes.
  record_release_error(cudaStreamDestroy(s_));
  sub(counters().streams);
}

void Stream::synchronize(const char* op) const {
  TEXCV_CUDA_CHECK(op, cudaStreamSynchronize(s_));
}

// ---- Event ----

Event::Event(unsigned flags, const char* op) {
  cudaEvent_t e = nullptr;
  TEXCV_CUDA_CHECK(op, cudaEventCreateWithFlags(&e, flags));
  e_ = e;
  add(counters().events);
}

Event::Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}

Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    Event old(std::move(*this));
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}

Event::~Event() {
  if (e_ == nullptr) return;
  record_release_error(cudaEventDestroy(e_));
  sub(counters().events);
}

void Event::record(cudaStream_t s, const char* op) {
  if (e_ == nullptr) fail(ErrorCode::InvalidArgument, op, "event was moved from");
  TEXCV_CUDA_CHECK(op, cudaEventRecord(e_, s));
}

void Event::synchronize(const char* op) const {
  if (e_ == nullptr) fail(ErrorCode::InvalidArgument, op, "event was moved from");
  TEXCV_CUDA_CHECK(op, cudaEventSynchronize(e_));
}

float Event::elapsed_since(const Event& start, const char* op) const {
  if (e_ == nullptr || start.e_ == nullptr)
    fail(ErrorCode::InvalidArgument, op, "event was moved from");
  float ms = 0.0f;
  TEXCV_CUDA_CHECK(op, cudaEventElapsedTime(&ms, start.e_, e_));
  return ms;
}

// ---- CudaArray ----

CudaArray::CudaArray(const cudaChannelFormatDesc& fmt, std::size_t width, std::size_t height,
                     const char* op) {
  if (width == 0 || height == 0)
    fail(ErrorCode::InvalidArgument, op, "array size must be positive",
         std::to_string(width) + "x" + std::to_string(height), "width and height > 0");
  cudaArray_t a = nullptr;
  const cudaError_t err = cudaMallocArray(&a, &fmt, width, height);
  if (err != cudaSuccess) {
    const std::string call =
        "cudaMallocArray(" + std::to_string(width) + "x" + std::to_string(height) + " texels)";
    throw_cuda_error(err, op, call.c_str());
  }
  a_ = a;
  add(counters().arrays);
}

CudaArray::CudaArray(CudaArray&& o) noexcept : a_(std::exchange(o.a_, nullptr)) {}

CudaArray& CudaArray::operator=(CudaArray&& o) noexcept {
  if (this != &o) {
    CudaArray old(std::move(*this));
    a_ = std::exchange(o.a_, nullptr);
  }
  return *this;
}

CudaArray::~CudaArray() {
  if (a_ == nullptr) return;
  record_release_error(cudaFreeArray(a_));
  sub(counters().arrays);
}

// ---- TextureObject ----

TextureObject::TextureObject(const cudaResourceDesc& res, const cudaTextureDesc& tex,
                             const char* op) {
  cudaTextureObject_t t = 0;
  TEXCV_CUDA_CHECK(op, cudaCreateTextureObject(&t, &res, &tex, nullptr));
  t_ = t;
  add(counters().textures);
}

TextureObject::TextureObject(TextureObject&& o) noexcept : t_(std::exchange(o.t_, 0)) {}

TextureObject& TextureObject::operator=(TextureObject&& o) noexcept {
  if (this != &o) {
    TextureObject old(std::move(*this));
    t_ = std::exchange(o.t_, 0);
  }
  return *this;
}

TextureObject::~TextureObject() {
  if (t_ == 0) return;
  record_release_error(cudaDestroyTextureObject(t_));
  sub(counters().textures);
}

}  // namespace texcv::cuda
