// The CUDA worker of the batch engine. Each worker owns one CUDA stream on one GPU, a pinned
// staging buffer for uploads and one for downloads, a pitched device buffer for the decoded
// image and two for the steps' results (each step writes into the one its input is not in,
// through texcv::apply_into; a crop is a view, no copy). All are kept between images and
// reallocated only when an image does not fit: no CUDA allocation or free per file (a cudaFree
// synchronizes the whole device and serialized the workers). With several workers per GPU (two
// by default), one worker's copies overlap another's kernels.
//
// With nvJPEG (TEXCV_HAS_NVJPEG, found by src/CMakeLists.txt in the CUDA toolkit), a
// worker also decodes JPEG inputs on the GPU and encodes JPEG outputs there. It takes the JPEG
// files waiting in the queue in batches (--gpu-jpeg-batch, 32 by default) and decodes them in one
// call on the GPU's hardware JPEG decoder (nvJPEG's NVJPEG_BACKEND_HARDWARE: the A100, H100 and
// H200 have such engines); a file the hardware cannot decode (not baseline 3-channel, no end
// marker, a GPU without the engines) is decoded alone by nvJPEG's hybrid decoder, and one nvJPEG
// cannot decode at all is decoded on the CPU (libjpeg-turbo).
//
// A CUDA out-of-memory error (or an operation without a CUDA backend) on one image does not
// stop the run: the worker drops its buffers, runs that image on the CPU backend and says so in
// the file's record.
//
// A sticky CUDA error (an illegal address, a launch failure...: the CUDA context is lost for the
// whole process on that GPU) makes process() throw WorkerLost: the engine retires every worker of
// that GPU and runs the file on another worker. So does a failure to set up the worker on its GPU
// (cudaSetDevice, the stream, nvJPEG).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "src/batch/engine.hpp"
#include "src/core/backends.hpp"
#include "texcv/error.hpp"
#include "texcv/registry.hpp"

#include <cuda_runtime.h>

#include "src/cuda/ops/common/launch_batch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#if defined(TEXCV_HAS_NVJPEG)
#include <nvjpeg.h>
#endif

namespace texcv::batch {

bool nvjpeg_compiled() {
#if defined(TEXCV_HAS_NVJPEG)
  return true;
#else
  return false;
#endif
}

namespace {

constexpr const char* kOp = "batch";

// Copies rows between two host buffers of different pitches.
void copy_rows(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
               std::size_t row_bytes, int rows) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (int y = 0; y < rows; ++y)
    std::memcpy(d + dst_pitch * static_cast<std::size_t>(y),
                s + src_pitch * static_cast<std::size_t>(y), row_bytes);
}

#if defined(TEXCV_HAS_NVJPEG)
// Throws Error(OutOfMemory) for an allocation failure (so the worker falls back to the CPU),
// Error(Cuda) for any other failure.
void check_nvjpeg(nvjpegStatus_t st, const char* call) {
  if (st == NVJPEG_STATUS_SUCCESS) return;
  const std::string what =
      std::string(call) + " failed: nvJPEG status " + std::to_string(static_cast<int>(st));
  (void)cudaGetLastError();
  if (st == NVJPEG_STATUS_ALLOCATOR_FAILURE) fail(ErrorCode::OutOfMemory, kOp, what);
  fail(ErrorCode::Cuda, kOp, what);
}
#define TEXCV_NVJPEG_CHECK(call) check_nvjpeg((call), #call)

// nvJPEG's library handles, one of each kind per GPU, shared by the workers of that GPU (a
// handle is thread-safe; the decode and encode states are per worker) and made on first use:
// creating them costs a large part of a second each, which a run of TIFF files never pays and a
// run of JPEG files pays once per GPU instead of once per worker. They live until the process
// ends. The calling thread's current device must be `device`.
// Each handle has its own mutex, so that two workers make the two at the same time (with one
// mutex for both, as before 2026-12-03, the second waited for the first: on the H200 a worker
// starting with the hardware handle, already made, waited 0.84 s while its sibling made the
// simple one).
struct GpuJpegHandles {
  std::mutex simple_m, hw_m;
  // nvjpegCreateSimple: single (hybrid) decodes, and the encoder where there is no hw handle.
  nvjpegHandle_t simple = nullptr;
  // NVJPEG_BACKEND_HARDWARE, when the GPU has JPEG engines: batched decodes and the encoder.
  nvjpegHandle_t hw = nullptr;
  bool hw_tried = false;
};

GpuJpegHandles& jpeg_handles(int device) {
  static std::mutex m;
  static std::map<int, std::unique_ptr<GpuJpegHandles>> all;
  std::lock_guard<std::mutex> lock(m);
  auto& h = all[device];
  if (!h) h = std::make_unique<GpuJpegHandles>();
  return *h;
}

// TEXCV_BATCH_EAGER_SIMPLE_HANDLE=1 brings back the set-up before 2026-12-03 for A/B runs: the
// probe makes the simple handle beside the hardware one, each worker its hybrid decode state
// at set-up, and the encoder uses the simple handle.
bool eager_simple_handle() {
  static const bool eager = env_is_one("TEXCV_BATCH_EAGER_SIMPLE_HANDLE");
  return eager;
}

nvjpegHandle_t simple_handle(int device) {
  GpuJpegHandles& h = jpeg_handles(device);
  std::lock_guard<std::mutex> lock(h.simple_m);
  if (!h.simple) TEXCV_NVJPEG_CHECK(nvjpegCreateSimple(&h.simple));
  return h.simple;
}

// nullptr when the GPU has no hardware JPEG decoder.
nvjpegHandle_t hardware_handle(int device) {
  GpuJpegHandles& h = jpeg_handles(device);
  std::lock_guard<std::mutex> lock(h.hw_m);
  if (!h.hw_tried) {
    h.hw_tried = true;
    if (nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &h.hw) !=
        NVJPEG_STATUS_SUCCESS) {
      h.hw = nullptr;
      (void)cudaGetLastError();
    }
  }
  return h.hw;
}
#endif

// ---- Worker loss ------------------------------------------------------------------------------

// The errors that leave the device unusable: the CUDA runtime documents each of the first group
// as "leaves the process in an inconsistent state and any further CUDA work will return the same
// error"; the others mean the GPU itself cannot be used (an uncorrectable ECC error, the device
// taken by another process in exclusive mode, a destroyed context).
bool is_sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice:
#if CUDART_VERSION >= 12080
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak:
#endif
    case cudaErrorECCUncorrectable:
    case cudaErrorDevicesUnavailable:
    case cudaErrorContextIsDestroyed:
      return true;
    default:
      return false;
  }
}

// After a failure on the calling thread's current device: the sticky error it left, or
// cudaSuccess. A sticky error is returned by every later call; cudaDeviceSynchronize also
// reports one raised by another worker's kernel on the same GPU.
cudaError_t sticky_error() noexcept {
  cudaError_t e = cudaDeviceSynchronize();
  if (!is_sticky(e)) e = cudaPeekAtLastError();
  return is_sticky(e) ? e : cudaSuccess;
}

std::string lost_reason(cudaError_t e, const std::string& during) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) +
         "): the GPU's CUDA context is unusable; first seen as: " + during;
}

// Reallocates buf only when row x rows does not fit in it.
void fit(cuda::DeviceBuffer& buf, std::size_t row, int rows) {
  if (buf.width_bytes() < row || buf.height() < static_cast<std::size_t>(rows)) {
    buf = cuda::DeviceBuffer();
    buf = cuda::DeviceBuffer(row, static_cast<std::size_t>(rows), kOp);
  }
}

// Pinned host buffers for the results a worker hands to the encoder threads: the device result
// is copied straight into one, and the encoder's image holds it (Image::adopt) until the file is
// written, then gives it back. Without it each result went through the worker's staging buffer
// into a newly allocated host image: for the TIFF task's 56 MB results that was 47-63 ms a file
// on the two-H200 machine (page faults on every page of the new image), against ~3 ms for the
// transfer. At most `budget` bytes (lent or free); beyond it the worker takes the staging path.
class PinnedPool {
 public:
  explicit PinnedPool(std::size_t budget) : budget_(budget) {}

  // A buffer of at least `bytes`, or an empty one when the budget (or the pinned allocation)
  // does not allow it.
  cuda::PinnedBuffer take(std::size_t bytes) {
    std::vector<cuda::PinnedBuffer> evicted;  // released after the lock (cudaFreeHost is slow)
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = free_.begin(); it != free_.end(); ++it)
        if (it->size() >= bytes) {
          cuda::PinnedBuffer b = std::move(*it);
          free_.erase(it);
          return b;
        }
      // None fits: free buffers make room for a larger one.
      while (!free_.empty() && held_ + bytes > budget_) {
        evicted.push_back(std::move(free_.back()));
        held_ -= evicted.back().size();
        free_.pop_back();
      }
      if (held_ + bytes > budget_) return {};
      held_ += bytes;  // reserved: the page-locking below runs outside the lock
    }
    // Page-locking 75 MB takes milliseconds: under the lock, the decoders asking at once took
    // turns for it.
    try {
      return cuda::PinnedBuffer(bytes, kOp);
    } catch (const Error&) {
      std::lock_guard<std::mutex> lock(mutex_);
      held_ -= bytes;
      return {};  // no pinned memory: the staging path
    }
  }

  void give_back(cuda::PinnedBuffer b) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
      free_.push_back(std::move(b));
    } catch (...) {
      held_ -= b.size();  // b is released here
    }
  }

 private:
  std::mutex mutex_;
  std::vector<cuda::PinnedBuffer> free_;
  std::size_t held_ = 0;  // bytes of every buffer made, lent or free
  const std::size_t budget_;
};

// Each worker's pinned budget for results in flight (4 of the TIFF task's 56 MB results).
constexpr std::size_t kResultPoolBytes = std::size_t{256} << 20;

// The decoders' pinned budget for inputs on their way to the GPU workers (pinned_input_allocator):
// pinned_input_budget of the machine's memory (3.9 GB on the 125.8 GiB GPU machines). On the H100
// machine (twenty-second and twenty-third sessions) a 1 GB pool held 13 of the TIFF task's 75 MB
// inputs, and 8 of each CUDA worker's 14-16 inputs came from it (the decoders run ahead of the
// GPU and hold the pool's buffers in the queue); with 3 GB all 32 did, and `--device cuda` took
// 0.56 s against 0.64 (3 interleaved rounds). TEXCV_BATCH_PINNED_POOL_MB=n (64 to 65536) sets
// another budget, read once.
std::size_t input_pool_bytes() {
  if (const char* v = std::getenv("TEXCV_BATCH_PINNED_POOL_MB")) {
    const long mb = std::atol(v);
    if (mb >= 64 && mb <= 65536) return static_cast<std::size_t>(mb) << 20;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pinned_input_budget(pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) *
                                                         static_cast<std::uint64_t>(page)
                                                   : 0);
}

std::shared_ptr<PinnedPool> input_pool() {
  static auto* pool =
      new std::shared_ptr<PinnedPool>(std::make_shared<PinnedPool>(input_pool_bytes()));
  return *pool;
}

// Whether host memory p is pinned (page-locked by CUDA): a copy from it needs no staging.
bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

#if defined(TEXCV_HAS_NVJPEG)
// The largest number of pixels decoded in one batch (the batch's device buffers stay below
// ~800 MB for 3-channel images); files beyond it are decoded alone.
constexpr std::size_t kMaxBatchPixels = std::size_t{256} << 20;

// Whether a JPEG file ends with its end-of-image marker: a truncated file is left to the decoders
// that report the damage (the hardware decoder may not).
bool ends_with_eoi(const std::vector<unsigned char>& f) {
  std::size_t n = f.size();
  while (n > 2 && f[n - 1] == 0) --n;  // zero padding after the marker
  return n >= 4 && f[n - 2] == 0xFF && f[n - 1] == 0xD9;
}
#endif

class CudaWorker final : public Worker {
 public:
  CudaWorker(const std::vector<PipelineStep>& steps, int device, int slot, bool nvjpeg,
             int jpeg_batch)
      : steps_(steps),
        device_(device),
        slot_(slot),
        use_nvjpeg_(nvjpeg),
        jpeg_batch_(nvjpeg && jpeg_batch > 1 ? jpeg_batch : 1) {}

  ~CudaWorker() override {
    // The buffers and the stream belong to device_; make it current for their release (the
    // destructors never throw; a failure is counted by the runtime layer).
    if (stream_) (void)cudaSetDevice(device_);
#if defined(TEXCV_HAS_NVJPEG)
    if (hw_stream_) (void)nvjpegJpegStreamDestroy(hw_stream_);
    if (hw_state_) (void)nvjpegJpegStateDestroy(hw_state_);
    if (enc_params_) (void)nvjpegEncoderParamsDestroy(enc_params_);
    if (enc_state_) (void)nvjpegEncoderStateDestroy(enc_state_);
    if (dec_state_) (void)nvjpegJpegStateDestroy(dec_state_);
#endif
  }

  std::string name() const override {
    return "cuda:" + std::to_string(device_) + "/" + std::to_string(slot_);
  }
  std::string device() const override {
    return "cuda:" + std::to_string(device_);
  }
  std::string timing() const override {
    if (!timing_ || t_.files == 0) return {};
    const double n = static_cast<double>(t_.files);
    const double nb = static_cast<double>(t_.batch_files);
    char buf[768];
    std::snprintf(
        buf, sizeof buf,
        "timing %s: set-up %.1f ms (stream %.1f, hardware decoder %.1f, decode state %.1f, "
        "encode state %.1f: each waits for its GPU's shared handle), first file %.1f ms, first "
        "hardware-decode batch %.1f ms; then %zu files, ms per file: process %.3f (input %.3f, "
        "steps %.3f, JPEG "
        "encode %.3f, download %.3f); %zu batches of %.1f files, batch decode and "
        "steps %.3f ms per file; %zu kernel calls batched in %zu launches; %zu inputs "
        "uploaded straight from pinned memory",
        name().c_str(), setup_ms_, setup_stream_ms_, setup_hw_ms_, setup_dec_ms_, setup_enc_ms_,
        t_.first_ms, t_.first_batch_ms, t_.files, t_.process_ms / n, t_.input_ms / n,
        t_.steps_ms / n, t_.encode_ms / n, t_.download_ms / n, t_.batches,
        t_.batches ? nb / static_cast<double>(t_.batches) : 0.0, nb > 0 ? t_.prepare_ms / nb : 0.0,
        batched_calls_, batched_launches_, direct_uploads_);
    return buf;
  }

  bool is_gpu() const override {
    return true;
  }
  bool decodes_jpeg() const override {
    return use_nvjpeg_;
  }
  std::size_t batch_size() const override {
    return static_cast<std::size_t>(jpeg_batch_);
  }

  // The stream and, with nvJPEG, the decode and encode states and the hardware decoder's (the
  // GPU's shared handles are made by the first of its workers): before the first file, so that
  // while this runs in the background (Device::automatic) the CPU workers take the files.
  void setup() override {
    const Tick t0 = std::chrono::steady_clock::now();
    try {
      init();
      if (timing_) setup_stream_ms_ = ms_since(t0);
#if defined(TEXCV_HAS_NVJPEG)
      if (use_nvjpeg_) {
        // With JPEG inputs, the hardware decoder's handle and state first; the encoder then
        // uses that handle, and the simple handle with the hybrid decode state is made only if
        // a file needs it (decode_jpeg) or the GPU has no hardware decoder.
        auto timed = [&](double& ms, auto&& step) {
          const Tick t = tick();
          step();
          if (timing_) ms = ms_since(t);
        };
        if (jpeg_batch_ > 1)
          timed(setup_hw_ms_, [&] {
            if (!init_hardware_decode()) jpeg_batch_ = 1;
          });
        if (jpeg_batch_ == 1 || eager_simple_handle())
          timed(setup_dec_ms_, [&] { init_jpeg_decode(); });
        timed(setup_enc_ms_, [&] { init_jpeg_encode(); });
      }
#endif
    } catch (const std::exception& e) {
      throw std::runtime_error("cannot set up a worker on GPU " + std::to_string(device_) + ": " +
                               e.what());
    }
    setup_ms_ = ms_since(t0);
  }

  // A worker kept between runs (batch::Session) runs on a new thread each run: make its GPU
  // the thread's current device (its stream, buffers and nvJPEG states belong to that device).
  void attach() override {
    try {
      TEXCV_CUDA_CHECK(kOp, cudaSetDevice(device_));
    } catch (const std::exception& e) {
      throw std::runtime_error("cannot attach a worker to GPU " + std::to_string(device_) + ": " +
                               e.what());
    }
  }

  // Decodes the batch's JPEG files together on the GPU's hardware decoder (see the file's
  // comment); the others, and all of them after a failure that is not a lost GPU, are left to
  // process().
  void prepare(const std::vector<WorkItem*>& items) override {
    predecoded_.clear();
    stepped_.clear();
#if defined(TEXCV_HAS_NVJPEG)
    if (jpeg_batch_ <= 1) return;
    try {
      const Tick t0 = tick();
      decode_batch(items);
      run_steps_batched();
      if (timing_ && !predecoded_.empty()) {
        sync_for_timing();
        // The first batch (it makes the decoder's state) is counted apart.
        const double ms = ms_since(t0);
        if (t_.first_batch_ms == 0) {
          t_.first_batch_ms = ms;
        } else {
          t_.prepare_ms += ms;
          t_.batches += 1;
          t_.batch_files += predecoded_.size();
        }
      }
    } catch (const std::exception& e) {
      predecoded_.clear();
      stepped_.clear();
      throw_if_lost(e);
      for (WorkItem* w : items)
        if (!w->encoded.empty() && w->result.note.empty())
          w->result.note = std::string("nvJPEG's batched hardware decode failed (") + e.what() +
                           "); decoded alone";
    }
#else
    (void)items;
#endif
  }

  void process(WorkItem& item) override {
    Result& r = item.result;
    r.device = device();
    try {
      const Tick t0 = tick();
      process_on_device(item);
      if (timing_) {
        if (t_.first_ms == 0) {  // the worker's set-up: counted apart, the phases start again
          t_.first_ms = ms_since(t0);
          t_.input_ms = t_.steps_ms = t_.encode_ms = t_.download_ms = 0;
        } else {
          t_.process_ms += ms_since(t0);
          t_.files += 1;
        }
      }
    } catch (const std::exception& e) {
      throw_if_lost(e);
      const auto* err = dynamic_cast<const Error*>(&e);
      if (!err || (err->code() != ErrorCode::OutOfMemory && err->code() != ErrorCode::NotCompiled))
        throw;
      // Give the memory back (the next image reallocates what it needs), then the CPU.
      release_buffers();
      predecoded_.erase(&item);
      stepped_.erase(&item);
      r.decoder.clear();
      r.cpu_fallback = true;
      r.note = std::string(err->code() == ErrorCode::OutOfMemory ? "CUDA out of memory"
                                                                 : "no CUDA backend for a step") +
               " (" + e.what() + "); retried on the CPU backend";
      r.device = "cpu";
      item.encoded_output.clear();
      Image out = run_steps_on_host(host_input(item).view(), steps_);
      item.image = std::move(out);
    }
  }

 private:
  // TEXCV_BATCH_TIMING=1 (a diagnostic, docs/batch.md): each worker measures where its time goes
  // and prints it when the run ends. The GPU work of a phase is waited for at its end (one
  // stream synchronization more per phase), so the phases add up to the worker's time; the run
  // itself is a little slower.
  using Tick = std::chrono::steady_clock::time_point;
  struct Timing {
    std::size_t batches = 0, batch_files = 0;  // after the first batch
    double first_batch_ms = 0, first_ms = 0;   // the first batch and the first file
    std::size_t files = 0;                     // after the first file
    double prepare_ms = 0, process_ms = 0, input_ms = 0, steps_ms = 0, encode_ms = 0,
           download_ms = 0;
  };
  Tick tick() const {
    return timing_ ? std::chrono::steady_clock::now() : Tick();
  }
  static double ms_since(Tick t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  void sync_for_timing() const {
    if (timing_ && stream_) TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(stream_->get()));
  }

  // Turns a failure that ends this worker into WorkerLost: no stream yet (cudaSetDevice or the
  // stream failed: the worker cannot run on its GPU), or a sticky CUDA error (the GPU is gone for
  // every worker on it; the items were not processed). Returns for any other failure.
  void throw_if_lost(const std::exception& e) const {
    const auto* err = dynamic_cast<const Error*>(&e);
    if (!stream_ && err && err->code() == ErrorCode::Cuda)
      throw WorkerLost("cannot set up a worker on GPU " + std::to_string(device_) + ": " +
                       e.what());
    if (const cudaError_t st = sticky_error(); st != cudaSuccess)
      throw WorkerLost(lost_reason(st, e.what()));
  }

  void init() {
    if (stream_) return;
    TEXCV_CUDA_CHECK(kOp, cudaSetDevice(device_));
    stream_ = std::make_unique<cuda::Stream>(kOp);
  }

#if defined(TEXCV_HAS_NVJPEG)
  // nvJPEG's decode or encode state, made when this worker first decodes or encodes a JPEG.
  void init_jpeg_decode() {
    if (dec_state_) return;
    nvjpeg_ = simple_handle(device_);
    TEXCV_NVJPEG_CHECK(nvjpegJpegStateCreate(nvjpeg_, &dec_state_));
  }
  // The encoder's handle: the hardware decoder's when this worker has it (its encoder gives
  // the same bytes as the simple handle's: bench/batch/setup_under_load on the H200), so that a
  // run whose JPEG files the hardware decodes never makes the simple handle (0.27-0.30 s) nor
  // the hybrid decode state (0.31-0.37 s); else the simple handle.
  void init_jpeg_encode() {
    if (enc_state_) return;
    enc_handle_ = hw_state_ && !eager_simple_handle() ? hw_ : simple_handle(device_);
    TEXCV_NVJPEG_CHECK(nvjpegEncoderStateCreate(enc_handle_, &enc_state_, stream_->get()));
    TEXCV_NVJPEG_CHECK(nvjpegEncoderParamsCreate(enc_handle_, &enc_params_, stream_->get()));
  }
  // The hardware decoder's state; false when the GPU has none (every file is then decoded alone
  // by the hybrid decoder).
  bool init_hardware_decode() {
    if (hw_state_) return true;
    if (hw_tried_) return false;
    hw_tried_ = true;
    hw_ = hardware_handle(device_);
    if (!hw_) return false;
    TEXCV_NVJPEG_CHECK(nvjpegJpegStateCreate(hw_, &hw_state_));
    TEXCV_NVJPEG_CHECK(nvjpegJpegStreamCreate(hw_, &hw_stream_));
    return true;
  }
#endif

  void release_buffers() noexcept {
    if (stream_) (void)cudaStreamSynchronize(stream_->get());
    (void)cudaGetLastError();
    pinned_in_ = cuda::PinnedBuffer();
    pinned_out_ = cuda::PinnedBuffer();
    device_in_ = cuda::DeviceBuffer();
    step_[0] = cuda::DeviceBuffer();
    step_[1] = cuda::DeviceBuffer();
    predecoded_.clear();
    batch_in_.clear();
    stepped_.clear();
    batch_step_[0].clear();
    batch_step_[1].clear();
  }

  // The device input buffer, reallocated only when row x rows does not fit.
  void fit_device_in(std::size_t row, int rows) {
    fit(device_in_, row, rows);
  }

#if defined(TEXCV_HAS_NVJPEG)
  // The hardware-decodable JPEG files among items, decoded in one nvjpegDecodeBatched call on
  // this worker's stream into batch_in_[j]; predecoded_ maps each to its decoded image.
  void decode_batch(const std::vector<WorkItem*>& items) {
    bool any = false;
    for (const WorkItem* w : items) any = any || !w->encoded.empty();
    if (!any) return;
    init();
    if (!init_hardware_decode()) return;
    std::vector<WorkItem*> take;
    std::vector<const unsigned char*> data;
    std::vector<std::size_t> lengths;
    std::vector<nvjpegImage_t> outs;
    std::size_t pixels = 0;
    for (WorkItem* w : items) {
      const Result& r = w->result;
      if (w->encoded.empty() || r.channels != 3 || !ends_with_eoi(w->encoded)) continue;
      if (nvjpegJpegStreamParseHeader(hw_, w->encoded.data(), w->encoded.size(), hw_stream_) !=
          NVJPEG_STATUS_SUCCESS)
        continue;
      unsigned int fw = 0, fh = 0, ncomp = 0;
      int unsupported = 1;
      if (nvjpegJpegStreamGetFrameDimensions(hw_stream_, &fw, &fh) != NVJPEG_STATUS_SUCCESS ||
          nvjpegJpegStreamGetComponentsNum(hw_stream_, &ncomp) != NVJPEG_STATUS_SUCCESS ||
          nvjpegDecodeBatchedSupported(hw_, hw_stream_, &unsupported) != NVJPEG_STATUS_SUCCESS)
        continue;
      // Must agree with what imread (libjpeg-turbo) gives, which the header check reported.
      if (unsupported != 0 || ncomp != 3 || static_cast<int>(fw) != r.width ||
          static_cast<int>(fh) != r.height)
        continue;
      const std::size_t px = static_cast<std::size_t>(fw) * fh;
      if (pixels + px > kMaxBatchPixels) continue;
      pixels += px;
      const std::size_t j = take.size();
      if (batch_in_.size() <= j) batch_in_.resize(j + 1);
      fit(batch_in_[j], std::size_t{3} * fw, static_cast<int>(fh));
      nvjpegImage_t dst{};
      dst.channel[0] = static_cast<unsigned char*>(batch_in_[j].data());
      dst.pitch[0] = batch_in_[j].pitch();
      take.push_back(w);
      data.push_back(w->encoded.data());
      lengths.push_back(w->encoded.size());
      outs.push_back(dst);
    }
    if (take.empty()) return;
    TEXCV_NVJPEG_CHECK(nvjpegDecodeBatchedInitialize(hw_, hw_state_, static_cast<int>(take.size()),
                                                     1, NVJPEG_OUTPUT_RGBI));
    TEXCV_NVJPEG_CHECK(nvjpegDecodeBatched(hw_, hw_state_, data.data(), lengths.data(), outs.data(),
                                           stream_->get()));
    for (std::size_t j = 0; j < take.size(); ++j)
      predecoded_[take[j]] =
          batch_in_[j].view(take[j]->result.width, take[j]->result.height, 3, ElemType::u8);
  }
#endif

  // The steps over prepare's hardware-decoded images together (issue 15, item 3): each step's
  // op is called per image, through the registry as in process(), inside a cuda::ops::LaunchBatch
  // (launch_batch.hpp), so that a kernel runs once for all the images of the batch. Only the ops
  // whose CUDA call ends with its batched launch and frees nothing after it are batched; the
  // others run per image, at once. An image whose call fails is left out; process() runs its
  // steps alone from its decoded input and reports the error. stepped_ maps each image that went
  // through all the steps to its result. TEXCV_BATCH_BATCHED_STEPS=0 turns this off (A/B runs).
  void run_steps_batched() {
    if (predecoded_.size() < 2 || !batched_steps_) return;
    std::vector<const WorkItem*> who;
    std::vector<ImageView> cur;
    for (const auto& [w, v] : predecoded_) {
      who.push_back(w);
      cur.push_back(v);
    }
    const std::size_t n = who.size();
    std::vector<int> in_step(n, -1);  // which batch_step_ buffer cur[j] lies in (-1: the input)
    std::vector<bool> alive(n, true);
    for (auto& b : batch_step_)
      if (b.size() < n) b.resize(n);
    const cudaStream_t s = stream_->get();
    for (const auto& step : steps_) {
      const bool crop = step.name == "crop";
      std::optional<cuda::ops::LaunchBatch> batch;
      if (!crop && cuda::batchable_op(step.name)) batch.emplace(s);
      for (std::size_t j = 0; j < n; ++j) {
        if (!alive[j]) continue;
        try {
          if (crop) {
            cur[j] = cur[j].roi(output_size(step.name, cur[j].width, cur[j].height, step.params));
            continue;
          }
          const OutputFormat f = output_format(step.name, cur[j], step.params);
          const int next = in_step[j] == 0 ? 1 : 0;
          fit(batch_step_[next][j],
              static_cast<std::size_t>(f.width) * static_cast<std::size_t>(f.channels) *
                  elem_size(f.type),
              f.height);
          const ImageView dst = batch_step_[next][j].view(f.width, f.height, f.channels, f.type);
          apply_into(step.name, cur[j], dst, step.params, s);
          cur[j] = dst;
          in_step[j] = next;
        } catch (const Error&) {
          alive[j] = false;  // process() runs it alone and reports why
        }
      }
      if (batch) {
        batch->flush();
        batched_launches_ += batch->launches();
        batched_calls_ += batch->recorded();
      }
    }
    for (std::size_t j = 0; j < n; ++j)
      if (alive[j]) stepped_[who[j]] = cur[j];
  }

  static bool batched_steps_enabled() {
    const char* v = std::getenv("TEXCV_BATCH_BATCHED_STEPS");
    return !(v && std::string(v) == "0");
  }

  // Host image -> device input buffer, on this worker's stream: straight from a pinned image
  // (decoded into pinned memory, pinned_input_allocator), else through the pinned staging buffer.
  ImageView upload(const ImageView& v) {
    const std::size_t row = v.row_bytes();
    const std::size_t bytes = row * static_cast<std::size_t>(v.height);
    if (is_pinned(v.data)) {
      // The image lives until process() returns, after the stream's last synchronization.
      fit_device_in(row, v.height);
      TEXCV_CUDA_CHECK(kOp, cudaMemcpy2DAsync(device_in_.data(), device_in_.pitch(), v.data,
                                              v.pitch, row, static_cast<std::size_t>(v.height),
                                              cudaMemcpyHostToDevice, stream_->get()));
      ++direct_uploads_;
      return device_in_.view(v.width, v.height, v.channels, v.type);
    }
    if (pinned_in_.size() < bytes) {
      pinned_in_ = cuda::PinnedBuffer();
      pinned_in_ = cuda::PinnedBuffer(bytes, kOp);
    }
    // The previous upload from pinned_in_ finished: every image ends with a stream sync.
    copy_rows(pinned_in_.data(), row, v.data, v.pitch, row, v.height);
    fit_device_in(row, v.height);
    TEXCV_CUDA_CHECK(
        kOp, cudaMemcpy2DAsync(device_in_.data(), device_in_.pitch(), pinned_in_.data(), row, row,
                               static_cast<std::size_t>(v.height), cudaMemcpyHostToDevice,
                               stream_->get()));
    return device_in_.view(v.width, v.height, v.channels, v.type);
  }

#if defined(TEXCV_HAS_NVJPEG)
  // Decodes item.encoded into the device input buffer. Returns false when nvJPEG cannot (the
  // caller decodes on the CPU, which also gives the precise reason for a corrupt file).
  bool decode_jpeg(WorkItem& item, ImageView& out) {
    init_jpeg_decode();
    const auto* data = item.encoded.data();
    const std::size_t len = item.encoded.size();
    int ncomp = 0;
    nvjpegChromaSubsampling_t css = NVJPEG_CSS_UNKNOWN;
    int widths[NVJPEG_MAX_COMPONENT] = {}, heights[NVJPEG_MAX_COMPONENT] = {};
    if (nvjpegGetImageInfo(nvjpeg_, data, len, &ncomp, &css, widths, heights) !=
        NVJPEG_STATUS_SUCCESS)
      return false;
    const int channels = (ncomp == 1 || css == NVJPEG_CSS_GRAY) ? 1 : 3;
    // Must agree with what imread (libjpeg-turbo) gives, which the header check reported.
    if (ncomp != 1 && ncomp != 3) return false;
    if (channels != item.result.channels || widths[0] != item.result.width ||
        heights[0] != item.result.height)
      return false;
    const int w = widths[0], h = heights[0];
    fit_device_in(static_cast<std::size_t>(w) * static_cast<std::size_t>(channels), h);
    nvjpegImage_t dst{};
    dst.channel[0] = static_cast<unsigned char*>(device_in_.data());
    dst.pitch[0] = device_in_.pitch();
    const nvjpegStatus_t st =
        nvjpegDecode(nvjpeg_, dec_state_, data, len,
                     channels == 1 ? NVJPEG_OUTPUT_Y : NVJPEG_OUTPUT_RGBI, &dst, stream_->get());
    if (st == NVJPEG_STATUS_ALLOCATOR_FAILURE) check_nvjpeg(st, "nvjpegDecode");
    if (st != NVJPEG_STATUS_SUCCESS) {
      (void)cudaGetLastError();
      return false;
    }
    out = device_in_.view(w, h, channels, ElemType::u8);
    return true;
  }

  // Encodes a device u8 image (1 or 3 channels) as JPEG into `out`.
  void encode_jpeg(const ImageView& v, int quality, std::vector<unsigned char>& out) {
    init_jpeg_encode();
    const cudaStream_t s = stream_->get();
    TEXCV_NVJPEG_CHECK(nvjpegEncoderParamsSetQuality(enc_params_, quality, s));
    TEXCV_NVJPEG_CHECK(nvjpegEncoderParamsSetSamplingFactors(
        enc_params_, v.channels == 1 ? NVJPEG_CSS_GRAY : NVJPEG_CSS_420, s));
    nvjpegImage_t src{};
    src.channel[0] = static_cast<unsigned char*>(v.data);
    src.pitch[0] = v.pitch;
    if (v.channels == 3) {
      TEXCV_NVJPEG_CHECK(nvjpegEncodeImage(enc_handle_, enc_state_, enc_params_, &src,
                                           NVJPEG_INPUT_RGBI, v.width, v.height, s));
    } else {
      TEXCV_NVJPEG_CHECK(nvjpegEncodeYUV(enc_handle_, enc_state_, enc_params_, &src,
                                         NVJPEG_CSS_GRAY, v.width, v.height, s));
    }
    // One retrieval into this worker's pinned buffer, sized for the image's raw bytes and then
    // some (a JPEG of it is smaller): one wait for the stream instead of two (the size, then the
    // bytes), and a copy into pinned rather than pageable memory. Should that call fail (a
    // buffer too small: a gray q100 image of noise can exceed its raw size), the size is asked
    // for and the bytes retrieved into `out` as before.
    std::size_t len = 0;
    if (!two_call_retrieve()) {
      const std::size_t room = static_cast<std::size_t>(v.width) *
                                   static_cast<std::size_t>(v.height) *
                                   static_cast<std::size_t>(v.channels) +
                               (std::size_t{1} << 16);
      if (pinned_enc_.size() < room) {
        pinned_enc_ = cuda::PinnedBuffer();
        pinned_enc_ = cuda::PinnedBuffer(room, kOp);
      }
      len = pinned_enc_.size();
      const nvjpegStatus_t st = nvjpegEncodeRetrieveBitstream(
          enc_handle_, enc_state_, static_cast<unsigned char*>(pinned_enc_.data()), &len, s);
      if (st == NVJPEG_STATUS_SUCCESS) {
        TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(s));
        const auto* b = static_cast<const unsigned char*>(pinned_enc_.data());
        out.assign(b, b + len);
        return;
      }
      // Too small (nvJPEG documents "an error", not which), or a real failure, which the
      // two-call retrieval below meets again and reports.
      (void)cudaGetLastError();
      len = 0;
    }
    TEXCV_NVJPEG_CHECK(nvjpegEncodeRetrieveBitstream(enc_handle_, enc_state_, nullptr, &len, s));
    TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(s));
    out.resize(len);
    TEXCV_NVJPEG_CHECK(nvjpegEncodeRetrieveBitstream(enc_handle_, enc_state_, out.data(), &len, s));
    TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(s));
    out.resize(len);
  }
  // TEXCV_BATCH_ENCODE_TWO_CALLS=1 (an A/B aid): the encoder's bytes retrieved as before
  // 2026-12-03, the size first, then the bytes into pageable memory.
  static bool two_call_retrieve() {
    static const bool two = env_is_one("TEXCV_BATCH_ENCODE_TWO_CALLS");
    return two;
  }
#endif

  void process_on_device(WorkItem& item) {
    const Tick t0 = tick();
    init();
    const cudaStream_t s = stream_->get();

    // 1. The input on the device: decoded there by nvJPEG (in prepare's batch, or now), or
    // uploaded from the host image.
    ImageView dsrc;
    item.result.decoder.clear();
    if (auto it = predecoded_.find(&item); it != predecoded_.end()) {
      dsrc = it->second;
      predecoded_.erase(it);
      item.result.decoder = "nvjpeg-hardware";
      item.result.read_device = device();
    }
#if defined(TEXCV_HAS_NVJPEG)
    if (dsrc.empty() && !item.encoded.empty() && use_nvjpeg_) {
      if (decode_jpeg(item, dsrc)) {
        item.result.decoder = "nvjpeg-hybrid";
        item.result.read_device = device();
      } else {
        item.result.note = "nvJPEG could not decode it; decoded on the CPU";
      }
    }
#endif
    if (dsrc.empty()) dsrc = upload(host_input(item).view());
    sync_for_timing();
    Tick t = tick();
    if (timing_) t_.input_ms += ms_since(t0);

    // 2. The steps, each on the stream, into the step buffer its input is not in; a crop is a
    // view of its input (the next step reads the rectangle in place, as run_steps_on_host).
    ImageView o = dsrc;
    int in_step = -1;      // which step_ buffer o lies in (-1: the input)
    bool stepped = false;  // the steps ran in prepare's batch (run_steps_batched)
    if (auto it = stepped_.find(&item); it != stepped_.end()) {
      o = it->second;
      stepped_.erase(it);
      stepped = true;
    }
    for (const auto& step : steps_) {
      if (stepped) break;
      try {
        if (step.name == "crop") {
          o = o.roi(output_size(step.name, o.width, o.height, step.params));
          continue;
        }
        const OutputFormat f = output_format(step.name, o, step.params);
        const int next = in_step == 0 ? 1 : 0;
        fit(step_[next],
            static_cast<std::size_t>(f.width) * static_cast<std::size_t>(f.channels) *
                elem_size(f.type),
            f.height);
        const ImageView dst = step_[next].view(f.width, f.height, f.channels, f.type);
        apply_into(step.name, o, dst, step.params, s);
        o = dst;
        in_step = next;
      } catch (const Error& e) {
        throw Error(e.code(),
                    "step " + std::to_string(step.index) + " (" + step.name + "): " + e.what());
      }
    }
    sync_for_timing();
    if (timing_) {
      t_.steps_ms += ms_since(t);
      t = tick();
    }

#if defined(TEXCV_HAS_NVJPEG)
    // 3a. JPEG output encoded on the GPU.
    if (use_nvjpeg_ && item.encode_jpeg_quality > 0 && o.type == ElemType::u8 &&
        (o.channels == 1 || o.channels == 3)) {
      bool encoded = false;
      try {
        encode_jpeg(o, item.encode_jpeg_quality, item.encoded_output);
        encoded = true;
      } catch (const Error& e) {
        if (e.code() != ErrorCode::Cuda) throw;  // out of memory: the CPU fallback
        // Another nvJPEG failure: libjpeg-turbo writes this file (the download below).
        item.encoded_output.clear();
        item.result.note =
            std::string("nvJPEG could not encode it (") + e.what() + "); encoded on the CPU";
      }
      if (timing_) {
        t_.encode_ms += ms_since(t);
        t = tick();
      }
      if (encoded) {
        Result& r = item.result;
        r.out_width = o.width;
        r.out_height = o.height;
        r.out_channels = o.channels;
        r.out_type = o.type;
        item.image = Image();
        return;
      }
    }
#endif

    // 3b. The device result on the host, for the encoders: in a pooled pinned buffer that the
    // encoder's image holds until the file is written, else through the staging buffer into a new
    // host image.
    const std::size_t orow = o.row_bytes();
    const std::size_t obytes = orow * static_cast<std::size_t>(o.height);
    if (cuda::PinnedBuffer b = result_pool_->take(obytes); b.data() != nullptr) {
      auto* held = new cuda::PinnedBuffer(std::move(b));
      std::shared_ptr<void> owner(held->data(), [pool = result_pool_, held](void*) {
        pool->give_back(std::move(*held));
        delete held;
      });
      TEXCV_CUDA_CHECK(
          kOp, cudaMemcpy2DAsync(held->data(), orow, o.data, o.pitch, orow,
                                 static_cast<std::size_t>(o.height), cudaMemcpyDeviceToHost, s));
      TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(s));
      ImageView hv = o;
      hv.data = held->data();
      hv.pitch = orow;
      hv.location = Location::host;
      item.image = Image::adopt(hv, std::move(owner));
      if (timing_) t_.download_ms += ms_since(t);
      return;
    }
    if (pinned_out_.size() < obytes) {
      pinned_out_ = cuda::PinnedBuffer();
      pinned_out_ = cuda::PinnedBuffer(obytes, kOp);
    }
    TEXCV_CUDA_CHECK(
        kOp, cudaMemcpy2DAsync(pinned_out_.data(), orow, o.data, o.pitch, orow,
                               static_cast<std::size_t>(o.height), cudaMemcpyDeviceToHost, s));
    TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(s));
    Image out(o.width, o.height, o.channels, o.type, Location::host);
    copy_rows(out.data(), out.pitch(), pinned_out_.data(), orow, orow, o.height);
    item.image = std::move(out);
    if (timing_) t_.download_ms += ms_since(t);
  }

  const std::vector<PipelineStep> steps_;
  const bool timing_ = timing_from_env();
  Timing t_;
  double setup_ms_ = 0;
  // Its parts (TEXCV_BATCH_TIMING): init(), the hardware decoder's handle and state, the hybrid
  // decode state (and the GPU's simple handle), the encode state.
  double setup_stream_ms_ = 0, setup_hw_ms_ = 0, setup_dec_ms_ = 0, setup_enc_ms_ = 0;
  std::size_t direct_uploads_ = 0;  // inputs copied to the GPU straight from pinned memory
  int device_ = 0, slot_ = 0;
  bool use_nvjpeg_ = false;
  std::unique_ptr<cuda::Stream> stream_;
  int jpeg_batch_ = 1;
  cuda::PinnedBuffer pinned_in_, pinned_out_;
  cuda::PinnedBuffer pinned_enc_;  // the encoder's bytes (encode_jpeg)
  std::shared_ptr<PinnedPool> result_pool_ = std::make_shared<PinnedPool>(kResultPoolBytes);
  cuda::DeviceBuffer device_in_;
  cuda::DeviceBuffer step_[2];
  // prepare's batch: each file's decoded image, in batch_in_.
  std::vector<cuda::DeviceBuffer> batch_in_;
  std::map<const WorkItem*, ImageView> predecoded_;
  // run_steps_batched's results (in batch_step_[0 or 1][j]) and how it launched.
  std::map<const WorkItem*, ImageView> stepped_;
  std::vector<cuda::DeviceBuffer> batch_step_[2];
  const bool batched_steps_ = batched_steps_enabled();
  std::size_t batched_launches_ = 0, batched_calls_ = 0;
#if defined(TEXCV_HAS_NVJPEG)
  nvjpegHandle_t hw_ = nullptr;  // the hardware decoder's handle (shared), state and parser
  bool hw_tried_ = false;
  nvjpegJpegState_t hw_state_ = nullptr;
  nvjpegJpegStream_t hw_stream_ = nullptr;
  nvjpegHandle_t nvjpeg_ = nullptr;      // the simple handle (single, hybrid decodes)
  nvjpegHandle_t enc_handle_ = nullptr;  // the encoder's (init_jpeg_encode)
  nvjpegJpegState_t dec_state_ = nullptr;
  nvjpegEncoderState_t enc_state_ = nullptr;
  nvjpegEncoderParams_t enc_params_ = nullptr;
#endif
};

}  // namespace

std::vector<std::unique_ptr<Worker>> make_cuda_workers(const std::vector<PipelineStep>& steps,
                                                       const std::vector<int>& devices, int streams,
                                                       bool nvjpeg, int jpeg_batch) {
  std::vector<std::unique_ptr<Worker>> out;
  for (int d : devices)
    for (int k = 0; k < (streams > 0 ? streams : 1); ++k)
      out.push_back(
          std::make_unique<CudaWorker>(steps, d, k, nvjpeg && nvjpeg_compiled(), jpeg_batch));
  return out;
}

std::function<Image(int, int, int, ElemType)> pinned_input_allocator() {
  return [pool = input_pool()](int width, int height, int channels, ElemType type) -> Image {
    const std::size_t row =
        static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) * elem_size(type);
    cuda::PinnedBuffer b = pool->take(row * static_cast<std::size_t>(height));
    if (b.data() == nullptr) return Image(width, height, channels, type);  // over the budget
    auto* held = new cuda::PinnedBuffer(std::move(b));
    std::shared_ptr<void> owner(held->data(), [pool, held](void*) {
      pool->give_back(std::move(*held));
      delete held;
    });
    ImageView v;
    v.data = held->data();
    v.width = width;
    v.height = height;
    v.channels = channels;
    v.type = type;
    v.pitch = row;
    v.location = Location::host;
    return Image::adopt(v, std::move(owner));
  };
}

bool nvjpeg_hardware_decoder(int device) {
#if defined(TEXCV_HAS_NVJPEG)
  // Makes the GPU's shared hardware handle, which its workers then use for the batched decode
  // and the encoder. The simple handle is made only by a worker that needs it (no hardware
  // decoder, or a file the hardware decoder cannot take): until 2026-12-03 this made it too, on
  // a second thread (nvJPEG handles 0.38-0.68 s before the first file on the H200, against
  // 0.27-0.30 s for the hardware handle alone in bench/batch/setup_under_load).
  if (cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  if (!eager_simple_handle()) return hardware_handle(device) != nullptr;
  std::thread simple([device] {  // the A/B run's "before" (eager_simple_handle)
    try {
      if (cudaSetDevice(device) == cudaSuccess) (void)simple_handle(device);
    } catch (const std::exception&) {
    }
    (void)cudaGetLastError();
  });
  const bool hw = hardware_handle(device) != nullptr;
  simple.join();
  return hw;
#else
  (void)device;
  return false;
#endif
}

}  // namespace texcv::batch
