// Build and machine information, forwarded to the CUDA backend (or its stubs).
#include "texcv/runtime.hpp"

#include "src/core/backends.hpp"
#include "src/core/cuda_call.hpp"
#include "src/cpu/simd.hpp"
#include "texcv/io.hpp"

#if defined(TEXCV_HAS_OPENMP)
#include <omp.h>
#endif

#ifndef TEXCV_VERSION
#define TEXCV_VERSION "unknown"
#endif

namespace texcv {

BuildInfo build_info() {
  BuildInfo b;
  b.version = TEXCV_VERSION;
#if defined(TEXCV_HAS_CUDA)
  b.cuda_compiled = true;
#else
  b.cuda_compiled = false;
#endif
  b.cuda_version = TEXCV_CUDA_OR(std::string(), cuda::compiled_version());
  b.cuda_architectures = TEXCV_CUDA_OR(std::string(), cuda::compiled_architectures());
#if defined(TEXCV_HAS_OPENMP)
  b.openmp = true;
#else
  b.openmp = false;
#endif
  b.cpu_simd = cpu::simd::simd_target();
  b.formats = supported_formats();
  return b;
}

int cpu_threads() {
#if defined(TEXCV_HAS_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int set_cpu_threads(int n) {
#if defined(TEXCV_HAS_OPENMP)
  // The default a thread starts with (every thread inherits the initial value), read before any
  // change by this thread.
  static const int kDefault = omp_get_max_threads();
  const int previous = omp_get_max_threads();
  omp_set_num_threads(n > 0 ? n : kDefault);
  return previous;
#else
  (void)n;
  return 1;
#endif
}

bool cuda_available() {
  return TEXCV_CUDA_OR(false, cuda::available());
}
std::vector<GpuInfo> gpus() {
  return TEXCV_CUDA_OR(std::vector<GpuInfo>{}, cuda::gpus());
}
HandleCounts live_handles() {
  return TEXCV_CUDA_OR(HandleCounts{}, cuda::live_handles());
}
MemoryInfo device_memory_info() {
  return TEXCV_CUDA_OR(MemoryInfo{}, cuda::device_memory_info());
}
void clear_texture_cache() {
  TEXCV_CUDA_OR(static_cast<void>(0), cuda::clear_texture_cache());
}

}  // namespace texcv
