// Device code of warp_affine / warp_perspective (and rotate). Templated on element type, channel
// count and source; the matrix, its kind, interpolation and border are runtime arguments.
#pragma once

#include <cstdint>
#include <type_traits>

#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/common/launch_batch.cuh"
#include "src/cuda/ops/warp/warp_launch.hpp"
#include "src/cuda/ops/warp/warp_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

// The source coordinate of destination pixel (x, y), as the CPU backend computes it.
__device__ __forceinline__ void warp_coord(const WarpArgs& a, int x, int y, float& sx, float& sy) {
  if (a.perspective) {
    const detail::PerspectiveMap m{
        {a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5], a.m[6], a.m[7], a.m[8]}};
    m(x, y, sx, sy);
  } else {
    const detail::AffineMap m{{a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5]}};
    m(x, y, sx, sy);
  }
}

// Output rows per thread of the gather kernels (warps, remap): several independent pixels per
// thread keep more loads in flight. Fewer for cubic (16 taps a pixel) and for 4-pixel threads.
template <typename T, int C, Interp IP>
constexpr int kGatherPy = tuning::Warp::gather_rows(IP == Interp::cubic, kResamplePx<T, C>);

// One thread: PX adjacent pixels along x (one vector store) on PY rows blockDim.y apart.
template <typename T, int C, Interp IP, bool Persp, class Src>
__device__ __forceinline__ void warp_body(const Src src, const DstArgs dst, const WarpArgs a) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = kGatherPy<T, C, IP>;
  constexpr int N = PX * PY;
  int tx, ty;
  patch_thread<kGatherPatch<T, IP>>(tx, ty);
  const int x0 = (static_cast<int>(blockIdx.x) * kBlockX + tx) * PX;
  const int y0 = static_cast<int>(blockIdx.y) * kBlockY * PY + ty;
  if (y0 >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  double sx[N], sy[N];  // exact far from the origin (sampling.hpp's coord_fraction)
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = min(y0 + j * kBlockY, dst.height - 1);
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      const int x = min(x0 + i, dst.width - 1);
      if constexpr (Persp) {
        const detail::PerspectiveMap m{
            {a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5], a.m[6], a.m[7], a.m[8]}};
        m(x, y, sx[j * PX + i], sy[j * PX + i]);
      } else {
        const detail::AffineMap m{{a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5]}};
        m(x, y, sx[j * PX + i], sy[j * PX + i]);
      }
    }
  }
  float v[N * C];
  gather_samples<IP, C, N>(src, a.s, sx, sy, v);
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = y0 + j * kBlockY;
    if (y < dst.height) {
      float w[PX * C];
#pragma unroll
      for (int e = 0; e < PX * C; ++e) w[e] = v[j * PX * C + e];
      store_pixels<T, C, PX>(dst, x0, y, w, n);
    }
  }
}

// ---- Staged warps: each block copies its source footprint into shared memory first ----

// Bytes of shared memory a block may stage (8 blocks of 256 threads fit an SM's 228 KB).
constexpr int kStageBytes = tuning::Warp::kStageBytes;

// The block's staged copy of source rows oy.. and bytes cb0.. of each row (a 16-byte aligned
// window of the global row), `stride` bytes per staged row. load() reads pixel (x, y), which the
// caller guarantees to lie inside the staged window, as GlobalSource would read it from memory.
template <typename T, int C>
struct SharedSource {
  const unsigned char* base;  // shared memory
  int stride, oy, cb0;

  __device__ __forceinline__ void load(int x, int y, float* v) const {
    constexpr int PB = static_cast<int>(sizeof(T)) * C;
    const T* p = reinterpret_cast<const T*>(base + (y - oy) * stride + x * PB - cb0);
    if constexpr (C == 4) {
      // The staged bytes keep the global address modulo 16, and staging requires 16-byte
      // aligned rows: 4-channel pixels (4, 8 or 16 bytes) are aligned here as there.
      using V = typename Vec4Of<T, 4>::type;
      const V q = *reinterpret_cast<const V*>(p);
      v[0] = static_cast<float>(q.x);
      v[1] = static_cast<float>(q.y);
      v[2] = static_cast<float>(q.z);
      v[3] = static_cast<float>(q.w);
    } else {
#pragma unroll
      for (int c = 0; c < C; ++c) v[c] = static_cast<float>(p[c]);
    }
  }
};

// The warp of a block of 256 threads covering a TW x TH destination tile (TX threads along x, or
// TX == 0: 8 x 4 warp patches as warp_kernel). The block maps the tile's 4 corners, copies the
// bounding box of their taps (one pixel of margin, clipped to the image) into shared memory with
// coalesced 16-byte loads, and each thread whose taps all lie in that box samples them from
// there with sample_direct: the same taps, weights and order as the plain-load path, so the
// same results. Other threads (tile borders, image borders) take gather_samples on global memory.
template <typename T, int C, Interp IP, bool Persp, int TX>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    warp_staged_kernel(const GlobalSource<T, C> src, const DstArgs dst, const WarpArgs a,
                       const bool stage_ok) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = kGatherPy<T, C, IP>;
  constexpr int N = PX * PY;
  constexpr int NT = kBlockX * kBlockY;
  constexpr int TXN = TX == 0 ? kBlockX : TX;
  constexpr int TY = NT / TXN;
  constexpr int TW = TXN * PX, TH = TY * PY;
  constexpr int PB = static_cast<int>(sizeof(T)) * C;
  constexpr int L = IP == Interp::cubic ? 1 : 0;  // taps reach floor - L .. floor + R
  constexpr int R = IP == Interp::cubic ? 2 : 1;
  __shared__ uint4 stage[kStageBytes / 16];

  const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
  int tx, ty;
  if constexpr (TX == 0) {
    patch_thread<true>(tx, ty);
  } else {
    tx = tid % TX;
    ty = tid / TX;
  }
  const int bx = static_cast<int>(blockIdx.x) * TW;
  const int by = static_cast<int>(blockIdx.y) * TH;
  const int x0 = bx + tx * PX;
  const int y0 = by + ty;

  const auto map = [&](int x, int y, auto& sx, auto& sy) {  // double, or float for the corners
    if constexpr (Persp) {
      const detail::PerspectiveMap m{
          {a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5], a.m[6], a.m[7], a.m[8]}};
      m(x, y, sx, sy);
    } else {
      const detail::AffineMap m{{a.m[0], a.m[1], a.m[2], a.m[3], a.m[4], a.m[5]}};
      m(x, y, sx, sy);
    }
  };

  double sx[N], sy[N];
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = min(y0 + j * TY, dst.height - 1);
#pragma unroll
    for (int i = 0; i < PX; ++i) map(min(x0 + i, dst.width - 1), y, sx[j * PX + i], sy[j * PX + i]);
  }

  // The block's footprint (uniform over the block): the corners' taps, one pixel of margin
  // for rounding, clipped to the image. Correctness does not depend on it (each thread checks
  // its own taps below), only how many threads read shared memory.
  int ix0 = 0, ix1 = -1, iy0 = 0, iy1 = -1;
  if (stage_ok) {
    const int xe = min(bx + TW, dst.width) - 1;
    const int ye = min(by + TH, dst.height) - 1;
    float c0x, c0y, c1x, c1y, c2x, c2y, c3x, c3y;
    map(bx, by, c0x, c0y);
    map(xe, by, c1x, c1y);
    map(bx, ye, c2x, c2y);
    map(xe, ye, c3x, c3y);
    const float lx = fminf(fminf(c0x, c1x), fminf(c2x, c3x));
    const float hx = fmaxf(fmaxf(c0x, c1x), fmaxf(c2x, c3x));
    const float ly = fminf(fminf(c0y, c1y), fminf(c2y, c3y));
    const float hy = fmaxf(fmaxf(c0y, c1y), fmaxf(c2y, c3y));
    // NaN or far-away corners: no staging (the comparisons are false for NaN).
    if (lx > -1.0e8f && hx < 1.0e8f && ly > -1.0e8f && hy < 1.0e8f) {
      ix0 = max(detail::floor_to_int(lx) - L - 1, 0);
      ix1 = min(detail::floor_to_int(hx) + R + 1, src.width - 1);
      iy0 = max(detail::floor_to_int(ly) - L - 1, 0);
      iy1 = min(detail::floor_to_int(hy) + R + 1, src.height - 1);
    }
  }
  const int cb0 = (ix0 * PB) & ~15;
  const int cb1 = ((ix1 + 1) * PB + 15) & ~15;
  const int nch = (cb1 - cb0) >> 4;   // 16-byte chunks per staged row
  const int stride = (nch | 1) << 4;  // an odd number of chunks: rows start on other banks
  const int rows = iy1 - iy0 + 1;
  const bool staged =
      ix0 <= ix1 && iy0 <= iy1 && static_cast<long long>(rows) * stride <= kStageBytes;
  if (staged) {
    const int total = rows * nch;
    const int cstride = stride >> 4;
    for (int k0 = tid; k0 < total; k0 += 4 * NT) {
      uint4 q[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int k = k0 + u * NT;
        if (k < total) {
          const int r = k / nch;
          const int c = k - r * nch;
          q[u] = __ldg(reinterpret_cast<const uint4*>(
                           src.data + src.pitch * static_cast<std::size_t>(iy0 + r) + cb0) +
                       c);
        }
      }
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int k = k0 + u * NT;
        if (k < total) {
          const int r = k / nch;
          stage[r * cstride + (k - r * nch)] = q[u];
        }
      }
    }
    __syncthreads();  // uniform: `staged` is the same in every thread of the block
  }
  if (y0 >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);

  bool mine = staged;
  if (staged) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const int fx = detail::floor_to_int(detail::sanitize_coord(sx[k]));
      const int fy = detail::floor_to_int(detail::sanitize_coord(sy[k]));
      mine = mine && fx - L >= ix0 && fx + R <= ix1 && fy - L >= iy0 && fy + R <= iy1;
    }
  }
  float v[N * C];
  if (mine) {
    const SharedSource<T, C> ss{reinterpret_cast<const unsigned char*>(stage), stride, iy0, cb0};
#pragma unroll
    for (int k = 0; k < N; ++k) sample_direct<IP, C>(ss, sx[k], sy[k], v + k * C);
  } else {
    gather_samples<IP, C, N>(src, a.s, sx, sy, v);
  }
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = y0 + j * TY;
    if (y < dst.height) {
      float w[PX * C];
#pragma unroll
      for (int e = 0; e < PX * C; ++e) w[e] = v[j * PX * C + e];
      store_pixels<T, C, PX>(dst, x0, y, w, n);
    }
  }
}

template <typename T, int C, Interp IP, bool Persp, int TX>
void launch_warp_staged(const GlobalSource<T, C>& src, const DstArgs& d, const WarpArgs& a,
                        bool stage_ok, cudaStream_t st) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = kGatherPy<T, C, IP>;
  constexpr int TXN = TX == 0 ? kBlockX : TX;
  constexpr int TW = TXN * PX, TH = (kBlockX * kBlockY / TXN) * PY;
  const dim3 grid(static_cast<unsigned>((d.width + TW - 1) / TW),
                  static_cast<unsigned>((d.height + TH - 1) / TH));
  warp_staged_kernel<T, C, IP, Persp, TX>
      <<<grid, dim3(kBlockX, kBlockY), 0, st>>>(src, d, a, stage_ok);
  TEXCV_CUDA_CHECK_LAUNCH("warp");
}

// Whether the affine cubic warp reads the source through warp_staged_kernel (measured:
// warp_tuning.hpp).
template <typename T, int C>
constexpr bool kStagedCubic = tuning::Warp::staged_cubic(static_cast<int>(sizeof(T)), C);

template <typename T, int C, Interp IP, bool Persp, class Src>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    warp_kernel(const Src src, const DstArgs dst, const WarpArgs a) {
  warp_body<T, C, IP, Persp, Src>(src, dst, a);
}

// warp_body on each image of a LaunchBatch (launch_batch.cuh; plain loads only).
template <typename T, int C, Interp IP, bool Persp, class Src>
struct WarpCall {
  Src src;
  DstArgs d;
  WarpArgs a;
  __device__ __forceinline__ void operator()() const { warp_body<T, C, IP, Persp, Src>(src, d, a); }
};

template <typename T, int C, Interp IP, bool Persp, class Src>
void launch_warp_ip(const Src& src, const DstArgs& d, const WarpArgs& a, cudaStream_t st) {
  constexpr int PX = kResamplePx<T, C>;
  constexpr int PY = kGatherPy<T, C, IP>;
  const dim3 grid(static_cast<unsigned>((d.width + kBlockX * PX - 1) / (kBlockX * PX)),
                  static_cast<unsigned>((d.height + kBlockY * PY - 1) / (kBlockY * PY)));
  const dim3 block(kBlockX, kBlockY);
  if constexpr (std::is_same_v<Src, GlobalSource<T, C>>) {
    if (defer_launch<kBlockX * kBlockY>(grid, block, st, WarpCall<T, C, IP, Persp, Src>{src, d, a}))
      return;
  }
  warp_kernel<T, C, IP, Persp, Src><<<grid, block, 0, st>>>(src, d, a);
  TEXCV_CUDA_CHECK_LAUNCH("warp");
}

template <typename T, int C, class Src>
void launch_warp_src(const Src& src, const DstArgs& d, const WarpArgs& a, cudaStream_t st) {
  const auto go = [&]<Interp IP>() {
    if (a.perspective)
      launch_warp_ip<T, C, IP, true>(src, d, a, st);
    else
      launch_warp_ip<T, C, IP, false>(src, d, a, st);
  };
  switch (a.s.interp) {
    case Interp::nearest:
      go.template operator()<Interp::nearest>();
      return;
    case Interp::cubic:
      go.template operator()<Interp::cubic>();
      return;
    default:
      go.template operator()<Interp::linear>();
      return;
  }
}

// warp's source coordinate, for the texture_filter kernel.
struct WarpCoord {
  WarpArgs a;
  __device__ __forceinline__ void operator()(int x, int y, float& sx, float& sy) const {
    warp_coord(a, x, y, sx, sy);
  }
};

template <typename T, int C>
void launch_warp(const SourceArgs& s, const DstArgs& d, const WarpArgs& a, cudaStream_t st) {
  launch_by_path<T, C>(
      "warp", s, d, WarpCoord{a},
      [&](const auto& src) {
        if constexpr (kStagedCubic<T, C> &&
                      std::is_same_v<std::decay_t<decltype(src)>, GlobalSource<T, C>>) {
          const bool aligned =
              (reinterpret_cast<std::uintptr_t>(s.data) & 15) == 0 && (s.pitch & 15) == 0;
          if (a.s.interp == Interp::cubic && !a.perspective && aligned) {
            // 16 threads along x for 4-pixel threads (64 x 32 tiles of u8), rows of 32 otherwise:
            // 2.24 ms against 2.51 ms with 8 x 4 warp patches (u8 x1 rotate cubic 16384^2).
            constexpr int TX = kResamplePx<T, C> == 4 ? 16 : 32;
            launch_warp_staged<T, C, Interp::cubic, false, TX>(src, d, a, true, st);
            return;
          }
        }
        launch_warp_src<T, C>(src, d, a, st);
      },
      st);
}

}  // namespace texcv::cuda::ops

#define TEXCV_INSTANTIATE_WARP(T)                                                     \
  template void launch_warp<T, 1>(const SourceArgs&, const DstArgs&, const WarpArgs&, \
                                  cudaStream_t);                                      \
  template void launch_warp<T, 3>(const SourceArgs&, const DstArgs&, const WarpArgs&, \
                                  cudaStream_t);                                      \
  template void launch_warp<T, 4>(const SourceArgs&, const DstArgs&, const WarpArgs&, cudaStream_t);
