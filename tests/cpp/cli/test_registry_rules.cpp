// The operations' own parameter rules that need no image (src/core/param_checks.hpp) are found by
// texcv::validate and parse_step, before any image is read, with the step's parameter names; the
// documented defaults of every operation are valid; what depends on the image stays a run-time
// error.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli/registry_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::ErrorCode;
using texcv::Image;
using texcv::ParamValues;
using texcv::test::error_of;

// The message validate(name, params) throws.
std::string plan_error(const std::string& name, const ParamValues& params) {
  return error_of([&] { texcv::validate(name, params); });
}

TEST(RegistryRules, GaussianBlurNeedsKsizeOrSigmaAndOddSizes) {
  // No default blur: ksize=0 with sigma=0 (the defaults) is refused, as cv::GaussianBlur does.
  EXPECT_EQ(plan_error("gaussian_blur", {}),
            "gaussian_blur: kernel size and sigma are both unset; got ksize=0, sigma=0, expected "
            "ksize=<an odd size> and/or sigma=<a number > 0>, e.g. gaussian_blur:sigma=2");
  EXPECT_EQ(plan_error("gaussian_blur", {{"ksize", "0"}, {"sigma_y", "2"}}),
            "gaussian_blur: kernel size and sigma are both unset; got ksize=0, sigma=0, expected "
            "ksize=<an odd size> and/or sigma=<a number > 0>, e.g. gaussian_blur:sigma=2");
  EXPECT_EQ(plan_error("gaussian_blur", {{"ksize", "2"}}),
            "gaussian_blur: parameter 'ksize' must be odd; got ksize=2, expected an odd number "
            ">= 1, or 0 to derive it from sigma");
  EXPECT_EQ(plan_error("gaussian_blur", {{"ksize", "3"}, {"ksize_y", "4"}}),
            "gaussian_blur: parameter 'ksize_y' must be odd; got ksize_y=4, expected an odd "
            "number >= 1, or 0 to derive it from sigma");
  EXPECT_EQ(plan_error("gaussian_blur", {{"ksize", "257"}}),
            "gaussian_blur: parameter 'ksize' is too large; got ksize=257, expected at most 255");
  // A sigma whose kernel is too large for u8 (the smallest derivation) is too large for all types.
  EXPECT_EQ(plan_error("gaussian_blur", {{"sigma", "50"}}),
            "gaussian_blur: kernel size derived from sigma is too large; got sigma=50 gives 301 "
            "for u8 (401 for u16 and f32), expected at most 255 taps");
  EXPECT_EQ(plan_error("gaussian_blur", {{"sigma", "1"}, {"sigma_y", "45"}}),
            "gaussian_blur: kernel size derived from sigma_y is too large; got sigma_y=45 gives "
            "271 for u8 (361 for u16 and f32), expected at most 255 taps");
  EXPECT_NO_THROW(texcv::validate("gaussian_blur", {{"ksize", "5"}}));
  EXPECT_NO_THROW(texcv::validate("gaussian_blur", {{"sigma", "2"}}));
  EXPECT_NO_THROW(texcv::validate("gaussian_blur", {{"ksize", "3"}, {"sigma_y", "2"}}));
  // sigma=40 derives 241 taps for u8 (accepted) but 321 for f32: only the image says which.
  const ParamValues p{{"sigma", "40"}};
  EXPECT_NO_THROW(texcv::validate("gaussian_blur", p));
  const Image f32 = texcv::test::random_image(8, 8, 1, ElemType::f32, 1);
  EXPECT_EQ(error_of([&] { texcv::apply("gaussian_blur", f32, p); }),
            "gaussian_blur: kernel size derived from sigma_x is too large; got sigma_x=40 gives "
            "321, expected at most 255 taps");
}

TEST(RegistryRules, UnsharpMaskBoxFilterAndConvolveSizes) {
  EXPECT_EQ(plan_error("unsharp_mask", {{"ksize", "4"}}),
            "unsharp_mask: parameter 'ksize' must be odd; got ksize=4, expected an odd number >= "
            "1, or 0 to derive it from sigma");
  EXPECT_EQ(plan_error("unsharp_mask", {{"sigma", "60"}}),
            "unsharp_mask: kernel size derived from sigma is too large; got sigma=60 gives 361 "
            "for u8 (481 for u16 and f32), expected at most 255 taps");
  EXPECT_EQ(plan_error("box_filter", {{"ksize", "256"}}),
            "box_filter: parameter 'ksize' is too large; got ksize=256, expected at most 255");
  EXPECT_EQ(plan_error("box_filter", {{"ksize_y", "300"}}),
            "box_filter: parameter 'ksize_y' is too large; got ksize_y=300, expected at most 255");
  std::string forty = "1";
  for (int i = 1; i < 40; ++i) forty += "|1";
  EXPECT_EQ(plan_error("convolve", {{"kernel", forty}, {"kw", "40"}}),
            "convolve: kernel is too large; got 40x1, expected at most 31x31");
  EXPECT_EQ(plan_error("convolve", {{"kernel", "1|1|1|1|1|1|1|1|1"}, {"anchor_x", "3"}}),
            "convolve: anchor is outside the kernel; got anchor_x=3, anchor_y=-1, expected inside "
            "3x3 (or -1 for the centre)");
  EXPECT_EQ(plan_error("convolve", {{"kernel", "1|2|3"}, {"kh", "3"}, {"anchor_y", "3"}}),
            "convolve: anchor is outside the kernel; got anchor_x=-1, anchor_y=3, expected inside "
            "1x3 (or -1 for the centre)");
  EXPECT_NO_THROW(
      texcv::validate("convolve", {{"kernel", "1|2|3"}, {"kh", "3"}, {"anchor_y", "2"}}));
}

TEST(RegistryRules, DerivativeOrdersAndKernelSizes) {
  EXPECT_EQ(plan_error("sobel", {{"dx", "0"}, {"dy", "0"}}),
            "sobel: derivative orders are both zero; got dx=0, dy=0, expected dx + dy > 0");
  EXPECT_EQ(plan_error("sobel", {{"ksize", "4"}}),
            "sobel: parameter 'ksize' must be odd; got ksize=4, expected 1, 3, 5 or 7");
  EXPECT_EQ(plan_error("sobel", {{"ksize", "9"}}),
            "sobel: parameter 'ksize' is not supported; got ksize=9, expected 1, 3, 5 or 7");
  EXPECT_EQ(plan_error("sobel", {{"dx", "3"}}),
            "sobel: derivative order is too high for the kernel size; got dx=3, ksize=3, expected "
            "dx < 3");
  EXPECT_EQ(plan_error("sobel", {{"dx", "0"}, {"dy", "3"}, {"ksize", "1"}}),
            "sobel: derivative order is too high for the kernel size; got dy=3, ksize=1, expected "
            "dy < 3");
  // Found by CI's fuzz_pipeline (corpus: finding-sobel-dy-int-max): dx + dy overflowed (UBSan).
  EXPECT_EQ(plan_error("sobel", {{"dy", "2147483647"}}),
            "sobel: derivative order is too high for the kernel size; got dy=2147483647, ksize=3, "
            "expected dy < 3");
  EXPECT_NO_THROW(texcv::validate("sobel", {{"dx", "2"}, {"dy", "1"}, {"ksize", "5"}}));
  EXPECT_EQ(plan_error("scharr", {{"dy", "1"}}),
            "scharr: derivative orders are not supported; got dx=1, dy=1, expected dx=1, dy=0 or "
            "dx=0, dy=1");
  EXPECT_EQ(plan_error("scharr", {{"dx", "0"}}),
            "scharr: derivative orders are not supported; got dx=0, dy=0, expected dx=1, dy=0 or "
            "dx=0, dy=1");
  EXPECT_EQ(plan_error("laplacian", {{"ksize", "2"}}),
            "laplacian: parameter 'ksize' must be odd; got ksize=2, expected 1, 3 or 5");
  EXPECT_EQ(plan_error("laplacian", {{"ksize", "7"}}),
            "laplacian: parameter 'ksize' is not supported; got ksize=7, expected 1, 3 or 5");
}

TEST(RegistryRules, MorphologyAndNonlinearFilters) {
  EXPECT_EQ(plan_error("erode", {{"ksize", "4"}}),
            "erode: parameter 'ksize' must be odd; got ksize=4, expected an odd size 1 to 255");
  EXPECT_EQ(plan_error("dilate", {{"ksize_y", "257"}}),
            "dilate: parameter 'ksize_y' is too large; got ksize_y=257, expected an odd size 1 to "
            "255");
  EXPECT_EQ(plan_error("morphology", {{"op", "open"}, {"anchor_x", "3"}}),
            "morphology: anchor is outside the structuring element; got anchor_x=3, anchor_y=-1, "
            "expected inside 3x3 (or -1 for the centre)");
  EXPECT_EQ(plan_error("erode", {{"iterations", "1001"}}),
            "erode: parameter 'iterations' is out of range; got iterations=1001, expected 1 to "
            "1000");
  EXPECT_EQ(plan_error("median_blur", {{"ksize", "4"}}),
            "median_blur: parameter 'ksize' must be odd; got ksize=4, expected an odd number from "
            "1 to 255");
  EXPECT_EQ(plan_error("median_blur", {{"ksize", "257"}}),
            "median_blur: parameter 'ksize' is out of range; got ksize=257, expected an odd "
            "number from 1 to 255");
  EXPECT_EQ(
      plan_error("bilateral_filter", {{"d", "256"}, {"sigma_color", "10"}, {"sigma_space", "2"}}),
      "bilateral_filter: diameter is too large; got d=256, expected a diameter 2 * (d / 2) "
      "+ 1 of at most 255");
  EXPECT_EQ(
      plan_error("bilateral_filter", {{"d", "0"}, {"sigma_color", "10"}, {"sigma_space", "100"}}),
      "bilateral_filter: diameter is too large; got d=0, sigma_space=100, expected a "
      "diameter 2 * (d / 2) + 1 of at most 255");
}

TEST(RegistryRules, ResizeWarpsAndNormalize) {
  try {
    texcv::validate("resize", {{"scale", "2"}, {"interp", "area"}, {"align_corners", "true"}});
    ADD_FAILURE() << "no texcv::Error thrown";
  } catch (const texcv::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_STREQ(e.what(),
                 "resize: parameter 'align_corners' is not supported with area interpolation; got "
                 "align_corners=true with interp=area, expected interp=nearest, linear or cubic, "
                 "or align_corners=false");
  }
  // det = 1 * 4 - 2 * 2 = 0; the threshold is 1e-12 * max|a b d e|^2.
  EXPECT_EQ(plan_error("warp_affine", {{"m", "1|2|5|2|4|7"}}),
            "warp_affine: parameter 'm' is a singular matrix; got determinant 0, expected "
            "|determinant| > 1.6e-11, or inverse_map=true for a "
            "destination-to-source m");
  EXPECT_NO_THROW(texcv::validate("warp_affine", {{"m", "1|2|5|2|4|7"}, {"inverse_map", "true"}}));
  EXPECT_EQ(plan_error("warp_perspective", {{"m", "1|0|0|0|1|0|1|0|0"}}),
            "warp_perspective: parameter 'm' is a singular matrix; got determinant 0, expected "
            "|determinant| > 9.9999999999999998e-13, or inverse_map=true for a "
            "destination-to-source m");
  EXPECT_EQ(plan_error("normalize", {{"mode", "mean_std"}, {"std", "-1"}}),
            "normalize: target mean must be finite and std >= 0; got mean=0, std=-1, expected a "
            "finite mean and a finite std >= 0");
  // minmax ignores std.
  EXPECT_NO_THROW(texcv::validate("normalize", {{"std", "-1"}}));
}

TEST(RegistryRules, ParseStepAndPipelinesNameTheStep) {
  texcv::PipelineStep s;
  s.text = "sobel:dx=0,dy=0";
  EXPECT_EQ(error_of([&] { texcv::parse_step(s); }),
            "sobel: derivative orders are both zero; got dx=0, dy=0, expected dx + dy > 0");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("flip;gaussian_blur:ksize=2"); }),
            "pipeline step 2 \"gaussian_blur:ksize=2\": gaussian_blur: parameter 'ksize' must be "
            "odd; got ksize=2, expected an odd number >= 1, or 0 to derive it from sigma");
  EXPECT_EQ(error_of([] { texcv::parse_pipeline("gaussian_blur"); }),
            "pipeline step 1 \"gaussian_blur\": gaussian_blur: kernel size and sigma are both "
            "unset; got ksize=0, sigma=0, expected ksize=<an odd size> and/or sigma=<a number > "
            "0>, e.g. gaussian_blur:sigma=2");
  // output_size and output_format check the same rules.
  EXPECT_EQ(error_of([] {
              texcv::output_size("median_blur", 10, 10, {{"ksize", "2"}});
            }),
            plan_error("median_blur", {{"ksize", "2"}}));
}

// Every operation runs with its documented defaults, or validate refuses it: the ones with a
// required parameter, and the three that need one of a group (resize: a size; threshold: thresh
// unless type=otsu; gaussian_blur: ksize and/or sigma).
TEST(RegistryRules, DefaultsAreValid) {
  const Image src = texcv::test::random_image(16, 16, 1, ElemType::u8, 2);
  const std::set<std::string> needs_one_of{"resize", "threshold", "gaussian_blur"};
  for (const auto& op : texcv::operations()) {
    SCOPED_TRACE(op.name);
    bool required = false;
    for (const auto& p : op.params) required = required || p.required;
    if (required || needs_one_of.count(op.name) > 0) {
      EXPECT_THROW(texcv::validate(op.name, {}), texcv::Error);
      continue;
    }
    EXPECT_NO_THROW(texcv::validate(op.name, {}));
    EXPECT_NO_THROW(texcv::apply(op.name, src, {}));
  }
}

}  // namespace
