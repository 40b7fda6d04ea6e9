// resize (include/texcv/ops/resize.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/resize.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/geometry_common.hpp"

namespace texcv {

using namespace geometry_common;  // NOLINT: what the geometry ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

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

}  // namespace

void detail::check_resize(const char* op, Naming n, const ResizeParams& p) {
  check_interp(op, p.interp, true);
  if (p.interp == Interp::area && p.align_corners) {
    if (n == Naming::api)
      fail(ErrorCode::Unsupported, op, "align_corners is not supported with area interpolation",
           "area", "nearest, linear or cubic");
    fail(ErrorCode::Unsupported, op,
         "parameter 'align_corners' is not supported with area interpolation",
         "align_corners=true with interp=area",
         "interp=nearest, linear or cubic, or align_corners=false");
  }
  check_factor(op, "fx", p.fx);
  check_factor(op, "fy", p.fy);
}

void resize(const ImageView& src, const ImageView& dst, const ResizeParams& p, void* stream) {
  const char* op = "resize";
  check_pair(op, src, dst);
  ResizeDesc d;
  d.sampling =
      make_sampling(op, src, p.interp, p.border, p.border_value, p.precision, p.path, true);
  detail::check_resize(op, Naming::api, p);
  d.align_corners = p.align_corners;
  // The factor form: dst must have cv::resize's size for the factors (it ignores them when also
  // given a dsize; a mismatch here is an error, so that the factors mean what they mean to
  // cv::resize(src, dst, Size(), fx, fy)).
  if (p.fx > 0) check_factor_size(op, "width", "fx", src.width, dst.width, p.fx);
  if (p.fy > 0) check_factor_size(op, "height", "fy", src.height, dst.height, p.fy);
  // As cv::resize: inv_scale = dst / src (the size form) or the factor, and the coordinate step
  // scale = 1 / inv_scale (linear, cubic and area use 1 / fx in the factor form). A dst of the
  // source's size is a copy in cv::resize whatever the factors: the size ratio (1) then.
  const bool same_size = dst.width == src.width && dst.height == src.height;
  d.inv_scale_x = p.fx > 0 && !same_size ? p.fx : static_cast<double>(dst.width) / src.width;
  d.inv_scale_y = p.fy > 0 && !same_size ? p.fy : static_cast<double>(dst.height) / src.height;
  d.scale_x = 1.0 / d.inv_scale_x;
  d.scale_y = 1.0 / d.inv_scale_y;
  if (p.align_corners) {
    // With one destination pixel there is no span to align: it samples source pixel 0.
    const double sx = dst.width > 1 ? static_cast<double>(src.width - 1) / (dst.width - 1) : 0.0;
    const double sy = dst.height > 1 ? static_cast<double>(src.height - 1) / (dst.height - 1) : 0.0;
    d.ax = {sx, true, 0, dst.width - 1};
    d.ay = {sy, true, 0, dst.height - 1};
  } else {
    // Interp::nearest uses the sizes' 16.16 step in both forms: cv::INTER_NEAREST_EXACT ignores
    // the factors (measured with OpenCV 4.6).
    d.ax = {d.scale_x, false, detail::nearest_fixed_step(src.width, dst.width)};
    d.ay = {d.scale_y, false, detail::nearest_fixed_step(src.height, dst.height)};
  }
  if (src.location == Location::host) {
    cpu::resize(src, dst, d);
  } else {
    TEXCV_CUDA("resize", cuda::resize(src, dst, d, stream));
  }
}

Rect resized_size(int width, int height, double fx, double fy) {
  const char* op = "resized_size";
  if (width < 1)
    fail(ErrorCode::InvalidArgument, op, "width must be positive", std::to_string(width), "> 0");
  if (height < 1)
    fail(ErrorCode::InvalidArgument, op, "height must be positive", std::to_string(height), "> 0");
  for (const auto& [name, f] : {std::pair<const char*, double>{"fx", fx}, {"fy", fy}}) {
    if (!std::isfinite(f) || !(f > 0)) {
      std::string what(name);
      what.append(" must be finite and positive");
      fail(ErrorCode::InvalidArgument, op, what.c_str(), short_num(f), "a finite factor > 0");
    }
  }
  Rect r;
  r.width = factor_size(op, "width", "fx", width, fx);
  r.height = factor_size(op, "height", "fy", height, fy);
  return r;
}

namespace reg {

void declare_resize(std::vector<OpEntry>& ops) {
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
  ps.push_back(p_int("height", "", 1, "output height; alone, the width follows the aspect ratio"));
  ps.push_back(p_float("fx", "",
                       "horizontal scale factor, as cv::resize's fx: output width = round(width "
                       "* fx), source x = (x + 0.5) / fx - 0.5 (fy missing: 1)",
                       0, true));
  ps.push_back(p_float("fy", "", "vertical scale factor, as fx (fx missing: 1)", 0, true));
  ps.push_back(p_bool("align_corners", "false",
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

}  // namespace reg
}  // namespace texcv
