// CPU backend: gamma, convert, normalize (min/max, mean/std), threshold; parallel over rows.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/core/color_stats.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/lut_row.hpp"
#include "src/cpu/pow_rounded.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

// Calls f(src row, dst row, elements per row) for every row, in parallel for large images.
template <typename S, typename D, class F>
void for_rows(const ImageView& src, const ImageView& dst, F&& f) {
  const int n = src.width * src.channels;
  TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
  for (int y = 0; y < src.height; ++y) f(src.row<const S>(y), dst.row<D>(y), n);
}

template <class F>
void by_type(ElemType t, const char* op, F&& f) {
  detail::dispatch(t, 1, op, [&](auto tag, auto) { f(tag); });
}

}  // namespace

void gamma(const ImageView& src, const ImageView& dst, double g) {
  by_type(src.type, "gamma", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 4) {
      const float gf = static_cast<float>(g);
      // |x|^g rounded to the nearest float (pow_rounded.hpp), in vectors where the CPU has them.
      for_rows<T, T>(src, dst, [&](const T* s, T* d, int n) {
        if (!simd::gamma_row(s, d, n, gf)) detail::gamma_plain(s, d, n, gf);
      });
    } else {
      // One table over every element of the row, whatever the channel count.
      const std::vector<T> lut = sd::gamma_lut<T>(g);
      const T* l = lut.data();
      for_rows<T, T>(src, dst, [l](const T* s, T* d, int n) {
        if constexpr (sizeof(T) == 1)
          detail::lut_row(s, d, n, l);
        else
          for (int i = 0; i < n; ++i) d[i] = l[s[i]];
      });
    }
  });
}

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

void convert(const ImageView& src, const ImageView& dst, const texcv::detail::ScaleDesc& d) {
  by_type(src.type, "convert", [&](auto stag) {
    using S = typename decltype(stag)::type;
    by_type(dst.type, "convert", [&](auto dtag) {
      using D = typename decltype(dtag)::type;
      if (d.identity) {
        for_rows<S, D>(src, dst, [&](const S* s, D* o, int n) {
          for (int i = 0; i < n; ++i) o[i] = sd::px_convert_identity<D>(s[i]);
        });
      } else {
        const float a = d.scale, b = d.offset;
        for_rows<S, D>(src, dst, [&](const S* s, D* o, int n) {
          if constexpr (std::is_same_v<S, float> || std::is_same_v<S, D>) {
            if (simd::convert_row(s, n, a, b, o)) return;  // Highway's vectors (simd.hpp)
          }
          for (int i = 0; i < n; ++i) o[i] = sd::px_convert<D>(s[i], a, b);
        });
      }
    });
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

void threshold(const ImageView& src, const ImageView& dst, const texcv::detail::ThresholdDesc& d) {
  by_type(src.type, "threshold", [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Integer types: compare against floor(thresh) (a double), store the saturated values.
    // f32: compare and store in float, as OpenCV.
    const sd::ThreshValues<T> tv = sd::thresh_values<T>(d);
    auto run = [&]<ThresholdType TT>() {
      if constexpr (sizeof(T) != 4) {
        // An integer v is above th exactly when it is above floor(th) (v > th >= floor(th); v >=
        // floor(th) + 1 > th), so for th >= 0 the comparison in double is one in T against k =
        // floor(th), or T's maximum from there on (nothing is above it): the loop then
        // vectorizes. th < 0 (every element above) is left to the plain loop.
        if (tv.th >= 0.0) {
          constexpr double kMax = std::numeric_limits<T>::max();
          const T k = tv.th >= kMax ? static_cast<T>(kMax) : static_cast<T>(tv.th);
          for_rows<T, T>(src, dst, [&](const T* s, T* o, int n) {
            // Copies the compiler can keep in registers (o might alias the captured ones).
            const T kr = k, mv = tv.mv, t = tv.tv;
            for (int i = 0; i < n; ++i) o[i] = sd::px_threshold_pick<TT>(s[i] > kr, s[i], mv, t);
          });
          return;
        }
      }
      for_rows<T, T>(src, dst, [&](const T* s, T* o, int n) {
        for (int i = 0; i < n; ++i) o[i] = sd::px_threshold<TT, T>(s[i], tv.th, tv.mv, tv.tv);
      });
    };
    switch (d.type) {
      case ThresholdType::binary:
        return run.template operator()<ThresholdType::binary>();
      case ThresholdType::binary_inv:
        return run.template operator()<ThresholdType::binary_inv>();
      case ThresholdType::trunc:
        return run.template operator()<ThresholdType::trunc>();
      case ThresholdType::tozero:
        return run.template operator()<ThresholdType::tozero>();
      case ThresholdType::tozero_inv:
      case ThresholdType::otsu:
        return run.template operator()<ThresholdType::tozero_inv>();
    }
  });
}

}  // namespace texcv::cpu
