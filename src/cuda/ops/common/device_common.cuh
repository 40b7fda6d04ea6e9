// Device pieces shared by the geometric kernels: the two sources of software sampling (plain
// loads and point-sampled textures, both used through src/core/sampling.hpp), the hardware
// bilinear fetch, vector stores and the launch geometry.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "src/core/sampling.hpp"
#include "src/cuda/ops/common/kernel_args.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda::ops {

// Threads per block: 32 along x (one warp per row: coalesced) by 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

// Output pixels per thread for the resampling kernels: 4-byte stores for 1-channel u8 and u16.
template <typename T, int C>
constexpr int kResamplePx = (C == 1 && sizeof(T) == 1)   ? 4
                            : (C == 1 && sizeof(T) == 2) ? 2
                                                         : 1;

template <typename T, int C>
struct Vec4Of;
template <>
struct Vec4Of<std::uint8_t, 4> {
  using type = uchar4;
};
template <>
struct Vec4Of<std::uint16_t, 4> {
  using type = ushort4;
};
template <>
struct Vec4Of<float, 4> {
  using type = float4;
};

// A source in global memory, read through the read-only cache.
template <typename T, int C>
struct GlobalSource {
  const unsigned char* __restrict__ data;
  std::size_t pitch;
  int width, height;
  bool vec;

  __device__ __forceinline__ void load(int x, int y, float* v) const {
    const T* p = reinterpret_cast<const T*>(data + pitch * static_cast<std::size_t>(y)) +
                 static_cast<std::size_t>(x) * C;
    if constexpr (C == 4) {
      if (vec) {
        using V = typename Vec4Of<T, 4>::type;
        const V q = __ldg(reinterpret_cast<const V*>(p));
        v[0] = static_cast<float>(q.x);
        v[1] = static_cast<float>(q.y);
        v[2] = static_cast<float>(q.z);
        v[3] = static_cast<float>(q.w);
        return;
      }
    }
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = static_cast<float>(__ldg(p + c));
  }
};

// A point-sampled texture (element read mode, unnormalized coordinates) over the source:
// texel (x, y) is fetched at its centre. Border handling stays in software (sampling.hpp's
// fetch), so results equal the plain-load path. 1 and 4 channels only (3 has no format).
template <typename T, int C>
struct TextureSource {
  cudaTextureObject_t tex;
  int width, height;

  __device__ __forceinline__ void load(int x, int y, float* v) const {
    const float u = static_cast<float>(x) + 0.5f;
    const float w = static_cast<float>(y) + 0.5f;
    if constexpr (C == 1) {
      v[0] = static_cast<float>(tex2D<T>(tex, u, w));
    } else {
      static_assert(C == 4, "textures exist for 1 and 4 channels only");
      const auto q = tex2D<typename Vec4Of<T, 4>::type>(tex, u, w);
      v[0] = static_cast<float>(q.x);
      v[1] = static_cast<float>(q.y);
      v[2] = static_cast<float>(q.z);
      v[3] = static_cast<float>(q.w);
    }
  }
};

template <typename T, int C>
__host__ GlobalSource<T, C> make_global_source(const SourceArgs& a) {
  return GlobalSource<T, C>{a.data, a.pitch, a.width, a.height, a.vec_load};
}
template <typename T, int C>
__host__ TextureSource<T, C> make_texture_source(const SourceArgs& a) {
  return TextureSource<T, C>{a.tex, a.width, a.height};
}

// Hardware bilinear filtering at (sx, sy) in pixel-centre coordinates. The texture reads u8/u16
// normalized to [0, 1]; value_scale turns the result back into element units. Border handling
// is the texture's address mode (set up by the host).
template <int C>
__device__ __forceinline__ void filter_fetch(const SourceArgs& a, float sx, float sy, float* out) {
  float u = detail::sanitize_coord(sx) + 0.5f;
  float w = detail::sanitize_coord(sy) + 0.5f;
  if (a.normalized_coords) {
    u *= a.inv_width;
    w *= a.inv_height;
  }
  if constexpr (C == 1) {
    out[0] = tex2D<float>(a.tex, u, w) * a.value_scale;
  } else {
    static_assert(C == 4, "textures exist for 1 and 4 channels only");
    const float4 q = tex2D<float4>(a.tex, u, w);
    out[0] = q.x * a.value_scale;
    out[1] = q.y * a.value_scale;
    out[2] = q.z * a.value_scale;
    out[3] = q.w * a.value_scale;
  }
}

// Samples PX pixels whose source coordinates coord(i, sx, sy) gives, with the interpolation
// chosen once (outside the pixel loop) from the runtime value s.interp.
template <int C, int PX, typename Cd = double, class Src, class Coord>
__device__ __forceinline__ void sample_pixels(const Src& src, const SampleArgs& s, Coord&& coord,
                                              float* v) {
  switch (s.interp) {
    case Interp::nearest:
#pragma unroll
      for (int i = 0; i < PX; ++i) {
        Cd sx, sy;
        coord(i, sx, sy);
        detail::sample_nearest<C>(src, sx, sy, s.border, s.bv, v + i * C);
      }
      return;
    case Interp::cubic:
#pragma unroll
      for (int i = 0; i < PX; ++i) {
        Cd sx, sy;
        coord(i, sx, sy);
        detail::sample_cubic<C>(src, sx, sy, s.border, s.bv, v + i * C);
      }
      return;
    default:
#pragma unroll
      for (int i = 0; i < PX; ++i) {
        Cd sx, sy;
        coord(i, sx, sy);
        detail::sample_linear<C>(src, sx, sy, s.border, s.bv, v + i * C);
      }
      return;
  }
}

// ---- Interpolation fixed at compile time, for kernels templated on it ----

// A source every tap of which lies outside the image with Border::constant: each load gives the
// border value, exactly what fetch() would give, so sampling it through sampling.hpp computes
// the same floats as sampling the real source, without touching memory.
template <int C>
struct BorderOnlySource {
  const float* bv;
  int width, height;
  __device__ __forceinline__ void load(int, int, float* v) const {
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = bv[c];
  }
};

// Sampling with the interpolation IP through sampling.hpp (border handling per tap).
template <Interp IP, int C, class Src, typename Cd>
__device__ __forceinline__ void sample_border(const Src& src, Cd sx, Cd sy, Border b,
                                              const float* bv, float* out) {
  if constexpr (IP == Interp::nearest)
    detail::sample_nearest<C>(src, sx, sy, b, bv, out);
  else if constexpr (IP == Interp::cubic)
    detail::sample_cubic<C>(src, sx, sy, b, bv, out);
  else
    detail::sample_linear<C>(src, sx, sy, b, bv, out);
}

// The same arithmetic as sampling.hpp's sample_nearest / sample_linear / sample_cubic, in the
// same order, for a point whose every tap is known to lie inside the source (see
// taps_inside): plain loads, no border code, so the compiler can issue the loads of several
// pixels together.
template <Interp IP, int C, class Src, typename Cd>
__device__ __forceinline__ void sample_direct(const Src& s, Cd sx, Cd sy, float* out) {
  sx = detail::sanitize_coord(sx);
  sy = detail::sanitize_coord(sy);
  if constexpr (IP == Interp::nearest) {
    s.load(detail::floor_to_int(sx + Cd(0.5)), detail::floor_to_int(sy + Cd(0.5)), out);
  } else if constexpr (IP == Interp::linear) {
    const int x0 = detail::floor_to_int(sx);
    const int y0 = detail::floor_to_int(sy);
    const float fx = detail::coord_fraction(sx, x0);
    const float fy = detail::coord_fraction(sy, y0);
    float p00[C], p01[C], p10[C], p11[C];
    s.load(x0, y0, p00);
    s.load(x0 + 1, y0, p01);
    s.load(x0, y0 + 1, p10);
    s.load(x0 + 1, y0 + 1, p11);
    const float gx = 1.0f - fx;
    const float gy = 1.0f - fy;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const float r0 = p00[c] * gx + p01[c] * fx;
      const float r1 = p10[c] * gx + p11[c] * fx;
      out[c] = r0 * gy + r1 * fy;
    }
  } else {
    const int x0 = detail::floor_to_int(sx);
    const int y0 = detail::floor_to_int(sy);
    float wx[4], wy[4];
    detail::cubic_weights(detail::coord_fraction(sx, x0), wx);
    detail::cubic_weights(detail::coord_fraction(sy, y0), wy);
#pragma unroll
    for (int c = 0; c < C; ++c) out[c] = 0.0f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float row[C];
#pragma unroll
      for (int c = 0; c < C; ++c) row[c] = 0.0f;
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        float p[C];
        s.load(x0 - 1 + i, y0 - 1 + j, p);
#pragma unroll
        for (int c = 0; c < C; ++c) row[c] += p[c] * wx[i];
      }
#pragma unroll
      for (int c = 0; c < C; ++c) out[c] += row[c] * wy[j];
    }
  }
}

// Where the taps of the points (sx[k], sy[k]) lie: 1 when every tap of every point is inside a
// width x height source (sample_direct may be used), 2 when every tap of every point is outside
// (only the border value is read), 0 otherwise. Conservative: a margin of one pixel beyond the
// taps' reach; NaN and huge coordinates give 0 or 2, never 1.
template <Interp IP, int N, typename Cd>
__device__ __forceinline__ int classify_taps(const Cd (&sx)[N], const Cd (&sy)[N], int width,
                                             int height) {
  // Taps reach floor(v) - lo .. floor(v) + hi.
  constexpr Cd lo = IP == Interp::cubic ? 2 : 1;
  constexpr Cd hi = IP == Interp::cubic ? 3 : 2;
  bool inside = true, left = true, right = true, top = true, bottom = true;
  const Cd w = static_cast<Cd>(width), h = static_cast<Cd>(height);
#pragma unroll
  for (int k = 0; k < N; ++k) {
    inside = inside && sx[k] >= lo && sx[k] <= w - hi && sy[k] >= lo && sy[k] <= h - hi;
    left = left && sx[k] < -hi - 1;
    right = right && sx[k] > w + lo;
    top = top && sy[k] < -hi - 1;
    bottom = bottom && sy[k] > h + lo;
  }
  if (inside) return 1;
  return (left || right || top || bottom) ? 2 : 0;
}

// Samples the N pixels of one thread (warps, remap) from their source coordinates, choosing per
// thread (uniform over its pixels) between plain loads with no border code (every tap inside),
// border-value-only arithmetic (every tap outside, constant border) and the general sampler.
template <Interp IP, int C, int N, class Src, typename Cd>
__device__ __forceinline__ void gather_samples(const Src& src, const SampleArgs& s,
                                               const Cd (&sx)[N], const Cd (&sy)[N],
                                               float (&v)[N * C]) {
  const int mode = classify_taps<IP, N>(sx, sy, src.width, src.height);
  if (mode == 1) {
#pragma unroll
    for (int k = 0; k < N; ++k) sample_direct<IP, C>(src, sx[k], sy[k], v + k * C);
  } else if (mode == 2 && s.border == Border::constant) {
    const BorderOnlySource<C> bs{s.bv, src.width, src.height};
#pragma unroll
    for (int k = 0; k < N; ++k) sample_border<IP, C>(bs, sx[k], sy[k], s.border, s.bv, v + k * C);
  } else {
#pragma unroll
    for (int k = 0; k < N; ++k) sample_border<IP, C>(src, sx[k], sy[k], s.border, s.bv, v + k * C);
  }
}

// Vector types for 4, 8 and 16 bytes.
template <int Bytes>
struct VecBytes;
template <>
struct VecBytes<4> {
  using type = unsigned int;
};
template <>
struct VecBytes<8> {
  using type = uint2;
};
template <>
struct VecBytes<16> {
  using type = uint4;
};

// N elements of T, viewed as K vectors of VB bytes (N * sizeof(T) == K * VB).
template <typename T, int N, int VB>
union Chunk {
  static_assert(N * sizeof(T) % VB == 0, "chunk size must be a multiple of the vector size");
  typename VecBytes<VB>::type v[N * sizeof(T) / VB];
  T e[N];
};

// The vector size for a chunk of `bytes` bytes: 16, 8, 4 or 0 (no vector: scalar accesses).
constexpr int vec_bytes_for(int bytes) {
  return bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : 0;
}

template <int VB>
__device__ __forceinline__ bool aligned_to(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & (VB - 1)) == 0;
}

// Stores n (<= N) elements e[0..n) at p, with vector stores when all N fit and p is aligned.
template <typename T, int N>
__device__ __forceinline__ void store_elems(T* __restrict__ p, const T (&e)[N], int n) {
  constexpr int VB = vec_bytes_for(static_cast<int>(N * sizeof(T)));
  if constexpr (VB != 0) {
    if (n == N && aligned_to<VB>(p)) {
      Chunk<T, N, VB> ch;
#pragma unroll
      for (int i = 0; i < N; ++i) ch.e[i] = e[i];
      auto* q = reinterpret_cast<typename VecBytes<VB>::type*>(p);
#pragma unroll
      for (int k = 0; k < static_cast<int>(N * sizeof(T) / VB); ++k) q[k] = ch.v[k];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (i < n) p[i] = e[i];
}

// Loads n (<= N) elements from p into e, with vector loads when all N are wanted and p aligned.
template <typename T, int N>
__device__ __forceinline__ void load_elems(const T* __restrict__ p, T (&e)[N], int n) {
  constexpr int VB = vec_bytes_for(static_cast<int>(N * sizeof(T)));
  if constexpr (VB != 0) {
    if (n == N && aligned_to<VB>(p)) {
      Chunk<T, N, VB> ch;
      const auto* q = reinterpret_cast<const typename VecBytes<VB>::type*>(p);
#pragma unroll
      for (int k = 0; k < static_cast<int>(N * sizeof(T) / VB); ++k) ch.v[k] = __ldg(q + k);
#pragma unroll
      for (int i = 0; i < N; ++i) e[i] = ch.e[i];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < N; ++i) e[i] = i < n ? __ldg(p + i) : T(0);
}

// detail::saturate without branches, same results: NaN and v <= 0 give 0 (fmaxf returns the
// non-NaN operand), v >= max gives max, else round half to even. The rounding is one float
// addition of 1.5 * 2^23 (ulp 1 there, and an even offset, so the sum rounds c half to even)
// whose low mantissa bits are the integer: an FADD and a LOP instead of the quarter-rate F2I
// conversion, which limits the u8 stencils.
template <typename T>
__device__ __forceinline__ T saturate_nobranch(float v) {
  if constexpr (sizeof(T) == 4) {
    return v;
  } else {
    constexpr float kMax = sizeof(T) == 1 ? 255.0f : 65535.0f;
    const float c = fminf(fmaxf(v, 0.0f), kMax);
    return static_cast<T>(__float_as_uint(__fadd_rn(c, 12582912.0f)) & 0xFFFFu);
  }
}

// An integer element (u8 or u16) as float, exactly: its bits under the exponent of 2^23, minus
// 2^23 (integer ops and an FADD instead of the quarter-rate I2F conversion).
template <typename T>
__device__ __forceinline__ float int_to_float(T e) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<float>(e);
  } else {
    return __fsub_rn(__uint_as_float(0x4B000000u | static_cast<unsigned>(e)), 8388608.0f);
  }
}

// Rounds and saturates PX pixels of C floats and stores the first n of them at (x0, y).
template <typename T, int C, int PX>
__device__ __forceinline__ void store_pixels(const DstArgs& d, int x0, int y,
                                             const float (&v)[PX * C], int n) {
  T e[PX * C];
#pragma unroll
  for (int i = 0; i < PX * C; ++i) e[i] = saturate_nobranch<T>(v[i]);
  T* p = reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y)) +
         static_cast<std::size_t>(x0) * C;
  store_elems<T, PX * C>(p, e, n * C);
}

// Thread position inside a kBlockX x kBlockY block for the gather kernels (warps, remap): each
// warp covers an 8 x 4 patch instead of one 32-wide row, so a warp's source footprint under a
// rotation spans about half as many source rows (fewer cache wavefronts per load); its stores
// still fill whole 32-byte sectors for 4-byte pixels (or 4 pixels of u8).
// Patch = false keeps one 32-wide row per warp (measured faster for f32 cubic: 0.649 against
// 0.721 ms for the 8192^2 rotation, whose 16 taps a pixel already cover a 2-D neighbourhood).
template <bool Patch>
__device__ __forceinline__ void patch_thread(int& tx, int& ty) {
  const int lane = static_cast<int>(threadIdx.x);  // blockDim.x == 32: the lane
  const int w = static_cast<int>(threadIdx.y);     // the warp within the block
  if constexpr (Patch) {
    tx = (w & 3) * 8 + (lane & 7);
    ty = (w >> 2) * 4 + (lane >> 3);
  } else {
    tx = lane;
    ty = w;
  }
}

// Whether a gather kernel uses 8 x 4 warp patches (see patch_thread).
template <typename T, Interp IP>
constexpr bool kGatherPatch = !(IP == Interp::cubic && sizeof(T) == 4);

// detail::border_index out of line, for an index already known to lie outside [0, n): kernels
// that unroll their rows (the u8 rectangles, the u8 dp4a convolution) would otherwise carry its
// switch once per row.
__device__ __noinline__ inline int border_index_out_of_line(int i, int n, Border b) {
  return detail::border_index(i, n, b);
}

// Byte x of a u8 row (x outside [0, width)) with the border, `value` where the border gives none:
// out of line, for the threads at a row's ends of the sliding-window kernels (morphology), which
// patch only their window's bytes outside the row.
__device__ __noinline__ inline unsigned border_byte(const std::uint8_t* row, int x, int width,
                                                    Border b, std::uint8_t value) {
  const int ix = detail::border_index(x, width, b);
  return ix < 0 ? value : row[ix];
}

// The __byte_perm selector that puts byte 0 of the second word at byte i of the first (0x3214,
// 0x3240, 0x3410, 0x4210).
__host__ __device__ constexpr unsigned insert_byte_sel(int i) {
  return (0x3210u & ~(0xFu << (4 * i))) | (0x4u << (4 * i));
}

// The grid covering width x height with PX pixels per thread along x.
inline dim3 grid_for(int width, int height, int px) {
  const int cols = (width + px - 1) / px;
  return dim3(static_cast<unsigned>((cols + kBlockX - 1) / kBlockX),
              static_cast<unsigned>((height + kBlockY - 1) / kBlockY));
}

// The hardware-filtered kernel of every resampling op (texture_filter path): coord(x, y, sx, sy)
// gives the source coordinate of destination pixel (x, y).
template <typename T, int C, class Coord>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    filter_kernel(const SourceArgs s, const DstArgs dst, const Coord coord) {
  constexpr int PX = kResamplePx<T, C>;
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * PX;
  if (y >= dst.height || x0 >= dst.width) return;
  const int n = min(PX, dst.width - x0);
  float v[PX * C];
#pragma unroll
  for (int i = 0; i < PX; ++i) {
    float sx, sy;
    coord(min(x0 + i, dst.width - 1), y, sx, sy);
    filter_fetch<C>(s, sx, sy, v + i * C);
  }
  store_pixels<T, C, PX>(dst, x0, y, v, n);
}

// Runs op on the access path the host chose: texture_filter launches filter_kernel with coord;
// texture and global call on_source with the matching source (TextureSource or GlobalSource).
// 3-channel images have no texture format, so only global reaches them.
template <typename T, int C, class Coord, class OnSource>
void launch_by_path(const char* op, const SourceArgs& s, const DstArgs& d, const Coord& coord,
                    OnSource&& on_source, cudaStream_t st) {
  if constexpr (C != 3) {
    if (s.path == Path::texture_filter) {
      filter_kernel<T, C, Coord>
          <<<grid_for(d.width, d.height, kResamplePx<T, C>), dim3(kBlockX, kBlockY), 0, st>>>(
              s, d, coord);
      TEXCV_CUDA_CHECK_LAUNCH(op);
      return;
    }
    if (s.path == Path::texture) {
      on_source(make_texture_source<T, C>(s));
      return;
    }
  }
  if (s.path != Path::global)
    fail(ErrorCode::Internal, op, "no texture kernel for 3 channels", to_string(s.path), "global");
  on_source(make_global_source<T, C>(s));
}

}  // namespace texcv::cuda::ops
