// histogram on the CUDA backend: the CPU backend's counts, bin for bin (cuda/hist_test_util.hpp),
// with edge values, NaN and infinities, and counters too many for shared memory.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "cuda/hist_test_util.hpp"
#include "texcv/texcv.hpp"

namespace texcv::hist_cuda_test {
namespace {

struct HistCase {
  int bins;
  double lo, hi;
};

void expect_same_histogram(const std::string& what, const Image& host, int bins,
                           std::array<double, 2> range) {
  const auto want = histogram(host, bins, range);
  for (int layout : {0, 1}) {
    SCOPED_TRACE(what + (layout ? " (offset sub-view)" : " (whole image)"));
    const int o = layout ? 5 : 0;
    Image owner(host.width() + 2 * o, host.height() + o, host.channels(), host.type(),
                Location::device);
    // A poisoned frame: its u8/u16 elements (0xA5...) would be counted if they were read.
    test::poison(owner);
    const ImageView dsrc = owner.view().roi({o, o, host.width(), host.height()});
    texcv::copy(host, dsrc);
    const auto got = histogram(dsrc, bins, range);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t c = 0; c < want.size(); ++c) {
      ASSERT_EQ(got[c].size(), want[c].size());
      long differ = 0;
      for (std::size_t b = 0; b < want[c].size(); ++b) differ += got[c][b] != want[c][b];
      EXPECT_EQ(differ, 0) << "channel " << c << ": bins that differ from the CPU's counts";
    }
  }
}

TEST(HistCuda, HistogramIdenticalToCpu) {
  TEXCV_REQUIRE_GPU();
  // Per type: the full range, coarse bins, a partial range with fractional edges (values below
  // and above it, the top edge itself excluded), more bins than values, and counters too many for
  // shared memory (global 64-bit atomics).
  const std::vector<HistCase> u8_cases = {{256, 0, 256}, {16, 0, 256}, {7, 10.5, 200.25},
                                          {300, 0, 256}, {1, 0, 1},    {20000, 0, 256}};
  const std::vector<HistCase> u16_cases = {
      {65536, 0, 65536}, {100, 1000, 60000}, {64, 0, 65535}, {4096, 0, 65536}, {3, 7.5, 7.75}};
  const std::vector<HistCase> f32_cases = {
      {10, 0, 1}, {37, -0.25, 1.25}, {5, 0.2, 0.8}, {50000, -0.5, 1.5}, {1, -1e30, 1e30}};
  std::uint32_t seed = 3000;
  for (const Size& sz : kSizes)
    for (ElemType t : kTypes)
      for (int c : kChannels) {
        Image src = random_of(sz, t, c, ++seed);
        const auto& cases = t == ElemType::u8    ? u8_cases
                            : t == ElemType::u16 ? u16_cases
                                                 : f32_cases;
        for (const HistCase& hc : cases) {
          // Edge values in the image: exactly lo and hi (hi is outside), and for f32 NaN and
          // infinities (never counted, or counted by the CPU's rule).
          Image img = src.clone();
          set_row(img, 0, hc.lo);
          set_row(img, 1, hc.hi);
          if (t == ElemType::f32) {
            set_elem(img, 0, 2, 0, std::numeric_limits<double>::quiet_NaN());
            set_elem(img, 1, 2, c - 1, std::numeric_limits<double>::infinity());
            set_elem(img, 2, 2, 0, -std::numeric_limits<double>::infinity());
          }
          expect_same_histogram(std::string("histogram ") + to_string(t) + " x" +
                                    std::to_string(c) + " " + size_str(sz) + " bins " +
                                    std::to_string(hc.bins) + " [" + std::to_string(hc.lo) + ", " +
                                    std::to_string(hc.hi) + ")",
                                img, hc.bins, {hc.lo, hc.hi});
        }
      }
}

}  // namespace
}  // namespace texcv::hist_cuda_test
