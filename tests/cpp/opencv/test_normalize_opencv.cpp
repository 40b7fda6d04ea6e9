// normalize (minmax) against cv::normalize (opencv/color_test_util.hpp).
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

TEST(ColorOpenCV, NormalizeMinMaxMatches) {
  for (ElemType t : kTypes)
    for (int ch : {1, 3, 4}) {
      SCOPED_TRACE(std::string(to_string(t)) + " x" + std::to_string(ch));
      Image so, dout;
      const ImageView s = random_view(so, 45, 29, ch, t, 5 + ch);
      const ImageView d = out_view(dout, 45, 29, ch, t);
      const double a = t == ElemType::f32 ? -2.0 : 10.0, b = t == ElemType::f32 ? 3.0 : 200.0;
      NormalizeParams p;
      p.alpha = b;  // swapped on purpose: cv::normalize uses min(alpha, beta) .. max
      p.beta = a;
      normalize(s, d, p);
      cv::Mat ref;
      cv::normalize(as_mat(s), ref, b, a, cv::NORM_MINMAX);
      const test::Diff diff = test::compare(d, from_mat(ref).view());
      // Same float scale and shift; OpenCV's SIMD convertTo may fuse the multiply-add, which
      // can move a u8/u16 result across a rounding tie: 1 level; f32: 1e-6 relative.
      if (t == ElemType::f32)
        EXPECT_LE(diff.max_abs, 1e-6) << diff.describe();  // outputs in [-2, 3]: ~4 ulps of 3
      else
        EXPECT_LE(diff.max_abs, 1.0) << diff.describe();
    }
}

}  // namespace
}  // namespace texcv::color_opencv_test
