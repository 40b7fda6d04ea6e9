// laplacian (include/texcv/ops/laplacian.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/laplacian.hpp"

#include <string>
#include <utility>
#include <vector>

#include "src/core/filter_common.hpp"

namespace texcv {

using namespace filter_common;  // NOLINT: what the filter ops share

namespace {

using namespace reg;  // NOLINT: the registry's internals (op_spec.hpp)

LaplacianParams laplacian_params(const Args& a) {
  return LaplacianParams{a.i("ksize"), a.f("scale"), a.f("delta"), filter_border(a)};
}

}  // namespace

void detail::check_laplacian(const char* op, Naming n, const LaplacianParams& p) {
  check_aperture(op, n, p.ksize, 5, "1, 3 or 5");
  check_scale_delta(op, n, p.scale, p.delta);
}

void laplacian(const ImageView& src, const ImageView& dst, const LaplacianParams& p, void* stream) {
  const char* op = "laplacian";
  check_io(op, src, dst, true);
  detail::check_laplacian(op, Naming::api, p);
  detail::Filter2DDesc d;
  if (p.ksize == 1) {
    d.kw = d.kh = 3;
    d.k = {0, 1, 0, 1, -4, 1, 0, 1, 0};
  } else if (p.ksize == 3) {
    d.kw = d.kh = 3;
    d.k = {2, 0, 2, 0, -8, 0, 2, 0, 2};
  } else {
    // d2/dx2 + d2/dy2 with the 5-tap Sobel kernels: s(y) d2(x) + d2(y) s(x).
    const std::vector<float> d2 = deriv_kernel(2, 5), s = deriv_kernel(0, 5);
    d.kw = d.kh = 5;
    d.k.resize(25);
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 5; ++x) d.k[y * 5 + x] = s[y] * d2[x] + d2[y] * s[x];
  }
  d.ax = d.kw / 2;
  d.ay = d.kh / 2;
  d.scale = static_cast<float>(p.scale);
  d.delta = static_cast<float>(p.delta);
  d.border = border_desc(op, src, p.border);
  run_2d(op, src, dst, d, stream);
}

namespace reg {

void declare_laplacian(std::vector<OpEntry>& ops) {
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

}  // namespace reg
}  // namespace texcv
