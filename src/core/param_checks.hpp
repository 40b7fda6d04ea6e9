// The parameter rules of the operations that do not depend on an image (an odd kernel size, a
// non-zero derivative order, an anchor inside the kernel, a kernel size its sigma allows, ...).
// Each rule is one function, defined in its operation's file (src/core/ops/<op>.cpp; a rule that
// several ops share, in their area's src/core/<area>_common.cpp) and called twice: by the public
// entry point before it reads the image, and by the op's spec (its OpEntry::check), so that
// texcv::validate / parse_step refuse a pipeline step with such an error before any file is read
// (texcv run, texcv batch and --dry-run exit 2). Rules the registry's declarations already enforce
// (a value's type, range or choices) are not repeated here.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "texcv/color.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"
#include "texcv/morphology.hpp"

namespace texcv::detail {

// Whose names a rule's messages use. api: the C++ API's fields with bare values ("gaussian_blur:
// ksize_x must be odd; got 4, ..."); step: the pipeline step's parameters as the registry declares
// them, with key=value ("gaussian_blur: parameter 'ksize' must be odd; got ksize=2, ...").
enum class Naming { api, step };

// One parameter as a rule's message names it.
struct ParamName {
  std::string_view name;
  Naming naming = Naming::api;

  // "ksize_x" (api) or "parameter 'ksize'" (step).
  std::string subject() const {
    std::string s(name);
    return naming == Naming::api ? s : "parameter '" + s + "'";
  }
  // "4" (api) or "ksize=4" (step).
  std::string got(std::string_view value) const {
    std::string v(value);
    return naming == Naming::api ? v : std::string(name) + "=" + v;
  }
};

// An anchor as given: "(3, -1)" (api) or "anchor_x=3, anchor_y=-1" (step).
std::string anchor_got(Naming n, int ax, int ay);

// ---- Linear filters (src/core/filter_common.cpp, ops/<op>.cpp) ----------------------------------

// A 2-D kernel of kw x kh: 1x1 to kMaxKernel2D x kMaxKernel2D.
void check_kernel_2d_size(const char* op, int kw, int kh);
// The anchor (-1: the centre, size / 2) resolved inside a kw x kh kernel; fails when outside.
std::pair<int, int> filter_anchor(const char* op, Naming n, int ax, int ay, int kw, int kh);

// gaussian_blur's sizes and sigmas resolved as cv::GaussianBlur: sizes odd (or <= 0: derived from
// the sigma), not both a size and its sigma unset, kernels at most kMaxKernel1D taps. The derived
// size depends on the element type (round(sigma * (3 for u8, else 4) * 2 + 1) | 1); without a
// type (plan time) the rule is u8's, the smallest, so what it refuses fails on every image.
// Naming::step names ksize_x and sigma_x "ksize" and "sigma" (the registry's keys).
struct GaussianAxes {
  int kx = 0, ky = 0;
  double sx = 0, sy = 0;
};
GaussianAxes resolve_gaussian(const char* op, Naming n, const GaussianParams& p,
                              std::optional<ElemType> type);
// unsharp_mask: its Gaussian (one size, one sigma, named "ksize" and "sigma"), amount and
// threshold.
GaussianAxes resolve_unsharp(const char* op, Naming n, const UnsharpParams& p,
                             std::optional<ElemType> type);
// box_filter: sizes 1 to kMaxKernel1D (Naming::step names ksize_x "ksize"), the anchor inside.
std::pair<int, int> check_box(const char* op, Naming n, const BoxParams& p);
// sobel: ksize 1, 3, 5 or 7; orders >= 0, not both 0, each below its kernel's size.
void check_sobel(const char* op, Naming n, const SobelParams& p);
// scharr: (dx, dy) = (1, 0) or (0, 1).
void check_scharr(const char* op, Naming n, const ScharrParams& p);
// laplacian: ksize 1, 3 or 5.
void check_laplacian(const char* op, Naming n, const LaplacianParams& p);

// ---- Non-linear filters (src/core/ops/median_blur.cpp, bilateral_filter.cpp) --------------------

// median_blur: an odd ksize, 1 to 255.
void check_median(const char* op, Naming n, int ksize);
// bilateral_filter: sigmas > 0 and a diameter (from d, or from sigma_space when d <= 0) of at
// most 255; returns the disc's radius.
int bilateral_radius(const char* op, Naming n, const BilateralParams& p);

// ---- Morphology (src/core/morph_common.cpp) -----------------------------------------------------

// erode, dilate, morphology: the shape, odd sizes 1 to kMaxMorphKernel (Naming::step names
// ksize_x "ksize"), the anchor inside the element, iterations 1 to 1000 and the border mode;
// returns the anchor resolved.
std::pair<int, int> check_morph(const char* op, Naming n, const MorphParams& p);

// ---- Geometry (src/core/ops/<op>.cpp) -----------------------------------------------------------

// resize: the interpolation, align_corners not with area (Unsupported), factors 0 or > 0.
void check_resize(const char* op, Naming n, const ResizeParams& p);
// warp_affine / warp_perspective: m finite and, unless inverse_map, invertible; returns the
// destination-to-source matrix.
std::array<double, 6> warp_affine_inverse(const char* op, Naming n, const std::array<double, 6>& m,
                                          bool inverse_map);
std::array<double, 9> warp_perspective_inverse(const char* op, Naming n,
                                               const std::array<double, 9>& m, bool inverse_map);

// ---- Colour and intensity (src/core/ops/<op>.cpp) -----------------------------------------------

// normalize: the mode; minmax: alpha and beta finite; mean_std: mean finite, std finite and >= 0.
void check_normalize(const char* op, Naming n, const NormalizeParams& p);

}  // namespace texcv::detail
