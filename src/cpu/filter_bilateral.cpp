// CPU backend: bilateral_filter. The source is copied once into a padded buffer (radius pixels of
// border on every side, as cv::bilateralFilter's copyMakeBorder); each output pixel then sums
// w * src over the disc of offsets with |offset| <= radius, in float. Space weights are
// (float)exp(r^2 * space_coeff) in double (as OpenCV); colour weights are, for u8, a table of
// (float)exp(D^2 * color_coeff) for every integer L1 distance D (OpenCV's table), and for f32
// std::exp of the float D^2 * color_coeff (OpenCV interpolates a table there). Rows run in
// parallel.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "src/core/nonlinear_desc.hpp"
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

namespace {

template <typename T, int C>
void bilateral(const ImageView& src, const ImageView& dst, const texcv::detail::BilateralDesc& d) {
  const int r = d.radius, w = src.width, h = src.height;
  const int pw = w + 2 * r, ph = h + 2 * r;
  std::vector<T> pad(static_cast<std::size_t>(pw) * ph * C);
  std::vector<int> xi(static_cast<std::size_t>(pw));
  for (int j = 0; j < pw; ++j) xi[j] = texcv::detail::border_index(j - r, w, d.border.border);
  for (int py = 0; py < ph; ++py) {
    const int iy = texcv::detail::border_index(py - r, h, d.border.border);
    T* o = pad.data() + static_cast<std::size_t>(py) * pw * C;
    const T* row = iy < 0 ? nullptr : src.row<const T>(iy);
    for (int j = 0; j < pw; ++j)
      for (int c = 0; c < C; ++c)
        o[j * C + c] =
            (row == nullptr || xi[j] < 0) ? static_cast<T>(d.border.value[c]) : row[xi[j] * C + c];
  }
  // Offsets of the disc (row-major, as OpenCV) and their space weights.
  std::vector<long> ofs;
  std::vector<float> space;
  for (int i = -r; i <= r; ++i)
    for (int j = -r; j <= r; ++j) {
      const double dist = std::sqrt(static_cast<double>(i) * i + static_cast<double>(j) * j);
      if (dist > r) continue;
      space.push_back(static_cast<float>(std::exp(dist * dist * d.space_coeff)));
      ofs.push_back((static_cast<long>(i) * pw + j) * C);
    }
  const int taps = static_cast<int>(ofs.size());
  std::vector<float> color_table;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    color_table.resize(256 * C);
    for (int i = 0; i < 256 * C; ++i)
      color_table[i] = static_cast<float>(std::exp(static_cast<double>(i) * i * d.color_coeff));
  }
  const float cc = static_cast<float>(d.color_coeff);
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(w) * h * taps)
  for (int y = 0; y < h; ++y) {
    T* out = dst.row<T>(y);
    for (int x = 0; x < w; ++x) {
      const T* p = pad.data() + (static_cast<std::size_t>(y + r) * pw + (x + r)) * C;
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
          cw = std::exp(dist * dist * cc);
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
