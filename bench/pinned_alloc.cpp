// How fast host memory can be page-locked for the GPU, by method (issue 15, item 5: the TIFF
// task's decoders decoding into a pinned pool waited 631-658 ms for their first files while 1 GB
// was page-locked with cudaMallocHost, on the H100 machine).
//
// For each method, T threads each make B buffers of S MB (the TIFF task's 75 MB inputs) and the
// wall time of the whole is reported with its rate; then the same buffers are copied to the GPU
// once (a check that they are usable, and the copy rate from them). Methods:
//   mallochost  cudaMallocHost
//   reg4k       mmap, every page touched, cudaHostRegister (4 KB pages)
//   regthp      mmap 2 MB aligned with MADV_HUGEPAGE, every page touched, cudaHostRegister
//   regthp_nt   the same without touching first (the registration faults the pages in)
//   touch4k / touchthp: only the mmap and touch (the first-touch cost the others include)
//
//   g++ -std=c++20 -O2 -Wall -Wextra bench/pinned_alloc.cpp -I$CUDA/include -L$CUDA/lib64
//     -lcudart -pthread -o pinned_alloc
//   ./pinned_alloc [S_MB=75] [B=2] [T=8]
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Buf {
  void* p = nullptr;
  void* raw = nullptr;     // the mapping's start (p may be 2 MB aligned inside it)
  std::size_t mapped = 0;  // mmap'ed bytes (0: cudaMallocHost)
  bool registered = false;
};

void* map_aligned(std::size_t bytes, bool thp, std::size_t& mapped, void*& raw_out) {
  constexpr std::size_t kAlign = std::size_t{2} << 20;
  mapped = bytes + (thp ? kAlign : 0);
  void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    std::perror("mmap");
    std::exit(1);
  }
  raw_out = raw;
  if (!thp) return raw;
  auto a = (reinterpret_cast<std::uintptr_t>(raw) + kAlign - 1) & ~(kAlign - 1);
  void* p = reinterpret_cast<void*>(a);
  (void)::madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

Buf make(const std::string& m, std::size_t bytes) {
  Buf b;
  if (m == "mallochost") {
    check(cudaMallocHost(&b.p, bytes), "cudaMallocHost");
    return b;
  }
  const bool thp = m.find("thp") != std::string::npos;
  b.p = map_aligned(bytes, thp, b.mapped, b.raw);
  if (m.find("_nt") == std::string::npos)
    for (std::size_t o = 0; o < bytes; o += 4096) static_cast<volatile char*>(b.p)[o] = 1;
  if (m.rfind("reg", 0) == 0) {
    check(cudaHostRegister(b.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
    b.registered = true;
  }
  return b;
}

void release(Buf& b, std::size_t bytes) {
  if (b.mapped == 0) {
    check(cudaFreeHost(b.p), "cudaFreeHost");
    return;
  }
  if (b.registered) check(cudaHostUnregister(b.p), "cudaHostUnregister");
  (void)bytes;
  ::munmap(b.raw, b.mapped);
}

double secs(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t mb = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 75;
  const int per = argc > 2 ? std::atoi(argv[2]) : 2;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 8;
  const std::size_t bytes = mb << 20;
  check(cudaFree(nullptr), "cudaFree(0)");  // the context, outside the timings
  void* dev = nullptr;
  check(cudaMalloc(&dev, bytes), "cudaMalloc");
  const double total_gb = static_cast<double>(bytes) * per * threads / 1e9;
  std::printf("%d threads x %d buffers x %zu MB = %.2f GB\n", threads, per, mb, total_gb);
  for (const std::string m :
       {"touch4k", "touchthp", "mallochost", "reg4k", "regthp", "regthp_nt", "mallochost"}) {
    std::vector<std::vector<Buf>> bufs(static_cast<std::size_t>(threads));
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        for (int i = 0; i < per; ++i) bufs[static_cast<std::size_t>(t)].push_back(make(m, bytes));
      });
    for (auto& t : ts) t.join();
    const double made = secs(t0);
    double copy_gbs = 0;
    if (m.find("touch") == std::string::npos) {
      const auto t1 = std::chrono::steady_clock::now();
      for (auto& v : bufs)
        for (auto& b : v) check(cudaMemcpy(dev, b.p, bytes, cudaMemcpyHostToDevice), "copy");
      copy_gbs = total_gb / secs(t1);
    }
    const auto t2 = std::chrono::steady_clock::now();
    for (auto& v : bufs)
      for (auto& b : v) release(b, bytes);
    const double freed = secs(t2);
    std::printf("%-10s made in %.3f s (%.2f GB/s), copy to GPU %.1f GB/s, released in %.3f s\n",
                m.c_str(), made, total_gb / made, copy_gbs, freed);
  }
  check(cudaFree(dev), "cudaFree");
  return 0;
}
