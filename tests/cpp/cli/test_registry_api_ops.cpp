// The typed API's operations beyond pipeline steps (issue 20, item 1): input images (remap's
// maps), an image and a number (threshold's level) and counts (histogram), each equal to the
// direct C++ call, and the exact errors of a missing image, an image given as a value, and an
// op used as the kind it is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::TypedImages;
using texcv::TypedParams;
using texcv::test::error_of;
using texcv::test::expect_same;

std::vector<std::string> names(const std::vector<texcv::OpSpec>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) out.push_back(s.name);
  return out;
}

TEST(RegistryApiOps, RemapAndHistogramAreApiOpsAfterThePipelineOnes) {
  const auto pipeline = names(texcv::operations());
  const auto api = names(texcv::api_operations());
  ASSERT_EQ(api.size(), pipeline.size() + 2);
  EXPECT_TRUE(std::equal(pipeline.begin(), pipeline.end(), api.begin()));
  EXPECT_EQ(api[api.size() - 2], "histogram");
  EXPECT_EQ(api.back(), "remap");
  for (const char* n : {"remap", "histogram"})
    EXPECT_EQ(std::count(pipeline.begin(), pipeline.end(), n), 0) << n;
  EXPECT_EQ(texcv::find_api_operation("remap").output, "image");
  EXPECT_FALSE(texcv::find_api_operation("remap").pipeline);
  EXPECT_EQ(texcv::find_api_operation("remap").params[0].type, "image");
  EXPECT_EQ(texcv::find_api_operation("histogram").output, "counts");
  EXPECT_EQ(texcv::find_api_operation("threshold").output, "image_value");
  EXPECT_TRUE(texcv::find_api_operation("convert").find("type")->numpy_dtype);
  // A pipeline step cannot name them.
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("remap"); }).substr(0, 52),
            "pipeline step 1 \"remap\": unknown operation 'remap'; ");
}

TEST(RegistryApiOps, RemapWithImagesEqualsTheDirectCall) {
  const Image src = texcv::test::random_image(40, 30, 3, ElemType::u8, 7);
  Image mx(25, 20, 1, ElemType::f32), my(25, 20, 1, ElemType::f32);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 25; ++x) {
      mx.view().row<float>(y)[x] = 1.5f * x + 0.25f * y;
      my.view().row<float>(y)[x] = 0.75f * y + 0.1f * x;
    }
  const TypedImages images{{"map_x", mx.view()}, {"map_y", my.view()}};
  const TypedParams params{{"interp", std::string("cubic")}, {"border", std::string("reflect")}};
  const texcv::OutputFormat f = texcv::typed_output_format("remap", src, params, images);
  EXPECT_EQ(f.width, 25);
  EXPECT_EQ(f.height, 20);
  EXPECT_EQ(f.channels, 3);
  Image got(f.width, f.height, f.channels, f.type), want(25, 20, 3, ElemType::u8);
  EXPECT_EQ(texcv::run_into("remap", src, got, params, nullptr, images), 0.0);
  texcv::Sampling s;
  s.interp = texcv::Interp::cubic;
  s.border = texcv::Border::reflect;
  texcv::remap(src, want, mx, my, s);
  expect_same(got, want);
}

TEST(RegistryApiOps, RemapImageErrors) {
  const Image src = texcv::test::random_image(8, 8, 1, ElemType::u8, 1);
  Image m(8, 8, 1, ElemType::f32), dst(8, 8, 1, ElemType::u8);
  EXPECT_EQ(error_of([&] {
              texcv::run_into("remap", src, dst, {}, nullptr, {{"map_x", m}});
            }),
            "remap: input image 'map_y' is required; got no map_y, expected map_y=<an image>");
  EXPECT_EQ(
      error_of([&] {
        texcv::run_into("remap", src, dst, {{"map_x", 1.0}}, nullptr, {{"map_x", m}, {"map_y", m}});
      }),
      "remap: parameter 'map_x' has a bad value; got map_x=1, expected an image");
  EXPECT_EQ(error_of([&] {
              texcv::run_into("remap", src, dst, {}, nullptr,
                              {{"map_x", m}, {"map_y", m}, {"interp", m}});
            }),
            "remap: parameter 'interp' is not an image; got interp=<an image>, expected one of "
            "nearest, linear, cubic");
  EXPECT_EQ(error_of([&] {
              texcv::run_into("flip", src, dst, {}, nullptr, {{"map_x", m}});
            }),
            "flip: parameter 'map_x' is unknown; got map_x=<an image>, expected one of code");
}

TEST(RegistryApiOps, ThresholdReturnsTheLevelItUsed) {
  Image src = texcv::test::random_image(64, 48, 1, ElemType::u8, 3);
  Image got(64, 48, 1, ElemType::u8), want(64, 48, 1, ElemType::u8);
  // Integer images: the threshold floored, as OpenCV.
  EXPECT_EQ(texcv::run_into("threshold", src, got, {{"thresh", 100.7}}), 100.0);
  const double otsu = texcv::run_into("threshold", src, got, {{"type", std::string("otsu")}});
  EXPECT_EQ(otsu, texcv::threshold(src, want, 0, 255, texcv::ThresholdType::otsu));
  expect_same(got, want);
  EXPECT_GT(otsu, 0.0);
  // Through run_into of an op without a number: 0.
  EXPECT_EQ(texcv::run_into("invert", src, got, {}), 0.0);
}

TEST(RegistryApiOps, HistogramCountsEqualTheDirectCall) {
  const Image src = texcv::test::random_image(33, 17, 3, ElemType::u16, 5);
  const TypedParams params{{"bins", std::int64_t{10}},
                           {"range", std::vector<double>{0.0, 65536.0}}};
  const auto got = texcv::run_counts("histogram", src, params);
  EXPECT_EQ(got, texcv::histogram(src, 10, {0.0, 65536.0}));
  ASSERT_EQ(got.size(), 3u);
  std::uint64_t total = 0;
  for (std::uint64_t c : got[1]) total += c;
  EXPECT_EQ(total, 33u * 17u);
  EXPECT_EQ(texcv::run_counts("histogram", src, {})[0].size(), 256u);  // the default bins
}

TEST(RegistryApiOps, EachKindIsRefusedWhereItIsNotOne) {
  const Image src = texcv::test::random_image(8, 8, 1, ElemType::u8, 2);
  Image dst(8, 8, 1, ElemType::u8);
  EXPECT_EQ(error_of([&] { texcv::run_into("histogram", src, dst, {}); }),
            "histogram: gives counts, not an image; got histogram as an image op, expected "
            "run_counts");
  EXPECT_EQ(error_of([&] { texcv::run_counts("flip", src, {}); }),
            "flip: makes an image, not counts; got flip, expected an op of output \"counts\" "
            "(histogram)");
  EXPECT_EQ(error_of([&] {
              texcv::run_counts("histogram", src, {{"range", 5.0}});
            }),
            "histogram: parameter 'range' has the wrong number of values; got range=5 (1 "
            "number), expected 2 numbers separated by '|'");
}

}  // namespace
