// CPU backend: bilateral_filter. The source is copied once into a padded buffer (radius pixels of
// border on every side, as cv::bilateralFilter's copyMakeBorder); each output pixel then sums
// w * src over the disc of offsets (src/core's bilateral_disc, row-major), in float. Space weights
// come from the disc; colour weights from src/core's tables (nonlinear_desc.hpp): for u8 the value
// for every integer L1 distance, for f32 OpenCV's interpolated table over the image's range. The
// CUDA backend (src/cuda/ops/bilateral_filter/) uses the same tables and order. Rows run in
// parallel.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "src/core/nonlinear_desc.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

// The range of the finite values of an f32 image.
void finite_range(const ImageView& src, bool& any, float& lo, float& hi) {
  any = false;
  lo = hi = 0.0f;
  for (int y = 0; y < src.height; ++y) {
    const float* row = src.row<const float>(y);
    for (int i = 0; i < src.width * src.channels; ++i) {
      const float v = row[i];
      if (!std::isfinite(v)) continue;
      if (!any) {
        lo = hi = v;
        any = true;
      }
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
}

template <typename T, int C>
void bilateral(const ImageView& src, const ImageView& dst, const texcv::detail::BilateralDesc& d) {
  texcv::detail::BilateralColor color;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    color = texcv::detail::bilateral_color_u8(d, C);
  } else {
    bool any = false;
    float lo = 0.0f, hi = 0.0f;
    finite_range(src, any, lo, hi);
    color = texcv::detail::bilateral_color_f32(d, C, any, lo, hi);
    if (color.copy) {
      for (int y = 0; y < src.height; ++y)
        std::copy_n(src.row<const T>(y), static_cast<std::size_t>(src.width) * C, dst.row<T>(y));
      return;
    }
  }
  const int r = d.radius, w = src.width, h = src.height;
  const int pw = w + 2 * r, ph = h + 2 * r;
  // Not value-initialised: every element is written below (zeroing it was another pass on one
  // thread).
  const auto pad = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(pw) * ph * C);
  std::vector<int> xi(static_cast<std::size_t>(pw));
  for (int j = 0; j < pw; ++j) xi[j] = texcv::detail::border_index(j - r, w, d.border.border);
  // The padded copy in parallel, each row's inside in one copy (xi[j] == j - r there): made on
  // one thread element by element, it did not shrink with the filter's threads.
  TEXCV_OMP_PARALLEL_FOR_ROWS(pw, ph)
  for (int py = 0; py < ph; ++py) {
    const int iy = texcv::detail::border_index(py - r, h, d.border.border);
    T* o = pad.get() + static_cast<std::size_t>(py) * pw * C;
    const T* row = iy < 0 ? nullptr : src.row<const T>(iy);
    for (int j = 0; j < pw; ++j) {
      if (row != nullptr && j == r) {
        std::copy_n(row, static_cast<std::size_t>(w) * C, o + static_cast<std::size_t>(r) * C);
        j += w - 1;
        continue;
      }
      for (int c = 0; c < C; ++c)
        o[j * C + c] =
            (row == nullptr || xi[j] < 0) ? static_cast<T>(d.border.value[c]) : row[xi[j] * C + c];
    }
  }
  // Offsets of the disc in the padded buffer.
  const std::vector<float>& space = d.space;
  const int taps = static_cast<int>(space.size());
  std::vector<long> ofs(static_cast<std::size_t>(taps));
  for (int k = 0; k < taps; ++k) ofs[k] = (static_cast<long>(d.dy[k]) * pw + d.dx[k]) * C;
  const std::vector<float>& color_table = color.table;
  TEXCV_OMP_PARALLEL_FOR_ROWS(static_cast<long>(w) * taps, h)
  for (int y = 0; y < h; ++y) {
    T* out = dst.row<T>(y);
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      const T* centre = pad.get() + (static_cast<std::size_t>(y + r) * pw + r) * C;
      if (simd::bilateral_row(centre, C, ofs.data(), space.data(), taps, color_table.data(), w,
                              out))
        continue;  // Highway's vectors (simd.hpp)
    }
    for (int x = 0; x < w; ++x) {
      const T* p = pad.get() + (static_cast<std::size_t>(y + r) * pw + (x + r)) * C;
      float sum[C] = {}, wsum = 0.0f;
      for (int k = 0; k < taps; ++k) {
        const T* q = p + ofs[k];
        float cw;
        if constexpr (std::is_same_v<T, std::uint8_t>) {
          int dist = 0;
          for (int c = 0; c < C; ++c) dist += std::abs(static_cast<int>(q[c]) - p[c]);
          cw = color_table[dist];
        } else {
          float dist = 0.0f;
          for (int c = 0; c < C; ++c) dist += std::fabs(q[c] - p[c]);
          cw = texcv::detail::bilateral_f32_weight(color_table.data(), color.scale, color.bins,
                                                   dist);
        }
        const float wk = space[k] * cw;
        wsum += wk;
        for (int c = 0; c < C; ++c) sum[c] += wk * static_cast<float>(q[c]);
      }
      for (int c = 0; c < C; ++c) out[x * C + c] = texcv::detail::saturate<T>(sum[c] / wsum);
    }
  }
}

}  // namespace

void bilateral_filter(const ImageView& src, const ImageView& dst,
                      const texcv::detail::BilateralDesc& d) {
  detail::dispatch(src.type, src.channels, "bilateral_filter", [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    if constexpr ((std::is_same_v<T, std::uint8_t> || std::is_same_v<T, float>)&&C != 4) {
      bilateral<T, C>(src, dst, d);
    } else {
      fail(ErrorCode::Internal, "bilateral_filter", "unsupported image reached the CPU backend",
           std::to_string(C) + "-channel", "u8 or f32, 1 or 3 channels");
    }
  });
}

}  // namespace texcv::cpu
