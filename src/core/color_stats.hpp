// Host computations of the intensity operations shared by the CPU backend (src/cpu/color_*.cpp)
// and the CUDA backend's host code (src/cuda/ops/hist/): both backends gather the same integers
// (histogram counts, integer sums) and turn them into the same doubles and tables here, so their
// results are identical. Host code only (uses unsigned __int128).
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "src/core/sampling.hpp"

namespace texcv::detail {

using U128 = unsigned __int128;

// Mean and population standard deviation of n integer elements from their exact sum and sum of
// squares: mean = sum / n, std = sqrt((n sumsq - sum^2) / n^2) with n sumsq - sum^2 exact (128
// bits) and rounded to double once.
inline void mean_std_from_sums(std::uint64_t n, U128 sum, U128 sumsq, double& mean, double& sd) {
  const double dn = static_cast<double>(n);
  mean = static_cast<double>(sum) / dn;
  const U128 m2 = static_cast<U128>(n) * sumsq - sum * sum;  // >= 0 (Cauchy-Schwarz)
  sd = std::sqrt(static_cast<double>(m2) / (dn * dn));
}

// Otsu's threshold from a 256-bin histogram of `total` pixels: the level t maximizing the
// between-class variance q1 q2 (mu1 - mu2)^2 of the classes <= t and > t (first maximum; levels
// where a class holds less than FLT_EPSILON of the pixels are skipped).
inline int otsu_from_hist(const std::uint64_t* h, std::uint64_t total) {
  const double scale = 1.0 / static_cast<double>(total);
  double mu = 0;
  for (int i = 0; i < 256; ++i) mu += i * (h[i] * scale);
  double q1 = 0, s1 = 0, best = 0;
  int t = 0;
  for (int i = 0; i < 256; ++i) {
    const double p = h[i] * scale;
    q1 += p;
    s1 += i * p;
    const double q2 = 1.0 - q1;
    if (std::min(q1, q2) < FLT_EPSILON || std::max(q1, q2) > 1.0 - FLT_EPSILON) continue;
    const double mu1 = s1 / q1, mu2 = (mu - s1) / q2;
    const double sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
    if (sigma > best) {
      best = sigma;
      t = i;
    }
  }
  return t;
}

// equalize_hist's table from a 256-bin histogram of `total` (> 0) pixels, as cv::equalizeHist:
// lut[v] = round(255 (cdf(v) - cdf(first)) / (total - cdf(first))) in float, first the lowest
// occupied level; a constant image maps to itself.
inline void equalize_lut(const std::uint64_t* h, std::uint64_t total, std::uint8_t lut[256]) {
  int first = 0;
  while (h[first] == 0) ++first;
  for (int i = 0; i < 256; ++i) lut[i] = 0;
  if (h[first] == total) {
    for (int i = 0; i < 256; ++i) lut[i] = static_cast<std::uint8_t>(first);
    return;
  }
  const float scale = 255.0f / static_cast<float>(total - h[first]);
  std::uint64_t sum = 0;
  for (int i = first + 1; i < 256; ++i) {
    sum += h[i];
    lut[i] = saturate<std::uint8_t>(static_cast<float>(sum) * scale);
  }
}

// The tile geometry and table constants of clahe (as cv::CLAHE): when the grid does not divide
// the image, the image is extended (reflect101) by tiles - size % tiles on both axes; tiles are
// tw x th; the clip limit in counts (0: no clipping); the table scale (bins - 1) / (tw th); the
// reciprocals of the tile sizes used by the interpolation.
struct ClaheGeometry {
  int tw = 0, th = 0, tile_total = 0, clip = 0;
  float lut_scale = 0, inv_tw = 0, inv_th = 0;
};

inline ClaheGeometry clahe_geometry(int w, int h, double clip_limit, int tiles_x, int tiles_y,
                                    int bins) {
  int ew = w, eh = h;
  if (w % tiles_x != 0 || h % tiles_y != 0) {
    ew = w + tiles_x - w % tiles_x;
    eh = h + tiles_y - h % tiles_y;
  }
  ClaheGeometry g;
  g.tw = ew / tiles_x;
  g.th = eh / tiles_y;
  g.tile_total = g.tw * g.th;
  if (clip_limit > 0.0) g.clip = std::max(static_cast<int>(clip_limit * g.tile_total / bins), 1);
  g.lut_scale = static_cast<float>(bins - 1) / static_cast<float>(g.tile_total);
  g.inv_tw = 1.0f / static_cast<float>(g.tw);
  g.inv_th = 1.0f / static_cast<float>(g.th);
  return g;
}

}  // namespace texcv::detail
