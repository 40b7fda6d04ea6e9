// detail::dyadic_int_store / dyadic_int_round (src/core/dyadic_round.hpp), the integer u8 store
// of the CUDA dp4a filter kernel: wherever dyadic_int_store accepts (e, scale, delta), the byte it
// gives for every integer sum acc must be the float store's (float(acc) * 2^-e * scale + delta,
// then detail::saturate, as the CPU backend and the float kernels store). Checked for every acc
// of a 5x5 kernel's range at each e it accepts, and its refusals where the float sum rounds.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "src/core/dyadic_round.hpp"
#include "src/core/sampling.hpp"

namespace {

using texcv::detail::dyadic_int_round;
using texcv::detail::dyadic_int_store;
using texcv::detail::DyadicIntStore;

std::uint8_t float_store(int acc, int e, float scale, float delta) {
  const float unit = std::ldexp(1.0f, -e);
  const float v = static_cast<float>(acc) * unit;
  return texcv::detail::saturate<std::uint8_t>(v * scale + delta);
}

std::uint8_t int_store(int acc, const DyadicIntStore& s) {
  const int r = dyadic_int_round(acc, s);
  return static_cast<std::uint8_t>(r < 0 ? 0 : r > 255 ? 255 : r);
}

// |acc| <= 25 taps * 128 * 255 (a 5x5 kernel of int8 taps on u8 values).
constexpr int kMaxAcc = 25 * 128 * 255;

TEST(DyadicRound, IntegerStoreEqualsTheFloatStoreForEverySum) {
  struct Case {
    int e;
    float delta;
  };
  const Case cases[] = {{0, 0.0f},  {1, 0.0f},       {2, 0.0f},   {4, 0.0f},  {7, 0.0f},
                        {8, 0.0f},  {12, 0.0f},      {20, 0.0f},  {24, 0.0f}, {0, 128.0f},
                        {0, -7.0f}, {0, 4194304.0f}, {0, -300.0f}};
  for (const Case& c : cases) {
    DyadicIntStore s;
    ASSERT_TRUE(dyadic_int_store(c.e, 1.0f, c.delta, s)) << "e " << c.e << " delta " << c.delta;
    long bad = 0;
    int first = 0;
    for (int acc = -kMaxAcc; acc <= kMaxAcc; ++acc)
      if (int_store(acc, s) != float_store(acc, c.e, 1.0f, c.delta) && bad++ == 0) first = acc;
    EXPECT_EQ(bad, 0) << "e " << c.e << " delta " << c.delta << ": first at acc " << first
                      << " (int " << int(int_store(first, s)) << ", float "
                      << int(float_store(first, c.e, 1.0f, c.delta)) << ")";
  }
}

TEST(DyadicRound, HandPickedTiesGoToEven) {
  DyadicIntStore s;
  ASSERT_TRUE(dyadic_int_store(1, 1.0f, 0.0f, s));
  EXPECT_EQ(dyadic_int_round(1, s), 0);    // 0.5
  EXPECT_EQ(dyadic_int_round(3, s), 2);    // 1.5
  EXPECT_EQ(dyadic_int_round(5, s), 2);    // 2.5
  EXPECT_EQ(dyadic_int_round(-1, s), 0);   // -0.5
  EXPECT_EQ(dyadic_int_round(-3, s), -2);  // -1.5
  ASSERT_TRUE(dyadic_int_store(4, 1.0f, 0.0f, s));
  EXPECT_EQ(dyadic_int_round(24, s), 2);  // 1.5
  EXPECT_EQ(dyadic_int_round(25, s), 2);  // 1.5625
  EXPECT_EQ(dyadic_int_round(23, s), 1);  // 1.4375
  ASSERT_TRUE(dyadic_int_store(0, 1.0f, -7.0f, s));
  EXPECT_EQ(dyadic_int_round(10, s), 3);
}

// Where the float sum v * scale + delta is not exact (or the scale not 1), the integer store
// would not give the float one's bytes: refused, the float store runs.
TEST(DyadicRound, RefusesWhereTheFloatStoreRounds) {
  DyadicIntStore s;
  EXPECT_FALSE(dyadic_int_store(0, 0.5f, 0.0f, s));
  EXPECT_FALSE(dyadic_int_store(0, 1.0f / 9.0f, 0.0f, s));
  EXPECT_FALSE(dyadic_int_store(4, 1.0f, 2.0f, s));   // e > 0 with a delta
  EXPECT_FALSE(dyadic_int_store(0, 1.0f, 0.5f, s));   // not an integer delta
  EXPECT_FALSE(dyadic_int_store(0, 1.0f, 1e7f, s));   // past 2^22
  EXPECT_FALSE(dyadic_int_store(25, 1.0f, 0.0f, s));  // past e = 24
  // Why a delta needs e = 0: with e = 24, acc = 2^23 - 1 and delta 1, the float sum
  // 1.5 - 2^-24 rounds to 1.5 (a tie, to even) and stores 2; the exact value rounds to 1.
  EXPECT_EQ(float_store((1 << 23) - 1, 24, 1.0f, 1.0f), 2);
}

}  // namespace
