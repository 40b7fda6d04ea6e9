// What the filter operations share (src/core/ops/: convolve, separable_filter, gaussian_blur,
// box_filter, sharpen, unsharp_mask, sobel, scharr, laplacian, median_blur, bilateral_filter):
// the checks of their views and values, the border descriptor, the routing of the 2-D and
// separable engines to the CPU or CUDA backend (src/core/filter_common.cpp), and the parameters
// their specs declare alike (border, path, scale and delta).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/cuda_call.hpp"
#include "src/core/filters_desc.hpp"
#include "src/core/op_spec.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/error.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_common {

using detail::FilterBorderDesc;
using detail::GaussianAxes;
using detail::Naming;
using detail::ParamName;
using detail::size_str;
using reg::kInvalid;

// Largest median window side and bilateral diameter.
inline constexpr int kMaxNonlinear = 255;

// v with 17 significant digits (messages).
std::string num(double v);
// Source and destination: valid, same location, channels and size, no overlap; dst of src's
// element type, or f32 where f32_out is allowed.
void check_io(const char* op, const ImageView& src, const ImageView& dst, bool f32_out);
void check_finite(const char* op, const char* name, double v);
void check_finite(const char* op, const ParamName& name, double v);
// The border mode, its value (converted to src's type) and the CUDA path, checked.
FilterBorderDesc border_desc(const char* op, const ImageView& src, const FilterBorder& b);
// A 1-D kernel of 1 to kMaxKernel1D finite taps.
void check_kernel_1d(const char* op, const char* name, const std::vector<float>& k);
// The 2-D and separable engines on src's backend (CUDA on `stream` for device views).
void run_2d(const char* op, const ImageView& src, const ImageView& dst,
            const detail::Filter2DDesc& d, void* stream);
void run_separable(const char* op, const ImageView& src, const ImageView& dst,
                   const detail::SepFilterDesc& d, void* stream);
// cv::getDerivKernels coefficients: [1 1]^(size - 1 - order) convolved with [-1 1]^order.
std::vector<float> deriv_kernel(int order, int size);
// The Gaussian axes of gaussian_blur and unsharp_mask (param_checks.hpp): names are kx, ky, sx,
// sy as the messages give them.
GaussianAxes gaussian_axes(const char* op, Naming n, const std::array<ParamName, 4>& names,
                           int ksize_x, int ksize_y, double sigma_x, double sigma_y,
                           std::optional<ElemType> type);
// A derivative order >= 0.
void check_order(const char* op, const char* name, int order);
// The derivative filters' aperture: an odd ksize from 1 to max (`expected` lists them).
void check_aperture(const char* op, Naming n, int ksize, int max, const char* expected);
void check_scale_delta(const char* op, Naming n, double scale, double delta);

}  // namespace texcv::filter_common

namespace texcv::reg {

// The border parameters of the filters' specs.
inline void add_filter_border(std::vector<ParamSpec>& ps) {
  ps.push_back(p_enum("border", "reflect101", kBorders,
                      "how pixels outside the image are read (default as OpenCV's "
                      "BORDER_DEFAULT; docs/conventions.md)"));
  ps.push_back(p_floats("border_value", "0", 1, 4,
                        "value outside the image for border=constant: one number for every "
                        "channel, or one per channel (missing channels get 0)"));
}

// The CUDA access path of the linear filters (FilterBorder::path).
inline void add_filter_path(std::vector<ParamSpec>& ps) {
  ps.push_back(p_enum("path", "auto", {"auto", "global", "shared", "texture"},
                      "how the CUDA backend reads the source (same results on every path); the "
                      "CPU backend ignores it"));
}

inline FilterBorder filter_border(const Args& a, bool with_path = true) {
  return FilterBorder{parse_border(a.e("border")), a.border_value(),
                      with_path ? parse_path(a.e("path")) : Path::automatic};
}

inline void add_scale_delta(std::vector<ParamSpec>& ps) {
  ps.push_back(p_float("scale", "1", "factor applied to the filtered value"));
  ps.push_back(p_float("delta", "0", "added after scaling (before rounding and saturation)"));
}

}  // namespace texcv::reg
