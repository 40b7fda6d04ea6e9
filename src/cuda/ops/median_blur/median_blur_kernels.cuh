// Device code of median_blur (replicated border). Elements are compared as keys: the value for
// u8/u16, detail::float_key of the bits for f32 (a total order shared with the CPU backend), so
// the selected element is the CPU's bit for bit. Two methods:
//
// - ksize 3, 5 and 7 ("network"): each block copies its tile of keys, halo included and the border
//   already replicated, to shared memory (interior tiles a word per thread, unclamped); each
//   thread then computes one 32-bit word of outputs (two for 3x3; a word holds 2 u8 or u16
//   elements in 16-bit lanes, or 1 f32 key, of any channel) in kRowsPerThread rows. The window of
//   a word is ksize^2 words built from the tile (byte shifts with __byte_perm: a neighbour pixel
//   lies C elements away). 3x3: the three rows are sorted lane by lane once per tile word (shared
//   by the shifts and the thread's two outputs) and the median is med3(max of column minima,
//   med3 of column medians, min of column maxima). 5x5 and 7x7: a forgetful selection network: keep
//   n / 2 + 2 words, drop the minimum and the
//   maximum, add the next word, and so on until one remains. The min/max work on both 16-bit
//   lanes of a word at once (__vminu2/__vmaxu2: one instruction on sm_90).
// - larger windows ("bitwise"): one thread per pixel (all channels) builds the median key bit by
//   bit from the top: with the bits found so far and the next set, it counts the window elements
//   below that candidate and keeps the bit when at most n / 2 are (8 passes for u8, 16 for u16,
//   32 for f32). No per-pixel storage, any ksize up to 255; the window is read through L1.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/dispatch.hpp"
#include "src/core/nonlinear_desc.hpp"
#include "src/cuda/ops/common/device_common.cuh"
#include "src/cuda/ops/median_blur/median_blur_launch.hpp"
#include "src/cuda/ops/median_blur/median_blur_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda::ops {

namespace median {

// Output rows per thread of the network kernel (median_blur_tuning.hpp).
constexpr int kRowsPerThread = tuning::Median::kRowsPerThread;

template <typename T>
struct Lanes;
// u8 keys are widened to 16 bits: sm_90 has a one-instruction min/max on 16-bit pairs
// (VIMNMX.U16x2) while __vminu4 takes six.
template <>
struct Lanes<std::uint8_t> {
  using Key = std::uint16_t;
  static constexpr int kBits = 8;
  __device__ static __forceinline__ std::uint32_t vmin(std::uint32_t a, std::uint32_t b) {
    return __vminu2(a, b);
  }
  __device__ static __forceinline__ std::uint32_t vmax(std::uint32_t a, std::uint32_t b) {
    return __vmaxu2(a, b);
  }
  __device__ static __forceinline__ Key key(std::uint8_t v) { return v; }
  __device__ static __forceinline__ std::uint8_t value(std::uint32_t k) {
    return static_cast<std::uint8_t>(k);
  }
};
template <>
struct Lanes<std::uint16_t> {
  using Key = std::uint16_t;
  static constexpr int kBits = 16;
  __device__ static __forceinline__ std::uint32_t vmin(std::uint32_t a, std::uint32_t b) {
    return __vminu2(a, b);
  }
  __device__ static __forceinline__ std::uint32_t vmax(std::uint32_t a, std::uint32_t b) {
    return __vmaxu2(a, b);
  }
  __device__ static __forceinline__ Key key(std::uint16_t v) { return v; }
  __device__ static __forceinline__ std::uint16_t value(std::uint32_t k) {
    return static_cast<std::uint16_t>(k);
  }
};
template <>
struct Lanes<float> {
  using Key = std::uint32_t;
  static constexpr int kBits = 32;
  __device__ static __forceinline__ std::uint32_t vmin(std::uint32_t a, std::uint32_t b) {
    return min(a, b);
  }
  __device__ static __forceinline__ std::uint32_t vmax(std::uint32_t a, std::uint32_t b) {
    return max(a, b);
  }
  __device__ static __forceinline__ Key key(float v) {
    return detail::float_key(__float_as_uint(v));
  }
  __device__ static __forceinline__ float value(std::uint32_t k) {
    return __uint_as_float(detail::key_float_bits(k));
  }
};

__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T>
__device__ __forceinline__ const T* src_row(const MedianSrc& s, int y) {
  return reinterpret_cast<const T*>(s.data + s.pitch * static_cast<std::size_t>(y));
}

// Floor division by a positive constant.
template <int C>
__device__ __forceinline__ int floor_div(int g) {
  return g >= 0 ? g / C : -((-g + C - 1) / C);
}

// The 4 bytes starting `Shift` bytes into the 8 bytes (hi:lo).
template <int Shift>
__device__ __forceinline__ std::uint32_t funnel(std::uint32_t lo, std::uint32_t hi) {
  if constexpr (Shift == 0) {
    return lo;
  } else {
    constexpr unsigned sel = Shift | (Shift + 1) << 4 | (Shift + 2) << 8 | (Shift + 3) << 12;
    return __byte_perm(lo, hi, sel);
  }
}

// The median (rank N / 2) of N words, lane by lane: forgetful selection. The working set is
// v[2 * round .. M - 1 + round]: each round moves its minimum to the front and drops it, then its
// maximum, then takes in the next word. Compare-exchanges keep the multiset, and a minimum or
// maximum dropped while the set holds more than the elements still to come plus one cannot be the
// median. All indices are compile-time constants once unrolled, so v stays in registers.
template <typename T, int N>
__device__ __forceinline__ std::uint32_t forgetful_median(std::uint32_t (&v)[N]) {
  using L = Lanes<T>;
  constexpr int M = N / 2 + 2;
#pragma unroll
  for (int round = 0; round < N - M + 1; ++round) {
    const int lo = 2 * round, end = M - 1 + round;  // set v[lo..end]
#pragma unroll
    for (int i = lo + 1; i <= end; ++i) {
      const std::uint32_t a = v[lo], b = v[i];
      v[lo] = L::vmin(a, b);
      v[i] = L::vmax(a, b);
    }
#pragma unroll
    for (int i = lo + 2; i <= end; ++i) {
      const std::uint32_t a = v[lo + 1], b = v[i];
      v[lo + 1] = L::vmax(a, b);
      v[i] = L::vmin(a, b);
    }
  }
  return v[N - 1];
}

// The word at byte offset B from w[0] (B a compile-time constant).
template <int B>
__device__ __forceinline__ std::uint32_t word_at(const std::uint32_t* w) {
  return funnel<B & 3>(w[B >> 2], w[(B >> 2) + 1]);
}

template <typename T>
__device__ __forceinline__ std::uint32_t med3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  using L = Lanes<T>;
  return L::vmax(L::vmin(a, b), L::vmin(L::vmax(a, b), c));
}

// 3x3 medians of NW consecutive output words whose window's top-left element starts w (tile
// words, 8-byte aligned when NW is 2; row stride `stride`), neighbour columns Step bytes apart.
// The three rows are sorted lane by lane once per tile word (a column sort shared by every shift
// and by the NW outputs), then the median of the 3x3 window is med3(max of the column minima,
// med3 of the column medians, min of the column maxima).
template <typename T, int Step, int NW>
__device__ __forceinline__ void median3x3(const std::uint32_t* w, int stride,
                                          std::uint32_t (&out)[NW]) {
  using L = Lanes<T>;
  constexpr int kW = ((4 * (NW - 1) + 2 * Step) / 4 + 2 + 1) / 2 * 2;  // words read, even
  std::uint32_t lo[kW], mid[kW], hi[kW];
#pragma unroll
  for (int i = 0; i < kW; i += 2) {
    std::uint32_t a[2], b[2], c[2];
    if constexpr (NW == 2) {
      const uint2 ra = *reinterpret_cast<const uint2*>(w + i);
      const uint2 rb = *reinterpret_cast<const uint2*>(w + stride + i);
      const uint2 rc = *reinterpret_cast<const uint2*>(w + 2 * stride + i);
      a[0] = ra.x, a[1] = ra.y, b[0] = rb.x, b[1] = rb.y, c[0] = rc.x, c[1] = rc.y;
    } else {
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        a[k] = w[i + k];
        b[k] = w[stride + i + k];
        c[k] = w[2 * stride + i + k];
      }
    }
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const std::uint32_t t = L::vmin(a[k], b[k]), u = L::vmax(a[k], b[k]);
      lo[i + k] = L::vmin(t, c[k]);
      const std::uint32_t x = L::vmax(t, c[k]);
      mid[i + k] = L::vmin(u, x);
      hi[i + k] = L::vmax(u, x);
    }
  }
#pragma unroll
  for (int q = 0; q < NW; ++q) {
    const std::uint32_t* l0 = lo + q;
    const std::uint32_t* m0 = mid + q;
    const std::uint32_t* h0 = hi + q;
    const std::uint32_t l =
        L::vmax(L::vmax(word_at<0>(l0), word_at<Step>(l0)), word_at<2 * Step>(l0));
    const std::uint32_t h =
        L::vmin(L::vmin(word_at<0>(h0), word_at<Step>(h0)), word_at<2 * Step>(h0));
    const std::uint32_t md = med3<T>(word_at<0>(m0), word_at<Step>(m0), word_at<2 * Step>(m0));
    out[q] = med3<T>(l, md, h);
  }
}

template <typename T, int C, int K>
struct NetGeom {
  static constexpr int kE = sizeof(typename Lanes<T>::Key);  // bytes per element in the tile
  static constexpr int kP = 4 / kE;                          // elements per word
  static constexpr int kTW = K == 3 ? 2 : 1;                 // output words per thread and row
  static constexpr int kR = K / 2;
  static constexpr int kHalo = kR * C;                     // elements each side
  static constexpr int kTileW = kBlockX * kP * kTW;        // output elements per block row
  static constexpr int kTileH = kBlockY * kRowsPerThread;  // output rows per block
  // Words per tile row: the elements plus one word read past them, even (8-byte row starts).
  static constexpr int kWords = (((kTileW + 2 * kHalo) * kE + 3) / 4 + 1 + 1) / 2 * 2;
  static constexpr int kElems = kWords * kP;  // elements per tile row
  static constexpr int kRows = kTileH + 2 * kR;
  static_assert(K != 3 ||
                    kTW * (kBlockX - 1) + ((4 * (kTW - 1) + 2 * C * kE) / 4 + 2 + 1) / 2 * 2 <=
                        kWords,
                "median3x3 reads inside the tile row");
};

template <typename T, int C, int K>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    median_net_kernel(const MedianSrc s, const DstArgs d) {
  using L = Lanes<T>;
  using G = NetGeom<T, C, K>;
  using Key = typename L::Key;
  __shared__ __align__(16) std::uint32_t tile[G::kRows * G::kWords];
  const int row_elems = s.width * C;
  const int e0 = static_cast<int>(blockIdx.x) * G::kTileW;
  const int y0 = static_cast<int>(blockIdx.y) * G::kTileH;
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  // The tile: rows y0 - R .. y0 + kTileH + R - 1, elements e0 - halo .., replicated border.
  // Interior tiles (no border inside) fill a word per thread and step without clamping.
  const int gx0 = e0 - G::kHalo, gy0 = y0 - G::kR;
  if (gx0 >= 0 && gx0 + G::kElems <= row_elems && gy0 >= 0 && gy0 + G::kRows <= s.height) {
    for (int i = tid; i < G::kRows * G::kWords; i += kBlockX * kBlockY) {
      const int ty = i / G::kWords;
      const T* p = src_row<T>(s, gy0 + ty) + gx0 + (i - ty * G::kWords) * G::kP;
      std::uint32_t w = 0;
#pragma unroll
      for (int l = 0; l < G::kP; ++l)
        w |= static_cast<std::uint32_t>(L::key(__ldg(p + l))) << (8 * G::kE * l);
      tile[i] = w;
    }
  } else {
    Key* t = reinterpret_cast<Key*>(tile);
    for (int i = tid; i < G::kRows * G::kElems; i += kBlockX * kBlockY) {
      const int ty = i / G::kElems;
      const int g = e0 - G::kHalo + (i - ty * G::kElems);
      const int p = floor_div<C>(g);
      const int ch = g - p * C;
      const T* row = src_row<T>(s, clampi(y0 - G::kR + ty, 0, s.height - 1));
      t[i] = L::key(__ldg(row + static_cast<std::size_t>(clampi(p, 0, s.width - 1)) * C + ch));
    }
  }
  __syncthreads();
  const int tx = static_cast<int>(threadIdx.x);
  const int e = e0 + tx * G::kTW * G::kP;  // first output element of the thread
  if (e >= row_elems) return;
#pragma unroll 1
  for (int rr = 0; rr < kRowsPerThread; ++rr) {
    const int ly = static_cast<int>(threadIdx.y) * kRowsPerThread + rr;
    const int y = y0 + ly;
    if (y >= s.height) return;
    std::uint32_t m[G::kTW];
    if constexpr (K == 3) {
      median3x3<T, C * G::kE, G::kTW>(tile + ly * G::kWords + tx * G::kTW, G::kWords, m);
    } else {
      std::uint32_t v[K * K];
#pragma unroll
      for (int dy = 0; dy < K; ++dy) {
        const std::uint32_t* w = tile + (ly + dy) * G::kWords + tx;
#pragma unroll
        for (int j = 0; j < K; ++j) {
          constexpr int kStep = C * G::kE;  // bytes from one window column to the next
          const int b = j * kStep;
          // b is a compile-time constant after unrolling.
          switch (b & 3) {
            case 0:
              v[dy * K + j] = w[b >> 2];
              break;
            case 1:
              v[dy * K + j] = funnel<1>(w[b >> 2], w[(b >> 2) + 1]);
              break;
            case 2:
              v[dy * K + j] = funnel<2>(w[b >> 2], w[(b >> 2) + 1]);
              break;
            default:
              v[dy * K + j] = funnel<3>(w[b >> 2], w[(b >> 2) + 1]);
              break;
          }
        }
      }
      m[0] = forgetful_median<T, K * K>(v);
    }
    T* orow = reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y));
#pragma unroll
    for (int q = 0; q < G::kTW; ++q) {
      const int eq = e + q * G::kP;
      if (eq >= row_elems) break;
      T* o = orow + eq;
      const int nvalid = min(G::kP, row_elems - eq);
      if constexpr (G::kP == 1) {
        o[0] = L::value(m[q]);
      } else {
        constexpr int kOutBytes = G::kP * static_cast<int>(sizeof(T));
        if (nvalid == G::kP && (reinterpret_cast<std::uintptr_t>(o) & (kOutBytes - 1)) == 0) {
          if constexpr (kOutBytes == 4)
            *reinterpret_cast<std::uint32_t*>(o) = m[q];
          else  // two u8 from two 16-bit lanes
            *reinterpret_cast<std::uint16_t*>(o) =
                static_cast<std::uint16_t>((m[q] & 0xffu) | ((m[q] >> 8) & 0xff00u));
        } else {
          for (int l = 0; l < nvalid; ++l) o[l] = L::value(m[q] >> (8 * G::kE * l));
        }
      }
    }
  }
}

template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    median_bitwise_kernel(const MedianSrc s, const DstArgs d, int k) {
  using L = Lanes<T>;
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= d.width || y >= d.height) return;
  const int r = k / 2;
  const int target = k * k / 2;  // 0-based rank of the median
  std::uint32_t res[C];
#pragma unroll
  for (int c = 0; c < C; ++c) res[c] = 0;
#pragma unroll 1
  for (int bit = L::kBits - 1; bit >= 0; --bit) {
    std::uint32_t cand[C];
    int cnt[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      cand[c] = res[c] | (1u << bit);
      cnt[c] = 0;
    }
    for (int j = -r; j <= r; ++j) {
      const T* row = src_row<T>(s, clampi(y + j, 0, s.height - 1));
      for (int i = -r; i <= r; ++i) {
        const T* p = row + static_cast<std::size_t>(clampi(x + i, 0, s.width - 1)) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) cnt[c] += L::key(__ldg(p + c)) < cand[c] ? 1 : 0;
      }
    }
#pragma unroll
    for (int c = 0; c < C; ++c)
      if (cnt[c] <= target) res[c] = cand[c];
  }
  T* o = reinterpret_cast<T*>(d.data + d.pitch * static_cast<std::size_t>(y)) +
         static_cast<std::size_t>(x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) o[c] = L::value(res[c]);
}

}  // namespace median

template <typename T, int C>
void launch_median_c(const MedianSrc& s, const DstArgs& d, int ksize, cudaStream_t st) {
  const dim3 block(kBlockX, kBlockY);
  if (ksize == 3 || ksize == 5 || ksize == 7) {
    const auto net = [&]<int K>() {
      using G = median::NetGeom<T, C, K>;
      const dim3 grid(static_cast<unsigned>((s.width * C + G::kTileW - 1) / G::kTileW),
                      static_cast<unsigned>((s.height + G::kTileH - 1) / G::kTileH));
      median::median_net_kernel<T, C, K><<<grid, block, 0, st>>>(s, d);
    };
    if (ksize == 3)
      net.template operator()<3>();
    else if (ksize == 5)
      net.template operator()<5>();
    else
      net.template operator()<7>();
  } else {
    median::median_bitwise_kernel<T, C>
        <<<grid_for(s.width, s.height, 1), block, 0, st>>>(s, d, ksize);
  }
  TEXCV_CUDA_CHECK_LAUNCH("median_blur");
}

template <typename T>
void launch_median(const MedianSrc& s, const DstArgs& d, int channels, int ksize, cudaStream_t st) {
  texcv::detail::by_channels("median_blur", channels,
                             [&]<int C>() { launch_median_c<T, C>(s, d, ksize, st); });
}

}  // namespace texcv::cuda::ops
