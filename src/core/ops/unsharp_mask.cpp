// unsharp_mask (include/texcv/ops/unsharp_mask.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/unsharp_mask.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

UnsharpParams unsharp_params(const Args& a) {
  UnsharpParams p;
  p.sigma = a.f("sigma");
  p.ksize = a.i("ksize");
  p.amount = a.f("amount");
  p.threshold = a.f("threshold");
  p.border = filter_border(a);
  return p;
}

}  // namespace

GaussianAxes detail::resolve_unsharp(const char* op, Naming n, const UnsharpParams& p,
                                     std::optional<ElemType> type) {
  // One size and one sigma: the messages name them "ksize" and "sigma".
  const std::array<ParamName, 4> names{ParamName{"ksize", n}, ParamName{"ksize", n},
                                       ParamName{"sigma", n}, ParamName{"sigma", n}};
  const GaussianAxes g = gaussian_axes(op, n, names, p.ksize, p.ksize, p.sigma, p.sigma, type);
  check_finite(op, ParamName{"amount", n}, p.amount);
  check_finite(op, ParamName{"threshold", n}, p.threshold);
  if (p.threshold < 0)
    fail(kInvalid, op, ParamName{"threshold", n}.subject() + " must not be negative",
         ParamName{"threshold", n}.got(num(p.threshold)), ">= 0");
  return g;
}

void unsharp_mask(const ImageView& src, const ImageView& dst, const UnsharpParams& p,
                  void* stream) {
  const char* op = "unsharp_mask";
  check_io(op, src, dst, false);
  const GaussianAxes g = detail::resolve_unsharp(op, Naming::api, p, src.type);
  detail::UnsharpDesc d;
  d.blur.kx = gaussian_kernel(g.kx, g.sx);
  d.blur.ky = gaussian_kernel(g.ky, g.sy);
  d.blur.ax = g.kx / 2;
  d.blur.ay = g.ky / 2;
  d.blur.border = border_desc(op, src, p.border);
  d.amount = static_cast<float>(p.amount);
  d.threshold = static_cast<float>(p.threshold);
  if (src.location == Location::device)
    return TEXCV_CUDA("unsharp_mask", cuda::unsharp_mask(src, dst, d, stream));
  cpu::unsharp_mask(src, dst, d);
}

namespace reg {

void declare_unsharp_mask(std::vector<OpEntry>& ops) {
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

}  // namespace reg
}  // namespace texcv
