// bilateral_filter (include/texcv/ops/bilateral_filter.hpp): its validation and routing to the CPU
// or CUDA backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv
// ops).
#include "texcv/ops/bilateral_filter.hpp"

#include <cfloat>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"
#include "src/core/nonlinear_desc.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

BilateralParams bilateral_params(const Args& a) {
  return BilateralParams{a.i("d"), a.f("sigma_color"), a.f("sigma_space"), filter_border(a, false)};
}

}  // namespace

int detail::bilateral_radius(const char* op, Naming n, const BilateralParams& p) {
  const std::pair<double, ParamName> sigmas[2] = {{p.sigma_color, {"sigma_color", n}},
                                                  {p.sigma_space, {"sigma_space", n}}};
  for (const auto& [s, name] : sigmas)
    if (!(std::isfinite(s) && s > 0))
      fail(kInvalid, op, name.subject() + " must be positive and finite", name.got(num(s)), "> 0");
  // OpenCV: radius = d / 2, or round(1.5 * sigma_space) when d <= 0; at least 1.
  const double r = p.d > 0 ? p.d / 2 : std::nearbyint(p.sigma_space * 1.5);
  if (2 * r + 1 > kMaxNonlinear)
    fail(kInvalid, op, "diameter is too large",
         p.d > 0 ? "d=" + std::to_string(p.d)
                 : "d=" + std::to_string(p.d) + ", sigma_space=" + num(p.sigma_space),
         "a diameter 2 * (d / 2) + 1 of at most " + std::to_string(kMaxNonlinear));
  return r < 1 ? 1 : static_cast<int>(r);
}

void detail::bilateral_disc(BilateralDesc& d) {
  const int r = d.radius;
  d.dx.clear();
  d.dy.clear();
  d.space.clear();
  for (int i = -r; i <= r; ++i)
    for (int j = -r; j <= r; ++j) {
      const double dist = std::sqrt(static_cast<double>(i) * i + static_cast<double>(j) * j);
      if (dist > r) continue;
      d.space.push_back(static_cast<float>(std::exp(dist * dist * d.space_coeff)));
      d.dy.push_back(i);
      d.dx.push_back(j);
    }
}

detail::BilateralColor detail::bilateral_color_u8(const BilateralDesc& d, int channels) {
  BilateralColor c;
  c.table.resize(static_cast<std::size_t>(256 * channels));
  for (int i = 0; i < 256 * channels; ++i)
    c.table[static_cast<std::size_t>(i)] =
        static_cast<float>(std::exp(static_cast<double>(i) * i * d.color_coeff));
  return c;
}

detail::BilateralColor detail::bilateral_color_f32(const BilateralDesc& d, int channels,
                                                   bool any_finite, float lo, float hi) {
  BilateralColor c;
  if (d.border.border == Border::constant) {
    // Distances to the border value stay inside the table.
    const float v = d.border.value[0];
    if (!any_finite) lo = hi = v;
    any_finite = true;
    for (int k = 0; k < channels; ++k) {
      lo = std::fmin(lo, d.border.value[k]);
      hi = std::fmax(hi, d.border.value[k]);
    }
  }
  if (!any_finite || std::abs(static_cast<double>(lo) - static_cast<double>(hi)) < FLT_EPSILON) {
    c.copy = true;
    return c;
  }
  // OpenCV's construction (bilateralFilter_32f): float len and scale, double exponent; entries
  // after the first zero stay zero.
  const float len = static_cast<float>(static_cast<double>(hi) - static_cast<double>(lo)) *
                    static_cast<float>(channels);
  c.bins = 4096 * channels;
  c.scale = static_cast<float>(c.bins) / len;
  c.table.assign(static_cast<std::size_t>(c.bins) + 2, 0.0f);
  float last = 1.0f;
  for (int i = 0; i < c.bins + 2 && last > 0.0f; ++i) {
    const double v = static_cast<float>(i) / c.scale;
    last = static_cast<float>(std::exp(v * v * d.color_coeff));
    c.table[static_cast<std::size_t>(i)] = last;
  }
  return c;
}

void bilateral_filter(const ImageView& src, const ImageView& dst, const BilateralParams& p,
                      void* stream) {
  const char* op = "bilateral_filter";
  check_io(op, src, dst, false);
  if (src.type != ElemType::u8 && src.type != ElemType::f32)
    fail(ErrorCode::Unsupported, op, "element type is not supported", to_string(src.type),
         "u8 or f32");
  if (src.channels != 1 && src.channels != 3)
    fail(ErrorCode::Unsupported, op, "channel count is not supported", std::to_string(src.channels),
         "1 or 3");
  detail::BilateralDesc d;
  d.radius = detail::bilateral_radius(op, detail::Naming::api, p);
  d.color_coeff = -0.5 / (p.sigma_color * p.sigma_color);
  d.space_coeff = -0.5 / (p.sigma_space * p.sigma_space);
  if (static_cast<unsigned>(p.border.border) > static_cast<unsigned>(Border::wrap))
    fail(kInvalid, op, "border mode is not valid",
         std::to_string(static_cast<int>(p.border.border)),
         "constant, replicate, reflect, reflect101 or wrap");
  d.border.border = p.border.border;
  for (int c = 0; c < 4; ++c) {
    if (!std::isfinite(p.border.value[c]))
      fail(kInvalid, op, "border value must be finite", num(p.border.value[c]), "a finite number");
    d.border.value[c] = detail::border_value_for(src.type, p.border.value[c]);
  }
  detail::bilateral_disc(d);
  if (src.location == Location::device)
    TEXCV_CUDA("bilateral_filter", cuda::bilateral_filter(src, dst, d, stream));
  else
    cpu::bilateral_filter(src, dst, d);
}

namespace reg {

void declare_bilateral_filter(std::vector<OpEntry>& ops) {
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

}  // namespace reg
}  // namespace texcv
