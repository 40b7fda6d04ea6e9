// Standalone sweep of 3x3 convolution kernel shapes on 8192x8192 (f32 and u8): pixels a thread
// (vector loads of PX elements), output rows a thread (S) and block shapes, interior only (rows
// and columns clamped), next to a 16-byte copy kernel. Not the library: it shows what a shape
// can reach (docs/performance.md, "Timings, commit 082ec23"). Run on the GPU machine:
//   nvcc -O3 -arch=sm_90 --fmad=false -std=c++20 bench/sweeps/conv3x3_shapes.cu -o sweep && ./sweep
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CHECK(call)                                                    \
  do {                                                                 \
    const cudaError_t e_ = (call);                                     \
    if (e_ != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                    \
    }                                                                  \
  } while (0)
struct K9 {
  float k[9];
};
template <typename T>
__device__ __forceinline__ T sat(float v) {
  if constexpr (sizeof(T) == 4)
    return v;
  else
    return (T)__float2uint_rn(fminf(fmaxf(v, 0.f), 255.f));
}
template <typename T, int PX>
__device__ __forceinline__ void vload(const T* p, float* v) {
  if constexpr (sizeof(T) == 4 && PX == 4) {
    float4 q = __ldg((const float4*)p);
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
  } else if constexpr (sizeof(T) == 4 && PX == 2) {
    float2 q = __ldg((const float2*)p);
    v[0] = q.x;
    v[1] = q.y;
  } else if constexpr (sizeof(T) == 1 && PX % 4 == 0) {
#pragma unroll
    for (int w = 0; w < PX / 4; ++w) {
      unsigned u = __ldg((const unsigned*)p + w);
#pragma unroll
      for (int b = 0; b < 4; ++b) v[w * 4 + b] = (float)((u >> (8 * b)) & 255u);
    }
  } else {
#pragma unroll
    for (int i = 0; i < PX; ++i) v[i] = (float)__ldg(p + i);
  }
}
template <typename T, int PX>
__device__ __forceinline__ void vstore(T* p, const float* v) {
  if constexpr (sizeof(T) == 4 && PX == 4) {
    *(float4*)p = make_float4(v[0], v[1], v[2], v[3]);
  } else if constexpr (sizeof(T) == 4 && PX == 2) {
    *(float2*)p = make_float2(v[0], v[1]);
  } else if constexpr (sizeof(T) == 1 && PX % 4 == 0) {
#pragma unroll
    for (int w = 0; w < PX / 4; ++w) {
      unsigned u = 0;
#pragma unroll
      for (int b = 0; b < 4; ++b) u |= (unsigned)sat<T>(v[w * 4 + b]) << (8 * b);
      ((unsigned*)p)[w] = u;
    }
  } else {
#pragma unroll
    for (int i = 0; i < PX; ++i) p[i] = sat<T>(v[i]);
  }
}
template <typename T, int PX, int S, int BX, int BY>
__global__ void __launch_bounds__(BX* BY)
    conv3(const T* __restrict__ src, size_t pitch, T* __restrict__ dst, int W, int H, K9 kk) {
  const int x0 = (blockIdx.x * BX + threadIdx.x) * PX, y0 = (blockIdx.y * BY + threadIdx.y) * S;
  if (x0 >= W || y0 >= H) return;
  float kv[9];
#pragma unroll
  for (int i = 0; i < 9; ++i) kv[i] = kk.k[i];
  float acc[S][PX];
#pragma unroll
  for (int p = 0; p < S; ++p)
#pragma unroll
    for (int q = 0; q < PX; ++q) acc[p][q] = 0.f;
#pragma unroll
  for (int r = 0; r < S + 2; ++r) {
    const int y = min(max(y0 - 1 + r, 0), H - 1);
    const T* row = src + (size_t)y * pitch;
    float v[PX + 2];
    vload<T, PX>(row + x0, v + 1);
    v[0] = (float)__ldg(row + max(x0 - 1, 0));
    v[PX + 1] = (float)__ldg(row + min(x0 + PX, W - 1));
#pragma unroll
    for (int p = 0; p < S; ++p) {
      const int j = r - p;
      if (j < 0 || j > 2) continue;
#pragma unroll
      for (int i = 0; i < 3; ++i) {
        const float k = kv[j * 3 + i];
        if (k == 0.f) continue;
#pragma unroll
        for (int q = 0; q < PX; ++q) acc[p][q] += k * v[q + i];
      }
    }
  }
#pragma unroll
  for (int p = 0; p < S; ++p) {
    if (y0 + p >= H) break;
    vstore<T, PX>(dst + (size_t)(y0 + p) * pitch + x0, acc[p]);
  }
}
__global__ void copy16(const uint4* s, uint4* d, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) d[i] = s[i];
}
template <class F>
float timeit(F f) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  f();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    CHECK(cudaEventSynchronize(b));
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[10];
}
template <typename T, int PX, int S, int BX, int BY>
void run(const char* name, const T* s, T* d, int N, K9 k, float floor_ms) {
  dim3 g((N / PX + BX - 1) / BX, (N + BY * S - 1) / (BY * S));
  float ms = timeit([&] { conv3<T, PX, S, BX, BY><<<g, dim3(BX, BY)>>>(s, N, d, N, N, k); });
  cudaError_t e = cudaGetLastError();
  printf("%-4s PX=%-2d S=%-2d block %3dx%-2d : %.4f ms  %5.1f%% of copy %s\n", name, PX, S, BX, BY,
         ms, 100 * floor_ms / ms, e ? cudaGetErrorString(e) : "");
}
int main() {
  const int N = 8192;
  K9 k{{0, -1, 0, -1, 5, -1, 0, -1, 0}};
  float *fs, *fd;
  CHECK(cudaMalloc(&fs, (size_t)N * N * 4));
  CHECK(cudaMalloc(&fd, (size_t)N * N * 4));
  CHECK(cudaMemset(fs, 0, (size_t)N * N * 4));
  size_t n16 = (size_t)N * N * 4 / 16;
  float ff = timeit([&] { copy16<<<(n16 + 255) / 256, 256>>>((const uint4*)fs, (uint4*)fd, n16); });
  printf("f32 copy floor %.4f ms\n", ff);
  run<float, 1, 1, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 1, 8, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 2, 8, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 4, 1, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 4, 2, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 4, 4, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 4, 8, 32, 8>("f32", fs, fd, N, k, ff);
  run<float, 4, 8, 64, 4>("f32", fs, fd, N, k, ff);
  run<float, 4, 16, 32, 4>("f32", fs, fd, N, k, ff);
  run<float, 4, 4, 128, 2>("f32", fs, fd, N, k, ff);
  run<float, 4, 8, 16, 8>("f32", fs, fd, N, k, ff);
  unsigned char *us = (unsigned char*)fs, *ud = (unsigned char*)fd;
  size_t u16n = (size_t)N * N / 16;
  float fu =
      timeit([&] { copy16<<<(u16n + 255) / 256, 256>>>((const uint4*)us, (uint4*)ud, u16n); });
  printf("u8 copy floor %.4f ms\n", fu);
  run<unsigned char, 1, 1, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 4, 1, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 4, 8, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 8, 4, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 8, 8, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 16, 2, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 16, 4, 32, 8>("u8", us, ud, N, k, fu);
  run<unsigned char, 16, 8, 32, 4>("u8", us, ud, N, k, fu);
  run<unsigned char, 16, 4, 64, 4>("u8", us, ud, N, k, fu);
  run<unsigned char, 8, 2, 64, 4>("u8", us, ud, N, k, fu);
  return 0;
}
