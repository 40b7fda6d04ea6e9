// CPU backend: equalize_hist (u8: a table from the value counts, applied in parallel over rows).
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/cpu/lut_row.hpp"
#include "src/cpu/value_counts.hpp"

namespace texcv::cpu {

namespace sd = texcv::detail;
using detail::value_counts;

void equalize_hist(const ImageView& src, const ImageView& dst) {
  const std::vector<std::uint64_t> h = value_counts<std::uint8_t, 1>(src);
  std::uint8_t lut[256];
  sd::equalize_lut(h.data(), static_cast<std::uint64_t>(src.width) * src.height, lut);
  TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
  for (int y = 0; y < src.height; ++y) {
    const std::uint8_t* s = src.row<const std::uint8_t>(y);
    std::uint8_t* d = dst.row<std::uint8_t>(y);
    detail::lut_row(s, d, src.width, lut);
  }
}

}  // namespace texcv::cpu
