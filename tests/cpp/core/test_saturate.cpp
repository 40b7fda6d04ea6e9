// detail::saturate (src/core/sampling.hpp), the rounding of every integer output of the CPU
// backend: branch-free on the host (a clamp, then one float addition of 1.5 * 2^23 whose low
// mantissa bits are the rounded value) so that the row loops vectorize. Checked here against the
// definition it replaces (OpenCV's saturate_cast: 0 for NaN and v <= 0, the maximum from it up,
// else round to nearest, half to even, by std::nearbyint) for EVERY float bit pattern.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "src/core/sampling.hpp"

namespace {

template <typename T>
T reference(float v) {
  constexpr float kMax = sizeof(T) == 1 ? 255.0f : 65535.0f;
  if (!(v > 0.0f)) return T(0);
  if (v >= kMax) return T(kMax);
  return static_cast<T>(std::nearbyint(v));
}

TEST(Saturate, EqualsRoundHalfEvenWithClampsForEveryFloat) {
  unsigned long bad8 = 0, bad16 = 0;
  std::uint32_t first8 = 0, first16 = 0;
  std::uint32_t u = 0;
  do {
    const float v = std::bit_cast<float>(u);
    if (texcv::detail::saturate<std::uint8_t>(v) != reference<std::uint8_t>(v) && bad8++ == 0)
      first8 = u;
    if (texcv::detail::saturate<std::uint16_t>(v) != reference<std::uint16_t>(v) && bad16++ == 0)
      first16 = u;
  } while (++u != 0);
  EXPECT_EQ(bad8, 0u) << "first mismatch at float bits 0x" << std::hex << first8;
  EXPECT_EQ(bad16, 0u) << "first mismatch at float bits 0x" << std::hex << first16;
}

TEST(Saturate, HandPickedValues) {
  using texcv::detail::saturate;
  EXPECT_EQ(saturate<std::uint8_t>(0.5f), 0);  // half to even
  EXPECT_EQ(saturate<std::uint8_t>(1.5f), 2);
  EXPECT_EQ(saturate<std::uint8_t>(2.5f), 2);
  EXPECT_EQ(saturate<std::uint8_t>(254.5f), 254);
  EXPECT_EQ(saturate<std::uint8_t>(254.51f), 255);
  EXPECT_EQ(saturate<std::uint8_t>(1e30f), 255);
  EXPECT_EQ(saturate<std::uint8_t>(-3.0f), 0);
  EXPECT_EQ(saturate<std::uint8_t>(std::nanf("")), 0);
  EXPECT_EQ(saturate<std::uint16_t>(65534.5f), 65534);
  EXPECT_EQ(saturate<std::uint16_t>(65535.7f), 65535);
  EXPECT_EQ(saturate<std::uint16_t>(-INFINITY), 0);
  EXPECT_EQ(saturate<std::uint16_t>(INFINITY), 65535);
}

}  // namespace
