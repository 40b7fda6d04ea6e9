// The operation registry (include/texcv/registry.hpp): one table declares every operation's
// parameters; parsing, validation, listing and help all read it. Each operation also has a size
// rule (with, where it differs from the source's, the output's element type and channels) and a
// runner that call the public C++ API (geometry.hpp, filters.hpp, color.hpp).
#include "texcv/registry.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "src/core/op_spec.hpp"
#include "src/core/param_checks.hpp"
#include "texcv/color.hpp"
#include "texcv/error.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"
#include "texcv/morphology.hpp"

namespace texcv {

namespace {

using namespace reg;  // NOLINT: the registry's own internals (op_spec.hpp)

// ---- Linear filters (include/texcv/filters.hpp) -------------------------------------------

void add_filter_border(std::vector<ParamSpec>& ps) {
  ps.push_back(p_enum("border", "reflect101", kBorders,
                      "how pixels outside the image are read (default as OpenCV's "
                      "BORDER_DEFAULT; docs/conventions.md)"));
  ps.push_back(p_floats("border_value", "0", 1, 4,
                        "value outside the image for border=constant: one number for every "
                        "channel, or one per channel (missing channels get 0)"));
}

// The CUDA access path of the linear filters (FilterBorder::path).
void add_filter_path(std::vector<ParamSpec>& ps) {
  ps.push_back(p_enum("path", "auto", {"auto", "global", "shared", "texture"},
                      "how the CUDA backend reads the source (same results on every path); the "
                      "CPU backend ignores it"));
}

FilterBorder filter_border(const Args& a, bool with_path = true) {
  return FilterBorder{parse_border(a.e("border")), a.border_value(),
                      with_path ? parse_path(a.e("path")) : Path::automatic};
}

void add_scale_delta(std::vector<ParamSpec>& ps) {
  ps.push_back(p_float("scale", "1", "factor applied to the filtered value"));
  ps.push_back(p_float("delta", "0", "added after scaling (before rounding and saturation)"));
}

// convolve's kernel width and height: kw and/or kh as given (the other one from the count), else a
// square kernel; fails when the count does not fit them.
std::pair<int, int> convolve_size(const Args& a) {
  const int n = static_cast<int>(a.fs("kernel").size());
  int kw = a.has("kw") ? a.i("kw") : 0, kh = a.has("kh") ? a.i("kh") : 0;
  if (kw == 0 && kh == 0) {
    kw = kh = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    if (kw * kh != n)
      fail(kInvalid, "convolve", "the kernel is not square and kw/kh are not given",
           std::to_string(n) + " numbers", "a square count, or kw and/or kh");
  } else if (kw == 0) {
    kw = n / kh;
  } else if (kh == 0) {
    kh = n / kw;
  }
  if (kw * kh != n)
    fail(kInvalid, "convolve", "the kernel count differs from kw x kh",
         std::to_string(n) + " numbers",
         std::to_string(kw) + "x" + std::to_string(kh) + " = " + std::to_string(kw * kh));
  return {kw, kh};
}

// The public parameters of a step, as its runner passes them (and its check checks them).
GaussianParams gaussian_params(const Args& a) {
  GaussianParams p;
  p.ksize_x = a.i("ksize");
  p.ksize_y = a.has("ksize_y") ? a.i("ksize_y") : (a.f("sigma_y") > 0 ? 0 : p.ksize_x);
  p.sigma_x = a.f("sigma");
  p.sigma_y = a.f("sigma_y");
  p.border = filter_border(a);
  return p;
}

BoxParams box_params(const Args& a) {
  BoxParams p;
  p.ksize_x = a.i("ksize");
  p.ksize_y = a.has("ksize_y") ? a.i("ksize_y") : p.ksize_x;
  p.normalize = a.b("normalize");
  p.anchor_x = a.i("anchor_x");
  p.anchor_y = a.i("anchor_y");
  p.border = filter_border(a);
  return p;
}

UnsharpParams unsharp_params(const Args& a) {
  UnsharpParams p;
  p.sigma = a.f("sigma");
  p.ksize = a.i("ksize");
  p.amount = a.f("amount");
  p.threshold = a.f("threshold");
  p.border = filter_border(a);
  return p;
}

SobelParams sobel_params(const Args& a) {
  return SobelParams{a.i("dx"),    a.i("dy"),    a.i("ksize"),
                     a.f("scale"), a.f("delta"), filter_border(a)};
}

ScharrParams scharr_params(const Args& a) {
  return ScharrParams{a.i("dx"), a.i("dy"), a.f("scale"), a.f("delta"), filter_border(a)};
}

LaplacianParams laplacian_params(const Args& a) {
  return LaplacianParams{a.i("ksize"), a.f("scale"), a.f("delta"), filter_border(a)};
}

MorphParams morph_params(const Args& a) {
  MorphParams p;
  p.shape = parse_morph_shape(a.e("shape"));
  p.ksize_x = a.i("ksize");
  p.ksize_y = a.has("ksize_y") ? a.i("ksize_y") : p.ksize_x;
  p.anchor_x = a.i("anchor_x");
  p.anchor_y = a.i("anchor_y");
  p.iterations = a.i("iterations");
  p.border.border = parse_border(a.e("border"));
  if (a.has("border_value")) p.border.value = a.border_value();
  return p;
}

void add_linear_filters(std::vector<OpEntry>& ops) {
  {  // convolve
    OpEntry e;
    e.spec.name = "convolve";
    e.spec.summary =
        "2-D correlation with a kernel up to 31x31, as cv::filter2D (output: source type, "
        "saturated)";
    auto& ps = e.spec.params;
    ps.push_back(required(p_floats("kernel", "", 1, kMaxKernel2D * kMaxKernel2D,
                                   "coefficients row by row, e.g. kernel=0|-1|0|-1|5|-1|0|-1|0")));
    ps.push_back(p_int("kw", "", 1, "kernel width (default: square kernel, or count / kh)"));
    ps.push_back(p_int("kh", "", 1, "kernel height (default: square kernel, or count / kw)"));
    ps.push_back(p_int("anchor_x", "-1", -1, "anchor column in the kernel; -1: the centre"));
    ps.push_back(p_int("anchor_y", "-1", -1, "anchor row in the kernel; -1: the centre"));
    add_scale_delta(ps);
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      const auto [kw, kh] = convolve_size(a);
      detail::check_kernel_2d_size("convolve", kw, kh);
      detail::filter_anchor("convolve", n, a.i("anchor_x"), a.i("anchor_y"), kw, kh);
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      const auto v = a.fs("kernel");
      const auto [kw, kh] = convolve_size(a);
      Kernel k{kw, kh, std::vector<float>(v.begin(), v.end())};
      ConvolveParams p;
      p.anchor_x = a.i("anchor_x");
      p.anchor_y = a.i("anchor_y");
      p.scale = a.f("scale");
      p.delta = a.f("delta");
      p.border = filter_border(a);
      convolve(src, dst, k, p, stream);
    };
    e.spec.doc =
        "2-D correlation with kernel (kh x kw, up to 31x31), as cv2.filter2D: scale * sum + "
        "delta.\n"
        "\n"
        "dtype: the output type, the source's (saturated, rounded half to even) or \"float32\" "
        "(as\n"
        "ddepth=CV_32F). Accuracy vs OpenCV: 1 level for integer outputs; float32 within 1e-5 of\n"
        "sum|k| x full scale.";
    e.spec.float_output = true;
    declare_python(e.spec, {"kernel"});
    ops.push_back(std::move(e));
  }

  {  // separable_filter
    OpEntry e;
    e.spec.name = "separable_filter";
    e.spec.summary = "row kernel along x, then column kernel along y, as cv::sepFilter2D";
    auto& ps = e.spec.params;
    ps.push_back(required(p_floats("row", "", 1, kMaxKernel1D, "row (x) kernel coefficients")));
    ps.push_back(
        required(p_floats("column", "", 1, kMaxKernel1D, "column (y) kernel coefficients")));
    ps.push_back(p_int("anchor_x", "-1", -1, "anchor tap of the row kernel; -1: the centre"));
    ps.push_back(p_int("anchor_y", "-1", -1, "anchor tap of the column kernel; -1: the centre"));
    ps.push_back(p_float("delta", "0", "added to the result (before rounding and saturation)"));
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::filter_anchor("separable_filter", n, a.i("anchor_x"), a.i("anchor_y"),
                            static_cast<int>(a.fs("row").size()),
                            static_cast<int>(a.fs("column").size()));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      const auto r = a.fs("row"), c = a.fs("column");
      SeparableParams p;
      p.anchor_x = a.i("anchor_x");
      p.anchor_y = a.i("anchor_y");
      p.delta = a.f("delta");
      p.border = filter_border(a);
      separable_filter(src, dst, std::vector<float>(r.begin(), r.end()),
                       std::vector<float>(c.begin(), c.end()), p, stream);
    };
    e.spec.doc =
        "The row kernel along x, then the column kernel along y (1 to 255 taps each), as\n"
        "cv2.sepFilter2D. dtype and accuracy as convolve.";
    e.spec.float_output = true;
    declare_python(e.spec, {"row", "column"});
    ops.push_back(std::move(e));
  }

  {  // gaussian_blur
    OpEntry e;
    e.spec.name = "gaussian_blur";
    e.spec.summary =
        "Gaussian blur, as cv::GaussianBlur (give ksize and/or sigma, the missing one is derived "
        "as OpenCV does; with neither, as with OpenCV, there is no blur size and the step is "
        "refused)";
    auto& ps = e.spec.params;
    ps.push_back(
        p_int("ksize", "0", 0, "odd kernel size; 0: derived from sigma, which must then be > 0"));
    ps.push_back(p_float("sigma", "0",
                         "standard deviation along x; 0: derived from ksize, which must then be "
                         ">= 1",
                         0));
    ps.push_back(p_int("ksize_y", "", 0, "kernel height (default: ksize, or from sigma_y)"));
    ps.push_back(p_float("sigma_y", "0", "standard deviation along y; 0: sigma", 0));
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      // Without the image's type the derived size is u8's, the smallest: what fails here fails
      // on every image.
      detail::resolve_gaussian("gaussian_blur", n, gaussian_params(a), std::nullopt);
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      gaussian_blur(src, dst, gaussian_params(a), stream);
    };
    e.spec.doc =
        "Gaussian blur, as cv2.GaussianBlur(src, (ksize, ksize_y), sigma, sigma_y): give ksize\n"
        "and/or sigma; the missing one is derived as OpenCV does. Accuracy vs OpenCV: 1 level "
        "(u8,\n"
        "u16), 1e-5 of full scale (f32).";
    declare_python(e.spec, {"ksize", "sigma"});
    ops.push_back(std::move(e));
  }

  {  // box_filter
    OpEntry e;
    e.spec.name = "box_filter";
    e.spec.summary = "mean (or sum) over a box, as cv::boxFilter / cv::blur";
    auto& ps = e.spec.params;
    ps.push_back(p_int("ksize", "3", 1, "box width"));
    ps.push_back(p_int("ksize_y", "", 1, "box height (default: ksize)"));
    ps.push_back(p_bool("normalize", "true", "divide by the box area (false: the sum, saturated)"));
    ps.push_back(p_int("anchor_x", "-1", -1, "anchor column in the box; -1: the centre"));
    ps.push_back(p_int("anchor_y", "-1", -1, "anchor row in the box; -1: the centre"));
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::check_box("box_filter", n, box_params(a));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      box_filter(src, dst, box_params(a), stream);
    };
    e.spec.doc =
        "Mean (normalize) or sum over a ksize x ksize_y box, as cv2.boxFilter / cv2.blur.\n"
        "Accuracy vs OpenCV: 1 level.";
    declare_python(e.spec, {"ksize"});
    ops.push_back(std::move(e));
  }

  {  // sharpen
    OpEntry e;
    e.spec.name = "sharpen";
    e.spec.summary =
        "src + strength * (k * src - src) with k = [[0,-1,0],[-1,5,-1],[0,-1,0]] (strength 1: "
        "the plain kernel)";
    e.spec.params.push_back(p_float("strength", "1", "0: unchanged; 1: the plain 3x3 kernel"));
    add_filter_border(e.spec.params);
    add_filter_path(e.spec.params);
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      sharpen(src, dst, a.f("strength"), filter_border(a), stream);
    };
    e.spec.doc =
        "src + strength * (k * src - src), k = [[0,-1,0],[-1,5,-1],[0,-1,0]] (strength 1: the\n"
        "plain kernel), in one float pass. Accuracy: as cv2.filter2D with that kernel, 1 level.";
    declare_python(e.spec, {"strength"});
    ops.push_back(std::move(e));
  }

  {  // unsharp_mask
    OpEntry e;
    e.spec.name = "unsharp_mask";
    e.spec.summary =
        "src + amount * (src - gaussian_blur(src)) where |src - blur| >= threshold, else src";
    auto& ps = e.spec.params;
    ps.push_back(p_float("sigma", "1", "Gaussian standard deviation", 0, true));
    ps.push_back(p_int("ksize", "0", 0, "odd Gaussian kernel size; 0: derived from sigma"));
    ps.push_back(p_float("amount", "1", "strength of the added detail"));
    ps.push_back(p_float("threshold", "0",
                         "smallest |src - blur| that is sharpened (in element units: 0-255 for "
                         "u8)",
                         0));
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::resolve_unsharp("unsharp_mask", n, unsharp_params(a), std::nullopt);
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      unsharp_mask(src, dst, unsharp_params(a), stream);
    };
    e.spec.doc =
        "src + amount * (src - gaussian_blur(src)) where |src - blur| >= threshold, else src.";
    declare_python(e.spec, {"sigma", "amount"});
    ops.push_back(std::move(e));
  }

  {  // sobel
    OpEntry e;
    e.spec.name = "sobel";
    e.spec.summary =
        "Sobel derivative, as cv::Sobel with ddepth -1 (source type: negative values saturate "
        "to 0 for u8/u16; use delta to offset)";
    auto& ps = e.spec.params;
    ps.push_back(p_int("dx", "1", 0, "order of the x derivative"));
    ps.push_back(p_int("dy", "0", 0, "order of the y derivative"));
    ps.push_back(p_int("ksize", "3", 1, "1, 3, 5 or 7 (1: 3-tap derivative, no smoothing)"));
    add_scale_delta(ps);
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::check_sobel("sobel", n, sobel_params(a));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      sobel(src, dst, sobel_params(a), stream);
    };
    e.spec.doc =
        "Sobel derivative, as cv2.Sobel (ksize 1, 3, 5 or 7). With the source type, negative\n"
        "values saturate to 0 for u8/u16: use dtype=\"float32\" (ddepth=CV_32F) or delta.";
    e.spec.float_output = true;
    declare_python(e.spec, {"dx", "dy", "ksize"});
    ops.push_back(std::move(e));
  }

  {  // scharr
    OpEntry e;
    e.spec.name = "scharr";
    e.spec.summary = "Scharr 3x3 derivative, as cv::Scharr with ddepth -1 (dx=1,dy=0 or dx=0,dy=1)";
    auto& ps = e.spec.params;
    ps.push_back(p_int("dx", "1", 0, "order of the x derivative (0 or 1)"));
    ps.push_back(p_int("dy", "0", 0, "order of the y derivative (0 or 1)"));
    add_scale_delta(ps);
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::check_scharr("scharr", n, scharr_params(a));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      scharr(src, dst, scharr_params(a), stream);
    };
    e.spec.doc = "Scharr 3x3 derivative, as cv2.Scharr ((dx, dy) = (1, 0) or (0, 1)).";
    e.spec.float_output = true;
    declare_python(e.spec, {"dx", "dy"});
    ops.push_back(std::move(e));
  }

  {  // laplacian
    OpEntry e;
    e.spec.name = "laplacian";
    e.spec.summary = "Laplacian, as cv::Laplacian with ddepth -1";
    auto& ps = e.spec.params;
    ps.push_back(p_int("ksize", "1", 1, "1, 3 or 5"));
    add_scale_delta(ps);
    add_filter_border(ps);
    add_filter_path(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::check_laplacian("laplacian", n, laplacian_params(a));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      laplacian(src, dst, laplacian_params(a), stream);
    };
    e.spec.doc = "Laplacian, as cv2.Laplacian (ksize 1, 3 or 5).";
    e.spec.float_output = true;
    declare_python(e.spec, {"ksize"});
    ops.push_back(std::move(e));
  }

  // Morphology (include/texcv/morphology.hpp): erode, dilate, morphology.
  for (const std::string name : {"erode", "dilate", "morphology"}) {
    OpEntry e;
    e.spec.name = name;
    e.spec.summary = name == "erode"    ? "minimum over a structuring element, as cv::erode"
                     : name == "dilate" ? "maximum over a structuring element, as cv::dilate"
                                        : "open, close, gradient, tophat or blackhat (or erode, "
                                          "dilate), as cv::morphologyEx";
    auto& ps = e.spec.params;
    if (name == "morphology")
      ps.push_back(required(
          p_enum("op", "", {"erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"},
                 "the operation")));
    ps.push_back(p_enum("shape", "rect", {"rect", "ellipse", "cross"},
                        "structuring element, as cv::getStructuringElement"));
    ps.push_back(p_int("ksize", "3", 1, "odd element width, 1 to 255"));
    ps.push_back(p_int("ksize_y", "", 1, "odd element height (default: ksize)"));
    ps.push_back(p_int("anchor_x", "-1", -1, "anchor column in the element; -1: the centre"));
    ps.push_back(p_int("anchor_y", "-1", -1, "anchor row in the element; -1: the centre"));
    ps.push_back(p_int("iterations", "1", 1, "times erode/dilate are applied, 1 to 1000"));
    ps.push_back(p_enum("border", "constant", kBorders,
                        "how pixels outside the image are read; constant without border_value: "
                        "they never win (OpenCV's morphology default)"));
    ps.push_back(p_floats("border_value", "", 1, 4,
                          "value outside the image for border=constant: one number for every "
                          "channel, or one per channel"));
    e.check = [name](const Args& a, detail::Naming n) {
      detail::check_morph(name.c_str(), n, morph_params(a));
    };
    e.size = same_size;
    e.run = [name](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      const MorphParams p = morph_params(a);
      if (name == "erode") {
        erode(src, dst, p, stream);
      } else if (name == "dilate") {
        dilate(src, dst, p, stream);
      } else {
        morphology(src, dst, parse_morph_op(a.e("op")), p, stream);
      }
    };
    e.spec.doc = name == "erode"
                     ? "Minimum over a structuring element (\"rect\", \"ellipse\", \"cross\"), as "
                       "cv2.erode. The\n"
                       "constant border without a value never wins (OpenCV's default). Exact."
                 : name == "dilate" ? "Maximum over a structuring element, as cv2.dilate. Exact."
                                    : "\"open\", \"close\", \"gradient\", \"tophat\" or "
                                      "\"blackhat\" (or \"erode\", \"dilate\"), as\n"
                                      "cv2.morphologyEx. Exact.";
    declare_python(e.spec, name == "morphology" ? std::vector<std::string>{"op", "ksize"}
                                                : std::vector<std::string>{"ksize"});
    ops.push_back(std::move(e));
  }
}

// ---- Non-linear filters: median_blur, bilateral_filter (include/texcv/filters.hpp) --------

BilateralParams bilateral_params(const Args& a) {
  return BilateralParams{a.i("d"), a.f("sigma_color"), a.f("sigma_space"), filter_border(a, false)};
}

void add_nonlinear_filters(std::vector<OpEntry>& ops) {
  {  // median_blur
    OpEntry e;
    e.spec.name = "median_blur";
    e.spec.summary = "median of a ksize x ksize window, as cv::medianBlur (edges replicated)";
    e.spec.params.push_back(p_int("ksize", "3", 1, "odd window size, 1 to 255"));
    e.check = [](const Args& a, detail::Naming n) {
      detail::check_median("median_blur", n, a.i("ksize"));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      median_blur(src, dst, a.i("ksize"), stream);
    };
    e.spec.doc =
        "Median of each ksize x ksize window (odd, 1 to 255; edges replicated), as\n"
        "cv2.medianBlur. Exact (identical to OpenCV).";
    declare_python(e.spec, {"ksize"});
    ops.push_back(std::move(e));
  }

  {  // bilateral_filter
    OpEntry e;
    e.spec.name = "bilateral_filter";
    e.spec.summary = "edge-preserving smoothing, as cv::bilateralFilter (u8/f32, 1 or 3 channels)";
    auto& ps = e.spec.params;
    ps.push_back(p_int("d", "5", std::nullopt,
                       "diameter (radius d / 2); <= 0: radius round(1.5 * sigma_space)"));
    ps.push_back(required(p_float(
        "sigma_color", "", "colour standard deviation, in element units (0-255 for u8)", 0, true)));
    ps.push_back(
        required(p_float("sigma_space", "", "spatial standard deviation in pixels", 0, true)));
    add_filter_border(ps);
    e.check = [](const Args& a, detail::Naming n) {
      detail::bilateral_radius("bilateral_filter", n, bilateral_params(a));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      bilateral_filter(src, dst, bilateral_params(a), stream);
    };
    e.spec.doc =
        "Edge-preserving smoothing, as cv2.bilateralFilter (u8/f32, 1 or 3 channels); the sigmas\n"
        "must be > 0 (element units for sigma_color). Accuracy: docs/ops/filters.md's bound.";
    declare_python(e.spec, {"d", "sigma_color", "sigma_space"});
    ops.push_back(std::move(e));
  }
}

// ---- Colour and intensity (include/texcv/color.hpp) ----------------------------------------

// The names of the values 0 .. last of an enum, as its to_string (and parser) spell them.
template <typename E>
std::vector<std::string> enum_names(E last) {
  std::vector<std::string> out;
  for (int v = 0; v <= static_cast<int>(last); ++v) out.emplace_back(to_string(static_cast<E>(v)));
  return out;
}

// The channel count cvt_color writes for code.
int color_code_channels(ColorCode code) {
  switch (code) {
    case ColorCode::rgb2gray:
    case ColorCode::bgr2gray:
    case ColorCode::rgba2gray:
    case ColorCode::bgra2gray:
      return 1;
    case ColorCode::rgba2bgra:
    case ColorCode::gray2rgba:
      return 4;
    default:
      return 3;
  }
}

const std::vector<std::string> kElemTypes{"u8", "u16", "f32"};

// The largest level of an element type: 255, 65535 or 1.
double type_max(ElemType t) {
  return t == ElemType::u8 ? 255.0 : (t == ElemType::u16 ? 65535.0 : 1.0);
}

NormalizeParams normalize_params(const Args& a) {
  NormalizeParams p;
  p.mode = parse_normalize_mode(a.e("mode"));
  p.alpha = a.f("alpha");
  p.beta = a.f("beta");
  p.mean = a.f("mean");
  p.std = a.f("std");
  return p;
}

void add_color_ops(std::vector<OpEntry>& ops) {
  {  // cvt_color
    OpEntry e;
    e.spec.name = "cvt_color";
    e.spec.summary =
        "colour conversion, as cv::cvtColor (output: source type, the code's channel count)";
    e.spec.params.push_back(required(
        p_enum("code", "", enum_names(ColorCode::hsv2bgr),
               "conversion; the source must have the code's input channels (docs/ops/color.md)")));
    e.size = same_size;
    e.format = [](const Args& a, ElemType&, int& channels) {
      channels = color_code_channels(parse_color_code(a.e("code")));
    };
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      cvt_color(src, dst, parse_color_code(a.e("code")), stream);
    };
    e.spec.doc =
        "Colour conversion, as cv2.cvtColor (\"rgb2gray\", \"gray2rgb\", \"rgb2yuv_bt709\", "
        "\"rgb2hsv\",\n"
        "...; docs/ops/color.md). u8 gray is bit-exact with OpenCV.";
    declare_python(e.spec, {"code"});
    ops.push_back(std::move(e));
  }

  {  // gamma
    OpEntry e;
    e.spec.name = "gamma";
    e.spec.summary = "gamma correction: out = max * (in / max)^gamma, max = 255, 65535 or 1";
    e.spec.params.push_back(
        required(p_float("gamma", "", "the exponent (< 1 brightens, > 1 darkens)", 0, true)));
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      gamma(src, dst, a.f("gamma"), stream);
    };
    e.spec.doc =
        "max * (src / max) ** gamma (max 255, 65535 or 1.0); integer types via a rounded table.";
    declare_python(e.spec, {"gamma"});
    ops.push_back(std::move(e));
  }

  {  // normalize
    OpEntry e;
    e.spec.name = "normalize";
    e.spec.summary =
        "rescale the values, as cv::normalize NORM_MINMAX (or per-channel mean and standard "
        "deviation)";
    auto& ps = e.spec.params;
    ps.push_back(p_enum("mode", "minmax", enum_names(NormalizeMode::mean_std),
                        "minmax: smallest to min(alpha, beta), largest to max(alpha, beta); "
                        "mean_std: each channel to the given mean and std"));
    ps.push_back(p_float("alpha", "0", "minmax: one end of the output range"));
    ps.push_back(p_float("beta", "1", "minmax: the other end of the output range"));
    ps.push_back(p_float("mean", "0", "mean_std: the output mean"));
    ps.push_back(p_float("std", "1", "mean_std: the output standard deviation"));
    e.check = [](const Args& a, detail::Naming n) {
      detail::check_normalize("normalize", n, normalize_params(a));
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      normalize(src, dst, normalize_params(a), stream);
    };
    e.spec.doc =
        "\"minmax\": as cv2.normalize(NORM_MINMAX) to [min(alpha, beta), max(alpha, beta)];\n"
        "\"mean_std\": each channel to the given mean and (population) std.";
    ops.push_back(std::move(e));
  }

  {  // convert
    OpEntry e;
    e.spec.name = "convert";
    e.spec.summary =
        "change the element type: out = saturate(in * scale + offset), as cv::Mat::convertTo";
    auto& ps = e.spec.params;
    ps.push_back(p_enum("type", "", kElemTypes, "output element type (default: the source's)"));
    ps.push_back(p_float("scale", "1", "factor applied to every element"));
    ps.push_back(p_float("offset", "0", "added after scaling (before rounding and saturation)"));
    e.size = same_size;
    e.format = [](const Args& a, ElemType& type, int&) {
      if (a.has("type")) type = parse_elem_type(a.e("type"));
    };
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      convert(src, dst, a.f("scale"), a.f("offset"), stream);
    };
    e.spec.doc =
        "saturate(src * scale + offset) in dtype (\"uint8\", \"uint16\", \"float32\"; default "
        "src's),\n"
        "as cv2.Mat.convertTo.";
    declare_python(e.spec, {"type"});
    ops.push_back(std::move(e));
  }

  {  // threshold
    OpEntry e;
    e.spec.name = "threshold";
    e.spec.summary = "per-element threshold, as cv::threshold (otsu: u8 1-channel)";
    auto& ps = e.spec.params;
    ps.push_back(p_float("thresh", "", "the threshold (required unless type=otsu)"));
    ps.push_back(p_float("maxval", "", "value of the elements above (default: 255, 65535 or 1)"));
    ps.push_back(p_enum("type", "binary", enum_names(ThresholdType::otsu),
                        "as cv::THRESH_*; otsu: binary at Otsu's level, thresh ignored"));
    e.check = [](const Args& a, detail::Naming) {
      if (!a.has("thresh") && parse_threshold_type(a.e("type")) != ThresholdType::otsu)
        fail(kInvalid, "threshold", "parameter 'thresh' is required", "no thresh",
             "thresh=<a number>, or type=otsu");
    };
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      const ThresholdType type = parse_threshold_type(a.e("type"));
      const double maxval = a.has("maxval") ? a.f("maxval") : type_max(src.type);
      threshold(src, dst, a.has("thresh") ? a.f("thresh") : 0.0, maxval, type, stream);
    };
    e.spec.doc =
        "As cv2.threshold: returns (threshold used, dst). type: \"binary\", \"binary_inv\", "
        "\"trunc\",\n"
        "\"tozero\", \"tozero_inv\" or \"otsu\" (u8 1-channel; thresh ignored).";
    declare_python(e.spec, {"thresh", "maxval", "type"});
    ops.push_back(std::move(e));
  }

  {  // equalize_hist
    OpEntry e;
    e.spec.name = "equalize_hist";
    e.spec.summary = "histogram equalization, as cv::equalizeHist (u8 1-channel)";
    e.size = same_size;
    e.run = [](const Args&, const ImageView& src, const ImageView& dst, void* stream) {
      equalize_hist(src, dst, stream);
    };
    e.spec.doc = "Histogram equalization, as cv2.equalizeHist (u8, 1 channel). Exact.";
    ops.push_back(std::move(e));
  }

  {  // clahe
    OpEntry e;
    e.spec.name = "clahe";
    e.spec.summary =
        "contrast-limited adaptive histogram equalization, as cv::createCLAHE (u8 or u16, "
        "1 channel)";
    auto& ps = e.spec.params;
    ps.push_back(p_float("clip_limit", "40", "contrast limit; 0: no clipping", 0));
    ps.push_back(p_int("tiles_x", "8", 1, "tiles across (at most the image width)"));
    ps.push_back(p_int("tiles_y", "8", 1, "tiles down (at most the image height)"));
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      ClaheParams p;
      p.clip_limit = a.f("clip_limit");
      p.tiles_x = a.i("tiles_x");
      p.tiles_y = a.i("tiles_y");
      clahe(src, dst, p, stream);
    };
    e.spec.doc =
        "Contrast-limited adaptive histogram equalization, as\n"
        "cv2.createCLAHE(clip_limit, (tiles_x, tiles_y)).apply (u8/u16, 1 channel); 1 level.";
    declare_python(e.spec, {"clip_limit", "tiles_x", "tiles_y"});
    ops.push_back(std::move(e));
  }
}

ResizeParams resize_params(const Args& a) {
  ResizeParams p;
  p.interp = parse_interp(a.e("interp"));
  p.align_corners = a.b("align_corners");
  p.border = parse_border(a.e("border"));
  p.border_value = a.border_value();
  p.precision = parse_precision(a.e("precision"));
  p.path = parse_path(a.e("path"));
  // scale, fx and fy map as cv::resize(src, dst, Size(), fx, fy): source x = (x + 0.5) / fx
  // - 0.5 (a missing fx or fy is 1, the size ratio of an unchanged side); width/height map
  // with the size ratio, as cv::resize(src, dst, dsize).
  if (a.has("scale")) {
    p.fx = p.fy = a.f("scale");
  } else {
    if (a.has("fx")) p.fx = a.f("fx");
    if (a.has("fy")) p.fy = a.f("fy");
  }
  return p;
}

// The n numbers of a warp's m.
template <std::size_t N>
std::array<double, N> matrix(const Args& a) {
  const auto m = a.fs("m");
  std::array<double, N> out{};
  for (std::size_t k = 0; k < N; ++k) out[k] = m[k];
  return out;
}

std::vector<OpEntry> make_entries() {
  std::vector<OpEntry> ops;

  {  // resize
    OpEntry e;
    e.spec.name = "resize";
    e.spec.summary =
        "change the image size, as cv::resize (pixel centres; give scale, or width and/or "
        "height, or fx and/or fy; scale/fx/fy sample at (x + 0.5) / factor - 0.5 as "
        "cv2.resize(img, None, fx=, fy=), width/height at the size ratio)";
    auto& ps = e.spec.params;
    ps.push_back(p_float(
        "scale", "",
        "scale factor of both axes: output = size * scale rounded (ties to even), source x = (x + "
        "0.5) / scale - 0.5, as cv2.resize(img, None, fx=scale, fy=scale)",
        0, true));
    ps.push_back(p_int("width", "", 1,
                       "output width, sampled at the size ratio as cv2.resize(img, (w, h)); "
                       "alone, the height follows the aspect ratio"));
    ps.push_back(
        p_int("height", "", 1, "output height; alone, the width follows the aspect ratio"));
    ps.push_back(p_float("fx", "",
                         "horizontal scale factor, as cv::resize's fx: output width = round(width "
                         "* fx), source x = (x + 0.5) / fx - 0.5 (fy missing: 1)",
                         0, true));
    ps.push_back(p_float("fy", "", "vertical scale factor, as fx (fx missing: 1)", 0, true));
    ps.push_back(
        p_bool("align_corners", "false",
               "sample x * (src_w - 1) / (dst_w - 1): corner pixels map to corner pixels"));
    add_sampling(ps, kInterpAll, "replicate");
    e.check = [](const Args& a, detail::Naming n) {
      const bool by_scale = a.has("scale");
      const bool by_size = a.has("width") || a.has("height");
      const bool by_factor = a.has("fx") || a.has("fy");
      const std::string expected = "one of scale, width/height or fx/fy";
      if (by_scale && by_size)
        fail(kInvalid, "resize", "parameters 'scale' and 'width'/'height' cannot be combined",
             a.given("scale") + " with " + (a.has("width") ? a.given("width") : a.given("height")),
             expected);
      if (by_scale && by_factor)
        fail(kInvalid, "resize", "parameters 'scale' and 'fx'/'fy' cannot be combined",
             a.given("scale") + " with " + (a.has("fx") ? a.given("fx") : a.given("fy")), expected);
      if (by_size && by_factor)
        fail(kInvalid, "resize", "parameters 'width'/'height' and 'fx'/'fy' cannot be combined",
             (a.has("width") ? a.given("width") : a.given("height")) + " with " +
                 (a.has("fx") ? a.given("fx") : a.given("fy")),
             expected);
      if (!by_scale && !by_size && !by_factor && !a.into())
        fail(kInvalid, "resize", "no output size given", "none of scale, width, height, fx, fy",
             "scale=S, width=W and/or height=H, or fx=X and/or fy=Y");
      detail::check_resize("resize", n, resize_params(a));
    };
    e.size = [](const Args& a, int w, int h) {
      Rect r;
      std::string given;
      if (a.has("scale")) {
        r.width = scaled(w, a.f("scale"));
        r.height = scaled(h, a.f("scale"));
        given = a.given("scale");
      } else if (a.has("width") || a.has("height")) {
        if (a.has("width") && a.has("height")) {
          r.width = a.i("width");
          r.height = a.i("height");
        } else if (a.has("width")) {
          r.width = a.i("width");
          r.height = scaled(h, static_cast<double>(r.width) / w);
        } else {
          r.height = a.i("height");
          r.width = scaled(w, static_cast<double>(r.height) / h);
        }
        given = a.has("width") ? a.given("width") : a.given("height");
      } else {
        r.width = a.has("fx") ? scaled(w, a.f("fx")) : w;
        r.height = a.has("fy") ? scaled(h, a.f("fy")) : h;
        given = a.has("fx") ? a.given("fx") : a.given("fy");
      }
      check_size(a, r, w, h, given);
      return r;
    };
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      resize(src, dst, resize_params(a), stream);
    };
    e.spec.doc =
        "Resizes src, as cv2.resize (pixel centres).\n"
        "\n"
        "The output size, in one of cv2.resize's two forms:\n"
        "- a size: cv2's dsize tuple ``resize(img, (w, h))``, or width and/or height (one alone "
        "keeps\n"
        "  the aspect ratio). Source x = (x + 0.5) * src_w / dst_w - 0.5, as cv2.resize(img, (w, "
        "h)).\n"
        "- factors: fx and/or fy (a missing one is 1), or scale for both. Output = size * factor\n"
        "  rounded half to even and source x = (x + 0.5) / fx - 0.5, as cv2.resize(img, None, "
        "fx=,\n"
        "  fy=) (also ``resize(img, (0, 0), fx=, fy=)``). The two forms differ where size * "
        "factor\n"
        "  is not whole. interp=\"nearest\" (cv2.INTER_NEAREST_EXACT) maps by the sizes in both.\n"
        "Accuracy: CPU vs OpenCV within 1 level (u8/u16) or 1e-5 (f32); CUDA exact vs CPU within "
        "1\n"
        "level or 1e-5 relative; precision=\"fast\" up to 2 levels at the steepest u8 edges.\n"
        "\n"
        "resize_into: dst's size is the output size. Without fx/fy it maps with the size ratio; "
        "with them as cv2.resize(src, None, fx=, fy=), and dst's size must then be the one that "
        "gives (round(size * factor), ties to even).";
    declare_python(e.spec, {"width", "height"}, {"scale", "width", "height"});
    ops.push_back(std::move(e));
  }

  // warp_affine and warp_perspective share everything but the matrix size.
  for (const int n : {6, 9}) {
    OpEntry e;
    const bool affine = n == 6;
    e.spec.name = affine ? "warp_affine" : "warp_perspective";
    e.spec.summary = affine ? "affine warp with a 2x3 matrix, as cv::warpAffine"
                            : "perspective warp with a 3x3 matrix, as cv::warpPerspective";
    auto& ps = e.spec.params;
    ps.push_back(required(
        p_floats("m", "", n, n,
                 affine ? "the 2x3 matrix, row-major: m=a|b|tx|c|d|ty (source to destination)"
                        : "the 3x3 matrix, row-major, 9 numbers (source to destination)")));
    ps.push_back(p_bool("inverse_map", "false", "m already maps destination to source"));
    ps.push_back(p_int("width", "", 1, "output width (default: the source width)"));
    ps.push_back(p_int("height", "", 1, "output height (default: the source height)"));
    add_sampling(ps, kInterpWarp, "constant");
    // m must be invertible unless it is already the destination-to-source map.
    e.check = [affine](const Args& a, detail::Naming n) {
      if (affine)
        detail::warp_affine_inverse("warp_affine", n, matrix<6>(a), a.b("inverse_map"));
      else
        detail::warp_perspective_inverse("warp_perspective", n, matrix<9>(a), a.b("inverse_map"));
    };
    e.size = [](const Args& a, int w, int h) {
      return Rect{0, 0, a.has("width") ? a.i("width") : w, a.has("height") ? a.i("height") : h};
    };
    e.run = [affine](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      if (affine)
        warp_affine(src, dst, matrix<6>(a), a.b("inverse_map"), a.sampling(), stream);
      else
        warp_perspective(src, dst, matrix<9>(a), a.b("inverse_map"), a.sampling(), stream);
    };
    e.spec.doc =
        affine ? "Affine warp with a 2x3 matrix m (source to destination unless inverse_map), as\n"
                 "cv2.warpAffine. The output is width x height (default: the source size).\n"
                 "\n"
                 "Accuracy: CPU vs OpenCV's float path within 1 level (u8/u16) or 1e-5 (f32); "
                 "nearest exact."
               : "Perspective warp with a 3x3 matrix m, as cv2.warpPerspective (see warp_affine).";
    declare_python(e.spec, {"m"}, {"width", "height"});
    ops.push_back(std::move(e));
  }

  {  // rotate
    OpEntry e;
    e.spec.name = "rotate";
    e.spec.summary =
        "rotate about the image centre, counter-clockwise in degrees, as cv::getRotationMatrix2D "
        "+ cv::warpAffine";
    auto& ps = e.spec.params;
    ps.push_back(required(p_float("angle", "", "degrees, counter-clockwise")));
    ps.push_back(p_bool("expand", "false",
                        "enlarge the output to hold the whole rotated image (else: source size)"));
    add_sampling(ps, kInterpWarp, "constant");
    e.size = [](const Args& a, int w, int h) {
      const Rect r = rotated_size(w, h, a.f("angle"), a.b("expand"));
      check_size(a, r, w, h, a.given("angle"));
      return Rect{0, 0, r.width, r.height};
    };
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      rotate(src, dst, a.f("angle"), a.sampling(), stream);
    };
    e.spec.doc =
        "Rotates src by angle degrees counter-clockwise about its centre, as\n"
        "cv2.getRotationMatrix2D + cv2.warpAffine; expand=True enlarges the output to hold the\n"
        "whole rotated image. Accuracy as warp_affine.\n"
        "\n"
        "rotate_into: the source centre lands on dst's centre.";
    declare_python(e.spec, {"angle"}, {"expand"});
    ops.push_back(std::move(e));
  }

  {  // flip
    OpEntry e;
    e.spec.name = "flip";
    e.spec.summary = "mirror the image, as cv::flip";
    e.spec.params.push_back(p_enum("code", "horizontal", {"horizontal", "vertical", "both"},
                                   "horizontal: left-right; vertical: top-bottom; both: 180 deg"));
    e.size = same_size;
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      flip(src, dst, parse_flip(a.e("code")), stream);
    };
    e.spec.doc =
        "Mirrors src, as cv2.flip: \"horizontal\" (left-right), \"vertical\" (top-bottom) or "
        "\"both\".\n"
        "Exact.";
    declare_python(e.spec, {"code"});
    ops.push_back(std::move(e));
  }

  {  // crop
    OpEntry e;
    e.spec.name = "crop";
    e.spec.summary = "copy a rectangle of the image; it must lie inside the image";
    auto& ps = e.spec.params;
    ps.push_back(p_int("x", "0", 0, "left column of the rectangle"));
    ps.push_back(p_int("y", "0", 0, "top row of the rectangle"));
    ps.push_back(p_int("width", "", 1, "width of the rectangle (default: up to the right edge)"));
    ps.push_back(
        p_int("height", "", 1, "height of the rectangle (default: down to the bottom edge)"));
    e.size = [](const Args& a, int w, int h) {
      Rect r{a.i("x"), a.i("y"), 0, 0};
      r.width = a.has("width") ? a.i("width") : w - r.x;
      r.height = a.has("height") ? a.i("height") : h - r.y;
      const bool inside = r.x < w && r.y < h && r.width >= 1 && r.height >= 1 &&
                          r.width <= w - r.x && r.height <= h - r.y;
      if (!inside)
        fail(kInvalid, "crop", "the rectangle is not inside the image",
             "x=" + std::to_string(r.x) + ",y=" + std::to_string(r.y) +
                 ",width=" + std::to_string(r.width) + ",height=" + std::to_string(r.height) +
                 " on a " + size_text(w, h) + " image",
             "x + width <= " + std::to_string(w) + " and y + height <= " + std::to_string(h));
      return r;
    };
    e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
      Rect r{a.i("x"), a.i("y"), dst.width, dst.height};
      crop(src, dst, r, stream);
    };
    e.spec.doc =
        "Copies the rectangle (x, y, width, height) of src (default: to the right and bottom\n"
        "edges). For a view without a copy, slice the array instead. Exact.\n"
        "\n"
        "crop_into: the rectangle at (x, y) of dst's size.";
    declare_python(e.spec, {"x", "y", "width", "height"}, {"width", "height"});
    ops.push_back(std::move(e));
  }

  add_linear_filters(ops);
  add_nonlinear_filters(ops);
  add_color_ops(ops);

  return ops;
}

}  // namespace

// The operations that declare themselves in their own file (src/core/ops/<op>.cpp), listed by
// CMake (texcv_op_list.inc: one TEXCV_OP(<op>) line per file).
namespace reg {
#define TEXCV_OP(name) void declare_##name(std::vector<OpEntry>& ops);
#include "texcv_op_list.inc"
#undef TEXCV_OP
}  // namespace reg

namespace {

const std::vector<OpEntry>& entries() {
  static const std::vector<OpEntry> kEntries = [] {
    std::vector<OpEntry> v = make_entries();
#define TEXCV_OP(name) reg::declare_##name(v);
#include "texcv_op_list.inc"
#undef TEXCV_OP
    for (OpEntry& e : v) {
      using SizeFn = Rect (*)(const Args&, int, int);
      const SizeFn* size = e.size.target<SizeFn>();
      e.spec.keeps_format = !e.format && size != nullptr && *size == &same_size;
    }
    return v;
  }();
  return kEntries;
}

std::string operation_names() {
  std::vector<std::string> names;
  for (const auto& e : entries()) names.push_back(e.spec.name);
  return join(names, ", ");
}

const OpEntry* find_entry(std::string_view name) noexcept {
  for (const auto& e : entries())
    if (e.spec.name == name) return &e;
  return nullptr;
}

const OpEntry& entry(std::string_view name) {
  const OpEntry* e = find_entry(name);
  if (e == nullptr)
    fail(kInvalid, "registry", "unknown operation", "'" + std::string(name) + "'",
         "one of " + operation_names());
  return *e;
}

// Validated arguments of one call (keys, values, exclusive groups).
Args checked_args(const OpEntry& e, const ParamValues& params) {
  Args a(e.spec, params);
  if (e.check) e.check(a, kStep);
  return a;
}

}  // namespace

std::string value_text(const ParamValue& v) {
  struct Text {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t n) const { return std::to_string(n); }
    std::string operator()(double d) const { return number_text(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<double>& xs) const {
      std::string out;
      for (std::size_t k = 0; k < xs.size(); ++k) {
        if (k > 0) out += '|';
        out += number_text(xs[k]);
      }
      return out;
    }
  };
  return std::visit(Text{}, v);
}

std::string ParamSpec::expected() const {
  std::string bound;
  if (min) bound = std::string(min_exclusive ? " > " : " >= ") + number_text(*min);
  if (type == "int") return "an integer" + bound;
  if (type == "float") return "a number" + bound;
  if (type == "bool") return "true or false";
  if (type == "enum") return "one of " + join(choices, ", ");
  if (type == "floats") {
    const std::string count = min_count == max_count
                                  ? std::to_string(min_count)
                                  : std::to_string(min_count) + " to " + std::to_string(max_count);
    return count + (max_count == 1 ? " number" : " numbers separated by '|'");
  }
  return type;
}

const ParamSpec* OpSpec::find(std::string_view param) const noexcept {
  for (const auto& p : params)
    if (p.name == param) return &p;
  return nullptr;
}

const std::vector<OpSpec>& operations() {
  static const std::vector<OpSpec> kOps = [] {
    std::vector<OpSpec> v;
    for (const auto& e : entries()) v.push_back(e.spec);
    return v;
  }();
  return kOps;
}

const OpSpec& find_operation(std::string_view name) {
  return entry(name).spec;
}

void validate(std::string_view name, const ParamValues& params) {
  checked_args(entry(name), params);
}

Rect output_size(std::string_view name, int src_width, int src_height, const ParamValues& params) {
  const OpEntry& e = entry(name);
  const Args a = checked_args(e, params);
  return e.size(a, src_width, src_height);
}

namespace {

OutputFormat format_of(const OpEntry& e, const Args& a, const ImageView& src) {
  validate_view(src, e.spec.name.c_str(), "source");
  const Rect r = e.size(a, src.width, src.height);
  OutputFormat f{r.width, r.height, src.channels, src.type};
  if (e.format) e.format(a, f.type, f.channels);
  return f;
}

}  // namespace

OutputFormat output_format(std::string_view name, const ImageView& src, const ParamValues& params) {
  const OpEntry& e = entry(name);
  return format_of(e, checked_args(e, params), src);
}

void apply_into(std::string_view name, const ImageView& src, const ImageView& dst,
                const ParamValues& params, void* stream) {
  const OpEntry& e = entry(name);
  const Args a = checked_args(e, params);
  const OutputFormat f = format_of(e, a, src);
  const char* op = e.spec.name.c_str();
  validate_view(dst, op, "destination");
  if (dst.width != f.width || dst.height != f.height)
    fail(ErrorCode::InvalidArgument, op, "destination size differs from the output's",
         size_text(dst.width, dst.height), size_text(f.width, f.height));
  if (dst.channels != f.channels || dst.type != f.type)
    fail(ErrorCode::InvalidArgument, op, "destination format differs from the output's",
         std::to_string(dst.channels) + " channel(s) of " + std::string(to_string(dst.type)),
         std::to_string(f.channels) + " channel(s) of " + std::string(to_string(f.type)));
  if (dst.location != src.location)
    fail(ErrorCode::InvalidArgument, op, "destination location differs from the source's",
         to_string(dst.location), to_string(src.location));
  e.run(a, src, dst, stream);
}

namespace {

// A typed call's values, checked as declared and by the op's rules with the C++ API's names.
Args typed_args(const OpEntry& e, const TypedParams& params, bool into = false) {
  Args a(e.spec, params);
  if (into) a.set_into();
  if (e.check) e.check(a, detail::Naming::api);
  return a;
}

}  // namespace

OutputFormat typed_output_format(std::string_view name, const ImageView& src,
                                 const TypedParams& params) {
  const OpEntry& e = entry(name);
  return format_of(e, typed_args(e, params), src);
}

void run_into(std::string_view name, const ImageView& src, const ImageView& dst,
              const TypedParams& params, void* stream) {
  const OpEntry& e = entry(name);
  e.run(typed_args(e, params, true), src, dst, stream);
}

Image apply(std::string_view name, const ImageView& src, const ParamValues& params, void* stream) {
  const OpEntry& e = entry(name);
  const Args a = checked_args(e, params);
  const OutputFormat f = format_of(e, a, src);
  Image dst(f.width, f.height, f.channels, f.type, src.location);
  e.run(a, src, dst.view(), stream);
  return dst;
}

// ---- Pipelines -----------------------------------------------------------------------------

std::vector<PipelineStep> split_pipeline(std::string_view text) {
  std::vector<PipelineStep> steps;
  std::size_t start = 0;
  int index = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    const std::string_view t = trim(raw);
    if (!t.empty()) {
      PipelineStep s;
      s.text = std::string(t);
      s.offset = start + static_cast<std::size_t>(t.data() - raw.data());
      s.index = ++index;
      steps.push_back(std::move(s));
    }
    start = end + 1;
  }
  return steps;
}

void parse_step(PipelineStep& step) {
  const std::string_view text = step.text;
  const std::size_t colon = text.find(':');
  step.name = std::string(trim(text.substr(0, colon)));
  step.params.clear();
  if (step.name.empty())
    throw Error(kInvalid, "the operation name is missing; expected name:key=value,...");
  if (find_entry(step.name) == nullptr)
    throw Error(kInvalid,
                "unknown operation '" + step.name + "'; expected one of " + operation_names());
  if (colon != std::string_view::npos) {
    std::string_view rest = text.substr(colon + 1);
    while (true) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = trim(rest.substr(0, comma));
      if (!item.empty()) {
        const std::size_t eq = item.find('=');
        const std::string key(trim(item.substr(0, eq)));
        if (eq == std::string_view::npos)
          throw Error(kInvalid, step.name + ": parameter '" + key + "' has no value; got " + key +
                                    ", expected " + key + "=value");
        if (key.empty())
          throw Error(kInvalid, step.name + ": a parameter has no name; got " + std::string(item) +
                                    ", expected key=value");
        const std::string value(trim(item.substr(eq + 1)));
        const auto [it, inserted] = step.params.emplace(key, value);
        if (!inserted)
          throw Error(kInvalid, step.name + ": parameter '" + key + "' is given twice; got " + key +
                                    "=" + it->second + " and " + key + "=" + value +
                                    ", expected each parameter once");
      }
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  validate(step.name, step.params);
}

std::string describe_step(const PipelineStep& step) {
  return "pipeline step " + std::to_string(step.index) + " \"" + step.text + "\"";
}

std::vector<PipelineStep> parse_pipeline(std::string_view text) {
  auto steps = split_pipeline(text);
  if (steps.empty())
    fail(kInvalid, "pipeline", "no steps", "'" + std::string(text) + "'",
         "steps such as rotate:angle=30;resize:scale=0.5");
  for (auto& s : steps) {
    try {
      parse_step(s);
    } catch (const Error& err) {
      throw Error(err.code(), describe_step(s) + ": " + err.what());
    }
  }
  return steps;
}

void check_pipeline_size(const std::vector<PipelineStep>& steps, int width, int height,
                         std::uint64_t max_pixels) {
  int w = width, h = height;
  for (const PipelineStep& s : steps) {
    const std::string prefix = "step " + std::to_string(s.index) + " (" + s.name + ")";
    Rect r;
    try {
      r = output_size(s.name, w, h, s.params);
    } catch (const Error& e) {
      throw Error(e.code(), prefix + ": " + e.what());
    }
    const std::uint64_t pixels = static_cast<std::uint64_t>(std::max(r.width, 0)) *
                                 static_cast<std::uint64_t>(std::max(r.height, 0));
    if (max_pixels > 0 && pixels > max_pixels)
      fail(kInvalid, prefix,
           "its output would be " + size_text(r.width, r.height) + " pixels (from a " +
               size_text(w, h) + " input), more than the pixel cap (--max-pixels)",
           std::to_string(pixels) + " pixels", "at most " + std::to_string(max_pixels));
    w = r.width;
    h = r.height;
  }
}

}  // namespace texcv
