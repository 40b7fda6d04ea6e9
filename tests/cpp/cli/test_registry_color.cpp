// The colour and intensity steps of the registry together: the exact text of their parameter
// errors, and pipelines of them parsed. Each op's own step: test_registry_<op>.cpp.
#include <gtest/gtest.h>

#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Error;
using texcv::Image;
using texcv::test::error_of;

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
