// The register kernels' two launches (src/cuda/ops/filter/filter_kernels.cuh): the blocks whose
// whole source window lies inside the image run in one launch without any border code, every
// other block in a second launch. Host and device code (and the CPU tests) include this header.
#pragma once

#include "src/core/sampling.hpp"  // TEXCV_HD

namespace texcv::cuda::ops {

// The interior blocks (exclusive ranges of block indices of the whole grid): the first launch
// runs these (Interior = true; blockIdx offset by x0, y0). Splitting keeps the border paths
// (border_index, constant values) out of the hot kernel's code and registers. gx, gy: the whole
// grid, set for a second launch that enumerates only the blocks outside the range (edge_block;
// gx 0: the second launch covers the whole grid and skips the range's blocks, most of its blocks
// returning at once: 4-5 % slower on an H100's small filter rows, docs/performance.md).
struct BlockRange {
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  int gx = 0, gy = 0;
  TEXCV_HD bool empty() const { return x1 <= x0 || y1 <= y0; }
  TEXCV_HD bool contains(int bx, int by) const {
    return bx >= x0 && bx < x1 && by >= y0 && by < y1;
  }
  // Blocks of the whole grid outside the range (the second launch's grid).
  TEXCV_HD long long edge_count() const {
    const long long inside = empty() ? 0 : static_cast<long long>(x1 - x0) * (y1 - y0);
    return static_cast<long long>(gx) * gy - inside;
  }
};

// Blocks of bw x bh output pixels whose windows (radius r each side) lie inside width x height.
inline BlockRange interior_blocks(int width, int height, int bw, int bh, int r) {
  // first block b with b * bw >= r; last with b * bw + bw + r <= width (exclusive end)
  auto lo = [](int r_, int bs) { return (r_ + bs - 1) / bs; };
  auto hi = [](int extent, int bs, int r_) {
    return extent - r_ - bs >= 0 ? (extent - r_ - bs) / bs + 1 : 0;
  };
  BlockRange br;
  br.x0 = lo(r, bw);
  br.x1 = hi(width, bw, r);
  br.y0 = lo(r, bh);
  br.y1 = hi(height, bh, r);
  if (br.empty()) br = BlockRange{};
  return br;
}

// Block (bx, by) of the whole grid that edge block i (0 <= i < edge_count()) stands for: the rows
// above the range, then the rows beside it (the part left of it, then right of it), then the rows
// below, each row left to right.
TEXCV_HD void edge_block(const BlockRange& r, int i, int& bx, int& by) {
  const int gx = r.gx;
  if (!r.empty()) {
    const int top = r.y0 * gx;
    if (i >= top) {
      i -= top;
      const int side = r.x0 + (gx - r.x1), beside = side * (r.y1 - r.y0);
      if (i < beside) {
        const int row = i / side, c = i - row * side;
        by = r.y0 + row;
        bx = c < r.x0 ? c : r.x1 + (c - r.x0);
        return;
      }
      i -= beside;
      const int row = i / gx;
      by = r.y1 + row;
      bx = i - row * gx;
      return;
    }
  }
  by = i / gx;
  bx = i - by * gx;
}

}  // namespace texcv::cuda::ops
