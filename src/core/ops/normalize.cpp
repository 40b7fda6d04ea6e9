// normalize (include/texcv/ops/normalize.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/normalize.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

NormalizeParams normalize_params(const Args& a) {
  NormalizeParams p;
  p.mode = parse_normalize_mode(a.e("mode"));
  p.alpha = a.f("alpha");
  p.beta = a.f("beta");
  p.mean = a.f("mean");
  p.std = a.f("std");
  return p;
}

}  // namespace

void detail::check_normalize(const char* op, Naming n, const NormalizeParams& p) {
  const bool api = n == Naming::api;
  if (p.mode == NormalizeMode::minmax) {
    if (!std::isfinite(p.alpha) || !std::isfinite(p.beta))
      fail(ErrorCode::InvalidArgument, op, "alpha and beta must be finite",
           api ? num(p.alpha) + ", " + num(p.beta)
               : "alpha=" + num(p.alpha) + ", beta=" + num(p.beta),
           "finite values");
    return;
  }
  if (p.mode != NormalizeMode::mean_std)
    fail(ErrorCode::InvalidArgument, op, "normalize mode is not valid",
         std::to_string(static_cast<int>(p.mode)), "minmax or mean_std");
  if (!std::isfinite(p.mean) || !(p.std >= 0.0) || !std::isfinite(p.std))
    fail(ErrorCode::InvalidArgument, op, "target mean must be finite and std >= 0",
         api ? num(p.mean) + ", " + num(p.std) : "mean=" + num(p.mean) + ", std=" + num(p.std),
         "a finite mean and a finite std >= 0");
}

void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& p, void* stream) {
  const char* op = "normalize";
  const bool dev = src.location == Location::device;
  check_views(op, src, dst);
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  detail::check_normalize(op, detail::Naming::api, p);
  if (p.mode == NormalizeMode::minmax) {
    // As cv::normalize(NORM_MINMAX): scale = (dmax - dmin) / (smax - smin) (0 when the range is
    // below DBL_EPSILON), shift = dmin - smin * scale, then convertTo in float.
    double smin = 0, smax = 0;
    if (dev)
      TEXCV_CUDA("normalize", cuda::min_max(src, smin, smax, stream));
    else
      cpu::min_max(src, smin, smax);
    const double dmin = std::fmin(p.alpha, p.beta), dmax = std::fmax(p.alpha, p.beta);
    double scale =
        (dmax - dmin) * (smax - smin > 2.220446049250313e-16 ? 1.0 / (smax - smin) : 0.0);
    double shift = dmin - smin * scale;
    if (src.type == ElemType::f32) {
      scale = static_cast<float>(scale);
      shift = static_cast<double>(static_cast<float>(dmin)) -
              static_cast<double>(static_cast<float>(smin * scale));
    }
    detail::ScaleDesc d;
    d.scale = static_cast<float>(scale);
    d.offset = static_cast<float>(shift);
    d.identity = false;
    if (dev) return TEXCV_CUDA("convert", cuda::convert(src, dst, d, stream));
    cpu::convert(src, dst, d);
    return;
  }
  double mean[4], sd[4];
  if (dev)
    TEXCV_CUDA("normalize", cuda::mean_std(src, mean, sd, stream));
  else
    cpu::mean_std(src, mean, sd);
  detail::AffineChannelDesc d;
  for (int c = 0; c < src.channels; ++c) {
    const double s = sd[c] > 0.0 ? p.std / sd[c] : 0.0;
    d.scale[c] = static_cast<float>(s);
    d.offset[c] = static_cast<float>(p.mean - mean[c] * s);
  }
  if (dev) return TEXCV_CUDA("normalize", cuda::affine_channels(src, dst, d, stream));
  cpu::affine_channels(src, dst, d);
}

namespace reg {

void declare_normalize(std::vector<OpEntry>& ops) {
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

}  // namespace reg
}  // namespace texcv
