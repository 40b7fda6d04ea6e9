// How long a CUDA process takes to exit, and whether handing its teardown to a helper process
// takes that off the caller's wall clock (issue 15, item 4: "exit does not wait for driver
// teardown").
//
// The process sets up what a `texcv batch --device cuda` run holds: a CUDA context, device
// memory, pinned host memory, nvJPEG's simple and hardware handles, some touched host memory,
// then writes the CLOCK_MONOTONIC time to stdout and ends with _Exit, in one of two ways:
//   plain    _Exit(0)
//   handoff  clone(CLONE_VM | CLONE_FILES) a helper that shares the address space and the file
//            table, close stdout, then _Exit(0): the process's own exit drops references only;
//            the helper waits for it to be gone (getppid changes) and then exits, which is when
//            the driver's teardown runs.
// bench/batch/exit_teardown.py runs it and measures from that time to waitpid's return.
//
//   nvcc -O2 -std=c++20 -o exit_teardown bench/batch/exit_teardown.cpp -lnvjpeg
//   ./exit_teardown plain|handoff [device MiB] [pinned MiB] [host MiB] [nvjpeg 0|1]
#include <cuda_runtime.h>
#include <nvjpeg.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void check(nvjpegStatus_t s, const char* what) {
  if (s != NVJPEG_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: nvjpeg status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

long g_parent = 0;

// Raw system calls only: the helper shares the address space but has no thread of its own in
// libc's sense.
int helper(void*) {
  const timespec ms{0, 1000000};
  while (syscall(SYS_getppid) == g_parent) syscall(SYS_nanosleep, &ms, nullptr);
  syscall(SYS_exit, 0);
  return 0;
}

alignas(64) unsigned char g_stack[64 * 1024];

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "plain";
  const size_t dev_mb = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1024;
  const size_t pin_mb = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 256;
  const size_t host_mb = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 512;
  const bool jpeg = argc > 5 ? std::atoi(argv[5]) != 0 : true;

  check(cudaFree(nullptr), "cudaFree(0)");
  void* d = nullptr;
  if (dev_mb > 0) {
    check(cudaMalloc(&d, dev_mb << 20), "cudaMalloc");
    check(cudaMemset(d, 1, dev_mb << 20), "cudaMemset");
  }
  void* p = nullptr;
  if (pin_mb > 0) {
    check(cudaMallocHost(&p, pin_mb << 20), "cudaMallocHost");
    std::memset(p, 1, pin_mb << 20);
  }
  if (host_mb > 0) {
    void* h = std::malloc(host_mb << 20);
    std::memset(h, 1, host_mb << 20);
  }
  if (jpeg) {
    nvjpegHandle_t simple = nullptr, hw = nullptr;
    check(nvjpegCreateSimple(&simple), "nvjpegCreateSimple");
    if (nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, 0, &hw) != NVJPEG_STATUS_SUCCESS)
      std::fprintf(stderr, "no hardware decoder\n");
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  std::printf("%.6f\n", static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9);
  std::fflush(stdout);
  if (mode == "handoff") {
    g_parent = static_cast<long>(getpid());
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    if (clone(helper, g_stack + sizeof g_stack, CLONE_VM | CLONE_FILES | CLONE_FS | SIGCHLD,
              nullptr) < 0)
      std::perror("clone");
    close(STDOUT_FILENO);
    close(STDERR_FILENO);
  }
  std::_Exit(0);
}
