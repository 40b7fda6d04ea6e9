// CPU backend: affine and perspective warps (destination -> source maps from src/core).
#include "src/cpu/dispatch.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

template <typename T, int C, class Map>
void warp_rows(const ImageView& src, const ImageView& dst, const Map& map,
               const sd::SamplingDesc& sp) {
  const auto s = detail::source_of<T, C>(src);
  TEXCV_OMP_PARALLEL_FOR_IF(static_cast<long>(dst.width) * dst.height)
  for (int y = 0; y < dst.height; ++y) {
    T* drow = dst.row<T>(y);
    for (int x = 0; x < dst.width; ++x) {
      double sx, sy;  // exact far from the origin (sampling.hpp's coord_fraction)
      float out[C];
      map(x, y, sx, sy);
      sd::sample<C>(s, sx, sy, sp.interp, sp.border, sp.border_value, out);
      sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
    }
  }
}

}  // namespace

void warp(const ImageView& src, const ImageView& dst, const WarpDesc& d) {
  const char* op = d.kind == sd::WarpKind::affine ? "warp_affine" : "warp_perspective";
  detail::dispatch(src.type, src.channels, op, [&](auto tag, auto ch) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(ch)::value;
    if (d.kind == sd::WarpKind::affine) {
      warp_rows<T, C>(src, dst, d.affine, d.sampling);
    } else {
      warp_rows<T, C>(src, dst, d.perspective, d.sampling);
    }
  });
}

}  // namespace texcv::cpu
