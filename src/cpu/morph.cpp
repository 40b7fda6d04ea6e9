// CPU backend: the morphology engine of erode, dilate and morphology: one erode/dilate pass
// (src/core/morph_desc.hpp) in the element type. Each block of output rows pads the source rows it
// needs (border applied), then reduces: a rectangle as two 1-D passes (row min/max, then column
// min/max), other elements run by run along each element row. Parallel over blocks of rows.
#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/core/morph_desc.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

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
// out[k] = pick(a[k], b[k]) for k < n (out may be a): Highway's vectors, else the plain loop.
template <bool Max, typename T>
void pick_row(const T* a, const T* b, T* out, int n) {
  if (simd::pick_rows(a, b, out, n, Max)) return;
  for (int k = 0; k < n; ++k) out[k] = pick<Max>(a[k], b[k]);
}

template <bool Max, typename T>
T identity() {
  return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// From this element height on, a rectangle's column pass runs van Herk / Gil-Werman: integer
// types only. It picks rows in another order than top to bottom, which for f32 changes the result
// where NaN or both signed zeros meet in a window (pick keeps the first of unordered or equal
// values); f32 keeps the top-to-bottom order at every height, as the CUDA kernels (measured on an
// H100: the GPU's 5x5 f32 erode with NaN and -0 differed from the CPU's van Herk in 428 of 9,000
// elements before).
constexpr int kVanHerk = 5;
template <typename T>
constexpr bool van_herk(int kh) {
  return !std::is_floating_point_v<T> && kh >= kVanHerk;
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

  // Blocks of output rows, each padding kh - 1 rows more than it writes: at least 4 kh rows.
  const int block = std::min(h, std::max(32, 4 * kh));
  const int blocks = (h + block - 1) / block;
  // Each thread's scratch rows, allocated once, at its first block (not zeroed: every element is
  // written before it is read; a fresh allocation per block cost page faults, 13 % of a 15x15
  // erode). Only threads that get a block allocate, so all of them together hold at most about
  // 3 * h padded rows (one block of h + kh - 1 rows when 4 kh >= h, else blocks of 5 kh rows),
  // and src/core/morphology.cpp keeps a rectangle within about twice the image a side.
  const std::size_t max_rows = static_cast<std::size_t>(std::min(h, block) + kh - 1);
  const auto scratch = [](std::size_t elems) { return std::make_unique_for_overwrite<T[]>(elems); };
  // An exception must not leave an OpenMP region (std::terminate): a failed allocation is kept
  // and thrown once the region is done; the other blocks are skipped.
  std::mutex error_mutex;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  TEXCV_OMP_PARALLEL_IF(static_cast<long>(w) * h * (kw + kh) / 8) {
    std::unique_ptr<T[]> pad, red_rows, g_rows, hg_rows;
    std::vector<const T*> red, g, hg;
    TEXCV_OMP_FOR_N(blocks)
    for (int b = 0; b < blocks; ++b) {
      if (failed.load(std::memory_order_relaxed)) continue;
      if (!pad) {
        try {
          auto p = scratch(max_rows * pw);
          if (rect && kw > 1) red_rows = scratch(max_rows * n);
          if (rect && van_herk<T>(kh)) {
            g_rows = scratch(max_rows * n);
            hg_rows = scratch(max_rows * n);
          }
          red.resize(max_rows);
          g.resize(max_rows);
          hg.resize(max_rows);
          pad = std::move(p);
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
          failed.store(true);
          continue;
        }
      }
      const int y0 = b * block, y1 = std::min(h, y0 + block);
      const int rows = y1 - y0 + kh - 1;
      for (int r = 0; r < rows; ++r) {
        T* p = pad.get() + static_cast<std::size_t>(r) * pw;
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
      if (rect) {
        // Row pass: red[r] = the min/max over kw columns of pad row r (kw = 1: the pad row).
        for (int r = 0; r < rows; ++r) {
          const T* p = pad.get() + static_cast<std::size_t>(r) * pw;
          if (kw == 1) {
            red[r] = p;
            continue;
          }
          T* o = red_rows.get() + static_cast<std::size_t>(r) * n;
          pick_row<Max>(p, p + C, o, n);
          for (int i = 2; i < kw; ++i) pick_row<Max>(o, p + i * C, o, n);
          red[r] = o;
        }
        if (van_herk<T>(kh)) {
          // Column pass by van Herk / Gil-Werman: the rows cut into runs of kh; g[i] is the
          // min/max of its run's rows up to row i, hg[i] from row i to its run's end; the window
          // of rows [t, t + kh) spans at most two runs, so it is pick(hg[t], g[t + kh - 1]): three
          // row operations per output row instead of kh - 1 (exact: min and max only). A run's
          // first g and last hg are its red rows themselves.
          for (int r = 0; r < rows; ++r) {
            if (r % kh == 0) {
              g[r] = red[r];
              continue;
            }
            T* o = g_rows.get() + static_cast<std::size_t>(r) * n;
            pick_row<Max>(g[r - 1], red[r], o, n);
            g[r] = o;
          }
          for (int r = rows - 1; r >= 0; --r) {
            if (r % kh == kh - 1 || r == rows - 1) {
              hg[r] = red[r];
              continue;
            }
            T* o = hg_rows.get() + static_cast<std::size_t>(r) * n;
            pick_row<Max>(hg[r + 1], red[r], o, n);
            hg[r] = o;
          }
          for (int y = y0; y < y1; ++y)
            pick_row<Max>(hg[y - y0], g[y - y0 + kh - 1], dst.row<T>(y), n);
        } else {
          for (int y = y0; y < y1; ++y) {
            T* out = dst.row<T>(y);
            const T* const* t = red.data() + (y - y0);
            if (kh == 1) {
              std::copy(t[0], t[0] + n, out);
              continue;
            }
            pick_row<Max>(t[0], t[1], out, n);
            for (int j = 2; j < kh; ++j) pick_row<Max>(out, t[j], out, n);
          }
        }
      } else {
        for (int y = y0; y < y1; ++y) {
          T* out = dst.row<T>(y);
          std::fill(out, out + n, identity<Max, T>());
          for (int j = 0; j < kh; ++j) {
            const T* p = pad.get() + static_cast<std::size_t>(y - y0 + j) * pw;
            for (const auto& [a, e] : runs[j])
              for (int i = a; i < e; ++i) pick_row<Max>(out, p + i * C, out, n);
          }
        }
      }
    }
  }
  if (error) std::rethrow_exception(error);
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
    TEXCV_OMP_PARALLEL_FOR_ROWS(a.width, a.height)
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
