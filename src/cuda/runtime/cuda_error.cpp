// The CUDA error path (throw_cuda_error), the live-handle counters and the device queries.
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda {

void throw_cuda_error(cudaError_t err, const char* op, const char* call) {
  // Clear the thread's last error: a failed allocation is not sticky, and leaving it set would
  // make the next TEXCV_CUDA_CHECK_LAUNCH report it against an unrelated kernel.
  (void)cudaGetLastError();
  std::string what(call != nullptr ? call : "CUDA call");
  what.append(" failed: ")
      .append(cudaGetErrorName(err))
      .append(": ")
      .append(cudaGetErrorString(err));
  fail(err == cudaErrorMemoryAllocation ? ErrorCode::OutOfMemory : ErrorCode::Cuda,
       op != nullptr ? op : "cuda", what);
}

Counters& counters() noexcept {
  static Counters c;
  return c;
}

void record_release_error(cudaError_t err) noexcept {
  if (err == cudaSuccess) return;
  counters().release_errors.fetch_add(1, std::memory_order_relaxed);
  (void)cudaGetLastError();
}

int current_device(const char* op) {
  int device = 0;
  TEXCV_CUDA_CHECK(op, cudaGetDevice(&device));
  return device;
}

const cudaDeviceProp& device_properties(int device, const char* op) {
  // One slot per device, filled on first use. A deque of unique_ptr keeps references stable.
  static std::mutex mutex;
  static std::deque<std::unique_ptr<cudaDeviceProp>> props;
  if (device < 0)
    fail(ErrorCode::InvalidArgument, op, "device index is negative", std::to_string(device),
         ">= 0");
  const std::lock_guard<std::mutex> lock(mutex);
  const auto index = static_cast<std::size_t>(device);
  if (index < props.size() && props[index]) return *props[index];
  auto p = std::make_unique<cudaDeviceProp>();
  TEXCV_CUDA_CHECK(op, cudaGetDeviceProperties(p.get(), device));
  if (props.size() <= index) props.resize(index + 1);
  props[index] = std::move(p);
  return *props[index];
}

}  // namespace texcv::cuda
