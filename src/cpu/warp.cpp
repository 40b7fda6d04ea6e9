// CPU backend: the warp engine of warp_affine, warp_perspective and rotate (an affine warp):
// destination -> source maps from src/core.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

// Output tiles, in parallel: a rotation's output row crosses one source row per pixel or so
// (4,096 pages of a 4096^2 u8 source for a 30 degree turn), and row-by-row order missed the TLB
// and caches on nearly every tap; a tile's source footprint is a few hundred rows at most
// (4096^2 f32 rotate 30 linear on 2 cores: 127 -> 81 ms with 32 x 64 tiles). Each tile row is
// one call of the vector row (simd_warp.cpp), whose set-up a 64-pixel row barely amortized:
// 128 x 256 tiles took the same rotation (AMD EPYC, 2 threads, medians of 15) from 64-74 to
// 30-36 ms, u8 linear 39-43 -> 30-36, u8 cubic 56-62 -> 42-51 (64 x 256: 38-39, 40-42, 50-54;
// 256 x 256: 30-43, 39, 48). Smaller images halve the tile (height first, then width, down to
// 16 x 64) until every thread has 4 tiles to share out.
constexpr int kTileH = 128, kTileW = 256;
constexpr int kMinTileH = 16, kMinTileW = 64;

template <typename T, int C, Interp IP, class Map>
void warp_tiles(const ImageView& src, const ImageView& dst, const Map& map,
                const sd::SamplingDesc& sp) {
  const auto s = detail::source_of<T, C>(src);
  const long pixels = static_cast<long>(dst.width) * dst.height;
  const long want = 4L * detail::parallel_threads(pixels);
  int tile_h = kTileH, tile_w = kTileW;
  const auto count = [&] {
    return static_cast<long>((dst.width + tile_w - 1) / tile_w) *
           ((dst.height + tile_h - 1) / tile_h);
  };
  while (count() < want && (tile_h > kMinTileH || tile_w > kMinTileW)) {
    if (tile_h > kMinTileH)
      tile_h /= 2;
    else
      tile_w /= 2;
  }
  const int tw = (dst.width + tile_w - 1) / tile_w;
  const long tiles = count();
  TEXCV_OMP_PARALLEL_FOR_N(pixels, tiles)
  for (long t = 0; t < tiles; ++t) {
    const int y0 = static_cast<int>(t / tw) * tile_h, x0 = static_cast<int>(t % tw) * tile_w;
    const int y1 = std::min(y0 + tile_h, dst.height), x1 = std::min(x0 + tile_w, dst.width);
    for (int y = y0; y < y1; ++y) {
      T* drow = dst.row<T>(y);
      // Highway's vectors (simd.hpp) where they cover the case; the loop below otherwise.
      const simd::WarpRow r{static_cast<const unsigned char*>(src.data),
                            src.pitch,
                            src.width,
                            src.height,
                            map.m,
                            std::is_same_v<Map, sd::PerspectiveMap>,
                            y,
                            x0,
                            x1,
                            sp.border,
                            sp.border_value[0],
                            sp.border_value};
      if constexpr (C == 1 && IP == Interp::linear) {
        if (simd::warp_linear_row(r, drow)) continue;
      }
      if constexpr (std::is_same_v<T, std::uint8_t> && IP == Interp::cubic) {
        if (simd::warp_cubic_row(r, C, drow)) continue;
      }
      for (int x = x0; x < x1; ++x) {
        double sx, sy;  // exact far from the origin (sampling.hpp's coord_fraction)
        float out[C];
        map(x, y, sx, sy);
        if constexpr (IP == Interp::nearest)
          sd::sample_nearest<C>(s, sx, sy, sp.border, sp.border_value, out);
        else if constexpr (IP == Interp::cubic)
          sd::sample_cubic<C>(s, sx, sy, sp.border, sp.border_value, out);
        else
          sd::sample_linear<C>(s, sx, sy, sp.border, sp.border_value, out);
        sd::store<T, C>(drow + static_cast<std::size_t>(x) * C, out);
      }
    }
  }
}

template <typename T, int C, class Map>
void warp_rows(const ImageView& src, const ImageView& dst, const Map& map,
               const sd::SamplingDesc& sp) {
  switch (sp.interp) {
    case Interp::nearest:
      return warp_tiles<T, C, Interp::nearest>(src, dst, map, sp);
    case Interp::cubic:
      return warp_tiles<T, C, Interp::cubic>(src, dst, map, sp);
    default:
      return warp_tiles<T, C, Interp::linear>(src, dst, map, sp);
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
