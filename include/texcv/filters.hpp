// Linear filters: convolve, separable_filter, gaussian_blur, box_filter, sharpen, unsharp_mask,
// sobel, scharr, laplacian. Semantics, defaults and borders follow OpenCV (filter2D, sepFilter2D,
// GaussianBlur, boxFilter, Sobel, Scharr, Laplacian); docs/ops/filters.md has the details.
//
// Every operation reads src and writes dst of the same size and channel count; dst may not
// overlap src. dst has src's element type (integer results round half to even and saturate, as
// OpenCV's ddepth = -1), except that convolve, separable_filter, sobel, scharr and laplacian also
// accept an f32 dst for any source type (OpenCV's ddepth = CV_32F: signed, unsaturated results).
//
// Supported: u8, u16, f32 x 1, 3, 4 channels; the five border modes (default reflect101, as
// OpenCV's BORDER_DEFAULT). Arithmetic is float32 (two 1-D passes through a float row buffer for
// the separable filters).
//
// Backends: host views run on the CPU backend, device views on the CUDA backend (on `stream`),
// with identical results (same float arithmetic in the same order); a build without CUDA raises
// Error(NotCompiled) for device views.
#pragma once

#include <array>
#include <vector>

#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv {

// A 2-D kernel: width x height coefficients, row-major (values[y * width + x]).
struct Kernel {
  int width = 0, height = 0;
  std::vector<float> values;
};

// Largest convolve kernel side, and largest 1-D kernel of the separable filters.
constexpr int kMaxKernel2D = 31;
constexpr int kMaxKernel1D = 255;

// How pixels outside the image are read (docs/conventions.md); the value is per channel, for
// Border::constant, converted to the element type first (as OpenCV's borderValue). path: how the
// CUDA backend reads the source of the linear filters (automatic: the measured rule in
// docs/performance.md; global: plain loads; shared: a tile staged in shared memory; texture:
// texture fetches; texture_filter is rejected). Every path gives identical results; the CPU
// backend ignores it.
struct FilterBorder {
  Border border = Border::reflect101;
  std::array<double, 4> value{0, 0, 0, 0};
  Path path = Path::automatic;
};

// convolve: as cv::filter2D (a correlation: the kernel is not flipped):
//   dst(x, y) = scale * sum_{i,j} k(i, j) * src(x + i - anchor_x, y + j - anchor_y) + delta.
// anchor -1 means the kernel centre (width / 2, height / 2), as OpenCV. Kernels up to 31x31.
struct ConvolveParams {
  int anchor_x = -1, anchor_y = -1;
  double scale = 1.0;
  double delta = 0.0;
  FilterBorder border{};
};
void convolve(const ImageView& src, const ImageView& dst, const Kernel& kernel,
              const ConvolveParams& p = {}, void* stream = nullptr);
// The same with the kernel as a 1-channel f32 host view.
void convolve(const ImageView& src, const ImageView& dst, const ImageView& kernel,
              const ConvolveParams& p = {}, void* stream = nullptr);

// separable_filter: as cv::sepFilter2D: the row kernel along x, then the column kernel along y
// (correlations), plus delta. Each kernel has 1 to 255 taps; anchors -1 mean the centres.
struct SeparableParams {
  int anchor_x = -1, anchor_y = -1;
  double delta = 0.0;
  FilterBorder border{};
};
void separable_filter(const ImageView& src, const ImageView& dst,
                      const std::vector<float>& row_kernel, const std::vector<float>& column_kernel,
                      const SeparableParams& p = {}, void* stream = nullptr);

// gaussian_blur: as cv::GaussianBlur. A size <= 0 is derived from its sigma: round(sigma * 4 * 2 +
// 1) | 1 (sigma * 3 for u8, as OpenCV); sigma_y <= 0 takes sigma_x; a sigma <= 0 is derived from
// its size: 0.3 * ((size - 1) * 0.5 - 1) + 0.8, and sizes 1, 3, 5, 7, 9 then use OpenCV 4.6's
// fixed table (getGaussianKernel). ksize_y <= 0 with sigma_y <= 0 takes ksize_x. Sizes must be odd.
struct GaussianParams {
  int ksize_x = 0, ksize_y = 0;
  double sigma_x = 0.0, sigma_y = 0.0;
  FilterBorder border{};
};
void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& p,
                   void* stream = nullptr);
// The 1-D kernel of cv::getGaussianKernel(ksize, sigma) (computed in double, rounded to float).
std::vector<float> gaussian_kernel(int ksize, double sigma);

// box_filter: as cv::boxFilter: the sum over a ksize_x x ksize_y window (any size >= 1; anchor -1
// = ksize / 2), divided by its area when normalize (cv::blur).
struct BoxParams {
  int ksize_x = 3, ksize_y = 3;
  bool normalize = true;
  int anchor_x = -1, anchor_y = -1;
  FilterBorder border{};
};
void box_filter(const ImageView& src, const ImageView& dst, const BoxParams& p = {},
                void* stream = nullptr);

// sharpen: out = src + strength * (k * src - src) with k = [[0,-1,0],[-1,5,-1],[0,-1,0]], i.e. the
// 3x3 kernel [[0,-s,0],[-s,1+4s,-s],[0,-s,0]] in one float pass (strength 1 = the plain kernel).
void sharpen(const ImageView& src, const ImageView& dst, double strength = 1.0,
             const FilterBorder& border = {}, void* stream = nullptr);

// unsharp_mask: blur = gaussian_blur(src, ksize, sigma) stored in src's element type (as with
// cv::GaussianBlur); out = src + amount * (src - blur) per element where |src - blur| >= threshold,
// else src (the usual OpenCV recipe with a threshold mask).
struct UnsharpParams {
  double sigma = 1.0;
  int ksize = 0;  // 0: derived from sigma as gaussian_blur
  double amount = 1.0;
  double threshold = 0.0;
  FilterBorder border{};
};
void unsharp_mask(const ImageView& src, const ImageView& dst, const UnsharpParams& p = {},
                  void* stream = nullptr);

// sobel: as cv::Sobel: the separable kernels of cv::getDerivKernels(dx, dy, ksize) (ksize 1, 3,
// 5 or 7; ksize 1 is the 3-tap derivative without smoothing), then * scale + delta. Requires dx,
// dy >= 0, dx + dy > 0 and each order < its kernel size (3 for ksize 1).
struct SobelParams {
  int dx = 1, dy = 0;
  int ksize = 3;
  double scale = 1.0, delta = 0.0;
  FilterBorder border{};
};
void sobel(const ImageView& src, const ImageView& dst, const SobelParams& p = {},
           void* stream = nullptr);

// scharr: as cv::Scharr: (dx, dy) = (1, 0) or (0, 1); kernels [-1 0 1] and [3 10 3].
struct ScharrParams {
  int dx = 1, dy = 0;
  double scale = 1.0, delta = 0.0;
  FilterBorder border{};
};
void scharr(const ImageView& src, const ImageView& dst, const ScharrParams& p = {},
            void* stream = nullptr);

// laplacian: as cv::Laplacian: ksize 1 uses [[0,1,0],[1,-4,1],[0,1,0]], ksize 3
// [[2,0,2],[0,-8,0],[2,0,2]], ksize 5 the sum of the 5x5 second-derivative Sobel kernels;
// then * scale + delta.
struct LaplacianParams {
  int ksize = 1;
  double scale = 1.0, delta = 0.0;
  FilterBorder border{};
};
void laplacian(const ImageView& src, const ImageView& dst, const LaplacianParams& p = {},
               void* stream = nullptr);

// ---- Non-linear filters (src/core/ops/median_blur.cpp, bilateral_filter.cpp) ----------------

// median_blur: as cv::medianBlur: each output element is the median of the ksize x ksize window of
// its channel; pixels outside the image replicate the edge (cv::medianBlur's only border). ksize
// is odd, 1 to 255 (1 copies). u8: any such size (a sliding histogram above 5); u16 and f32:
// also any such size (a selection per pixel, O(ksize^2) each), where OpenCV allows only 3 and 5.
// 1, 3 or 4 channels. Results are exact (a median is one of the inputs).
void median_blur(const ImageView& src, const ImageView& dst, int ksize, void* stream = nullptr);

// bilateral_filter: as cv::bilateralFilter: over the disc of radius r = d / 2 (d <= 0: r =
// round(1.5 * sigma_space); r >= 1; diameter 2r + 1 at most 255),
//   dst(p) = sum_q w(p, q) src(q) / sum_q w(p, q),
//   w = exp(-|p - q|^2 / (2 sigma_space^2)) * exp(-D^2 / (2 sigma_color^2)),
// D the sum over channels of |src(q) - src(p)| (OpenCV's L1 colour distance). u8 and f32, 1 or 3
// channels; sigma_color and sigma_space must be > 0 (OpenCV silently uses 1) and are in element
// units (0-255 for u8). Float arithmetic; u8 results round half to even.
struct BilateralParams {
  int d = 5;
  double sigma_color = 0.0;  // must be set (> 0)
  double sigma_space = 0.0;  // must be set (> 0)
  FilterBorder border{};
};
void bilateral_filter(const ImageView& src, const ImageView& dst, const BilateralParams& p,
                      void* stream = nullptr);

}  // namespace texcv
