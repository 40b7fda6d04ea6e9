// Private helpers of the CPU linear filters (src/cpu/filter_*.cpp): output-type dispatch, the
// border column table and padded float rows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "src/core/filters_desc.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu::detail {

// Calls f(TypeTag<T>, channels, TypeTag<Tout>) where T is src's element type and Tout dst's
// (src's type, or f32: validated by src/core).
template <class F>
void dispatch_filter(const ImageView& src, const ImageView& dst, const char* op, F&& f) {
  dispatch(src.type, src.channels, op, [&](auto tag, auto ch) {
    if (dst.type == src.type) {
      f(tag, ch, tag);
    } else {
      f(tag, ch, TypeTag<float>{});
    }
  });
}

// Source column of padded column j (j - anchor in image coordinates) for j in [0, width + k - 1),
// or -1 for the constant border.
inline std::vector<int> column_table(int width, int k, int anchor, Border b) {
  std::vector<int> xi(static_cast<std::size_t>(width + k - 1));
  for (int j = 0; j < width + k - 1; ++j) xi[j] = texcv::detail::border_index(j - anchor, width, b);
  return xi;
}

// buf[(j - p0) * C + c] = source row iy at padded column j, j in [p0, p1): column xi[j], or the
// constant value where iy or xi[j] is -1. xi is column_table(src.width, k, anchor, ...): its
// columns [anchor, anchor + width) are the row itself, converted in one straight loop; only the
// border columns go through the table. filter_separable takes slices (its strips).
template <typename T, int C>
void padded_slice(const ImageView& src, int iy, const std::vector<int>& xi, int anchor,
                  const float* bv, int p0, int p1, float* buf) {
  auto fill = [&](int j) {
    for (int c = 0; c < C; ++c) buf[(j - p0) * C + c] = bv[c];
  };
  if (iy < 0) {
    for (int j = p0; j < p1; ++j) fill(j);
    return;
  }
  const T* row = src.row<const T>(iy);
  auto edge = [&](int j) {
    const int ix = xi[j];
    if (ix < 0) {
      fill(j);
    } else {
      for (int c = 0; c < C; ++c) buf[(j - p0) * C + c] = static_cast<float>(row[ix * C + c]);
    }
  };
  // Columns [anchor, anchor + width) are the row itself (column_table), converted in one loop.
  const int lo = std::clamp(anchor, p0, p1), hi = std::clamp(anchor + src.width, lo, p1);
  for (int j = p0; j < lo; ++j) edge(j);
  float* b = buf + static_cast<std::size_t>(lo - p0) * C;
  const T* s = row + static_cast<std::size_t>(lo - anchor) * C;
  const int m = (hi - lo) * C;
  for (int i = 0; i < m; ++i) b[i] = static_cast<float>(s[i]);
  for (int j = hi; j < p1; ++j) edge(j);
}

// The whole padded row: padded_slice over every column of xi (filter_2d).
template <typename T, int C>
void padded_row(const ImageView& src, int iy, const std::vector<int>& xi, int anchor,
                const float* bv, float* buf) {
  padded_slice<T, C>(src, iy, xi, anchor, bv, 0, static_cast<int>(xi.size()), buf);
}

// acc[i] += kern[k] * src[i + k * step] for k in tap order and i in [0, n); zero coefficients are
// skipped. Highway's vectors where built (simd.hpp), the same floats from the plain loop otherwise.
// Both passes of the separable filters and each kernel row of convolve.
inline void taps_add(const float* src, std::size_t step, const float* kern, int taps, int n,
                     float* acc) {
  if (simd::filter_taps_add(src, step, kern, taps, n, acc)) return;
  for (int k = 0; k < taps; ++k) {
    const float kv = kern[k];
    if (kv == 0.0f) continue;
    const float* b = src + k * step;
    for (int i = 0; i < n; ++i) acc[i] += kv * b[i];
  }
}

// acc[i] += sum_k kern[k] * buf[i + k * C] for i in [0, n): the taps along a row of C channels.
template <int C>
void correlate_row(const float* buf, const float* kern, int ksize, int n, float* acc) {
  taps_add(buf, C, kern, ksize, n, acc);
}

// dst row y = saturate(acc * scale + delta).
// (__restrict: a u8 destination could alias the float accumulator as far as the compiler knows,
// which kept this loop scalar; it is the CPU filters' hottest loop for u8 outputs.)
template <typename Tout>
void store_elems(Tout* __restrict d, const float* __restrict acc, int n, float scale, float delta) {
  if (simd::scaled_store_row(acc, n, scale, delta, d)) return;  // Highway's vectors (simd.hpp)
  for (int i = 0; i < n; ++i) d[i] = texcv::detail::saturate<Tout>(acc[i] * scale + delta);
}
template <typename Tout>
void store_row(const ImageView& dst, int y, const float* __restrict acc, int n, float scale,
               float delta) {
  store_elems<Tout>(dst.row<Tout>(y), acc, n, scale, delta);
}

// Where filter_separable may hand its output rows instead of storing them in dst:
// sink(y, e0, n, row) with elements [e0, e0 + n) of output row y (dst's type), valid during the
// call only; called from the filter's threads, each row's elements once.
using RowSink = std::function<void(int y, int e0, int n, const void* row)>;

}  // namespace texcv::cpu::detail

namespace texcv::cpu {
// filter_separable with a sink: the output rows go to it (dst only gives their type).
void filter_separable(const ImageView& src, const ImageView& dst,
                      const texcv::detail::SepFilterDesc& d, const detail::RowSink* sink);
}  // namespace texcv::cpu
