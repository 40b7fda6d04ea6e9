// CPU backend: median_blur. Replicated border (as cv::medianBlur). 3x3 and 5x5 windows run a
// comparator network (median_networks.hpp) over blocks of kBlock values of a row at once, each
// comparator a min and a max over the block (Highway vectors, simd.hpp, or loops the
// compiler vectorizes), for the pixels whose window lies inside the row; the first and last
// pixels of a row go through the selection below.
// u8 windows above 5x5 use Perreault and Hebert's constant-time histogram median
// (median_hist_u8); other windows gather the ksize x ksize values and select the median
// (std::nth_element; f32 on detail::float_key, the total order the CUDA backend uses too, so signed
// zeros and NaNs give the same element on both). Rows run in parallel.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "src/core/nonlinear_desc.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/median_networks.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

int clamp_index(int i, int n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// Selection key: the value for u8/u16; the order-preserving key of the bits for f32.
template <typename T>
struct KeyOf {
  using type = T;
  static T key(T v) { return v; }
  static T value(T k) { return k; }
};
template <>
struct KeyOf<float> {
  using type = std::uint32_t;
  static std::uint32_t key(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return texcv::detail::float_key(b);
  }
  static float value(std::uint32_t k) {
    const std::uint32_t b = texcv::detail::key_float_bits(k);
    float v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  }
};

// The median of channel c's k x k window at column x (replicated at the row's ends) over the k
// source rows given: the keys gathered into win (k * k of them), then selected.
template <typename T, int C>
T median_at(const T* const* rows, int k, int w, int x, int c, typename KeyOf<T>::type* win) {
  using K = KeyOf<T>;
  const int r = k / 2, n = k * k;
  int m = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) win[m++] = K::key(rows[j][clamp_index(x + i - r, w) * C + c]);
  std::nth_element(win, win + n / 2, win + n);
  return K::value(win[n / 2]);
}

template <typename T, int C>
void median_select(const ImageView& src, const ImageView& dst, int k) {
  using K = KeyOf<T>;
  const int r = k / 2, w = src.width, h = src.height;
  const int n = k * k;
  detail::RegionErrors errors;  // a failed allocation is thrown after the region
  TEXCV_OMP_PARALLEL_FOR_ROWS(w, h)
  for (int y = 0; y < h; ++y) {
    std::vector<typename K::type> win;
    std::vector<const T*> rows;
    if (!errors.guard([&] {
          win.resize(static_cast<std::size_t>(n));
          rows.resize(static_cast<std::size_t>(k));
        }))
      continue;
    for (int j = 0; j < k; ++j) rows[j] = src.row<const T>(clamp_index(y + j - r, h));
    T* out = dst.row<T>(y);
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < C; ++c)
        out[x * C + c] = median_at<T, C>(rows.data(), k, w, x, c, win.data());
  }
  errors.rethrow();
}

// The values of one channel element at a time, kBlock of them: enough to fill the vector units
// and few enough that the network's 25 blocks stay in L1.
constexpr int kBlock = 64;

// The network's keys: types whose min and max baseline x86-64 (SSE2) has as vector instructions:
// u8 as is (pminub), u16 and f32's order key with the sign bit flipped, compared as signed
// (pminsw, pcmpgtd); the same order, so the same median.
template <typename T>
struct NetKey;
template <>
struct NetKey<std::uint8_t> {
  using type = std::uint8_t;
  static std::uint8_t key(std::uint8_t v) { return v; }
  static std::uint8_t value(std::uint8_t k) { return k; }
};
template <>
struct NetKey<std::uint16_t> {
  using type = std::int16_t;
  static std::int16_t key(std::uint16_t v) { return static_cast<std::int16_t>(v ^ 0x8000u); }
  static std::uint16_t value(std::int16_t k) {
    return static_cast<std::uint16_t>(static_cast<std::uint16_t>(k) ^ 0x8000u);
  }
};
template <>
struct NetKey<float> {
  using type = std::int32_t;
  static std::int32_t key(float v) {
    return static_cast<std::int32_t>(KeyOf<float>::key(v) ^ 0x80000000u);
  }
  static float value(std::int32_t k) {
    return KeyOf<float>::value(static_cast<std::uint32_t>(k) ^ 0x80000000u);
  }
};

// Runs the comparator network `net` over the k x k windows of the row elements [e0, e0 + kBlock)
// (flat indices into rows of w * C elements; the window of element e is e + (i - r) * C of each
// row j), writing each window's median to out[e].
template <typename T, int C, std::size_t N, std::size_t M>
void median_network_block(const std::array<const T*, M>& rows, int k, int e0,
                          const std::array<std::pair<int, int>, N>& net, T* out) {
  using K = NetKey<T>;
  using Key = typename K::type;
  const int r = k / 2;
  alignas(64) Key v[M][kBlock];
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const T* p = rows[static_cast<std::size_t>(j)] + e0 + (i - r) * C;
      Key* d = v[j * k + i];
      for (int l = 0; l < kBlock; ++l) d[l] = K::key(p[l]);
    }
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          Key* a = v[net[I].first];
          Key* b = v[net[I].second];
          for (int l = 0; l < kBlock; ++l) {
            const Key x = a[l], y = b[l];
            a[l] = x < y ? x : y;
            b[l] = x < y ? y : x;
          }
        }(),
        ...);
  }
  (std::make_index_sequence<N>{});
  const Key* m = v[M / 2];
  for (int l = 0; l < kBlock; ++l) out[e0 + l] = K::value(m[l]);
}

// 3x3 and 5x5: the network over the row's inner elements (whose windows lie inside the row), the
// selection for the r pixels at each end; a row too short for one block goes to the selection.
template <typename T, int C, int k>
void median_network(const ImageView& src, const ImageView& dst) {
  constexpr int r = k / 2;
  constexpr std::size_t M = static_cast<std::size_t>(k) * k;
  const int w = src.width, h = src.height;
  const int lo = r * C, hi = (w - r) * C;  // inner elements [lo, hi)
  TEXCV_OMP_PARALLEL_FOR_ROWS(w, h)
  for (int y = 0; y < h; ++y) {
    std::array<const T*, M> rows{};
    for (int j = 0; j < k; ++j)
      rows[static_cast<std::size_t>(j)] = src.row<const T>(clamp_index(y + j - r, h));
    T* out = dst.row<T>(y);
    // Highway's vectors first (false: no Highway, or a row shorter than one vector).
    bool blocks = simd::median_row(k, rows.data(), C, lo, hi, out);
    if (!blocks && hi - lo >= kBlock) {
      blocks = true;
      for (int e = lo;; e += kBlock) {
        const int e0 = e + kBlock <= hi ? e : hi - kBlock;  // the last block ends at hi
        if constexpr (k == 3)
          median_network_block<T, C>(rows, k, e0, median_net::k9, out);
        else
          median_network_block<T, C>(rows, k, e0, median_net::k25, out);
        if (e0 + kBlock >= hi) break;
      }
    }
    // The pixels whose window leaves the row (all of them without blocks): clamped selection.
    typename KeyOf<T>::type win[M];
    const auto select = [&](int x0, int x1) {
      for (int x = x0; x < x1; ++x)
        for (int c = 0; c < C; ++c) out[x * C + c] = median_at<T, C>(rows.data(), k, w, x, c, win);
    };
    if (blocks) {
      select(0, r);
      select(w - r, w);
    } else {
      select(0, w);
    }
  }
}

// u8 windows above 5x5: Perreault and Hebert's constant-time median (IEEE TIP 2007), the method
// of cv::medianBlur's u8 path. The image runs in tiles (in parallel): bands of at most kBand
// output columns, and in each band strips of rows top to bottom. A tile keeps for each column its
// band needs (the band and r columns each side) the histogram of the window's k rows (256 fine
// and 16 coarse bins a channel: about 0.8 MB for 542 RGB columns), updated by one value out and
// one in per row. Along a row, the window's coarse histogram gains the column entering and loses
// the one leaving (16 bins), and only the fine segment (16 bins) that holds the median is brought
// up to date: from the columns that moved since it was last used, or summed anew over the window
// when that is cheaper. Counts fit 16 bits (k <= 255: at most 65,025).
constexpr int kBand = 512;

template <int C>
void median_hist_u8(const ImageView& src, const ImageView& dst, int k) {
  const int r = k / 2, w = src.width, h = src.height;
  const int target = k * k / 2;  // 0-based rank of the median
  const int bands = (w + kBand - 1) / kBand;
  const long work = static_cast<long>(w) * h * k;
  // Strips of rows: each starts by counting its first window's k rows in every column.
  const int strips =
      std::max(1, std::min(h, (2 * detail::parallel_threads(work) + bands - 1) / bands));
  detail::RegionErrors errors;  // a failed allocation is thrown after the region
  TEXCV_OMP_PARALLEL_FOR_N(work, static_cast<long>(strips) * bands)
  for (long task = 0; task < static_cast<long>(strips) * bands; ++task) {
    const int sidx = static_cast<int>(task / bands), band = static_cast<int>(task % bands);
    const int y0 = static_cast<int>(static_cast<long>(h) * sidx / strips);
    const int y1 = static_cast<int>(static_cast<long>(h) * (sidx + 1) / strips);
    const int bx0 = band * kBand, bx1 = std::min(w, bx0 + kBand);
    // The columns the band's windows read (replicated beyond the image's edges).
    const int hx0 = std::max(0, bx0 - r), hx1 = std::min(w, bx1 + r);
    const int hw = hx1 - hx0;
    const auto col = [&](int x) { return clamp_index(x, w) - hx0; };  // x's histogram
    std::vector<std::uint16_t> fine, coarse;                          // [col][c][256], [16]
    if (!errors.guard([&] {
          fine.assign(static_cast<std::size_t>(hw) * C * 256, 0);
          coarse.assign(static_cast<std::size_t>(hw) * C * 16, 0);
        }))
      continue;
    const auto fine_of = [&](int i, int c) {
      return &fine[(static_cast<std::size_t>(i) * C + c) * 256];
    };
    const auto coarse_of = [&](int i, int c) {
      return &coarse[(static_cast<std::size_t>(i) * C + c) * 16];
    };
    // Adds (delta 1) or removes (-1) row yy (replicated at the edges) to every column.
    const auto count_row = [&](int yy, int delta) {
      const std::uint8_t* s = src.row<const std::uint8_t>(clamp_index(yy, h));
      for (int i = 0; i < hw; ++i)
        for (int c = 0; c < C; ++c) {
          const int v = s[(hx0 + i) * C + c];
          std::uint16_t* f = fine_of(i, c);
          std::uint16_t* g = coarse_of(i, c);
          f[v] = static_cast<std::uint16_t>(f[v] + delta);
          g[v >> 4] = static_cast<std::uint16_t>(g[v >> 4] + delta);
        }
    };
    for (int j = -r; j <= r; ++j) count_row(y0 + j, 1);
    for (int y = y0; y < y1; ++y) {
      if (y > y0) {
        count_row(y - r - 1, -1);
        count_row(y + r, 1);
      }
      std::uint8_t* out = dst.row<std::uint8_t>(y);
      for (int c = 0; c < C; ++c) {
        std::uint16_t kc[16] = {};      // the window's coarse counts
        std::uint16_t kf[16][16] = {};  // its fine counts, segment by segment
        int luc[16];                    // the x each fine segment is up to date for
        for (int s = 0; s < 16; ++s) luc[s] = -(1 << 30);
        for (int i = bx0 - r; i <= bx0 + r; ++i) {
          const std::uint16_t* cc = coarse_of(col(i), c);
          for (int b = 0; b < 16; ++b) kc[b] = static_cast<std::uint16_t>(kc[b] + cc[b]);
        }
        for (int x = bx0; x < bx1; ++x) {
          if (x > bx0) {
            const std::uint16_t* in = coarse_of(col(x + r), c);
            const std::uint16_t* gone = coarse_of(col(x - r - 1), c);
            for (int b = 0; b < 16; ++b)
              kc[b] = static_cast<std::uint16_t>(kc[b] + in[b] - gone[b]);
          }
          int acc = 0, s = 0;
          while (acc + kc[s] <= target) acc += kc[s++];
          std::uint16_t* seg = kf[s];
          if (2L * (x - luc[s]) > k) {  // cheaper to sum the window's k columns anew
            for (int b = 0; b < 16; ++b) seg[b] = 0;
            for (int i = x - r; i <= x + r; ++i) {
              const std::uint16_t* f = fine_of(col(i), c) + 16 * s;
              for (int b = 0; b < 16; ++b) seg[b] = static_cast<std::uint16_t>(seg[b] + f[b]);
            }
          } else {  // the columns that entered and left since x = luc[s]
            for (int j = luc[s] + 1; j <= x; ++j) {
              const std::uint16_t* in = fine_of(col(j + r), c) + 16 * s;
              const std::uint16_t* gone = fine_of(col(j - r - 1), c) + 16 * s;
              for (int b = 0; b < 16; ++b)
                seg[b] = static_cast<std::uint16_t>(seg[b] + in[b] - gone[b]);
            }
          }
          luc[s] = x;
          int v = 0;
          while (acc + seg[v] <= target) acc += seg[v++];
          out[x * C + c] = static_cast<std::uint8_t>(16 * s + v);
        }
      }
    }
  }
  errors.rethrow();
}

}  // namespace

void median_blur(const ImageView& src, const ImageView& dst, const texcv::detail::MedianDesc& d) {
  detail::dispatch(src.type, src.channels, "median_blur", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      if (d.ksize > 5) {
        median_hist_u8<C>(src, dst, d.ksize);
        return;
      }
    }
    if (d.ksize == 3) return median_network<T, C, 3>(src, dst);
    if (d.ksize == 5) return median_network<T, C, 5>(src, dst);
    median_select<T, C>(src, dst, d.ksize);
  });
}

}  // namespace texcv::cpu
