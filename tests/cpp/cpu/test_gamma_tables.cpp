// The tables of the CUDA backend's f32 gamma (src/cuda/ops/gamma/gamma_tables.hpp, written by
// gamma_tables.py): checked here on the host, so CI holds them without a GPU. Each entry must
// be the double nearest its exact value, computed again in long double (64-bit significand on
// x86-64: the exact value within 2^-63 relative): within half an ulp of double plus that.
#include <gtest/gtest.h>

#include <cmath>

#include "src/cuda/ops/gamma/gamma_tables.hpp"

namespace texcv::gamma_tables_test {
namespace {

struct Pair {
  double inv, t;
};

// |v - exact| within half of v's ulp (plus the long double's own error), in units of v's ulp.
double ulps_off(double v, long double exact) {
  const long double ulp = std::ldexp(1.0L, std::ilogb(v) - 52);
  return static_cast<double>(std::fabs(static_cast<long double>(v) - exact) / ulp);
}

TEST(GammaTables, EveryEntryIsTheNearestDouble) {
  static_assert(sizeof(long double) > sizeof(double), "needs a wider long double (x86-64)");
  const Pair log_tab[] = TEXCV_GAMMA_LOG;
  const double exp2_tab[] = TEXCV_GAMMA_EXP2;
  ASSERT_EQ(std::size(log_tab), 32u);
  ASSERT_EQ(std::size(exp2_tab), 32u);
  constexpr double kHalf = 0.5 + 1e-6;
  for (int i = 0; i < 32; ++i) {
    SCOPED_TRACE("entry " + std::to_string(i));
    // inv_i = 1 / c_i, c_i = 1 + (i + 0.5) / 32: the centre of the i-th 32nd of [1, 2).
    const long double inv = 64.0L / static_cast<long double>(65 + 2 * i);
    EXPECT_LE(ulps_off(log_tab[i].inv, inv), kHalf);
    // t_i = -log of the rounded inv_i itself.
    EXPECT_LE(ulps_off(log_tab[i].t, -std::log(static_cast<long double>(log_tab[i].inv))), kHalf);
    EXPECT_LE(ulps_off(exp2_tab[i], std::exp2(static_cast<long double>(i) / 32.0L)), kHalf);
  }
}

}  // namespace
}  // namespace texcv::gamma_tables_test
