// Why a CUDA worker's set-up is 2-4 times slower on `texcv batch --device auto` than on `cuda`
// (issue 15; docs/performance.md): times what the set-up does (the CUDA context, nvJPEG's
// hardware and simple handles, a decode state, an encoder state) while other threads load the
// machine in one of these ways:
//   none    nothing else runs
//   spin    N threads of pure arithmetic (the CPU share only)
//   churn   N threads that allocate, fill and free 6 MB buffers (what the CPU path's decoders and
//           workers do with 1080p images: page faults, mmap/munmap, memory bandwidth)
//   churnk  as churn, with malloc told to keep its memory (M_TRIM_THRESHOLD, M_MMAP_THRESHOLD)
// and then whether an encoder state made from the hardware decoder's handle encodes (and gives
// the same bytes as one from the simple handle): if so, an all-JPEG run would not need the simple
// handle at all.
//
//   nvcc -O2 -std=c++20 -o setup_under_load bench/batch/setup_under_load.cpp -lnvjpeg
//   ./setup_under_load none|spin|churn|churnk [threads] [hw-first 0|1]
#include <cuda_runtime.h>
#include <malloc.h>
#include <nvjpeg.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

#define CK(x)                                                                                \
  do {                                                                                       \
    if (auto s_ = (x); static_cast<int>(s_) != 0) {                                          \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, static_cast<int>(s_), __LINE__); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

std::atomic<bool> g_stop{false};
std::atomic<unsigned long> g_work{0};

void spin() {
  volatile double x = 1.0;
  unsigned long n = 0;
  while (!g_stop.load(std::memory_order_relaxed)) {
    for (int i = 0; i < 100000; ++i) x = x * 1.0000001 + 1e-9;
    ++n;
  }
  g_work += n;
}

void churn() {
  const std::size_t bytes = 1920u * 1080u * 3u;
  unsigned long n = 0;
  while (!g_stop.load(std::memory_order_relaxed)) {
    auto* p = static_cast<unsigned char*>(std::malloc(bytes));
    std::memset(p, static_cast<int>(n), bytes);
    auto* q = static_cast<unsigned char*>(std::malloc(bytes / 4));
    std::memcpy(q, p, bytes / 4);
    std::free(p);
    std::free(q);
    ++n;
  }
  g_work += n;
}

// Encodes a 960x540 gradient with an encoder state of `h`; returns the bytes (empty: failed).
std::vector<unsigned char> encode(nvjpegHandle_t h, cudaStream_t s) {
  const int w = 960, ht = 540;
  std::vector<unsigned char> host(static_cast<std::size_t>(w) * ht * 3);
  for (int y = 0; y < ht; ++y)
    for (int x = 0; x < w * 3; ++x)
      host[static_cast<std::size_t>(y) * w * 3 + x] = static_cast<unsigned char>((x + 2 * y) & 255);
  unsigned char* d = nullptr;
  CK(cudaMalloc(&d, host.size()));
  CK(cudaMemcpy(d, host.data(), host.size(), cudaMemcpyHostToDevice));
  nvjpegEncoderState_t st = nullptr;
  nvjpegEncoderParams_t pa = nullptr;
  std::vector<unsigned char> out;
  if (nvjpegEncoderStateCreate(h, &st, s) != NVJPEG_STATUS_SUCCESS) {
    std::printf("  nvjpegEncoderStateCreate refused this handle\n");
    return out;
  }
  CK(nvjpegEncoderParamsCreate(h, &pa, s));
  CK(nvjpegEncoderParamsSetQuality(pa, 90, s));
  CK(nvjpegEncoderParamsSetSamplingFactors(pa, NVJPEG_CSS_420, s));
  nvjpegImage_t img{};
  img.channel[0] = d;
  img.pitch[0] = static_cast<std::size_t>(w) * 3;
  const nvjpegStatus_t e = nvjpegEncodeImage(h, st, pa, &img, NVJPEG_INPUT_RGBI, w, ht, s);
  if (e != NVJPEG_STATUS_SUCCESS) {
    std::printf("  nvjpegEncodeImage failed: %d\n", static_cast<int>(e));
    return out;
  }
  std::size_t len = 0;
  CK(nvjpegEncodeRetrieveBitstream(h, st, nullptr, &len, s));
  out.resize(len);
  CK(nvjpegEncodeRetrieveBitstream(h, st, out.data(), &len, s));
  CK(cudaStreamSynchronize(s));
  out.resize(len);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string load = argc > 1 ? argv[1] : "none";
  const int n = argc > 2 ? std::atoi(argv[2]) : 16;
  const bool hw_first = argc > 3 ? std::atoi(argv[3]) != 0 : true;
  if (load == "churnk") {
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
  }
  std::vector<std::thread> th;
  if (load != "none")
    for (int i = 0; i < n; ++i) th.emplace_back(load == "spin" ? spin : churn);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the load is running

  const auto t0 = Clock::now();
  CK(cudaFree(nullptr));
  const double ctx = ms_since(t0);
  cudaStream_t s = nullptr;
  auto t = Clock::now();
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const double stream = ms_since(t);
  nvjpegHandle_t hw = nullptr, simple = nullptr;
  double t_hw = 0, t_simple = 0;
  auto make_hw = [&] {
    const auto a = Clock::now();
    if (nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, 0, &hw) != NVJPEG_STATUS_SUCCESS)
      hw = nullptr;
    t_hw = ms_since(a);
  };
  auto make_simple = [&] {
    const auto a = Clock::now();
    CK(nvjpegCreateSimple(&simple));
    t_simple = ms_since(a);
  };
  if (hw_first) {
    make_hw();
    make_simple();
  } else {
    make_simple();
    make_hw();
  }
  t = Clock::now();
  nvjpegJpegState_t ds = nullptr;
  CK(nvjpegJpegStateCreate(simple, &ds));
  const double dec_state = ms_since(t);
  t = Clock::now();
  nvjpegEncoderState_t es = nullptr;
  CK(nvjpegEncoderStateCreate(simple, &es, s));
  const double enc_state = ms_since(t);
  const double total = ms_since(t0);
  g_stop = true;
  for (auto& x : th) x.join();
  std::printf(
      "load %-6s x%-2d %s: context %.1f, stream %.1f, hardware handle %.1f, simple handle %.1f, "
      "decode state %.1f, encoder state %.1f; total %.1f ms (load work %lu)\n",
      load.c_str(), load == "none" ? 0 : n, hw_first ? "hw first    " : "simple first", ctx, stream,
      t_hw, t_simple, dec_state, enc_state, total, g_work.load());

  if (load == "none" && hw_first) {
    const auto a = encode(simple, s);
    std::printf("  simple handle's encoder: %zu bytes\n", a.size());
    if (hw) {
      const auto b = encode(hw, s);
      std::printf(
          "  hardware handle's encoder: %zu bytes, %s the simple handle's\n", b.size(),
          b.empty() ? "nothing to compare with" : (a == b ? "the same as" : "DIFFERENT from"));
    } else {
      std::printf("  no hardware decoder on this GPU\n");
    }
  }
  return 0;
}
