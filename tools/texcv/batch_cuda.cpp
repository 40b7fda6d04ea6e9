// The CUDA worker of the batch engine. Each worker owns one CUDA stream on one GPU, a pinned
// staging buffer for uploads and one for downloads, and a pitched device buffer for the decoded
// image; all three are kept between images and reallocated only when an image does not fit. With
// several workers per GPU (two by default), one worker's copies overlap another's kernels.
//
// A CUDA out-of-memory error (or an operation without a CUDA backend) on one image does not
// stop the run: the worker drops its buffers, runs that image on the CPU backend and says so in
// the file's record.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "texcv/error.hpp"
#include "tools/texcv/batch_engine.hpp"

#if defined(TEXCV_HAS_CUDA)
#include <cuda_runtime.h>

#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv::cli {

std::string jpeg_codec_name() {
  return "libjpeg-turbo (CPU decode and encode)";
}

#if defined(TEXCV_HAS_CUDA)

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

class CudaWorker final : public Worker {
 public:
  CudaWorker(const std::vector<PipelineStep>& steps, int device, int slot)
      : steps_(steps), device_(device), slot_(slot) {}

  ~CudaWorker() override {
    // The buffers and the stream belong to device_; make it current for their release (the
    // destructors never throw; a failure is counted by the runtime layer).
    if (stream_) (void)cudaSetDevice(device_);
  }

  std::string name() const override {
    return "cuda:" + std::to_string(device_) + "/" + std::to_string(slot_);
  }

  Image process(const Image& src, JobResult& r) override {
    r.device = "cuda:" + std::to_string(device_);
    try {
      return process_on_device(src);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::OutOfMemory && e.code() != ErrorCode::NotCompiled) throw;
      // Give the memory back (the next image reallocates what it needs), then the CPU.
      release_buffers();
      r.cpu_fallback = true;
      r.note = std::string(e.code() == ErrorCode::OutOfMemory ? "CUDA out of memory"
                                                              : "no CUDA backend for a step") +
               " (" + e.what() + "); retried on the CPU backend";
      r.device = "cpu";
      return run_steps_on_host(src.view(), steps_);
    }
  }

 private:
  void init() {
    if (stream_) return;
    TEXCV_CUDA_CHECK(kOp, cudaSetDevice(device_));
    stream_ = std::make_unique<cuda::Stream>(kOp);
  }

  void release_buffers() noexcept {
    if (stream_) (void)cudaStreamSynchronize(stream_->get());
    (void)cudaGetLastError();
    pinned_in_ = cuda::PinnedBuffer();
    pinned_out_ = cuda::PinnedBuffer();
    device_in_ = cuda::DeviceBuffer();
  }

  Image process_on_device(const Image& host) {
    init();
    const ImageView& v = host.view();
    const std::size_t row = v.row_bytes();
    const std::size_t bytes = row * static_cast<std::size_t>(v.height);
    const cudaStream_t s = stream_->get();

    // 1. Pageable decoded image -> pinned staging (reused while it is large enough).
    if (pinned_in_.size() < bytes) {
      pinned_in_ = cuda::PinnedBuffer();
      pinned_in_ = cuda::PinnedBuffer(bytes, kOp);
    }
    copy_rows(pinned_in_.data(), row, v.data, v.pitch, row, v.height);

    // 2. Pinned -> device input buffer (reused while the image fits), on this worker's stream.
    if (device_in_.width_bytes() < row ||
        device_in_.height() < static_cast<std::size_t>(v.height)) {
      device_in_ = cuda::DeviceBuffer();
      device_in_ = cuda::DeviceBuffer(row, static_cast<std::size_t>(v.height), kOp);
    }
    TEXCV_CUDA_CHECK(
        kOp, cudaMemcpy2DAsync(device_in_.data(), device_in_.pitch(), pinned_in_.data(), row, row,
                               static_cast<std::size_t>(v.height), cudaMemcpyHostToDevice, s));
    const ImageView dsrc = device_in_.view(v.width, v.height, v.channels, v.type);

    // 3. The steps, each on the stream.
    Image cur;
    for (const auto& step : steps_) {
      try {
        cur = apply(step.name, cur.empty() ? dsrc : cur.view(), step.params, s);
      } catch (const Error& e) {
        throw Error(e.code(),
                    "step " + std::to_string(step.index) + " (" + step.name + "): " + e.what());
      }
    }

    // 4. Device result -> pinned -> a host image for the encoders.
    const ImageView& o = cur.view();
    const std::size_t orow = o.row_bytes();
    const std::size_t obytes = orow * static_cast<std::size_t>(o.height);
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
    return out;
  }

  const std::vector<PipelineStep>& steps_;
  int device_ = 0, slot_ = 0;
  std::unique_ptr<cuda::Stream> stream_;
  cuda::PinnedBuffer pinned_in_, pinned_out_;
  cuda::DeviceBuffer device_in_;
};

}  // namespace

std::vector<std::unique_ptr<Worker>> make_cuda_workers(const std::vector<PipelineStep>& steps,
                                                       const std::vector<int>& devices,
                                                       int streams) {
  std::vector<std::unique_ptr<Worker>> out;
  for (int d : devices)
    for (int k = 0; k < (streams > 0 ? streams : 1); ++k)
      out.push_back(std::make_unique<CudaWorker>(steps, d, k));
  return out;
}

#else

std::vector<std::unique_ptr<Worker>> make_cuda_workers(const std::vector<PipelineStep>&,
                                                       const std::vector<int>&, int) {
  fail(ErrorCode::NotCompiled, "batch",
       "this build has no CUDA backend; use --device cpu (or rebuild with -DTEXCV_CUDA=ON)");
}

#endif

}  // namespace texcv::cli
