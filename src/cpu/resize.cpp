// CPU backend: resize (nearest, linear, cubic, area), parallel over destination rows.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

struct Tap {
  int index;
  float weight;
};

// Taps of every destination index along one axis for Interp::area shrinking; offsets[d] ..
// offsets[d + 1] are the taps of destination index d.
void area_table(int dst_n, double scale, int src_n, std::vector<Tap>& taps,
                std::vector<int>& offsets) {
  offsets.assign(static_cast<std::size_t>(dst_n) + 1, 0);
  taps.clear();
  for (int d = 0; d < dst_n; ++d) {
    offsets[d] = static_cast<int>(taps.size());
    sd::area_taps(d, scale, src_n, [&](int i, float w) { taps.push_back({i, w}); });
  }
  offsets[dst_n] = static_cast<int>(taps.size());
}

template <typename T, int C>
void resize_nearest(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  std::vector<int> xs(dst.width);
  for (int x = 0; x < dst.width; ++x) xs[x] = d.ax.nearest(x, src.width);
  const int* xi = xs.data();
  constexpr std::size_t kPx = sizeof(T) * C;
  // Leading 16-byte blocks of a row by byte shuffles of 1 to 4 loads (enlarging: 1; an empty
  // plan for shrinks beyond 4 loads a block, 0.25x for 1-byte pixels).
  const simd::ShufflePlan plan = simd::shuffle_plan(xi, dst.width, src.width, kPx);
  // Blocks of rows, each on one thread: a row that takes the same source row as the row above
  // (enlarging: about 4 rows in 10 at 1.7x) copies that row's bytes instead of gathering them.
  const int per = detail::row_chunk(dst.width, dst.height);
  const int blocks = (dst.height + per - 1) / per;
  const std::size_t row_bytes = static_cast<std::size_t>(dst.width) * C * sizeof(T);
  TEXCV_OMP_PARALLEL_FOR_N(static_cast<long>(dst.width) * dst.height, blocks)
  for (int b = 0; b < blocks; ++b) {
    const int y0 = b * per, y1 = std::min(dst.height, y0 + per);
    int last = -1;  // the source row of row y - 1 (-1: none in this block)
    for (int y = y0; y < y1; ++y) {
      const int sy = d.ay.nearest(y, src.height);
      T* drow = dst.row<T>(y);
      if (sy == last) {
        std::memcpy(drow, dst.row<const T>(y - 1), row_bytes);
        continue;
      }
      last = sy;
      const T* srow = src.row<const T>(sy);
      const auto* sb = reinterpret_cast<const unsigned char*>(srow);
      auto* db = reinterpret_cast<unsigned char*>(drow);
      int x0 = simd::shuffle_row(sb, plan, db, kPx);
      if constexpr (kPx <= 4 && C != 3)  // pixels of 1, 2 or 4 bytes: Highway's gathers
        x0 += simd::gather_row(sb, src.width, xi + x0, db + x0 * kPx, dst.width - x0, kPx);
      for (int x = x0; x < dst.width; ++x) {
        const T* p = srow + static_cast<std::size_t>(xi[x]) * C;
        for (int c = 0; c < C; ++c) drow[static_cast<std::size_t>(x) * C + c] = p[c];
      }
    }
  }
}

// Interp::area, both axes shrinking (scale >= 1): weighted average of the covered pixels; each
// source row is summed with the x weights first, then the rows with the y weights (as OpenCV).
template <typename T, int C>
void resize_area_shrink(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  std::vector<Tap> xt, yt;
  std::vector<int> xo, yo;
  area_table(dst.width, d.scale_x, src.width, xt, xo);
  area_table(dst.height, d.scale_y, src.height, yt, yo);
  const auto s = detail::source_of<T, C>(src);
  TEXCV_OMP_PARALLEL_FOR_ROWS(dst.width, dst.height)
  for (int y = 0; y < dst.height; ++y) {
    T* drow = dst.row<T>(y);
    for (int x = 0; x < dst.width; ++x) {
      float out[C] = {};
      for (int j = yo[y]; j < yo[y + 1]; ++j) {
        float row[C] = {};
        for (int i = xo[x]; i < xo[x + 1]; ++i) {
          float p[C];
          s.load(xt[i].index, yt[j].index, p);
          for (int c = 0; c < C; ++c) row[c] += p[c] * xt[i].weight;
        }
        for (int c = 0; c < C; ++c) out[c] += row[c] * yt[j].weight;
      }
      sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
    }
  }
}

// The separable interpolations (linear, cubic, area when enlarging) in two passes with the
// same floats as the per-pixel sampler (sample_linear / sample_cubic, whose sums are already a
// pass along x over each source row followed by one along y):
// - Tables per axis, once per image: K source indices (before the border) and K weights for
//   every destination index (linear and area: K = 2, w = 1 - f and f; cubic: K = 4,
//   cubic_weights(f)).
// - A horizontal pass makes, for a source row, the row of x sums at the destination's columns
//   (K = 2: p0 w0 + p1 w1; K = 4: ((0 + p0 w0) + p1 w1) + ...), taps outside the image as fetch
//   gives them (border_index, or the border value); each block of destination rows keeps the last
//   K of them, so an enlargement computes each source row once instead of per destination row.
// - The vertical pass combines K of those rows with the y weights in the same order (a loop
//   over contiguous floats the compiler vectorizes) and stores as detail::store.
struct AxisTaps {
  int k = 2;
  std::vector<int> index;     // n * k, before the border
  std::vector<float> weight;  // n * k
};

AxisTaps axis_taps(int n, Interp ip, const sd::ResizeAxis& ax, double scale, double inv_scale) {
  AxisTaps t;
  t.k = ip == Interp::cubic ? 4 : 2;
  t.index.resize(static_cast<std::size_t>(n) * t.k);
  t.weight.resize(static_cast<std::size_t>(n) * t.k);
  for (int d = 0; d < n; ++d) {
    int* idx = &t.index[static_cast<std::size_t>(d) * t.k];
    float* w = &t.weight[static_cast<std::size_t>(d) * t.k];
    if (ip == Interp::area) {  // enlarging: OpenCV's INTER_AREA fractions
      int i0;
      float f;
      sd::area_upscale_coord(d, scale, inv_scale, i0, f);
      idx[0] = i0, idx[1] = i0 + 1, w[0] = 1.0f - f, w[1] = f;
      continue;
    }
    const double v = sd::sanitize_coord(ax(d));
    const int i0 = sd::floor_to_int(v);
    const float f = sd::coord_fraction(v, i0);
    if (ip == Interp::cubic) {
      sd::cubic_weights(f, w);
      for (int i = 0; i < 4; ++i) idx[i] = i0 - 1 + i;
    } else {
      idx[0] = i0, idx[1] = i0 + 1, w[0] = 1.0f - f, w[1] = f;
    }
  }
  return t;
}

template <typename T, int C, int K>
void resize_separable(const ImageView& src, const ImageView& dst, const AxisTaps& xt,
                      const AxisTaps& yt, const sd::SamplingDesc& sp) {
  const int w = dst.width, n = w * C;
  const Border b = sp.border;
  const float* bv = sp.border_value;
  // x tables with the border applied, planar per tap: pixel indices, -1 for the constant border's
  // value.
  std::vector<int> xi(static_cast<std::size_t>(w) * K);
  std::vector<float> xw(static_cast<std::size_t>(w) * K);
  const int* ixp[K];
  const float* wxp[K];
  for (int k = 0; k < K; ++k) {
    int* ik = xi.data() + static_cast<std::size_t>(k) * w;
    float* wk = xw.data() + static_cast<std::size_t>(k) * w;
    for (int x = 0; x < w; ++x) {
      const int i = sd::border_index(xt.index[static_cast<std::size_t>(x) * K + k], src.width, b);
      ik[x] = i;
      wk[x] = xt.weight[static_cast<std::size_t>(x) * K + k];
    }
    ixp[k] = ik;
    wxp[k] = wk;
  }
  // The columns [xa, xb) whose taps all lie inside the row before any border (so that they rise
  // with x), with the 32-bit reads of u8/u16 (up to 4 / sizeof(T) - 1 elements past the last
  // tap's last channel) too: simd::taps_row.
  const int extra = static_cast<int>(4 / sizeof(T)) - 1;
  const auto vec_ok = [&](int x) {
    for (int k = 0; k < K; ++k) {
      const int raw = xt.index[static_cast<std::size_t>(x) * K + k];
      if (raw < 0 || raw >= src.width || raw * C + C - 1 + extra >= src.width * C) return false;
    }
    return true;
  };
  int xa = 0, xb = 0;
  while (xa < w && !vec_ok(xa)) ++xa;
  for (xb = xa; xb < w && vec_ok(xb);) ++xb;
  for (int x = xb; x < w; ++x)
    if (vec_ok(x)) xa = xb = 0;  // not one run (no such table): the plain loop only
  simd::TapBlocks plan;          // one channel's shrink: its taps without gathers (simd.hpp)
  if constexpr (C == 1)
    if (xb > xa) simd::plan_tap_blocks(plan, sizeof(T), src.width, ixp, K, xa, xb);
  constexpr int kBlock = 32;  // destination rows per task, each with its own K source rows
  const int blocks = (dst.height + kBlock - 1) / kBlock;
  detail::RegionErrors errors;  // a failed allocation is thrown after the region
  // Each thread's K rows of x sums, allocated once a call and not zeroed (a zeroed vector a
  // block was 334 KB for a 1.7x cubic RGB 4096 image, 218 times a call), and kept from block to
  // block (a slot's tag names the raw source row it holds).
  TEXCV_OMP_PARALLEL_IF(static_cast<long>(dst.width) * dst.height) {
    std::unique_ptr<float[]> rows;
    const bool ready = errors.guard(
        [&] { rows = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(K) * n); });
    int tag[K];
    bool tagged[K] = {};
    TEXCV_OMP_FOR_N(blocks)
    for (int blk = 0; blk < blocks; ++blk) {
      if (!ready) continue;
      // The x sums of raw source row r (before the border) into slot r mod K.
      const auto row_of = [&](int r) -> const float* {
        const int slot = ((r % K) + K) % K;
        float* h = rows.get() + static_cast<std::size_t>(slot) * n;
        if (tagged[slot] && tag[slot] == r) return h;
        tag[slot] = r, tagged[slot] = true;
        const int iy = sd::border_index(r, src.height, b);
        const T* srow = iy >= 0 ? src.row<const T>(iy) : nullptr;
        const auto plain = [&](int x0, int x1) {
          for (int x = x0; x < x1; ++x)
            for (int c = 0; c < C; ++c) {
              float p[K];
              for (int k = 0; k < K; ++k)
                p[k] = srow && ixp[k][x] >= 0 ? static_cast<float>(srow[ixp[k][x] * C + c]) : bv[c];
              float v;
              if constexpr (K == 2) {
                v = p[0] * wxp[0][x] + p[1] * wxp[1][x];
              } else {
                v = 0.0f;
                for (int k = 0; k < K; ++k) v += p[k] * wxp[k][x];
              }
              h[static_cast<std::size_t>(x) * C + c] = v;
            }
        };
        if (srow && simd::taps_row(srow, src.width, C, ixp, wxp, K, xa, xb, h, &plan)) {
          plain(0, xa);
          plain(xb, w);
        } else {
          plain(0, w);
        }
        return h;
      };
      const int y_end = std::min(dst.height, (blk + 1) * kBlock);
      for (int y = blk * kBlock; y < y_end; ++y) {
        const int* ry = &yt.index[static_cast<std::size_t>(y) * K];
        const float* wy = &yt.weight[static_cast<std::size_t>(y) * K];
        const float* h[K];
        for (int k = 0; k < K; ++k) h[k] = row_of(ry[k]);
        T* drow = dst.row<T>(y);
        if (simd::combine_rows(h, wy, K, n, drow)) continue;
        if constexpr (K == 2) {
          const float w0 = wy[0], w1 = wy[1];
          for (int i = 0; i < n; ++i) drow[i] = sd::saturate<T>(h[0][i] * w0 + h[1][i] * w1);
        } else {
          const float w0 = wy[0], w1 = wy[1], w2 = wy[2], w3 = wy[3];
          for (int i = 0; i < n; ++i)
            drow[i] = sd::saturate<T>((((0.0f + h[0][i] * w0) + h[1][i] * w1) + h[2][i] * w2) +
                                      h[3][i] * w3);
        }
      }
    }
  }
  errors.rethrow();
}

template <typename T, int C>
void resize_two_pass(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  const Interp ip = d.sampling.interp;
  const AxisTaps xt = axis_taps(dst.width, ip, d.ax, d.scale_x, d.inv_scale_x);
  const AxisTaps yt = axis_taps(dst.height, ip, d.ay, d.scale_y, d.inv_scale_y);
  if (ip == Interp::cubic)
    resize_separable<T, C, 4>(src, dst, xt, yt, d.sampling);
  else
    resize_separable<T, C, 2>(src, dst, xt, yt, d.sampling);
}

// Interp::linear at exactly half size on both axes (scale 2, no align_corners, every 2x2 block
// inside the source): the source position of dst (x, y) is (2x + 0.5, 2y + 0.5), so the taps are
// the block at (2x, 2y) and every weight is 0.5. The two passes' floats then are exact for u8 and
// u16, (a + b + c + d) / 4, and its rounding (half to even) is
// (s + 1 + ((s >> 2) & 1)) >> 2 on the integer sum s; f32 takes the two passes' operations with
// the weights 0.5. The same results as the two passes, without their tables (the batch
// pipeline's "resize:scale=0.5" is this case). u8/u16 Interp::area at half size too.
// (Without align_corners both axes' scale is ResizeDesc's scale_x / scale_y, area's too.)
bool half_size(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  return !d.align_corners && d.scale_x == 2.0 && d.scale_y == 2.0 && 2L * dst.width <= src.width &&
         2L * dst.height <= src.height;
}

template <typename T, int C>
void resize_half_linear(const ImageView& src, const ImageView& dst) {
  const int w = dst.width;
  TEXCV_OMP_PARALLEL_FOR_ROWS(dst.width, dst.height)
  for (int y = 0; y < dst.height; ++y) {
    const T* a = src.row<const T>(2 * y);
    const T* b = src.row<const T>(2 * y + 1);
    T* o = dst.row<T>(y);
    if constexpr (!std::is_same_v<T, float>) {
      if (simd::half_mean_row(a, b, o, w, C)) continue;  // Highway's vectors (simd.hpp)
    }
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < C; ++c) {
        const std::size_t e0 = static_cast<std::size_t>(2 * x) * C + c, e1 = e0 + C;
        if constexpr (std::is_same_v<T, float>) {
          const float r0 = a[e0] * 0.5f + a[e1] * 0.5f;
          const float r1 = b[e0] * 0.5f + b[e1] * 0.5f;
          o[static_cast<std::size_t>(x) * C + c] = r0 * 0.5f + r1 * 0.5f;
        } else {
          const std::uint32_t sum = static_cast<std::uint32_t>(a[e0]) + a[e1] + b[e0] + b[e1];
          o[static_cast<std::size_t>(x) * C + c] =
              static_cast<T>((sum + 1 + ((sum >> 2) & 1)) >> 2);
        }
      }
  }
}

}  // namespace

void resize(const ImageView& src, const ImageView& dst, const ResizeDesc& d) {
  detail::dispatch(src.type, src.channels, "resize", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    switch (d.sampling.interp) {
      case Interp::nearest:
        return resize_nearest<T, C>(src, dst, d);
      case Interp::area:
        // At exactly half size the area weights are 0.5 per axis on the 2x2 block: the same
        // exact mean for u8/u16 (f32 sums from 0, which turns a -0 block into +0: its own path).
        if (!std::is_same_v<T, float> && half_size(src, dst, d))
          return resize_half_linear<T, C>(src, dst);
        if (d.scale_x >= 1.0 && d.scale_y >= 1.0) return resize_area_shrink<T, C>(src, dst, d);
        return resize_two_pass<T, C>(src, dst, d);
      case Interp::linear:
        if (half_size(src, dst, d)) return resize_half_linear<T, C>(src, dst);
        return resize_two_pass<T, C>(src, dst, d);
      default:
        return resize_two_pass<T, C>(src, dst, d);
    }
  });
}

}  // namespace texcv::cpu
