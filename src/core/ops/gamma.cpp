// gamma (include/texcv/ops/gamma.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/gamma.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

void gamma(const ImageView& src, const ImageView& dst, double g, void* stream) {
  const char* op = "gamma";
  check_views(op, src, dst);
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  if (!(g > 0.0) || !std::isfinite(g))
    fail(ErrorCode::InvalidArgument, op, "gamma must be positive and finite", num(g), "> 0");
  if (src.location == Location::device)
    return TEXCV_CUDA("gamma", cuda::gamma(src, dst, g, stream));
  cpu::gamma(src, dst, g);
}

namespace reg {

void declare_gamma(std::vector<OpEntry>& ops) {
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

}  // namespace reg
}  // namespace texcv
