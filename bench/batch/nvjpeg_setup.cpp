// Where nvJPEG's set-up time goes (issue 15: the GPU joins a `--device auto` run 0.8 s in, 0.6 s
// of it nvJPEG's hardware handle on the H100 machine). One backend per process, so each starts
// cold as texcv batch does:
//   nvcc -O2 -std=c++20 -o nvjpeg_setup bench/batch/nvjpeg_setup.cpp -lnvjpeg
//   ./nvjpeg_setup default|hybrid|gpu_hybrid|hardware [log]
// prints the CUDA context's start (cudaFree(0)), the handle's creation, a JPEG state and, for
// the batched backends, a decoder and its state; with `log`, every allocation nvJPEG makes
// through the allocators it is given during the handle's creation (size and time), to tell
// memory set-up from the rest. Run it with CUDA_MODULE_LOADING=EAGER too: if the handle's time
// is module loading, eager loading moves it to the context's start.
#include <cuda_runtime.h>
#include <nvjpeg.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point t_start = Clock::now();
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}
bool g_log = false;
int g_dev_allocs = 0, g_pinned_allocs = 0;
double g_dev_ms = 0, g_pinned_ms = 0;
std::size_t g_dev_bytes = 0, g_pinned_bytes = 0;

int dev_malloc(void** p, std::size_t n) {
  const auto t = Clock::now();
  const int r = static_cast<int>(cudaMalloc(p, n));
  const double ms = ms_since(t);
  ++g_dev_allocs;
  g_dev_ms += ms;
  g_dev_bytes += n;
  if (g_log)
    std::printf("  device alloc %zu bytes: %.3f ms (at %.1f ms)\n", n, ms, ms_since(t_start));
  return r;
}
int dev_free(void* p) {
  return static_cast<int>(cudaFree(p));
}
int pinned_malloc(void** p, std::size_t n, unsigned int flags) {
  const auto t = Clock::now();
  const int r = static_cast<int>(cudaHostAlloc(p, n, flags));
  const double ms = ms_since(t);
  ++g_pinned_allocs;
  g_pinned_ms += ms;
  g_pinned_bytes += n;
  if (g_log)
    std::printf("  pinned alloc %zu bytes: %.3f ms (at %.1f ms)\n", n, ms, ms_since(t_start));
  return r;
}
int pinned_free(void* p) {
  return static_cast<int>(cudaFreeHost(p));
}

#define CK(x)                                                                       \
  do {                                                                              \
    if (auto s_ = (x); static_cast<int>(s_) != 0) {                                 \
      std::printf("%s failed: %d (line %d)\n", #x, static_cast<int>(s_), __LINE__); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: nvjpeg_setup default|hybrid|gpu_hybrid|hardware [log]\n");
    return 2;
  }
  const char* name = argv[1];
  g_log = argc > 2 && std::strcmp(argv[2], "log") == 0;
  nvjpegBackend_t backend = NVJPEG_BACKEND_DEFAULT;
  if (!std::strcmp(name, "hybrid")) backend = NVJPEG_BACKEND_HYBRID;
  if (!std::strcmp(name, "gpu_hybrid")) backend = NVJPEG_BACKEND_GPU_HYBRID;
  if (!std::strcmp(name, "hardware")) backend = NVJPEG_BACKEND_HARDWARE;
  auto t = Clock::now();
  CK(cudaFree(nullptr));
  const double ctx = ms_since(t);
  nvjpegDevAllocator_t da{dev_malloc, dev_free};
  nvjpegPinnedAllocator_t pa{pinned_malloc, pinned_free};
  nvjpegHandle_t h = nullptr;
  t = Clock::now();
  CK(nvjpegCreateEx(backend, &da, &pa, NVJPEG_FLAGS_DEFAULT, &h));
  const double handle = ms_since(t);
  const int handle_dev = g_dev_allocs, handle_pinned = g_pinned_allocs;
  const double handle_dev_ms = g_dev_ms, handle_pinned_ms = g_pinned_ms;
  const std::size_t handle_dev_b = g_dev_bytes, handle_pinned_b = g_pinned_bytes;
  nvjpegJpegState_t st = nullptr;
  t = Clock::now();
  CK(nvjpegJpegStateCreate(h, &st));
  const double state = ms_since(t);
  double dec = 0;
  if (backend != NVJPEG_BACKEND_DEFAULT) {
    nvjpegJpegDecoder_t d = nullptr;
    nvjpegJpegState_t ds = nullptr;
    t = Clock::now();
    if (nvjpegDecoderCreate(h, backend, &d) == NVJPEG_STATUS_SUCCESS)
      (void)nvjpegDecoderStateCreate(h, d, &ds);
    dec = ms_since(t);
  }
  std::printf(
      "%s: context %.1f ms, handle %.1f ms (device allocs %d, %.1f MB, %.1f ms; pinned allocs "
      "%d, %.1f MB, %.1f ms), jpeg state %.1f ms, decoder + state %.1f ms; total %.1f ms; "
      "CUDA_MODULE_LOADING=%s\n",
      name, ctx, handle, handle_dev, handle_dev_b / 1e6, handle_dev_ms, handle_pinned,
      handle_pinned_b / 1e6, handle_pinned_ms, state, dec, ms_since(t_start),
      std::getenv("CUDA_MODULE_LOADING") ? std::getenv("CUDA_MODULE_LOADING") : "(unset)");
  return 0;
}
