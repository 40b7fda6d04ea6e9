// texcv::Pipeline on the CPU backend: the same pixels as the registry's operations applied one by
// one (texcv::apply, itself checked against OpenCV and float64 elsewhere), on single images, on
// lists of mixed sizes and types, into caller-owned destinations, with its buffers reused between
// calls of other sizes; and its messages.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

// The steps applied one by one through the registry (each a fresh image).
Image one_by_one(const std::string& text, const ImageView& src) {
  Image cur(src.width, src.height, src.channels, src.type);
  copy(src, cur.view());
  for (const PipelineStep& s : parse_pipeline(text)) cur = apply(s.name, cur.view(), s.params);
  return cur;
}

void expect_identical(const ImageView& got, const ImageView& want, const std::string& what) {
  ASSERT_EQ(got.width, want.width) << what;
  ASSERT_EQ(got.height, want.height) << what;
  ASSERT_EQ(got.channels, want.channels) << what;
  ASSERT_EQ(got.type, want.type) << what;
  const test::Diff d = test::compare(got, want);
  EXPECT_EQ(d.count, 0) << what << ": " << d.describe();
}

const char* const kText =
    "resize:scale=0.5,interp=area;gaussian_blur:sigma=1.5;flip:code=vertical;"
    "crop:x=2,y=3,width=11,height=7;convert:type=f32,scale=0.5";

TEST(Pipeline, OneImageIsTheOperationsOneByOne) {
  Pipeline p(kText);
  ASSERT_EQ(p.steps().size(), 5u);
  EXPECT_EQ(p.steps()[3].name, "crop");
  EXPECT_EQ(p.text(), kText);
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      const Image src = test::random_image(57, 41, c, t, 100u + static_cast<unsigned>(c));
      const Image got = p.run(src);
      const Image want = one_by_one(kText, src);
      expect_identical(got.view(), want.view(),
                       std::string(to_string(t)) + " x" + std::to_string(c));
      const OutputFormat f = p.output_format(src);
      EXPECT_EQ(f.width, 11);
      EXPECT_EQ(f.height, 7);
      EXPECT_EQ(f.type, ElemType::f32);
    }
}

TEST(Pipeline, ListOfMixedImagesIsEachAlone) {
  Pipeline p("resize:width=23,height=17,interp=cubic;sharpen");
  std::vector<Image> srcs;
  srcs.push_back(test::random_image(64, 48, 3, ElemType::u8, 1));
  srcs.push_back(test::random_image(20, 90, 1, ElemType::u16, 2));
  srcs.push_back(test::random_image(33, 33, 4, ElemType::f32, 3));
  srcs.push_back(test::random_image(64, 48, 3, ElemType::u8, 4));
  std::vector<ImageView> views;
  for (const Image& s : srcs) views.push_back(s.view());
  const std::vector<Image> outs = p.run(views);
  ASSERT_EQ(outs.size(), srcs.size());
  for (std::size_t i = 0; i < srcs.size(); ++i)
    expect_identical(outs[i].view(), one_by_one(p.text(), srcs[i].view()).view(),
                     "image " + std::to_string(i));
}

// The intermediate buffers are kept between calls: a large image, a small one of another type,
// then the large one again all give the results of a fresh pipeline.
TEST(Pipeline, ReusedBuffersAcrossSizesAndTypes) {
  const std::string text = "gaussian_blur:sigma=2;resize:scale=0.75;box_filter:ksize=3";
  Pipeline p(text);
  const Image big = test::random_image(300, 200, 3, ElemType::u8, 7);
  const Image small = test::random_image(31, 9, 1, ElemType::f32, 8);
  const Image wide = test::random_image(401, 5, 4, ElemType::u16, 9);
  for (const Image* s : {&big, &small, &wide, &big, &small})
    expect_identical(p.run(s->view()).view(), Pipeline(text).run(s->view()).view(),
                     s->view().describe());
}

// run_into: a destination inside a larger poisoned image (another pitch): the output is the
// pipeline's, nothing around it is written.
TEST(Pipeline, RunIntoCallersDestination) {
  Pipeline p("resize:scale=0.5;threshold:thresh=100,maxval=255,type=binary");
  const Image src = test::random_image(90, 60, 1, ElemType::u8, 11);
  Image big(47, 32, 1, ElemType::u8);
  test::poison(big.view());
  const ImageView dst = big.view().roi({1, 1, 45, 30});
  p.run_into(src.view(), dst);
  expect_identical(dst, one_by_one(p.text(), src.view()).view(), "into a sub-view");
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 47; ++x)
      if (x < 1 || x > 45 || y < 1 || y > 30) {
        EXPECT_TRUE(test::is_poison(big.view(), x, y, 0)) << x << "," << y;
      }
  // The only step a crop: copied into dst.
  Pipeline c("crop:x=5,y=6,width=4,height=3");
  Image out(4, 3, 1, ElemType::u8);
  c.run_into(src.view(), out.view());
  expect_identical(out.view(), src.view().roi({5, 6, 4, 3}), "a crop alone");
}

TEST(Pipeline, Messages) {
  try {
    Pipeline bad("resize:scale=0.5;resiz:scale=2");
    FAIL() << "no error for an unknown operation";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("pipeline step 2 \"resiz:scale=2\""), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(Pipeline(std::vector<PipelineStep>{}), Error);
  Pipeline p("resize:scale=0.5;cvt_color:code=rgb2gray");
  const Image gray = test::random_image(20, 10, 1, ElemType::u8, 1);
  try {
    (void)p.run(gray.view());
    FAIL() << "no error for a 1-channel image into rgb2gray";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("step 2 (cvt_color): ", 0), 0u) << e.what();
  }
  const Image rgb = test::random_image(20, 10, 3, ElemType::u8, 2);
  try {
    (void)p.run(std::vector<ImageView>{rgb.view(), gray.view()});
    FAIL() << "no error for the list's second image";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("image 1: step 2 (cvt_color): ", 0), 0u) << e.what();
  }
  Image wrong(10, 5, 3, ElemType::u8);
  try {
    p.run_into(rgb.view(), wrong.view());
    FAIL() << "no error for a destination of the wrong format";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "pipeline: the destination is not the pipeline's output; got 10x5x3 u8, "
                 "expected 10x5x1 u8 (output_format of the source)");
  }
}

}  // namespace
}  // namespace texcv
