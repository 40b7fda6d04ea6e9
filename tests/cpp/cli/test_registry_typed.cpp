// The registry's typed entry points (texcv/registry.hpp: typed_output_format, run_into), which
// the Python package's generated functions call: typed values give the same pixels as the same
// step written as text, values are checked as declared (type, range, count, unknown and required
// keys) with the step's messages, and the op's own rules by its C++ API call with the C++ API's
// messages (the text front end names the step's parameters instead).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::ParamValues;
using texcv::TypedParams;
using texcv::test::error_of;

TEST(RegistryTyped, TypedValuesGiveTheTextStepsPixels) {
  const Image src = texcv::test::random_image(41, 27, 3, ElemType::u8, 5);
  const std::vector<std::pair<std::string, std::pair<ParamValues, TypedParams>>> cases = {
      {"resize", {{{"scale", "0.5"}, {"interp", "area"}}, {{"scale", 0.5}, {"interp", "area"}}}},
      {"resize", {{{"width", "20"}}, {{"width", std::int64_t{20}}}}},
      {"gaussian_blur", {{{"sigma", "1.5"}}, {{"sigma", 1.5}}}},
      {"gaussian_blur",
       {{{"sigma", "2"}}, {{"sigma", std::int64_t{2}}}}},  // an integer for a number
      {"warp_affine",
       {{{"m", "0.9|0.1|2|-0.1|1.1|3"}}, {{"m", std::vector<double>{0.9, 0.1, 2, -0.1, 1.1, 3}}}}},
      {"rotate", {{{"angle", "30"}, {"expand", "true"}}, {{"angle", 30.0}, {"expand", true}}}},
      {"box_filter",
       {{{"ksize", "5"}, {"anchor_x", "1"}, {"border_value", "7"}},
        {{"ksize", std::int64_t{5}}, {"anchor_x", std::int64_t{1}}, {"border_value", 7.0}}}},
      {"cvt_color", {{{"code", "rgb2gray"}}, {{"code", "rgb2gray"}}}},
      {"erode", {{{"shape", "ellipse"}, {"ksize", "5"}}, {{"shape", "ellipse"}, {"ksize", 5L}}}},
  };
  for (const auto& [name, values] : cases) {
    SCOPED_TRACE(name);
    const auto& [text, typed] = values;
    const Image want = texcv::apply(name, src, text);
    const texcv::OutputFormat f = texcv::typed_output_format(name, src, typed);
    ASSERT_EQ(f.width, want.width());
    ASSERT_EQ(f.height, want.height());
    ASSERT_EQ(f.channels, want.channels());
    ASSERT_EQ(f.type, want.type());
    Image got(f.width, f.height, f.channels, f.type);
    texcv::test::poison(got);
    texcv::run_into(name, src, got, typed);
    const texcv::test::Diff d = texcv::test::compare(got.view(), want.view());
    EXPECT_EQ(d.count, 0) << d.describe();
  }
}

TEST(RegistryTyped, ValuesAreCheckedAsDeclaredAndRulesWithTheApisNames) {
  const Image src = texcv::test::random_image(16, 12, 1, ElemType::u8, 6);
  Image dst(16, 12, 1, ElemType::u8);
  auto run = [&](const char* op, const TypedParams& p) {
    return error_of([&] { texcv::run_into(op, src, dst, p); });
  };
  EXPECT_EQ(
      run("median_blur", {{"ksize", 2.5}}),
      "median_blur: parameter 'ksize' has a bad value; got ksize=2.5, expected an integer >= 1");
  EXPECT_EQ(
      run("median_blur", {{"ksize", std::int64_t{0}}}),
      "median_blur: parameter 'ksize' is out of range; got ksize=0, expected an integer >= 1");
  EXPECT_EQ(run("median_blur", {{"size", std::int64_t{3}}}),
            "median_blur: parameter 'size' is unknown; got size=3, expected one of ksize");
  EXPECT_EQ(run("gamma", {}),
            "gamma: parameter 'gamma' is required; got no gamma, expected "
            "gamma=<a number > 0>");
  EXPECT_EQ(run("gaussian_blur", {{"border_value", std::vector<double>{1, 2, 3, 4, 5}}}),
            "gaussian_blur: parameter 'border_value' has the wrong number of values; got "
            "border_value=1|2|3|4|5 (5 numbers), expected 1 to 4 numbers separated by '|'");
  EXPECT_EQ(run("gamma", {{"gamma", std::string("x")}}),
            "gamma: parameter 'gamma' has a bad value; got gamma=x, expected a number > 0");
  // The op's rule with the C++ API's names; the same step as text names its parameter.
  EXPECT_EQ(run("median_blur", {{"ksize", std::int64_t{4}}}),
            "median_blur: ksize must be odd; got 4, expected an odd number from 1 to 255");
  EXPECT_EQ(error_of([&] {
              texcv::apply("median_blur", src, {{"ksize", "4"}});
            }),
            "median_blur: parameter 'ksize' must be odd; got ksize=4, expected an odd number "
            "from 1 to 255");
  // A choice by the enum's own parser.
  EXPECT_EQ(run("flip", {{"code", std::string("diagonal")}}),
            "flip: unknown name; got 'diagonal', expected one of horizontal, vertical, both");
  EXPECT_EQ(run("erode", {{"shape", std::string("disc")}}),
            "shape: unknown structuring element shape; got \"disc\", expected rect, ellipse or "
            "cross");
  // run_into: the destination gives the size, so resize needs none of its size parameters.
  Image half(8, 6, 1, ElemType::u8);
  texcv::run_into("resize", src, half, {});
  const Image want = texcv::apply("resize", src, {{"width", "8"}, {"height", "6"}});
  EXPECT_EQ(texcv::test::compare(half.view(), want.view()).count, 0);
  EXPECT_EQ(error_of([&] { texcv::typed_output_format("resize", src, {}); }),
            "resize: no output size given; got none of scale, width, height, fx, fy, expected "
            "scale=S, width=W and/or height=H, or fx=X and/or fy=Y");
}

TEST(RegistryTyped, ValueTextIsHowAStepWritesIt) {
  EXPECT_EQ(texcv::value_text(true), "true");
  EXPECT_EQ(texcv::value_text(std::int64_t{-3}), "-3");
  EXPECT_EQ(texcv::value_text(0.1), "0.1");
  EXPECT_EQ(texcv::value_text(std::string("area")), "area");
  EXPECT_EQ(texcv::value_text(std::vector<double>{1, 0.5, -2}), "1|0.5|-2");
}

TEST(RegistryTyped, SpecsSayWhatPythonTakes) {
  const texcv::OpSpec& resize = texcv::find_operation("resize");
  for (const char* p : {"width", "height"}) EXPECT_TRUE(resize.find(p)->positional) << p;
  for (const char* p : {"scale", "width", "height"})
    EXPECT_TRUE(resize.find(p)->shapes_output) << p;
  EXPECT_FALSE(resize.find("fx")->shapes_output);
  EXPECT_FALSE(resize.keeps_format);
  EXPECT_TRUE(texcv::find_operation("sobel").float_output);
  EXPECT_TRUE(texcv::find_operation("median_blur").keeps_format);
  EXPECT_FALSE(texcv::find_operation("cvt_color").keeps_format);
  for (const auto& op : texcv::operations()) EXPECT_FALSE(op.doc.empty()) << op.name;
}

}  // namespace
