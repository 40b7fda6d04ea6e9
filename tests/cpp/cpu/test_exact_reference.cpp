// Issue 16, "Exact at every size": the CPU backend's resize, warp_affine, warp_perspective, rotate
// and remap against a float64 reference of the documented formulas (include/texcv/geometry.hpp,
// src/core/sampling.hpp, src/core/ops/<op>.cpp, docs/conventions.md), on images up to 65,535
// pixels wide (or tall) and sampling at coordinates up to ~70,000.
//
// The reference evaluates each documented formula in double everywhere: the source coordinate,
// the weights and the sums; then u8/u16 round half to even and saturate (NaN -> 0), f32 is kept
// as computed. Pixel selections that the documentation defines in integer arithmetic (resize's
// 16.16 fixed-point nearest) are evaluated with that integer formula; nearest in warps and remap
// is floor(v + 0.5) in double. Remap reads the f32 maps as given (the maps are the input, so a
// float map value is exact by definition).
//
// Bound (issue 16): |texcv - reference| <= 1 level for u8/u16, <= 1e-5 absolute for f32 (data in
// [0, 1]). Set TEXCV_EXACT_VERBOSE=1 to print the measured error of every combination.
//
// The reference, the comparison with the bound, the test data and the case tables are in
// tests/cpp/common/resample_ref.hpp (shared with tests/cpp/cuda/test_exact_cuda.cpp).
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "common/resample_ref.hpp"
#include "common/test_support.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv {
namespace {

using namespace test::ref;

// Runs texcv's resize and the reference on every type (and the given borders) for each pair.
void check_resize(const char* form, const Pair& s, ResizeParams p, int channels,
                  const std::vector<ElemType>& types, const std::vector<Border>& borders) {
  for (ElemType t : types) {
    const Image src = source(s.sw, s.sh, channels, t);
    const RefImage rs = to_ref(src);
    for (Border b : borders) {
      p.border = b;
      p.border_value = border_values(t);
      const std::string what = resize_label(form, s, p, t, channels);
      SCOPED_TRACE(what);
      Image dst(s.dw, s.dh, channels, t);
      test::poison(dst);
      if (!runs(what, [&] { resize(src, dst, p); })) continue;
      expect_exact(what, dst, ref_resize(rs, s.dw, s.dh, p));
    }
  }
}

// ---- the reference against hand-computed values ----

TEST(ExactReference, SelfCheckHandComputed) {
  // A 4-pixel row 10, 20, 40, 80 (f32).
  RefImage row;
  row.w = 4;
  row.h = 1;
  row.type = ElemType::f32;
  row.v = {10, 20, 40, 80};

  // Linear resize 4 -> 3: sx = (x + 0.5) * 4 / 3 - 0.5 = 1/6, 3/2, 17/6.
  ResizeParams lin;
  RefOut r = ref_resize(row, 3, 1, lin);
  EXPECT_NEAR(r.at(0, 0, 0), 10 * 5.0 / 6 + 20 * 1.0 / 6, 1e-12);
  EXPECT_NEAR(r.at(1, 0, 0), 30.0, 1e-12);
  EXPECT_NEAR(r.at(2, 0, 0), 40 * 1.0 / 6 + 80 * 5.0 / 6, 1e-12);
  // Enlarging 4 -> 8 with replicate: sx(0) = -0.25 is pixel 0; sx(7) = 3.75 is pixel 3.
  r = ref_resize(row, 8, 1, lin);
  EXPECT_EQ(r.at(0, 0, 0), 10.0);
  EXPECT_NEAR(r.at(1, 0, 0), 10 * 0.75 + 20 * 0.25, 1e-12);  // sx = 0.25
  EXPECT_EQ(r.at(7, 0, 0), 80.0);
  // ... with a constant border of 0: sx = -0.25 mixes 1/4 of the border.
  lin.border = Border::constant;
  r = ref_resize(row, 8, 1, lin);
  EXPECT_NEAR(r.at(0, 0, 0), 7.5, 1e-12);
  EXPECT_NEAR(r.at(7, 0, 0), 60.0, 1e-12);

  // Area 4 -> 3, cells of 4/3: (10 * 3/4 + 20 * 1/4), (20 + 40) / 2, (40 * 1/4 + 80 * 3/4).
  ResizeParams area;
  area.interp = Interp::area;
  r = ref_resize(row, 3, 1, area);
  EXPECT_NEAR(r.at(0, 0, 0), 12.5, 1e-12);
  EXPECT_NEAR(r.at(1, 0, 0), 30.0, 1e-12);
  EXPECT_NEAR(r.at(2, 0, 0), 70.0, 1e-12);
  // Area enlarging 2 -> 3: fractions 0, 0.5, 0 on pixels 0, 0, 1.
  RefImage two;
  two.w = 2;
  two.h = 1;
  two.type = ElemType::f32;
  two.v = {10, 30};
  r = ref_resize(two, 3, 1, area);
  EXPECT_EQ(r.at(0, 0, 0), 10.0);
  EXPECT_EQ(r.at(1, 0, 0), 20.0);
  EXPECT_EQ(r.at(2, 0, 0), 30.0);

  // Nearest in 16.16 fixed point: 2:1 ties take the lower pixel (0, 2 of 4); 5 -> 3 picks 0, 2, 4.
  ResizeParams nn;
  nn.interp = Interp::nearest;
  r = ref_resize(row, 2, 1, nn);
  EXPECT_EQ(r.at(0, 0, 0), 10.0);
  EXPECT_EQ(r.at(1, 0, 0), 40.0);
  RefImage five;
  five.w = 5;
  five.h = 1;
  five.type = ElemType::f32;
  five.v = {1, 2, 3, 4, 5};
  r = ref_resize(five, 3, 1, nn);
  EXPECT_EQ(r.at(0, 0, 0), 1.0);
  EXPECT_EQ(r.at(1, 0, 0), 3.0);
  EXPECT_EQ(r.at(2, 0, 0), 5.0);
  // align_corners nearest 3 -> 5: x / 2 = 0, 0.5, 1, 1.5, 2; ties go up: 0, 1, 1, 2, 2.
  const RefAxis ac{3, 5, 0, true, false};
  const long long ac_want[5] = {0, 1, 1, 2, 2};
  for (int x = 0; x < 5; ++x) EXPECT_EQ(ac.nearest(x), ac_want[x]) << x;
  // ... and the tie of 300 -> 65,535 at x = 32,767 (32,767 * 299 / 65,534 = 149.5).
  EXPECT_EQ((RefAxis{300, 65535, 0, true, false}.nearest(32767)), 150);
  // align_corners linear 4 -> 7: sx = x / 2.
  ResizeParams al;
  al.align_corners = true;
  r = ref_resize(row, 7, 1, al);
  const double al_want[7] = {10, 15, 20, 30, 40, 60, 80};
  for (int x = 0; x < 7; ++x) EXPECT_NEAR(r.at(x, 0, 0), al_want[x], 1e-12) << x;
  // Factor form fx = 0.75 on 4 px (3 px): sx = (x + 0.5) / 0.75 - 0.5, as the size form here.
  ResizeParams fac;
  fac.fx = 0.75;
  r = ref_resize(row, 3, 1, fac);
  EXPECT_NEAR(r.at(0, 0, 0), 10 * 5.0 / 6 + 20 * 1.0 / 6, 1e-12);
  EXPECT_NEAR(r.at(2, 0, 0), 40 * 1.0 / 6 + 80 * 5.0 / 6, 1e-12);

  // Cubic weights (a = -0.75): t = 0 is the pixel; t = 0.5 gives -0.09375, 0.59375 (x2), -0.09375.
  double w[4];
  ref_cubic_weights(0.0, w);
  EXPECT_EQ(w[0], 0.0);
  EXPECT_EQ(w[1], 1.0);
  EXPECT_EQ(w[2], 0.0);
  EXPECT_EQ(w[3], 0.0);
  ref_cubic_weights(0.5, w);
  EXPECT_DOUBLE_EQ(w[0], -0.09375);
  EXPECT_DOUBLE_EQ(w[1], 0.59375);
  EXPECT_DOUBLE_EQ(w[2], 0.59375);
  EXPECT_DOUBLE_EQ(w[3], -0.09375);
  ref_cubic_weights(0.25, w);  // as tests/cpp/cpu/test_geometry_cpu.cpp
  EXPECT_DOUBLE_EQ(w[0], -0.10546875);
  EXPECT_DOUBLE_EQ(w[1], 0.87890625);
  EXPECT_DOUBLE_EQ(w[2], 0.26171875);
  EXPECT_DOUBLE_EQ(w[3], -0.03515625);

  // Shift warps of "abcdefgh" (97..104) by 4 with nearest and each border: the pattern table of
  // docs/conventions.md, with the constant border 'i'.
  RefImage abc;
  abc.w = 8;
  abc.h = 1;
  abc.type = ElemType::u8;
  for (int i = 0; i < 8; ++i) abc.v.push_back('a' + i);
  const std::pair<Border, const char*> patterns[] = {
      {Border::constant, "iiiiabcdefghiiii"}, {Border::replicate, "aaaaabcdefghhhhh"},
      {Border::reflect, "dcbaabcdefghhgfe"},  {Border::reflect101, "edcbabcdefghgfed"},
      {Border::wrap, "efghabcdefghabcd"},
  };
  for (const auto& [b, want] : patterns) {
    Sampling sm;
    sm.interp = Interp::nearest;
    sm.border = b;
    sm.border_value = {'i', 0, 0, 0};
    // inverse_map: sx = x - 4 (+ 0.3, which nearest rounds away); the same shift given forward.
    for (bool inv : {true, false}) {
      const RefOut o = inv ? ref_warp_affine(abc, 16, 1, {1, 0, -3.7, 0, 1, 0}, true, sm)
                           : ref_warp_affine(abc, 16, 1, {1, 0, 3.7, 0, 1, 0}, false, sm);
      std::string got;
      for (int x = 0; x < 16; ++x) got.push_back(static_cast<char>(o.at(x, 0, 0)));
      EXPECT_EQ(got, want) << to_string(b) << (inv ? " inverse_map" : " forward");
    }
  }
  // Far outside, periodic (as CpuBorders.FarOutsideRepeatsPeriodically).
  EXPECT_EQ(ref_border_index(-9, 8, Border::reflect), 7);     // hgfedcba|abcdefgh: -9 -> h
  EXPECT_EQ(ref_border_index(-8, 8, Border::reflect101), 6);  // ghgfedcb|abcdefgh: -8 -> g
  EXPECT_EQ(ref_border_index(17, 8, Border::wrap), 1);
  EXPECT_EQ(ref_border_index(-3, 1, Border::reflect101), 0);

  // Linear shift warps, sx = x - 0.5 on the 4-pixel row: x = 0 is half border, half pixel 0.
  const std::pair<Border, double> edge[] = {{Border::constant, 0.5 * 7 + 0.5 * 10},
                                            {Border::replicate, 10},
                                            {Border::reflect, 10},
                                            {Border::reflect101, 0.5 * 20 + 0.5 * 10},
                                            {Border::wrap, 0.5 * 80 + 0.5 * 10}};
  for (const auto& [b, want] : edge) {
    Sampling sm;
    sm.border = b;
    sm.border_value = {7, 0, 0, 0};
    const RefOut o = ref_warp_affine(row, 5, 1, {1, 0, -0.5, 0, 1, 0}, true, sm);
    EXPECT_NEAR(o.at(0, 0, 0), want, 1e-12) << to_string(b);
    EXPECT_NEAR(o.at(1, 0, 0), 15.0, 1e-12) << to_string(b);
  }
  // Nearest ties go up: sx = 1.5 takes pixel 2.
  {
    Sampling sm;
    sm.interp = Interp::nearest;
    const RefOut o = ref_warp_affine(row, 1, 1, {1, 0, 1.5, 0, 1, 0}, true, sm);
    EXPECT_EQ(o.at(0, 0, 0), 40.0);
  }
  // Inverting a forward map: x' = 2 x + 1 -> x = 0.5 x' - 0.5.
  const std::array<double, 6> inv = ref_invert_affine({2, 0, 1, 0, 2, 0});
  EXPECT_EQ(inv[0], 0.5);
  EXPECT_EQ(inv[2], -0.5);
  EXPECT_EQ(inv[4], 0.5);
  const std::array<double, 9> inv3 = ref_invert_3x3({2, 0, 1, 0, 2, 0, 0, 0, 1});
  EXPECT_EQ(inv3[0], 0.5);
  EXPECT_EQ(inv3[2], -0.5);
  EXPECT_EQ(inv3[8], 1.0);
  // Perspective: w = 2 halves the coordinate.
  {
    Sampling sm;
    const RefOut o = ref_warp_perspective(row, 2, 1, {2, 0, 0, 0, 2, 0, 0, 0, 2}, true, sm);
    EXPECT_NEAR(o.at(1, 0, 0), 20.0, 1e-12);
  }
  // Rotation matrix as cv::getRotationMatrix2D plus the centre translation: 30 degrees of 5x3.
  const std::array<double, 6> rm = ref_rotation_matrix(5, 3, 5, 3, 30.0);
  const std::array<double, 6> tm = rotation_matrix(5, 3, 5, 3, 30.0);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(rm[i], tm[i], 1e-12) << i;
  EXPECT_NEAR(rm[0] * 2 + rm[1] * 1 + rm[2], 2.0, 1e-12);  // the centre (2, 1) stays

  // Rounding half to even and saturation.
  EXPECT_EQ(ref_store(2.5, ElemType::u8), 2.0);
  EXPECT_EQ(ref_store(3.5, ElemType::u8), 4.0);
  EXPECT_EQ(ref_store(-3.0, ElemType::u8), 0.0);
  EXPECT_EQ(ref_store(300.0, ElemType::u8), 255.0);
  EXPECT_EQ(ref_store(70000.0, ElemType::u16), 65535.0);
  EXPECT_EQ(ref_store(std::nan(""), ElemType::u16), 0.0);
  EXPECT_EQ(ref_border_value(17.5, ElemType::u8), 18.0);
  EXPECT_EQ(ref_border_value(90.5, ElemType::u8), 90.0);

  // And texcv agrees with the reference on these tiny cases (f32 data in [0, 1] for the 1e-5
  // bound: the row / 100).
  RefImage small = row;
  for (double& v : small.v) v /= 100.0;
  Image src4(4, 1, 1, ElemType::f32);
  for (int i = 0; i < 4; ++i) src4.view().row<float>(0)[i] = static_cast<float>(small.v[i]);
  small = to_ref(src4);  // the float values, read back exactly
  for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
    ResizeParams p;
    p.interp = ip;
    Image d3(3, 1, 1, ElemType::f32);
    resize(src4, d3, p);
    expect_exact(std::string("tiny resize 4 -> 3 ") + to_string(ip), d3,
                 ref_resize(small, 3, 1, p));
  }
  for (const auto& [b, want] : edge) {
    Sampling sm;
    sm.border = b;
    sm.border_value = {0.07, 0, 0, 0};
    Image d5(5, 1, 1, ElemType::f32);
    warp_affine(src4, d5, {1, 0, -0.5, 0, 1, 0}, true, sm);
    expect_exact(std::string("tiny shift warp linear ") + to_string(b), d5,
                 ref_warp_affine(small, 5, 1, {1, 0, -0.5, 0, 1, 0}, true, sm));
  }
}

// ---- resize ----

TEST(ExactResize, Nearest) {
  // Border cannot matter (nearest clamps into the image): replicate, the default, only.
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::nearest;
    check_resize("size", s, p, 1, kAllTypes, {Border::replicate});
  }
}

TEST(ExactResize, Linear) {
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::linear;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

TEST(ExactResize, Cubic) {
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::cubic;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

TEST(ExactResize, Area) {
  // Shrinking never reads outside the image; enlarging (or mixed) reads one pixel past the edge.
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::area;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

// The factor form: sx = (x + 0.5) / fx - 0.5 (area: cells of 1 / fx), dst of resized_size's size.
TEST(ExactResize, FactorForm) {
  struct F {
    int sw, sh;
    double fx, fy;
  };
  const F cases[] = {
      {16411, 2, 0.7317, 1.5},        // 12008 x 3: x shrinks, y enlarges
      {16411, 4, 0.7317, 0.5},        // 12008 x 2: both shrink (area's shrink path)
      {65535, 3, 0.732429, 0},        // 47999 x 3: fy = 0, y by the size ratio
      {65535, 2, 1.0 / 128.25, 0.5},  // 511 x 1: a large factor down
      {300, 2, 218.45, 1.0},          // 65535 x 2: a large factor up
      {4099, 2, 4.0037, 1.5},         // 16411 x 3: enlarging
      {3, 16411, 0.5, 0.7317},        // 2 x 12008: tall thin
  };
  for (const F& f : cases) {
    const Rect r = resized_size(f.sw, f.sh, f.fx, f.fy > 0 ? f.fy : 1.0);
    const Pair s{f.sw, f.sh, r.width, f.fy > 0 ? r.height : f.sh};  // fy = 0: any height
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
      ResizeParams p;
      p.interp = ip;
      p.fx = f.fx;
      p.fy = f.fy;
      check_resize("factor", s, p, 1, kAllTypes,
                   ip == Interp::nearest
                       ? std::vector<Border>{Border::replicate}
                       : std::vector<Border>{Border::replicate, Border::constant, Border::reflect});
    }
  }
}

// align_corners: sx = x * (sw - 1) / (dw - 1) (nearest: floor of that + 0.5).
TEST(ExactResize, AlignCorners) {
  const Pair pairs[] = {{257, 3, 181, 2},     {16411, 2, 12007, 3}, {4099, 2, 16411, 2},
                        {65535, 3, 47999, 2}, {300, 2, 65535, 2},   {2, 65535, 3, 47999}};
  for (const Pair& s : pairs)
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
      ResizeParams p;
      p.interp = ip;
      p.align_corners = true;
      check_resize("size", s, p, 1, kAllTypes,
                   ip == Interp::cubic ? kAllBorders : std::vector<Border>{Border::replicate});
    }
}

TEST(ExactResize, ThreeChannels) {
  for (Interp ip : {Interp::linear, Interp::cubic, Interp::area}) {
    ResizeParams p;
    p.interp = ip;
    check_resize("size", {16411, 2, 12007, 2}, p, 3, kAllTypes, {Border::replicate});
    check_resize("size", {4099, 2, 16411, 3}, p, 3, kAllTypes, {Border::constant});
  }
}

// ---- warps ----

void check_warp_affine(const std::string& name, int sw, int sh, int dw, int dh,
                       const std::array<double, 6>& m, bool inverse_map, Interp ip, int channels,
                       const std::vector<ElemType>& types, const std::vector<Border>& borders) {
  for (ElemType t : types) {
    const Image src = source(sw, sh, channels, t);
    const RefImage rs = to_ref(src);
    for (Border b : borders) {
      Sampling sm;
      sm.interp = ip;
      sm.border = b;
      sm.border_value = border_values(t);
      const std::string what = name + " " + to_string(ip) + " " + to_string(t) + "x" +
                               std::to_string(channels) + " border " + to_string(b) + " " +
                               size_str(sw, sh) + " -> " + size_str(dw, dh) +
                               (inverse_map ? " inverse_map" : " forward");
      SCOPED_TRACE(what);
      Image dst(dw, dh, channels, t);
      test::poison(dst);
      if (!runs(what, [&] { warp_affine(src, dst, m, inverse_map, sm); })) continue;
      expect_exact(what, dst, ref_warp_affine(rs, dw, dh, m, inverse_map, sm));
    }
  }
}

void warp_affine_all(Interp ip) {
  for (int w : kWidths) {
    check_warp_affine("warp_affine", w, kRows, w, kRows, affine_inverse_map(w), true, ip, 1,
                      kAllTypes, kAllBorders);
    check_warp_affine("warp_affine", w, kRows, w, kRows, affine_forward_map(w), false, ip, 1,
                      kAllTypes, kAllBorders);
  }
  // Tall and thin: 3 columns, 65,535 rows; the roles of x and y swapped.
  const int h = 65535;
  check_warp_affine("warp_affine tall", kRows, h, kRows, h,
                    {0.91, 1.5 / h, -0.27, 0.013, 1.37, -0.3 * h + 0.123}, true, ip, 1, kAllTypes,
                    kAllBorders);
  check_warp_affine("warp_affine tall", kRows, h, kRows, h,
                    {1.099, -1.1 / h, 0.31, -0.0104, 0.73, 0.25 * h + 0.4567}, false, ip, 1,
                    kAllTypes, kAllBorders);
}

TEST(ExactWarpAffine, Nearest) {
  warp_affine_all(Interp::nearest);
}
TEST(ExactWarpAffine, Linear) {
  warp_affine_all(Interp::linear);
}
TEST(ExactWarpAffine, Cubic) {
  warp_affine_all(Interp::cubic);
}

TEST(ExactWarpAffine, ThreeChannels) {
  const int w = 65535;
  for (Interp ip : {Interp::linear, Interp::cubic}) {
    check_warp_affine("warp_affine", w, 2, w, 2, affine_inverse_map(w), true, ip, 3, kAllTypes,
                      {Border::constant, Border::reflect101});
  }
}

TEST(ExactWarpPerspective, MildPerspective) {
  for (int w : kWidths) {
    // Destination to source: w' = 1 + 0.05 x / W (up to 1.05).
    const std::array<double, 9> inv = {
        1.37, 0.013, -0.3 * w + 0.123, 1.5 / w, 0.91, -0.27, 0.05 / w, 0.0, 1.0};
    // Source to destination, inverted by warp_perspective: sx spans about [-0.14 W, 1.2 W]. The
    // translation stays at 0.1 W: texcv calls a matrix singular when |det| <= 1e-12 (largest
    // |element|)^3 (docs/conventions.md), and with det ~0.8 a translation above ~9,300 trips that
    // rule (0.25 W did at W = 65,535).
    const std::array<double, 9> fwd = {
        0.73, -0.0104, 0.1 * w + 0.4567, -1.1 / w, 1.099, 0.31, -0.04 / w, 0.001, 1.0};
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (bool inverse_map : {true, false})
        for (ElemType t : kTypes) {
          const Image src = source(w, kRows, 1, t);
          const RefImage rs = to_ref(src);
          for (Border b : kBorders) {
            Sampling sm;
            sm.interp = ip;
            sm.border = b;
            sm.border_value = border_values(t);
            const std::string what = std::string("warp_perspective ") + to_string(ip) + " " +
                                     to_string(t) + " border " + to_string(b) + " " +
                                     size_str(w, kRows) +
                                     (inverse_map ? " inverse_map" : " forward");
            SCOPED_TRACE(what);
            const auto& m = inverse_map ? inv : fwd;
            Image dst(w, kRows, 1, t);
            test::poison(dst);
            if (!runs(what, [&] { warp_perspective(src, dst, m, inverse_map, sm); })) continue;
            expect_exact(what, dst, ref_warp_perspective(rs, w, kRows, m, inverse_map, sm));
          }
        }
  }
}

TEST(ExactRotate, SmallAngle) {
  // Small angles: sy moves by about 1.7 rows from the centre to either end; the rows beyond the
  // image come from the border. Plus a tall thin image (4 x 65,535).
  struct R {
    int w, h;
    double deg;
  };
  const R cases[] = {{257, 4, 0.75},     {4099, 4, 0.047},    {16411, 4, 0.0119},
                     {65535, 4, 0.0031}, {65535, 2, -0.0017}, {4, 65535, 0.0031}};
  for (const R& c : cases)
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (ElemType t : kTypes) {
        const Image src = source(c.w, c.h, 1, t);
        const RefImage rs = to_ref(src);
        const std::array<double, 6> m = ref_rotation_matrix(c.w, c.h, c.w, c.h, c.deg);
        for (Border b : kBorders) {
          Sampling sm;
          sm.interp = ip;
          sm.border = b;
          sm.border_value = border_values(t);
          char deg[32];
          std::snprintf(deg, sizeof deg, "%g deg", c.deg);
          const std::string what = std::string("rotate ") + deg + " " + to_string(ip) + " " +
                                   to_string(t) + " border " + to_string(b) + " " +
                                   size_str(c.w, c.h);
          SCOPED_TRACE(what);
          Image dst(c.w, c.h, 1, t);
          test::poison(dst);
          if (!runs(what, [&] { rotate(src, dst, c.deg, sm); })) continue;
          expect_exact(what, dst, ref_warp_affine(rs, c.w, c.h, m, false, sm));
        }
      }
}

TEST(ExactRemap, FloatMaps) {
  // Maps built in float by the test: the reference reads the map values as given.
  struct M {
    int w, h;
  };
  const M cases[] = {{257, 3}, {4099, 3}, {65535, 2}, {3, 65535}};
  for (const M& c : cases) {
    const bool tall = c.h > c.w;
    Image mx(c.w, c.h, 1, ElemType::f32), my(c.w, c.h, 1, ElemType::f32);
    const int n = tall ? c.h : c.w;  // the long side
    for (int y = 0; y < c.h; ++y)
      for (int x = 0; x < c.w; ++x) {
        const double along = tall ? y : x, across = tall ? x : y;
        const double a = 1.37 * along + 0.013 * across - 0.3 * n + 0.123 + 0.2 * std::sin(along);
        const double b = 0.91 * across + 1.5 * along / n - 0.27;
        mx.view().row<float>(y)[x] = static_cast<float>(tall ? b : a);
        my.view().row<float>(y)[x] = static_cast<float>(tall ? a : b);
      }
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (ElemType t : kTypes) {
        const Image src = source(c.w, c.h, 1, t);
        const RefImage rs = to_ref(src);
        for (Border b : kBorders) {
          Sampling sm;
          sm.interp = ip;
          sm.border = b;
          sm.border_value = border_values(t);
          const std::string what = std::string("remap ") + to_string(ip) + " " + to_string(t) +
                                   " border " + to_string(b) + " " + size_str(c.w, c.h);
          SCOPED_TRACE(what);
          Image dst(c.w, c.h, 1, t);
          test::poison(dst);
          if (!runs(what, [&] { remap(src, dst, mx, my, sm); })) continue;
          expect_exact(what, dst, ref_remap(rs, mx, my, sm));
        }
      }
  }
}

}  // namespace
}  // namespace texcv