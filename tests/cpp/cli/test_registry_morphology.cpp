// The morphology steps of the registry (erode, dilate, morphology): apply() equals calling the
// C++ API (include/texcv/morphology.hpp) directly with the same parameters.
#include <gtest/gtest.h>

#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
using texcv::MorphOp;
using texcv::MorphParams;
using texcv::MorphShape;

void expect_same(const Image& got, const Image& want, const std::string& what) {
  ASSERT_EQ(got.width(), want.width()) << what;
  ASSERT_EQ(got.height(), want.height()) << what;
  ASSERT_EQ(got.channels(), want.channels()) << what;
  ASSERT_EQ(got.type(), want.type()) << what;
  const auto d = texcv::test::compare(got.view(), want.view());
  EXPECT_EQ(d.count, 0) << what << ": " << d.describe();
}

TEST(RegistryMorphology, StepsEqualDirectCalls) {
  const Image src = texcv::test::random_image(23, 17, 3, ElemType::u8, 11);
  Image want(23, 17, 3, ElemType::u8);

  MorphParams p;
  texcv::erode(src.view(), want.view(), p);
  expect_same(texcv::apply("erode", src.view(), {}), want, "erode defaults");

  p.shape = MorphShape::ellipse;
  p.ksize_x = 5;
  p.ksize_y = 3;
  p.anchor_x = 1;
  p.iterations = 2;
  p.border.border = texcv::Border::reflect;
  texcv::dilate(src.view(), want.view(), p);
  expect_same(texcv::apply("dilate", src.view(),
                           {{"shape", "ellipse"},
                            {"ksize", "5"},
                            {"ksize_y", "3"},
                            {"anchor_x", "1"},
                            {"iterations", "2"},
                            {"border", "reflect"}}),
              want, "dilate ellipse");

  MorphParams c;
  c.shape = MorphShape::cross;
  c.border.value = std::array<double, 4>{10, 20, 30, 0};
  for (MorphOp op : {MorphOp::open, MorphOp::close, MorphOp::gradient, MorphOp::tophat,
                     MorphOp::blackhat, MorphOp::erode, MorphOp::dilate}) {
    texcv::morphology(src.view(), want.view(), op, c);
    expect_same(
        texcv::apply(
            "morphology", src.view(),
            {{"op", texcv::to_string(op)}, {"shape", "cross"}, {"border_value", "10|20|30"}}),
        want, std::string("morphology ") + texcv::to_string(op));
  }
}

TEST(RegistryMorphology, MorphologyNeedsAnOperation) {
  const Image src = texcv::test::random_image(8, 8, 1, ElemType::u8, 3);
  EXPECT_THROW(texcv::apply("morphology", src.view(), {}), texcv::Error);
  EXPECT_THROW(texcv::apply("erode", src.view(), {{"shape", "disk"}}), texcv::Error);
}

}  // namespace
