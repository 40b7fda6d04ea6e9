// resize's exact half-size 2x2 mean for u8/u16 rows in Highway vectors (see simd.hpp): the
// channels deinterleaved (LoadInterleaved3/4; one channel as is), each pair of neighbouring
// pixels summed as the two halves of a lane twice as wide, the two rows added, rounded half to
// even as resize.cpp's plain loop: (s + 1 + ((s >> 2) & 1)) >> 2.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/cpu/simd.hpp"

#if TEXCV_HAS_HWY

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/simd_resize.cpp"
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "src/cpu/simd_saturate-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace texcv::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
template <typename T, int C>
bool half_impl(const T* a, const T* b, T* o, int w) {
  using W = std::conditional_t<sizeof(T) == 1, std::uint16_t, std::uint32_t>;
  const hn::ScalableTag<T> d;                // one channel of 2n input pixels
  const hn::Repartition<W, decltype(d)> dw;  // their pairs, one W lane each
  const hn::RebindToSigned<decltype(dw)> ds;
  const hn::Rebind<T, decltype(dw)> dh;  // n output elements of one channel
  const int n = static_cast<int>(hn::Lanes(dw));
  if (w < n) return false;
  constexpr int kBits = static_cast<int>(sizeof(T)) * 8;
  const auto low = hn::Set(dw, static_cast<W>((W{1} << kBits) - 1));
  const auto one = hn::Set(dw, W{1});
  const auto pairs = [&](hn::Vec<decltype(d)> v) HWY_ATTR {
    const auto u = hn::BitCast(dw, v);
    return hn::Add(hn::And(u, low), hn::ShiftRight<kBits>(u));
  };
  const auto mean = [&](hn::Vec<decltype(d)> va, hn::Vec<decltype(d)> vb) HWY_ATTR {
    const auto s = hn::Add(pairs(va), pairs(vb));
    const auto r = hn::ShiftRight<2>(hn::Add(hn::Add(s, one), hn::And(hn::ShiftRight<2>(s), one)));
    return hn::DemoteTo(dh, hn::BitCast(ds, r));  // <= the type's maximum: exact
  };
  for (int x = 0;; x += n) {
    const int x0 = x + n <= w ? x : w - n;  // the last vector ends at w (overlapping)
    const std::size_t i = static_cast<std::size_t>(2 * x0) * C;
    T* out = o + static_cast<std::size_t>(x0) * C;
    if constexpr (C == 1) {
      hn::StoreU(mean(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), dh, out);
    } else if constexpr (C == 3) {
      hn::Vec<decltype(d)> a0, a1, a2, b0, b1, b2;
      hn::LoadInterleaved3(d, a + i, a0, a1, a2);
      hn::LoadInterleaved3(d, b + i, b0, b1, b2);
      hn::StoreInterleaved3(mean(a0, b0), mean(a1, b1), mean(a2, b2), dh, out);
    } else {
      hn::Vec<decltype(d)> a0, a1, a2, a3, b0, b1, b2, b3;
      hn::LoadInterleaved4(d, a + i, a0, a1, a2, a3);
      hn::LoadInterleaved4(d, b + i, b0, b1, b2, b3);
      hn::StoreInterleaved4(mean(a0, b0), mean(a1, b1), mean(a2, b2), mean(a3, b3), dh, out);
    }
    if (x0 + n >= w) break;
  }
  return true;
}
#endif

template <typename T>
bool half_any(const T* a, const T* b, T* o, int w, int c) {
#if HWY_TARGET == HWY_SCALAR
  (void)a, (void)b, (void)o, (void)w, (void)c;
  return false;  // one lane: no pairs to split
#else
  if (c == 1) return half_impl<T, 1>(a, b, o, w);
  if (c == 3) return half_impl<T, 3>(a, b, o, w);
  if (c == 4) return half_impl<T, 4>(a, b, o, w);
  return false;
#endif
}
bool half_u8(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* o, int w, int c) {
  return half_any(a, b, o, w, c);
}
bool half_u16(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* o, int w, int c) {
  return half_any(a, b, o, w, c);
}

#if HWY_TARGET != HWY_SCALAR
// The vertical pass: K rows of floats combined with weights w in order, stored as
// detail::saturate (f32 as is).
template <typename T>
bool combine_impl(const float* const* h, const float* w, int k, int n, T* out) {
  const hn::ScalableTag<float> df;
  const int lanes = static_cast<int>(hn::Lanes(df));
  if (n < lanes || (k != 2 && k != 4)) return false;
  const auto w0 = hn::Set(df, w[0]), w1 = hn::Set(df, w[1]);
  const auto w2 = hn::Set(df, k == 4 ? w[2] : 0.0f), w3 = hn::Set(df, k == 4 ? w[3] : 0.0f);
  for (int x = 0;; x += lanes) {
    const int xs = x + lanes <= n ? x : n - lanes;  // the last vector ends at n (overlapping)
    hn::Vec<decltype(df)> v;
    if (k == 2) {
      v = hn::Add(hn::Mul(hn::LoadU(df, h[0] + xs), w0), hn::Mul(hn::LoadU(df, h[1] + xs), w1));
    } else {
      v = hn::Add(hn::Zero(df), hn::Mul(hn::LoadU(df, h[0] + xs), w0));
      v = hn::Add(v, hn::Mul(hn::LoadU(df, h[1] + xs), w1));
      v = hn::Add(v, hn::Mul(hn::LoadU(df, h[2] + xs), w2));
      v = hn::Add(v, hn::Mul(hn::LoadU(df, h[3] + xs), w3));
    }
    store_saturated(df, v, out + xs);
    if (xs + lanes >= n) break;
  }
  return true;
}

// The horizontal pass over pixels [xa, xb) of one source row: h[x * C + c] = the K taps
// srow[ix[k][x] + c] weighted by wx[k][x] in order (K = 2: p0 w0 + p1 w1; K = 4: from 0).
// Per vector, the first that applies: taps within one vector's span (an enlargement) are lane
// permutations of one load; one channel with adjacent taps (a shrink) is copied lane by lane and
// deinterleaved; u8 pixels of 3 or 4 channels take one gather a tap; else one gather a tap and
// channel (u8/u16 as 32-bit gathers at their byte offsets, masked: the caller keeps the 4 bytes
// read inside the image).
template <typename T, int C, int K>
void taps_impl(const T* srow, int row_px, const int* const* ix, const float* const* wx, int xa,
               int xb, float* h) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const int lanes = static_cast<int>(hn::Lanes(df));
  const auto tap = [&](const auto& idx, int c) HWY_ATTR {
    const auto e = hn::Add(hn::Mul(idx, hn::Set(di, C)), hn::Set(di, c));  // element index
    if constexpr (sizeof(T) == 4) {
      return hn::GatherIndex(df, reinterpret_cast<const float*>(srow), e);
    } else {
      const auto g = hn::GatherOffset(di, reinterpret_cast<const std::int32_t*>(srow),
                                      hn::Mul(e, hn::Set(di, static_cast<int>(sizeof(T)))));
      return hn::ConvertTo(df, hn::And(g, hn::Set(di, (1 << (8 * sizeof(T))) - 1)));
    }
  };
  // Whether tap k of every lane is tap 0's index + k.
  const auto adjacent = [&](const hn::Vec<decltype(di)>* idx) HWY_ATTR {
    for (int k = 1; k < K; ++k)
      if (!hn::AllTrue(di, hn::Eq(idx[k], hn::Add(idx[0], hn::Set(di, k))))) return false;
    return true;
  };
  // Source bytes up to where the prefetches reached (a shrink's taps are spread over the row in
  // an order the hardware prefetcher does not follow; the copies and gathers below then wait on
  // memory: 2x on the 2-core AMD EPYC, eighth session).
  const auto* bytes = reinterpret_cast<const unsigned char*>(srow);
  const std::size_t row_bytes = static_cast<std::size_t>(row_px) * C * sizeof(T);
  std::size_t fetched = 0;
  constexpr int kMaxLanes = static_cast<int>(HWY_LANES(float));
  // The adjacent-taps path's buffers: bufs[cur] holds the copies for vector `filled`.
  HWY_ALIGN T bufs[2][K * kMaxLanes];
  int cur = 0, filled = -1;
  constexpr bool kAhead = K * sizeof(T) >= 16;
  const auto fill = [&](int at, T* b) {
    const int* i0 = ix[0] + at;
    for (int j = 0; j < lanes; ++j) std::memcpy(b + j * K, srow + i0[j], K * sizeof(T));
  };
  for (int x = xa;; x += lanes) {
    const int xs = x + lanes <= xb ? x : xb - lanes;
    {  // 512 bytes ahead of this vector's last tap
      const std::size_t want =
          std::min(row_bytes,
                   (static_cast<std::size_t>(ix[K - 1][xs + lanes - 1]) + 1) * C * sizeof(T) + 512);
      for (; fetched < want; fetched += 64) hwy::Prefetch(bytes + fetched);
    }
    hn::Vec<decltype(di)> idx[K];
    hn::Vec<decltype(df)> wv[K];
    for (int k = 0; k < K; ++k) {
      idx[k] = hn::LoadU(di, ix[k] + xs);
      wv[k] = hn::LoadU(df, wx[k] + xs);
    }
    // The K taps p(k) weighted in order (K = 2: p0 w0 + p1 w1; K = 4: from 0).
    const auto weigh = [&](const auto& p) HWY_ATTR {
      if constexpr (K == 2) {
        return hn::Add(hn::Mul(p(0), wv[0]), hn::Mul(p(1), wv[1]));
      } else {
        auto v = hn::Zero(df);
        for (int k = 0; k < K; ++k) v = hn::Add(v, hn::Mul(p(k), wv[k]));
        return v;
      }
    };
    hn::Vec<decltype(df)> v[C];
    // Taps within one vector's span of pixels (an enlargement): the source pixels loaded once
    // (channels apart), each tap a lane permutation of them instead of a gather.
    const int base = ix[0][xs];
    if (ix[K - 1][xs + lanes - 1] - base < lanes && base + lanes <= row_px) {
      hn::Vec<decltype(df)> win[C];
      const T* p0 = srow + static_cast<std::size_t>(base) * C;
      if constexpr (sizeof(T) == 4) {
        if constexpr (C == 1) win[0] = hn::LoadU(df, p0);
        if constexpr (C == 3) hn::LoadInterleaved3(df, p0, win[0], win[1], win[2]);
        if constexpr (C == 4) hn::LoadInterleaved4(df, p0, win[0], win[1], win[2], win[3]);
      } else {
        const hn::Rebind<T, decltype(df)> dt;
        hn::Vec<decltype(dt)> raw[C];
        if constexpr (C == 1) raw[0] = hn::LoadU(dt, p0);
        if constexpr (C == 3) hn::LoadInterleaved3(dt, p0, raw[0], raw[1], raw[2]);
        if constexpr (C == 4) hn::LoadInterleaved4(dt, p0, raw[0], raw[1], raw[2], raw[3]);
        for (int c = 0; c < C; ++c) win[c] = hn::ConvertTo(df, hn::PromoteTo(di, raw[c]));
      }
      const auto bv = hn::Set(di, base);
      decltype(hn::IndicesFromVec(df, bv)) sel[K];
      for (int k = 0; k < K; ++k) sel[k] = hn::IndicesFromVec(df, hn::Sub(idx[k], bv));
      for (int c = 0; c < C; ++c) {
        v[c] = weigh([&](int k) HWY_ATTR { return hn::TableLookupLanes(win[c], sel[k]); });
      }
    } else if (C == 1 && lanes <= kMaxLanes && adjacent(idx)) {
      // One channel, the K taps of each lane adjacent elements (resize's tables inside the row):
      // each lane's K elements copied with one scalar move into a buffer, then deinterleaved
      // (tap k of lane j is buf[j K + k]): lanes moves instead of K gathers of lanes elements
      // each, which cost about 20 cycles apiece on AMD's Zen 4. The same products.
      // f32 K = 4 (16-byte moves): the next vector's copies are made before this one's buffer
      // is read, so that its moves have left the store buffer (a vector load over several
      // pending smaller stores waits for them: 5.7 -> 4.6 ms on the 2-core EPYC); the smaller
      // moves went slower so (u8 K = 2: 1.4 -> 1.7 ms).
      if (filled != xs) fill(xs, bufs[cur]);
      const T* buf = bufs[cur];
      if (kAhead && xs + lanes < xb) {
        const int nx = x + lanes, nxs = nx + lanes <= xb ? nx : xb - lanes;
        fill(nxs, bufs[cur ^ 1]);
        filled = nxs;
        cur ^= 1;
      }
      const hn::Rebind<T, decltype(df)> dt;
      hn::Vec<decltype(dt)> t[K];
      if constexpr (K == 2) {
        hn::LoadInterleaved2(dt, buf, t[0], t[1]);
      } else {
        hn::LoadInterleaved4(dt, buf, t[0], t[1], t[2], t[3]);
      }
      v[0] = weigh([&](int k) HWY_ATTR {
        if constexpr (sizeof(T) == 4) {
          return t[k];
        } else {
          return hn::ConvertTo(df, hn::PromoteTo(di, t[k]));
        }
      });
    } else if constexpr (sizeof(T) == 1 && C >= 3) {
      // u8 pixels of 3 or 4 channels: one 32-bit gather a tap brings every channel of the pixel
      // (bytes 0..C-1 of the lane), instead of one gather per channel; the same products.
      hn::Vec<decltype(di)> g[K];
      for (int k = 0; k < K; ++k)
        g[k] = hn::GatherOffset(di, reinterpret_cast<const std::int32_t*>(srow),
                                hn::Mul(idx[k], hn::Set(di, C)));
      for (int c = 0; c < C; ++c) {
        v[c] = weigh([&](int k) HWY_ATTR {
          return hn::ConvertTo(df, hn::And(hn::ShiftRightSame(g[k], 8 * c), hn::Set(di, 0xFF)));
        });
      }
    } else {
      for (int c = 0; c < C; ++c) v[c] = weigh([&](int k) HWY_ATTR { return tap(idx[k], c); });
    }
    float* o = h + static_cast<std::size_t>(xs) * C;
    if constexpr (C == 1) {
      hn::StoreU(v[0], df, o);
    } else if constexpr (C == 3) {
      hn::StoreInterleaved3(v[0], v[1], v[2], df, o);
    } else {
      hn::StoreInterleaved4(v[0], v[1], v[2], v[3], df, o);
    }
    if (xs + lanes >= xb) break;
  }
}

#if !HWY_HAVE_SCALABLE
// A vector of d's bytes from 16-byte blocks at p[0], p[1], ... (block 0 lowest).
template <class D>
HWY_INLINE hn::Vec<D> load_blocks(D d, const std::uint8_t* const* p) {
  if constexpr (hn::MaxLanes(D()) <= 16) {
    return hn::LoadU(d, p[0]);
  } else {
    const hn::Half<D> dh;
    constexpr std::size_t half_blocks = hn::MaxLanes(D()) / 32;
    return hn::Combine(d, load_blocks(dh, p + half_blocks), load_blocks(dh, p));
  }
}

// TapBlocks' groups (simd.hpp): one vector is lanes / 4 groups; per vector L block loads, and
// per tap L byte shuffles ORed; the weights as taps_impl's. Returns the pixel after the last
// vector it computed (plan.xa where none).
template <typename T, int K, int L>
int taps_blocks(const T* srow, int row_px, const TapBlocks& plan, const float* const* wx,
                float* h) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Repartition<std::uint8_t, decltype(df)> d8;
  const int nb = static_cast<int>(hn::Lanes(df)) / 4;  // groups a vector
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(srow);
  const std::size_t row_bytes = static_cast<std::size_t>(row_px) * sizeof(T);
  const std::size_t groups = static_cast<std::size_t>(plan.groups);
  std::size_t fetched = 0;
  int g = 0;
  for (; g + nb <= plan.groups; g += nb) {
    const int x = plan.xa + 4 * g;
    const int* off = plan.offset.data() + static_cast<std::size_t>(g) * L;
    {  // 512 bytes ahead of this vector's last load (as taps_impl)
      const std::size_t want =
          std::min(row_bytes, static_cast<std::size_t>(off[nb * L - 1]) * sizeof(T) + 16 + 512);
      for (; fetched < want; fetched += 64) hwy::Prefetch(bytes + fetched);
    }
    hn::Vec<decltype(d8)> win[L];
    for (int l = 0; l < L; ++l) {
      const std::uint8_t* p[HWY_MAX_BYTES / 16];
      for (int b = 0; b < nb; ++b)
        p[b] = bytes + static_cast<std::size_t>(off[b * L + l]) * sizeof(T);
      win[l] = load_blocks(d8, p);
    }
    const auto tap = [&](int k) HWY_ATTR {
      const std::uint8_t* c = plan.ctl.data() + (static_cast<std::size_t>(k) * L * groups + g) * 16;
      auto t = hn::TableLookupBytesOr0(win[0], hn::LoadU(d8, c));
      for (int l = 1; l < L; ++l)
        t = hn::Or(t, hn::TableLookupBytesOr0(win[l], hn::LoadU(d8, c + l * groups * 16)));
      if constexpr (sizeof(T) == 4) {
        return hn::BitCast(df, t);
      } else {
        return hn::ConvertTo(df, hn::BitCast(di, t));
      }
    };
    hn::Vec<decltype(df)> v;
    if constexpr (K == 2) {
      v = hn::Add(hn::Mul(tap(0), hn::LoadU(df, wx[0] + x)),
                  hn::Mul(tap(1), hn::LoadU(df, wx[1] + x)));
    } else {
      v = hn::Zero(df);
      for (int k = 0; k < K; ++k) v = hn::Add(v, hn::Mul(tap(k), hn::LoadU(df, wx[k] + x)));
    }
    hn::StoreU(v, df, h + x);
  }
  return plan.xa + 4 * g;
}
#endif

template <typename T>
bool taps_any(const T* srow, int row_n, int channels, const int* const* ix, const float* const* wx,
              int k, int xa, int xb, float* h, const TapBlocks* plan) {
  const hn::ScalableTag<float> df;
  const int lanes = static_cast<int>(hn::Lanes(df));
  if (xb - xa < lanes) return false;
#if !HWY_HAVE_SCALABLE
  // A plan's groups first, then the pixels after them as below (its last vector may end before
  // xb: the one below then starts xb - lanes, recomputing some of them alike).
  if (plan && plan->loads && channels == 1 && plan->xa == xa) {
    const auto blocks = [&](auto kk, auto ll) HWY_ATTR {
      return taps_blocks<T, decltype(kk)::value, decltype(ll)::value>(srow, row_n, *plan, wx, h);
    };
    using I1 = std::integral_constant<int, 1>;
    using I2 = std::integral_constant<int, 2>;
    using I4 = std::integral_constant<int, 4>;
    int done = xa;
    if (k == 2) {
      done = plan->loads == 1   ? blocks(I2{}, I1{})
             : plan->loads == 2 ? blocks(I2{}, I2{})
                                : blocks(I2{}, I4{});
    } else if (k == 4) {
      done = plan->loads == 1   ? blocks(I4{}, I1{})
             : plan->loads == 2 ? blocks(I4{}, I2{})
                                : blocks(I4{}, I4{});
    }
    if (done >= xb) return true;
    xa = std::max(xa, std::min(done, xb - lanes));
  }
#else
  (void)plan;
#endif
  const auto run = [&](auto cc, auto kk) HWY_ATTR {
    taps_impl<T, decltype(cc)::value, decltype(kk)::value>(srow, row_n, ix, wx, xa, xb, h);
    return true;
  };
  using I1 = std::integral_constant<int, 1>;
  using I3 = std::integral_constant<int, 3>;
  using I4 = std::integral_constant<int, 4>;
  using K2 = std::integral_constant<int, 2>;
  if (k == 2) {
    if (channels == 1) return run(I1{}, K2{});
    if (channels == 3) return run(I3{}, K2{});
    if (channels == 4) return run(I4{}, K2{});
  } else if (k == 4) {
    if (channels == 1) return run(I1{}, I4{});
    if (channels == 3) return run(I3{}, I4{});
    if (channels == 4) return run(I4{}, I4{});
  }
  return false;
}
#endif

#if HWY_TARGET == HWY_SCALAR
#define TEXCV_RESIZE_SIMD(expr) return false  // one lane: the plain loops
#else
#define TEXCV_RESIZE_SIMD(expr) return expr
#endif
bool combine_u8(const float* const* h, const float* w, int k, int n, std::uint8_t* out) {
  (void)h, (void)w, (void)k, (void)n, (void)out;
  TEXCV_RESIZE_SIMD(combine_impl(h, w, k, n, out));
}
bool combine_u16(const float* const* h, const float* w, int k, int n, std::uint16_t* out) {
  (void)h, (void)w, (void)k, (void)n, (void)out;
  TEXCV_RESIZE_SIMD(combine_impl(h, w, k, n, out));
}
bool combine_f32(const float* const* h, const float* w, int k, int n, float* out) {
  (void)h, (void)w, (void)k, (void)n, (void)out;
  TEXCV_RESIZE_SIMD(combine_impl(h, w, k, n, out));
}
bool taps_u8(const std::uint8_t* s, int n, int c, const int* const* ix, const float* const* wx,
             int k, int xa, int xb, float* h, const TapBlocks* plan) {
  (void)s, (void)n, (void)c, (void)ix, (void)wx, (void)k, (void)xa, (void)xb, (void)h, (void)plan;
  TEXCV_RESIZE_SIMD(taps_any(s, n, c, ix, wx, k, xa, xb, h, plan));
}
bool taps_u16(const std::uint16_t* s, int n, int c, const int* const* ix, const float* const* wx,
              int k, int xa, int xb, float* h, const TapBlocks* plan) {
  (void)s, (void)n, (void)c, (void)ix, (void)wx, (void)k, (void)xa, (void)xb, (void)h, (void)plan;
  TEXCV_RESIZE_SIMD(taps_any(s, n, c, ix, wx, k, xa, xb, h, plan));
}
bool taps_f32(const float* s, int n, int c, const int* const* ix, const float* const* wx, int k,
              int xa, int xb, float* h, const TapBlocks* plan) {
  (void)s, (void)n, (void)c, (void)ix, (void)wx, (void)k, (void)xa, (void)xb, (void)h, (void)plan;
  TEXCV_RESIZE_SIMD(taps_any(s, n, c, ix, wx, k, xa, xb, h, plan));
}
#undef TEXCV_RESIZE_SIMD

}  // namespace texcv::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace texcv::cpu::simd {
HWY_EXPORT(half_u8);
HWY_EXPORT(half_u16);
HWY_EXPORT(combine_u8);
HWY_EXPORT(combine_u16);
HWY_EXPORT(combine_f32);
HWY_EXPORT(taps_u8);
HWY_EXPORT(taps_u16);
HWY_EXPORT(taps_f32);
bool combine_rows(const float* const* h, const float* w, int k, int n, std::uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(combine_u8)(h, w, k, n, out);
}
bool combine_rows(const float* const* h, const float* w, int k, int n, std::uint16_t* out) {
  return HWY_DYNAMIC_DISPATCH(combine_u16)(h, w, k, n, out);
}
bool combine_rows(const float* const* h, const float* w, int k, int n, float* out) {
  return HWY_DYNAMIC_DISPATCH(combine_f32)(h, w, k, n, out);
}
bool taps_row(const std::uint8_t* s, int row_n, int channels, const int* const* ix,
              const float* const* wx, int k, int xa, int xb, float* h, const TapBlocks* plan) {
  return HWY_DYNAMIC_DISPATCH(taps_u8)(s, row_n, channels, ix, wx, k, xa, xb, h, plan);
}
bool taps_row(const std::uint16_t* s, int row_n, int channels, const int* const* ix,
              const float* const* wx, int k, int xa, int xb, float* h, const TapBlocks* plan) {
  return HWY_DYNAMIC_DISPATCH(taps_u16)(s, row_n, channels, ix, wx, k, xa, xb, h, plan);
}
bool taps_row(const float* s, int row_n, int channels, const int* const* ix, const float* const* wx,
              int k, int xa, int xb, float* h, const TapBlocks* plan) {
  return HWY_DYNAMIC_DISPATCH(taps_f32)(s, row_n, channels, ix, wx, k, xa, xb, h, plan);
}
void plan_tap_blocks(TapBlocks& plan, int elem_bytes, int row_n, const int* const* ix, int k,
                     int xa, int xb) {
  plan.loads = 0;
  // Only a shrink: taps spread over more pixels than there are destination pixels (an
  // enlargement's vectors load their span once and permute lanes).
  if (xb - xa < 16 || ix[k - 1][xb - 1] - ix[0][xa] <= xb - xa) return;
  const int per_block = 16 / elem_bytes;  // elements a 16-byte load holds
  // Groups from xa whose taps L loads reach: load l serves pixels [4l/L, 4(l+1)/L) of the group,
  // from their first tap, the 16 bytes inside the row.
  const auto fits = [&](int x, int loads) {
    const int g = 4 / loads;
    for (int l = 0; l < loads; ++l) {
      const int first = ix[0][x + l * g];
      if (first < 0 || first + per_block > row_n) return false;
      for (int p = x + l * g; p < x + (l + 1) * g; ++p)
        for (int j = 0; j < k; ++j)
          if (ix[j][p] < first || ix[j][p] - first >= per_block) return false;
    }
    return true;
  };
  const auto count = [&](int loads) {
    int n = 0;
    while (xa + 4 * (n + 1) <= xb && fits(xa + 4 * n, loads)) ++n;
    return n;
  };
  int best = 0, loads = 0;
  for (int l : {1, 2, 4}) {
    // f32 with four loads a group (one a pixel) was slower than taps_impl's copies (cubic 0.3 on
    // one thread of the 2-core EPYC: 8.3 -> 9.2 ms).
    if (elem_bytes == 4 && l == 4) break;
    const int n = count(l);
    if (n > best + 2) best = n, loads = l;  // more loads only for more than a few groups more
  }
  if (best == 0) return;
  plan.loads = loads;
  plan.xa = xa;
  plan.groups = best;
  plan.offset.assign(static_cast<std::size_t>(best) * loads, 0);
  plan.ctl.assign(static_cast<std::size_t>(k) * loads * best * 16, 0x80);
  const int g = 4 / loads;
  for (int gr = 0; gr < best; ++gr)
    for (int l = 0; l < loads; ++l) {
      const int first = ix[0][xa + 4 * gr + l * g];
      plan.offset[static_cast<std::size_t>(gr) * loads + l] = first;
      for (int j = 0; j < k; ++j) {
        std::uint8_t* c =
            plan.ctl.data() + ((static_cast<std::size_t>(j) * loads + l) * best + gr) * 16;
        for (int p = l * g; p < (l + 1) * g; ++p) {  // the pixel's float lane: bytes 4p..4p+3
          const int at = (ix[j][xa + 4 * gr + p] - first) * elem_bytes;
          for (int b = 0; b < elem_bytes; ++b) c[4 * p + b] = static_cast<std::uint8_t>(at + b);
        }
      }
    }
}
bool half_mean_row(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* o, int w,
                   int channels) {
  return HWY_DYNAMIC_DISPATCH(half_u8)(a, b, o, w, channels);
}
bool half_mean_row(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* o, int w,
                   int channels) {
  return HWY_DYNAMIC_DISPATCH(half_u16)(a, b, o, w, channels);
}
}  // namespace texcv::cpu::simd
#endif  // HWY_ONCE

#else  // !TEXCV_HAS_HWY

namespace texcv::cpu::simd {
void plan_tap_blocks(TapBlocks& plan, int, int, const int* const*, int, int, int) {
  plan.loads = 0;
}
bool half_mean_row(const std::uint8_t*, const std::uint8_t*, std::uint8_t*, int, int) {
  return false;
}
bool half_mean_row(const std::uint16_t*, const std::uint16_t*, std::uint16_t*, int, int) {
  return false;
}
bool combine_rows(const float* const*, const float*, int, int, std::uint8_t*) {
  return false;
}
bool combine_rows(const float* const*, const float*, int, int, std::uint16_t*) {
  return false;
}
bool combine_rows(const float* const*, const float*, int, int, float*) {
  return false;
}
bool taps_row(const std::uint8_t*, int, int, const int* const*, const float* const*, int, int, int,
              float*, const TapBlocks*) {
  return false;
}
bool taps_row(const std::uint16_t*, int, int, const int* const*, const float* const*, int, int, int,
              float*, const TapBlocks*) {
  return false;
}
bool taps_row(const float*, int, int, const int* const*, const float* const*, int, int, int, float*,
              const TapBlocks*) {
  return false;
}
}  // namespace texcv::cpu::simd

#endif
