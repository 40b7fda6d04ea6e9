// threshold against cv::threshold (opencv/color_test_util.hpp): every type, and Otsu's level.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/color_test_util.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/color.hpp"

namespace texcv::color_opencv_test {
namespace {

TEST(ColorOpenCV, ThresholdMatches) {
  const ThresholdType types[] = {ThresholdType::binary, ThresholdType::binary_inv,
                                 ThresholdType::trunc, ThresholdType::tozero,
                                 ThresholdType::tozero_inv};
  const int cv_types[] = {cv::THRESH_BINARY, cv::THRESH_BINARY_INV, cv::THRESH_TRUNC,
                          cv::THRESH_TOZERO, cv::THRESH_TOZERO_INV};
  for (ElemType t : kTypes)
    for (int ch : {1, 3, 4})
      for (int k = 0; k < 5; ++k) {
        SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(ch) + " " +
                     to_string(types[k]));
        Image so, dout;
        const ImageView s = random_view(so, 41, 19, ch, t, 13);
        const ImageView d = out_view(dout, 41, 19, ch, t);
        const double mx = t == ElemType::u8 ? 255 : t == ElemType::u16 ? 65535 : 1;
        for (double frac : {-0.1, 0.3, 0.5, 1.2}) {
          // Fractional thresholds: u8/u16 floor them; f32 compares in float.
          const double th = frac * mx + (t == ElemType::f32 ? 0.0031 : 0.7), mv = 0.8 * mx + 0.4;
          const double r = threshold(s, d, th, mv, types[k]);
          cv::Mat ref;
          const double rr = cv::threshold(as_mat(s), ref, th, mv, cv_types[k]);
          EXPECT_EQ(r, rr);
          const test::Diff diff = test::compare(d, from_mat(ref).view());
          EXPECT_EQ(diff.count, 0) << diff.describe();  // comparisons and copies: exact
        }
      }
}

TEST(ColorOpenCV, OtsuMatches) {
  for (const char* name : kPhotos) {
    SCOPED_TRACE(name);
    const Image s = from_mat(photo(name, 1, ElemType::u8));
    Image d(s.width(), s.height(), 1, ElemType::u8);
    const double r = threshold(s, d, 0, 255, ThresholdType::otsu);
    cv::Mat ref;
    const double rr =
        cv::threshold(as_mat(s.view()), ref, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    EXPECT_EQ(r, rr);
    EXPECT_EQ(test::compare(d, from_mat(ref).view()).count, 0);
  }
}

}  // namespace
}  // namespace texcv::color_opencv_test
