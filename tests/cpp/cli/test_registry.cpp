// The operation registry: the operations listed in order, list separators, the exact text of
// parsing and validation errors, apply() and apply_into() keeping the source's location and
// type, and pipelines split and parsed. Each geometric op's own step: test_registry_<op>.cpp.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::ParamValues;
using texcv::test::error_of;
using texcv::test::expect_same;

// Every operation name in registry order, as the "unknown operation" messages list them.
std::string all_names() {
  std::string s;
  for (const auto& op : texcv::operations()) s += (s.empty() ? "" : ", ") + op.name;
  return s;
}

TEST(Registry, ListsTheGeometryOperationsInOrder) {
  std::vector<std::string> names;
  for (const auto& op : texcv::operations()) names.push_back(op.name);
  // The geometry operations come first, in this order; other families follow.
  ASSERT_GE(names.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 6),
            (std::vector<std::string>{"resize", "warp_affine", "warp_perspective", "rotate", "flip",
                                      "crop"}));
  EXPECT_EQ(texcv::find_operation("rotate").params[0].name, "angle");
  EXPECT_TRUE(texcv::find_operation("warp_affine").find("m")->required);
  EXPECT_EQ(texcv::find_operation("resize").find("border")->default_value, "replicate");
  EXPECT_EQ(error_of([] { texcv::find_operation("remap"); }),
            "registry: unknown operation; got 'remap', expected one of " + all_names());
}

TEST(Registry, ListSeparatorsBarAndSpacesAreTheSame) {
  const Image src = texcv::test::random_image(16, 16, 1, ElemType::u8, 4);
  const Image a = texcv::apply("warp_affine", src, {{"m", "1|0|2|0|1|3"}, {"inverse_map", "1"}});
  const Image b = texcv::apply("warp_affine", src, {{"m", "1 0 2 0 1 3"}, {"inverse_map", "yes"}});
  Image want(16, 16, 1, ElemType::u8);
  texcv::warp_affine(src, want, {1, 0, 2, 0, 1, 3}, true, {});
  expect_same(a, want);
  expect_same(b, want);
}

TEST(Registry, ErrorMessages) {
  const Image src = texcv::test::random_image(8, 6, 1, ElemType::u8, 8);
  EXPECT_EQ(error_of([&] {
              texcv::apply("rotate", src, {{"angel", "30"}});
            }),
            "rotate: parameter 'angel' is unknown; got angel=30, expected one of angle, expand, "
            "interp, border, border_value, precision, path");
  EXPECT_EQ(error_of([&] { texcv::apply("rotate", src, {}); }),
            "rotate: parameter 'angle' is required; got no angle, expected angle=<a number>");
  EXPECT_EQ(error_of([&] {
              texcv::apply("rotate", src, {{"angle", "30deg"}});
            }),
            "rotate: parameter 'angle' has a bad value; got angle=30deg, expected a number");
  EXPECT_EQ(error_of([&] {
              texcv::apply("rotate", src, {{"angle", "nan"}});
            }),
            "rotate: parameter 'angle' has a bad value; got angle=nan, expected a number");
  EXPECT_EQ(error_of([&] {
              texcv::apply("rotate", src, {{"angle", "1"}, {"expand", "maybe"}});
            }),
            "rotate: parameter 'expand' has a bad value; got expand=maybe, expected true or false");
  EXPECT_EQ(error_of([&] {
              texcv::apply("resize", src, {{"scale", "-1"}});
            }),
            "resize: parameter 'scale' is out of range; got scale=-1, expected a number > 0");
  EXPECT_EQ(error_of([&] {
              texcv::apply("resize", src, {{"width", "0"}});
            }),
            "resize: parameter 'width' is out of range; got width=0, expected an integer >= 1");
  EXPECT_EQ(error_of([&] {
              texcv::apply("resize", src, {{"width", "2.5"}});
            }),
            "resize: parameter 'width' has a bad value; got width=2.5, expected an integer >= 1");
  EXPECT_EQ(error_of([&] {
              texcv::apply("resize", src, {{"interp", "area"}});
            }),
            "resize: no output size given; got none of scale, width, height, fx, fy, expected "
            "scale=S, width=W and/or height=H, or fx=X and/or fy=Y");
  EXPECT_EQ(error_of([&] {
              texcv::apply("resize", src, {{"scale", "2"}, {"height", "5"}});
            }),
            "resize: parameters 'scale' and 'width'/'height' cannot be combined; got scale=2 with "
            "height=5, expected one of scale, width/height or fx/fy");
  EXPECT_EQ(error_of([&] {
              texcv::apply("resize", src, {{"scale", "0.01"}});
            }),
            "resize: the output size is empty; got scale=0.01 on a 8x6 image gives 0x0, expected "
            "an output of at least 1x1");
  EXPECT_EQ(error_of([&] {
              texcv::apply("warp_affine", src, {{"m", "1|2|3"}});
            }),
            "warp_affine: parameter 'm' has the wrong number of values; got m=1|2|3 (3 numbers), "
            "expected 6 numbers separated by '|'");
  EXPECT_EQ(error_of([&] {
              texcv::apply("warp_affine", src, {{"m", "1|0||0|1|0"}});
            }),
            "warp_affine: parameter 'm' has a bad value; got m=1|0||0|1|0, expected 6 numbers "
            "separated by '|'");
  EXPECT_EQ(
      error_of([&] {
        texcv::apply("warp_affine", src, {{"m", "1|0|0|0|1|0"}, {"interp", "area"}});
      }),
      "warp_affine: parameter 'interp' has a bad value; got interp=area, expected one of nearest, "
      "linear, cubic");
  EXPECT_EQ(error_of([&] {
              texcv::apply("rotate", src, {{"angle", "0"}, {"border_value", "1|2|3|4|5"}});
            }),
            "rotate: parameter 'border_value' has the wrong number of values; got "
            "border_value=1|2|3|4|5 (5 numbers), expected 1 to 4 numbers separated by '|'");
  EXPECT_EQ(error_of([&] {
              texcv::apply("flip", src, {{"code", "diagonal"}});
            }),
            "flip: parameter 'code' has a bad value; got code=diagonal, expected one of "
            "horizontal, vertical, both");
  EXPECT_EQ(error_of([&] {
              texcv::apply("crop", src, {{"x", "5"}, {"width", "4"}});
            }),
            "crop: the rectangle is not inside the image; got x=5,y=0,width=4,height=6 on a 8x6 "
            "image, expected x + width <= 8 and y + height <= 6");
  // validate() needs no image and reports the same errors.
  EXPECT_EQ(error_of([] {
              texcv::validate("flip", {{"mode", "both"}});
            }),
            "flip: parameter 'mode' is unknown; got mode=both, expected one of code");
  EXPECT_NO_THROW(texcv::validate("crop", {{"x", "5"}, {"width", "4000"}}));
}

TEST(Registry, ApplyKeepsTheSourceLocationAndType) {
  const Image src = texcv::test::random_image(10, 8, 3, ElemType::u16, 9);
  const Image out = texcv::apply("resize", src, {{"width", "5"}, {"height", "4"}});
  EXPECT_EQ(out.location(), texcv::Location::host);
  EXPECT_EQ(out.type(), ElemType::u16);
  EXPECT_EQ(out.channels(), 3);
}

// apply_into (what the batch workers use with their own buffers) writes exactly what apply
// returns, into a larger pitched buffer; output_format gives apply's size, channels and type.
TEST(Registry, ApplyIntoAndOutputFormatEqualApply) {
  const Image src = texcv::test::random_image(37, 29, 3, ElemType::u8, 21);
  const std::vector<std::pair<std::string, ParamValues>> cases = {
      {"resize", {{"scale", "0.5"}}},
      {"crop", {{"x", "3"}, {"y", "2"}, {"width", "20"}, {"height", "11"}}},
      {"convolve", {{"kernel", "-1|-1|-1|-1|16|-1|-1|-1|-1"}, {"scale", "0.125"}}},
      {"cvt_color", {{"code", "rgb2gray"}}},
      {"convert", {{"type", "f32"}, {"scale", "0.00392156862745098"}}},
      {"rotate", {{"angle", "30"}, {"expand", "true"}}},
  };
  for (const auto& [name, params] : cases) {
    SCOPED_TRACE(name);
    const Image want = texcv::apply(name, src, params);
    const texcv::OutputFormat f = texcv::output_format(name, src, params);
    EXPECT_EQ(f.width, want.width());
    EXPECT_EQ(f.height, want.height());
    EXPECT_EQ(f.channels, want.channels());
    EXPECT_EQ(f.type, want.type());
    // A buffer 7 columns and 3 rows larger, poisoned; the output is its top-left corner.
    Image buf(f.width + 7, f.height + 3, f.channels, f.type);
    texcv::test::poison(buf);
    const texcv::ImageView dst = buf.view().roi({0, 0, f.width, f.height});
    texcv::apply_into(name, src, dst, params);
    const texcv::test::Diff d = texcv::test::compare(dst, want.view());
    EXPECT_EQ(d.count, 0) << d.describe();
    EXPECT_TRUE(texcv::test::is_poison(buf, f.width, 0, 0));  // nothing written beside it
  }
  Image wrong(10, 10, 3, ElemType::u8);
  EXPECT_EQ(error_of([&] {
              texcv::apply_into("resize", src, wrong, {{"scale", "0.5"}});
            }),
            "resize: destination size differs from the output's; got 10x10, expected 18x14");
  Image gray(18, 14, 1, ElemType::u8);
  EXPECT_EQ(error_of([&] {
              texcv::apply_into("resize", src, gray, {{"scale", "0.5"}});
            }),
            "resize: destination format differs from the output's; got 1 channel(s) of u8, "
            "expected 3 channel(s) of u8");
  EXPECT_EQ(error_of([&] {
              texcv::output_format("resize", src, {{"scale", "-1"}});
            }),
            error_of([&] {
              texcv::apply("resize", src, {{"scale", "-1"}});
            }));
}

TEST(Pipeline, SplitKeepsTextAndOffsets) {
  const auto steps = texcv::split_pipeline(" rotate:angle=30 ;resize:scale=0.5;;flip;");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].text, "rotate:angle=30");
  EXPECT_EQ(steps[0].offset, 1u);
  EXPECT_EQ(steps[0].index, 1);
  EXPECT_EQ(steps[1].text, "resize:scale=0.5");
  EXPECT_EQ(steps[1].offset, 18u);
  EXPECT_EQ(steps[2].text, "flip");
  EXPECT_EQ(steps[2].offset, 36u);
  EXPECT_EQ(steps[2].index, 3);
}

TEST(Pipeline, ParsesStepsAndParameters) {
  const auto steps =
      texcv::parse_pipeline("rotate: angle = 30 , expand=true;resize:scale=0.5,interp=area;flip");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "rotate");
  EXPECT_EQ(steps[0].params, (ParamValues{{"angle", "30"}, {"expand", "true"}}));
  EXPECT_EQ(steps[1].name, "resize");
  EXPECT_EQ(steps[1].params, (ParamValues{{"scale", "0.5"}, {"interp", "area"}}));
  EXPECT_EQ(steps[2].name, "flip");
  EXPECT_TRUE(steps[2].params.empty());
}

TEST(Pipeline, ErrorMessagesNameTheStep) {
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("rotate:angle=30;resiz:scale=0.5"); }),
            "pipeline step 2 \"resiz:scale=0.5\": unknown operation 'resiz'; expected one of " +
                all_names());
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("rotate:angel=30"); }),
            "pipeline step 1 \"rotate:angel=30\": rotate: parameter 'angel' is unknown; got "
            "angel=30, expected one of angle, expand, interp, border, border_value, precision, "
            "path");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("flip;resize:scale=abc"); }),
            "pipeline step 2 \"resize:scale=abc\": resize: parameter 'scale' has a bad value; got "
            "scale=abc, expected a number > 0");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("rotate:angle=3,angle=4"); }),
            "pipeline step 1 \"rotate:angle=3,angle=4\": rotate: parameter 'angle' is given "
            "twice; got angle=3 and angle=4, expected each parameter once");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("rotate:angle=3,expand"); }),
            "pipeline step 1 \"rotate:angle=3,expand\": rotate: parameter 'expand' has no value; "
            "got expand, expected expand=value");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline(":angle=3"); }),
            "pipeline step 1 \":angle=3\": the operation name is missing; expected "
            "name:key=value,...");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline(" ; "); }),
            "pipeline: no steps; got ' ; ', expected steps such as "
            "rotate:angle=30;resize:scale=0.5");
}

}  // namespace
