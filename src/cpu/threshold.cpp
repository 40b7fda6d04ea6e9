// CPU backend: threshold (parallel over rows) and Otsu's level (from the value counts of
// value_counts.hpp).
#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/core/color_stats.hpp"
#include "src/cpu/point_rows.hpp"
#include "src/cpu/value_counts.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
using detail::by_type;
using detail::for_rows;
using detail::value_counts;

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

// Otsu's threshold (src/core/color_stats.hpp, shared with the CUDA backend).
int otsu_threshold(const ImageView& src) {
  const std::vector<std::uint64_t> h = value_counts<std::uint8_t, 1>(src);
  return sd::otsu_from_hist(h.data(), static_cast<std::uint64_t>(src.width) * src.height);
}

}  // namespace texcv::cpu
