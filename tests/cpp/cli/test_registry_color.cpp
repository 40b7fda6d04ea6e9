// The colour and intensity steps of the registry: apply() equals calling the C++ API directly
// (include/texcv/color.hpp) with an output of the right element type and channels, and the exact
// text of their parameter errors.
#include <gtest/gtest.h>

#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Error;
using texcv::ErrorCode;
using texcv::Image;

using texcv::test::error_of;

using texcv::test::expect_same;

TEST(RegistryColor, CvtColorOutputHasTheCodesChannels) {
  const Image rgb = texcv::test::random_image(13, 9, 3, ElemType::u8, 11);
  const Image gray = texcv::apply("cvt_color", rgb, {{"code", "rgb2gray"}});
  Image want_gray(13, 9, 1, ElemType::u8);
  texcv::cvt_color(rgb, want_gray, texcv::ColorCode::rgb2gray);
  expect_same(gray, want_gray);

  const Image g16 = texcv::test::random_image(7, 5, 1, ElemType::u16, 12);
  const Image rgba = texcv::apply("cvt_color", g16, {{"code", "gray2rgba"}});
  Image want_rgba(7, 5, 4, ElemType::u16);
  texcv::cvt_color(g16, want_rgba, texcv::ColorCode::gray2rgba);
  expect_same(rgba, want_rgba);

  const Image f = texcv::test::random_image(6, 4, 3, ElemType::f32, 13);
  const Image hsv = texcv::apply("cvt_color", f, {{"code", "bgr2hsv"}});
  Image want_hsv(6, 4, 3, ElemType::f32);
  texcv::cvt_color(f, want_hsv, texcv::ColorCode::bgr2hsv);
  expect_same(hsv, want_hsv);

  const Image bgra = texcv::test::random_image(5, 5, 4, ElemType::u8, 14);
  const Image g = texcv::apply("cvt_color", bgra, {{"code", "bgra2gray"}});
  Image want_g(5, 5, 1, ElemType::u8);
  texcv::cvt_color(bgra, want_g, texcv::ColorCode::bgra2gray);
  expect_same(g, want_g);
}

TEST(RegistryColor, CvtColorChoicesAreTheParsersNames) {
  const auto* code = texcv::find_operation("cvt_color").find("code");
  ASSERT_NE(code, nullptr);
  EXPECT_TRUE(code->required);
  ASSERT_EQ(code->choices.size(), 20u);
  for (const auto& c : code->choices) EXPECT_EQ(texcv::to_string(texcv::parse_color_code(c)), c);
  EXPECT_EQ(code->choices.front(), "rgb2bgr");
  EXPECT_EQ(code->choices.back(), "hsv2bgr");
}

TEST(RegistryColor, GammaEqualsDirectCall) {
  const Image src = texcv::test::random_image(11, 7, 3, ElemType::u16, 21);
  const Image got = texcv::apply("gamma", src, {{"gamma", "0.45"}});
  Image want(11, 7, 3, ElemType::u16);
  texcv::gamma(src, want, 0.45);
  expect_same(got, want);
}

TEST(RegistryColor, NormalizeEqualsDirectCall) {
  const Image src = texcv::test::random_image(9, 8, 3, ElemType::u8, 31);
  const Image got = texcv::apply("normalize", src, {{"alpha", "20"}, {"beta", "200"}});
  Image want(9, 8, 3, ElemType::u8);
  texcv::NormalizeParams p;
  p.alpha = 20;
  p.beta = 200;
  texcv::normalize(src, want, p);
  expect_same(got, want);

  const Image f = texcv::test::random_image(9, 8, 4, ElemType::f32, 32);
  const Image got_ms =
      texcv::apply("normalize", f, {{"mode", "mean_std"}, {"mean", "0.5"}, {"std", "0.25"}});
  Image want_ms(9, 8, 4, ElemType::f32);
  texcv::NormalizeParams q;
  q.mode = texcv::NormalizeMode::mean_std;
  q.mean = 0.5;
  q.std = 0.25;
  texcv::normalize(f, want_ms, q);
  expect_same(got_ms, want_ms);
}

TEST(RegistryColor, ConvertChangesTheElementType) {
  const Image src = texcv::test::random_image(10, 6, 3, ElemType::u8, 41);
  const Image f = texcv::apply("convert", src, {{"type", "f32"}, {"scale", "0.00392156862745098"}});
  Image want_f(10, 6, 3, ElemType::f32);
  texcv::convert(src, want_f, 0.00392156862745098);
  expect_same(f, want_f);

  const Image u16 = texcv::apply("convert", src, {{"type", "u16"}, {"scale", "257"}});
  Image want_u16(10, 6, 3, ElemType::u16);
  texcv::convert(src, want_u16, 257);
  expect_same(u16, want_u16);

  // Without type the output keeps the source's type.
  const Image same = texcv::apply("convert", src, {{"scale", "2"}, {"offset", "-10"}});
  Image want_same(10, 6, 3, ElemType::u8);
  texcv::convert(src, want_same, 2, -10);
  expect_same(same, want_same);
}

TEST(RegistryColor, ThresholdEqualsDirectCall) {
  const Image src = texcv::test::random_image(12, 7, 1, ElemType::u16, 51);
  // maxval defaults to the type's maximum (65535 for u16).
  const Image got = texcv::apply("threshold", src, {{"thresh", "30000.5"}});
  Image want(12, 7, 1, ElemType::u16);
  texcv::threshold(src, want, 30000.5, 65535, texcv::ThresholdType::binary);
  expect_same(got, want);

  const Image f = texcv::test::random_image(12, 7, 3, ElemType::f32, 52);
  const Image got_t =
      texcv::apply("threshold", f, {{"thresh", "0.4"}, {"maxval", "0.9"}, {"type", "tozero_inv"}});
  Image want_t(12, 7, 3, ElemType::f32);
  texcv::threshold(f, want_t, 0.4, 0.9, texcv::ThresholdType::tozero_inv);
  expect_same(got_t, want_t);

  const Image u8 = texcv::test::random_image(16, 16, 1, ElemType::u8, 53);
  const Image got_otsu = texcv::apply("threshold", u8, {{"type", "otsu"}});
  Image want_otsu(16, 16, 1, ElemType::u8);
  texcv::threshold(u8, want_otsu, 0, 255, texcv::ThresholdType::otsu);
  expect_same(got_otsu, want_otsu);
}

TEST(RegistryColor, EqualizeHistAndClaheEqualDirectCalls) {
  const Image src = texcv::test::random_image(24, 20, 1, ElemType::u8, 61);
  const Image eq = texcv::apply("equalize_hist", src, {});
  Image want_eq(24, 20, 1, ElemType::u8);
  texcv::equalize_hist(src, want_eq);
  expect_same(eq, want_eq);

  const Image s16 = texcv::test::random_image(24, 20, 1, ElemType::u16, 62);
  const Image cl =
      texcv::apply("clahe", s16, {{"clip_limit", "2"}, {"tiles_x", "3"}, {"tiles_y", "2"}});
  Image want_cl(24, 20, 1, ElemType::u16);
  texcv::ClaheParams p;
  p.clip_limit = 2;
  p.tiles_x = 3;
  p.tiles_y = 2;
  texcv::clahe(s16, want_cl, p);
  expect_same(cl, want_cl);
}

TEST(RegistryColor, ErrorMessages) {
  const Image rgb = texcv::test::random_image(4, 4, 3, ElemType::u8, 71);
  EXPECT_EQ(error_of([&] {
              texcv::apply("cvt_color", rgb, {{"code", "rgb2grey"}});
            }),
            "cvt_color: parameter 'code' has a bad value; got code=rgb2grey, expected one of "
            "rgb2bgr, rgba2bgra, rgb2gray, bgr2gray, rgba2gray, bgra2gray, gray2rgb, gray2rgba, "
            "rgb2yuv_bt601, rgb2yuv_bt601_limited, rgb2yuv_bt709, rgb2yuv_bt709_limited, "
            "yuv2rgb_bt601, yuv2rgb_bt601_limited, yuv2rgb_bt709, yuv2rgb_bt709_limited, rgb2hsv, "
            "bgr2hsv, hsv2rgb, hsv2bgr");
  EXPECT_EQ(error_of([&] { texcv::apply("cvt_color", rgb, {}); }),
            "cvt_color: parameter 'code' is required; got no code, expected code=<one of rgb2bgr, "
            "rgba2bgra, rgb2gray, bgr2gray, rgba2gray, bgra2gray, gray2rgb, gray2rgba, "
            "rgb2yuv_bt601, rgb2yuv_bt601_limited, rgb2yuv_bt709, rgb2yuv_bt709_limited, "
            "yuv2rgb_bt601, yuv2rgb_bt601_limited, yuv2rgb_bt709, yuv2rgb_bt709_limited, rgb2hsv, "
            "bgr2hsv, hsv2rgb, hsv2bgr>");
  EXPECT_EQ(
      error_of([&] {
        texcv::apply("convert", rgb, {{"type", "f64"}});
      }),
      "convert: parameter 'type' has a bad value; got type=f64, expected one of u8, u16, f32");
  EXPECT_EQ(error_of([&] {
              texcv::validate("gamma", {{"gamma", "0"}});
            }),
            "gamma: parameter 'gamma' is out of range; got gamma=0, expected a number > 0");
  EXPECT_EQ(error_of([&] {
              texcv::validate("threshold", {{"type", "binary"}});
            }),
            "threshold: parameter 'thresh' is required; got no thresh, expected thresh=<a "
            "number>, or type=otsu");
  EXPECT_EQ(error_of([&] {
              texcv::validate("clahe", {{"tiles_x", "0"}});
            }),
            "clahe: parameter 'tiles_x' is out of range; got tiles_x=0, expected an integer >= 1");
  // Image-dependent errors come from the operation itself: gray needs 3 channels.
  const Image gray = texcv::test::random_image(4, 4, 1, ElemType::u8, 72);
  EXPECT_THROW(texcv::apply("cvt_color", gray, {{"code", "rgb2gray"}}), Error);
}

TEST(RegistryColor, PipelineStepsParse) {
  const auto steps = texcv::parse_pipeline(
      "cvt_color:code=rgb2gray;threshold:type=otsu;convert:type=f32,scale=0.5;clahe;gamma:gamma=2");
  ASSERT_EQ(steps.size(), 5u);
  EXPECT_EQ(steps[0].params.at("code"), "rgb2gray");
  EXPECT_EQ(steps[2].params.at("type"), "f32");
  EXPECT_EQ(steps[3].name, "clahe");
  EXPECT_EQ(texcv::output_size("cvt_color", 30, 20, {{"code", "gray2rgb"}}).width, 30);
  // histogram returns counts, not an image: not a pipeline step.
  EXPECT_EQ(error_of([] { texcv::find_operation("histogram"); }).substr(0, 55),
            "registry: unknown operation; got 'histogram', expected ");
}

}  // namespace
