// Build and machine information, forwarded to the CUDA backend (or its stubs).
#include "texcv/runtime.hpp"

#include "src/core/backends.hpp"
#include "texcv/io.hpp"

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
  b.cuda_version = cuda::compiled_version();
  b.cuda_architectures = cuda::compiled_architectures();
#if defined(TEXCV_HAS_OPENMP)
  b.openmp = true;
#else
  b.openmp = false;
#endif
  b.formats = supported_formats();
  return b;
}

bool cuda_available() {
  return cuda::available();
}
std::vector<GpuInfo> gpus() {
  return cuda::gpus();
}
HandleCounts live_handles() {
  return cuda::live_handles();
}
MemoryInfo device_memory_info() {
  return cuda::device_memory_info();
}
void clear_texture_cache() {
  cuda::clear_texture_cache();
}

}  // namespace texcv
