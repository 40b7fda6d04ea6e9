// CPU backend: median_blur. Replicated border (as cv::medianBlur). u8 windows above 5x5 use a
// sliding histogram per row (256 fine bins and 16 coarse bins per channel: each step right removes
// one column and adds one, O(ksize)); other windows gather the ksize x ksize values and select the
// median (std::nth_element; f32 on detail::float_key, the total order the CUDA backend uses too, so
// signed zeros and NaNs give the same element on both). Rows run in parallel.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/core/nonlinear_desc.hpp"
#include "src/cpu/dispatch.hpp"

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

template <typename T, int C>
void median_select(const ImageView& src, const ImageView& dst, int k) {
  using K = KeyOf<T>;
  const int r = k / 2, w = src.width, h = src.height;
  const int n = k * k;
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(w) * h)
  for (int y = 0; y < h; ++y) {
    std::vector<typename K::type> win(static_cast<std::size_t>(n));
    std::vector<const T*> rows(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) rows[j] = src.row<const T>(clamp_index(y + j - r, h));
    T* out = dst.row<T>(y);
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < C; ++c) {
        int m = 0;
        for (int j = 0; j < k; ++j)
          for (int i = 0; i < k; ++i) win[m++] = K::key(rows[j][clamp_index(x + i - r, w) * C + c]);
        std::nth_element(win.begin(), win.begin() + n / 2, win.end());
        out[x * C + c] = K::value(win[n / 2]);
      }
  }
}

template <int C>
void median_hist_u8(const ImageView& src, const ImageView& dst, int k) {
  const int r = k / 2, w = src.width, h = src.height;
  const int target = k * k / 2;  // 0-based rank of the median
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(w) * h)
  for (int y = 0; y < h; ++y) {
    std::vector<const std::uint8_t*> rows(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) rows[j] = src.row<const std::uint8_t>(clamp_index(y + j - r, h));
    std::array<std::array<int, 256>, C> fine{};
    std::array<std::array<int, 16>, C> coarse{};
    auto column = [&](int x, int delta) {
      const int ix = clamp_index(x, w) * C;
      for (int j = 0; j < k; ++j)
        for (int c = 0; c < C; ++c) {
          const int v = rows[j][ix + c];
          fine[c][v] += delta;
          coarse[c][v >> 4] += delta;
        }
    };
    for (int i = -r; i <= r; ++i) column(i, 1);
    std::uint8_t* out = dst.row<std::uint8_t>(y);
    for (int x = 0; x < w; ++x) {
      if (x > 0) {
        column(x - 1 - r, -1);
        column(x + r, 1);
      }
      for (int c = 0; c < C; ++c) {
        int acc = 0, b = 0;
        while (acc + coarse[c][b] <= target) acc += coarse[c][b++];
        int v = b << 4;
        while (acc + fine[c][v] <= target) acc += fine[c][v++];
        out[x * C + c] = static_cast<std::uint8_t>(v);
      }
    }
  }
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
    median_select<T, C>(src, dst, d.ksize);
  });
}

}  // namespace texcv::cpu
