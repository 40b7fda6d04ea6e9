// The filters as registry steps (apply): each equals its C++ call, and convolve's kernel
// messages.
#include <string>

#include "common/test_support.hpp"
#include "texcv/filters.hpp"
#include "texcv/registry.hpp"

namespace texcv {
namespace {

TEST(FilterRegistry, PipelineStepsRunTheFilters) {
  Image src = test::random_image(33, 21, 3, ElemType::u8, 12);
  // convolve with the sharpen kernel inline equals sharpen.
  Image a = apply("convolve", src, {{"kernel", "0|-1|0|-1|5|-1|0|-1|0"}});
  Image b(33, 21, 3, ElemType::u8);
  sharpen(src, b);
  EXPECT_EQ(test::compare(a, b).count, 0);
  // gaussian_blur sigma=2 equals the C++ call with sigma 2 (ksize derived).
  Image g = apply("gaussian_blur", src, {{"sigma", "2"}, {"border", "wrap"}});
  GaussianParams gp;
  gp.sigma_x = 2;
  gp.border.border = Border::wrap;
  gaussian_blur(src, b, gp);
  EXPECT_EQ(test::compare(g, b).count, 0);
  Image s = apply("sobel", src, {{"dx", "0"}, {"dy", "1"}, {"delta", "128"}});
  sobel(src, b, SobelParams{0, 1, 3, 1.0, 128.0, {}});
  EXPECT_EQ(test::compare(s, b).count, 0);
  Image bx = apply("box_filter", src, {{"ksize", "5"}, {"ksize_y", "3"}});
  box_filter(src, b, BoxParams{5, 3, true, -1, -1, {}});
  EXPECT_EQ(test::compare(bx, b).count, 0);
  for (const char* op : {"sharpen", "unsharp_mask", "scharr", "laplacian", "separable_filter"}) {
    ParamValues pv;
    if (std::string(op) == "separable_filter") pv = {{"row", "1|2|1"}, {"column", "1"}};
    EXPECT_EQ(apply(op, src, pv).width(), 33) << op;
  }
  try {
    validate("convolve", {{"kernel", "1|2|3|4|5"}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "convolve: the kernel is not square and kw/kh are not given; got 5 numbers, "
                 "expected a square count, or kw and/or kh");
  }
  try {
    validate("convolve", {{"kernel", "1|2|3|4|5|6"}, {"kw", "4"}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "convolve: the kernel count differs from kw x kh; got 6 numbers, expected 4x1 = "
                 "4");
  }
}

}  // namespace
}  // namespace texcv
