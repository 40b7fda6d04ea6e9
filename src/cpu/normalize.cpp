// CPU backend: normalize's passes: the smallest and largest element (min/max), the per-channel
// mean and standard deviation (mean/std), and the per-channel scale and offset; parallel over rows.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/core/color_stats.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/point_rows.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
using detail::by_type;
using detail::for_rows;

void min_max(const ImageView& src, double& lo, double& hi) {
  by_type(src.type, "normalize", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> rlo(src.height), rhi(src.height);
    const int n = src.width * src.channels;
    TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
    for (int y = 0; y < src.height; ++y) {
      const T* s = src.row<const T>(y);
      T a = s[0], b = s[0];
      for (int i = 1; i < n; ++i) {
        a = std::min(a, s[i]);
        b = std::max(b, s[i]);
      }
      rlo[y] = a;
      rhi[y] = b;
    }
    lo = *std::min_element(rlo.begin(), rlo.end());
    hi = *std::max_element(rhi.begin(), rhi.end());
  });
}

void mean_std(const ImageView& src, double mean[4], double std_out[4]) {
  const int C = src.channels;
  const std::uint64_t n = static_cast<std::uint64_t>(src.width) * src.height;
  by_type(src.type, "normalize", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) != 4) {
      // u8/u16: exact integer sums and sums of squares (per row in 64 bits, the rows in 128),
      // turned into mean and std by the host formula the CUDA backend uses too.
      std::vector<std::uint64_t> rows(static_cast<std::size_t>(src.height) * 8, 0);
      TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
      for (int y = 0; y < src.height; ++y) {
        const T* s = src.row<const T>(y);
        std::uint64_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int x = 0; x < src.width; ++x)
          for (int c = 0; c < C; ++c) {
            const std::uint64_t v = s[x * C + c];
            acc[2 * c] += v;
            acc[2 * c + 1] += v * v;
          }
        for (int k = 0; k < 8; ++k) rows[static_cast<std::size_t>(y) * 8 + k] = acc[k];
      }
      sd::U128 sum[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
      for (int y = 0; y < src.height; ++y)
        for (int c = 0; c < 4; ++c) {
          sum[c] += rows[static_cast<std::size_t>(y) * 8 + 2 * c];
          sq[c] += rows[static_cast<std::size_t>(y) * 8 + 2 * c + 1];
        }
      for (int c = 0; c < 4; ++c) sd::mean_std_from_sums(n, sum[c], sq[c], mean[c], std_out[c]);
      return;
    }
    // f32: per-row sums in double, then the rows in order (deterministic for any thread count);
    // two passes (the mean, then the squared deviations from it).
    std::vector<double> rows(static_cast<std::size_t>(src.height) * 4);
    auto pass = [&](const double* centre) {
      TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
      for (int y = 0; y < src.height; ++y) {
        const T* s = src.row<const T>(y);
        double acc[4] = {0, 0, 0, 0};
        for (int x = 0; x < src.width; ++x)
          for (int c = 0; c < C; ++c) {
            const double v = static_cast<double>(s[x * C + c]);
            acc[c] += centre ? (v - centre[c]) * (v - centre[c]) : v;
          }
        for (int c = 0; c < 4; ++c) rows[static_cast<std::size_t>(y) * 4 + c] = acc[c];
      }
      std::array<double, 4> total{0, 0, 0, 0};
      for (int y = 0; y < src.height; ++y)
        for (int c = 0; c < 4; ++c) total[c] += rows[static_cast<std::size_t>(y) * 4 + c];
      return total;
    };
    const double count = static_cast<double>(n);
    const auto sum = pass(nullptr);
    for (int c = 0; c < 4; ++c) mean[c] = sum[c] / count;
    const auto sq = pass(mean);
    for (int c = 0; c < 4; ++c) std_out[c] = std::sqrt(sq[c] / count);
  });
}

void affine_channels(const ImageView& src, const ImageView& dst,
                     const texcv::detail::AffineChannelDesc& d) {
  const int C = src.channels;
  by_type(src.type, "normalize", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_rows<T, T>(src, dst, [&](const T* s, T* o, int n) {
      // One channel: px_convert's formula (simd.hpp's convert_row).
      if (C == 1 && simd::convert_row(s, n, d.scale[0], d.offset[0], o)) return;
      for (int i = 0; i < n; i += C)
        for (int c = 0; c < C; ++c)
          o[i + c] = sd::saturate<T>(static_cast<float>(s[i + c]) * d.scale[c] + d.offset[c]);
    });
  });
}

}  // namespace texcv::cpu
