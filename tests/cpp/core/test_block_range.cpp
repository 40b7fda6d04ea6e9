// The register filter kernels' second launch (src/cuda/ops/common/block_range.hpp): edge_block
// must map 0 .. edge_count() - 1 onto every block of the whole grid outside the interior range,
// each once, for every grid and range shape (empty ranges, ranges touching any side, ranges of
// the whole grid). Host code: runs without a GPU.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "src/cuda/ops/common/block_range.hpp"

namespace {

using texcv::cuda::ops::BlockRange;
using texcv::cuda::ops::edge_block;
using texcv::cuda::ops::interior_blocks;

void expect_edges_cover_the_rest(BlockRange r, int gx, int gy) {
  r.gx = gx;
  r.gy = gy;
  std::set<std::pair<int, int>> seen;
  for (long long i = 0; i < r.edge_count(); ++i) {
    int bx = -1, by = -1;
    edge_block(r, static_cast<int>(i), bx, by);
    ASSERT_TRUE(bx >= 0 && bx < gx && by >= 0 && by < gy)
        << "grid " << gx << "x" << gy << " block " << i << " -> (" << bx << ", " << by << ")";
    EXPECT_FALSE(!r.empty() && r.contains(bx, by))
        << "grid " << gx << "x" << gy << " edge block " << i << " is inside the range";
    EXPECT_TRUE(seen.insert({bx, by}).second)
        << "grid " << gx << "x" << gy << " block (" << bx << ", " << by << ") twice";
  }
  const long long inside = r.empty() ? 0 : static_cast<long long>(r.x1 - r.x0) * (r.y1 - r.y0);
  EXPECT_EQ(static_cast<long long>(seen.size()) + inside, static_cast<long long>(gx) * gy);
}

TEST(BlockRange, EdgeBlocksAreEveryBlockOutsideTheRangeOnce) {
  for (int gx = 1; gx <= 7; ++gx)
    for (int gy = 1; gy <= 6; ++gy) {
      expect_edges_cover_the_rest(BlockRange{}, gx, gy);
      for (int x0 = 0; x0 < gx; ++x0)
        for (int x1 = x0 + 1; x1 <= gx; ++x1)
          for (int y0 = 0; y0 < gy; ++y0)
            for (int y1 = y0 + 1; y1 <= gy; ++y1) {
              BlockRange r;
              r.x0 = x0;
              r.x1 = x1;
              r.y0 = y0;
              r.y1 = y1;
              expect_edges_cover_the_rest(r, gx, gy);
            }
    }
}

// An 8192^2 u8 image in the dp4a kernel's blocks (512 x 16 pixels, radius 4 taken as 4): the
// interior is 14 x 510 blocks of the 16 x 512 grid, 1,052 edge blocks instead of 8,192.
TEST(BlockRange, InteriorOfALargeImage) {
  BlockRange r = interior_blocks(8192, 8192, 32 * 16, 8 * 2, 4);
  EXPECT_EQ(r.x0, 1);
  EXPECT_EQ(r.x1, 15);
  EXPECT_EQ(r.y0, 1);
  EXPECT_EQ(r.y1, 511);
  r.gx = 16;
  r.gy = 512;
  EXPECT_EQ(r.edge_count(), 16 * 512 - 14 * 510);
  expect_edges_cover_the_rest(r, 16, 512);
}

}  // namespace
