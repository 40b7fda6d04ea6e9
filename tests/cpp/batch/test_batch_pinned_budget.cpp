// The pinned input pool's default budget (src/batch/engine.hpp, pinned_input_budget): 1/32 of the
// machine's memory, at least 1 GB and at most 4 GB. The CUDA workers' pool takes it from the
// machine's physical memory; these are the bounds on hand-picked sizes.
#include <gtest/gtest.h>

#include <cstdint>

#include "src/batch/engine.hpp"

namespace {

constexpr std::uint64_t kGB = std::uint64_t{1} << 30;

TEST(BatchPinnedBudget, IsAThirtySecondOfMemoryBetweenOneAndFourGigabytes) {
  using texcv::batch::pinned_input_budget;
  EXPECT_EQ(pinned_input_budget(0), kGB) << "memory unknown: the floor";
  EXPECT_EQ(pinned_input_budget(8 * kGB), kGB) << "a laptop: the floor, not 256 MB";
  EXPECT_EQ(pinned_input_budget(32 * kGB), kGB);
  EXPECT_EQ(pinned_input_budget(64 * kGB), 2 * kGB);
  EXPECT_EQ(pinned_input_budget(96 * kGB), 3 * kGB);
  EXPECT_EQ(pinned_input_budget(128 * kGB), 4 * kGB) << "the lent GPU machines";
  EXPECT_EQ(pinned_input_budget(2048 * kGB), 4 * kGB) << "a large host: the cap";
}

}  // namespace
