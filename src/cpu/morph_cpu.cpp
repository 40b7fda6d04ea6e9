// CPU backend: one erode/dilate pass (src/core/morph_desc.hpp) in the element type. Each block of
// output rows pads the source rows it needs (border applied), then reduces: a rectangle as two
// 1-D passes (row min/max, then column min/max), other elements run by run along each element
// row. Parallel over blocks of rows.
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "src/core/morph_desc.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

namespace {

template <bool Max, typename T>
inline T pick(T a, T b) {
  if constexpr (Max) {
    return b > a ? b : a;
  } else {
    return b < a ? b : a;
  }
}

// The border value that never wins against finite data: the type's largest value for erode and
// lowest for dilate (f32: +-FLT_MAX, as OpenCV's DBL_MAX default saturated to float; a pixel whose
// element lies wholly outside the image gets it, as in OpenCV).
template <bool Max, typename T>
T identity() {
  return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

template <typename T, int C, bool Max>
void run(const ImageView& src, const ImageView& dst, const texcv::detail::MorphDesc& d) {
  const int w = src.width, h = src.height, n = w * C;
  const int kw = d.kw, kh = d.kh;
  const int pw = (w + kw - 1) * C;  // padded row length in elements
  std::vector<int> xi(static_cast<std::size_t>(w + kw - 1));
  for (int j = 0; j < w + kw - 1; ++j) xi[j] = texcv::detail::border_index(j - d.ax, w, d.border);
  T bv[C];
  for (int c = 0; c < C; ++c)
    bv[c] = d.never_wins ? identity<Max, T>() : static_cast<T>(d.value[c]);

  // Runs [a, b) of ones along each element row.
  std::vector<std::vector<std::pair<int, int>>> runs(static_cast<std::size_t>(kh));
  bool rect = true;
  for (int j = 0; j < kh; ++j) {
    for (int i = 0; i < kw;) {
      if (!d.mask[static_cast<std::size_t>(j) * kw + i]) {
        ++i;
        continue;
      }
      int e = i;
      while (e < kw && d.mask[static_cast<std::size_t>(j) * kw + e]) ++e;
      runs[j].emplace_back(i, e);
      i = e;
    }
    if (runs[j].size() != 1 || runs[j][0] != std::pair<int, int>(0, kw)) rect = false;
  }

  const int block = std::min(h, std::max(32, 2 * kh));
  const int blocks = (h + block - 1) / block;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(w) * h * (kw + kh) / 8)
  for (int b = 0; b < blocks; ++b) {
    const int y0 = b * block, y1 = std::min(h, y0 + block);
    const int rows = y1 - y0 + kh - 1;
    std::vector<T> pad(static_cast<std::size_t>(rows) * pw);
    for (int r = 0; r < rows; ++r) {
      T* p = pad.data() + static_cast<std::size_t>(r) * pw;
      const int iy = texcv::detail::border_index(y0 - d.ay + r, h, d.border);
      const T* row = iy < 0 ? nullptr : src.row<const T>(iy);
      // The image's columns as one copy (padded column j is image column j - ax); only the
      // kw - 1 border columns go through the border index.
      const auto pad_column = [&](int j) {
        const int ix = xi[j];
        for (int c = 0; c < C; ++c) p[j * C + c] = (row && ix >= 0) ? row[ix * C + c] : bv[c];
      };
      for (int j = 0; j < d.ax; ++j) pad_column(j);
      if (row) {
        std::copy(row, row + n, p + static_cast<std::size_t>(d.ax) * C);
      } else {
        for (int j = d.ax; j < d.ax + w; ++j) pad_column(j);
      }
      for (int j = d.ax + w; j < w + kw - 1; ++j) pad_column(j);
    }
    std::vector<T> acc(static_cast<std::size_t>(n));
    if (rect) {
      // Row pass in place: pad row r becomes the min/max over kw columns.
      std::vector<T> red(static_cast<std::size_t>(rows) * n);
      for (int r = 0; r < rows; ++r) {
        const T* p = pad.data() + static_cast<std::size_t>(r) * pw;
        T* o = red.data() + static_cast<std::size_t>(r) * n;
        std::copy(p, p + n, o);
        for (int i = 1; i < kw; ++i)
          for (int k = 0; k < n; ++k) o[k] = pick<Max>(o[k], p[k + i * C]);
      }
      for (int y = y0; y < y1; ++y) {
        T* out = dst.row<T>(y);
        const T* first = red.data() + static_cast<std::size_t>(y - y0) * n;
        std::copy(first, first + n, acc.begin());
        for (int j = 1; j < kh; ++j) {
          const T* t = red.data() + static_cast<std::size_t>(y - y0 + j) * n;
          for (int k = 0; k < n; ++k) acc[k] = pick<Max>(acc[k], t[k]);
        }
        std::copy(acc.begin(), acc.end(), out);
      }
    } else {
      for (int y = y0; y < y1; ++y) {
        std::fill(acc.begin(), acc.end(), identity<Max, T>());
        for (int j = 0; j < kh; ++j) {
          const T* p = pad.data() + static_cast<std::size_t>(y - y0 + j) * pw;
          for (const auto& [a, e] : runs[j])
            for (int i = a; i < e; ++i)
              for (int k = 0; k < n; ++k) acc[k] = pick<Max>(acc[k], p[k + i * C]);
        }
        std::copy(acc.begin(), acc.end(), dst.row<T>(y));
      }
    }
  }
}

}  // namespace

void morph(const ImageView& src, const ImageView& dst, const texcv::detail::MorphDesc& d) {
  detail::dispatch(src.type, src.channels, d.dilate ? "dilate" : "erode", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    if (d.dilate) {
      run<T, C, true>(src, dst, d);
    } else {
      run<T, C, false>(src, dst, d);
    }
  });
}

}  // namespace texcv::cpu

namespace texcv::cpu {

void morph_subtract(const ImageView& a, const ImageView& b, const ImageView& dst) {
  detail::dispatch(a.type, a.channels, "morphology", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    const int n = a.width * C;
    TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(a.width) * a.height)
    for (int y = 0; y < a.height; ++y) {
      const T* pa = a.row<const T>(y);
      const T* pb = b.row<const T>(y);
      T* o = dst.row<T>(y);
      for (int k = 0; k < n; ++k) {
        if constexpr (std::numeric_limits<T>::is_integer) {
          o[k] = pa[k] > pb[k] ? static_cast<T>(pa[k] - pb[k]) : T(0);
        } else {
          o[k] = pa[k] - pb[k];
        }
      }
    }
  });
}

}  // namespace texcv::cpu
