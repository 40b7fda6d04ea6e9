// What this build and this machine offer: backends, GPUs and their texture limits.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace texcv {

struct GpuInfo {
  int index = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0;
  std::size_t l2_bytes = 0;
  std::size_t texture_alignment = 0;
  std::size_t texture_pitch_alignment = 0;
  int max_texture_2d_width = 0, max_texture_2d_height = 0;
  int max_texture_2d_linear_width = 0, max_texture_2d_linear_height = 0;
  int max_texture_2d_linear_pitch = 0;
};

struct BuildInfo {
  std::string version;
  bool cuda_compiled = false;
  std::string cuda_version;  // toolkit the library was built with, "" when not compiled
  std::string cuda_architectures;
  bool openmp = false;
  // The SIMD instruction set the CPU backend's vectorized loops run on this CPU, chosen at run
  // time among those compiled in (Google Highway's name: "AVX3" is AVX-512, "AVX2", "SSE4",
  // "NEON", ...), or "none" for a build without Highway (baseline loops).
  std::string cpu_simd;
  std::vector<std::string> formats;
};

BuildInfo build_info();
// True when the CUDA backend is compiled and at least one GPU is usable.
bool cuda_available();
// The GPUs the CUDA runtime sees (empty without CUDA or without a GPU).
std::vector<GpuInfo> gpus();

// Live CUDA handles held by texcv (texture objects, arrays, streams, events, device and pinned
// buffers). Tests use them to prove there is no leak.
struct HandleCounts {
  long textures = 0, arrays = 0, streams = 0, events = 0, device_buffers = 0, pinned_buffers = 0;
};
HandleCounts live_handles();
// Free and total memory of the current GPU (cudaMemGetInfo); zeros without CUDA.
struct MemoryInfo {
  std::size_t free = 0, total = 0;
};
MemoryInfo device_memory_info();
// Drops every cached texture object (the cache otherwise keeps them for reuse).
void clear_texture_cache();

// The CPU backend's threads: an operation called from the calling thread splits its rows over
// at most this many threads (OpenMP's setting of that thread; other threads keep theirs). 0
// restores the default (OMP_NUM_THREADS, else one per core). Returns the previous value. A build
// without OpenMP runs every operation on the calling thread: 1, and n is ignored.
int set_cpu_threads(int n);
// The calling thread's current value (see set_cpu_threads).
int cpu_threads();

}  // namespace texcv
