// convert against cv::Mat::convertTo (opencv/color_test_util.hpp).
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

TEST(ColorOpenCV, ConvertMatchesConvertTo) {
  for (ElemType st : kTypes)
    for (ElemType dt : kTypes) {
      SCOPED_TRACE(std::string(to_string(st)) + " -> " + to_string(dt));
      Image so, dout;
      const ImageView s = random_view(so, 39, 23, 3, st, 9);
      const ImageView d = out_view(dout, 39, 23, 3, dt);
      const double scale = st == ElemType::f32 ? 300.0 : 1.3, offset = -7.25;
      for (int identity = 0; identity < 2; ++identity) {
        const double sc = identity ? 1.0 : scale, of = identity ? 0.0 : offset;
        convert(s, d, sc, of);
        cv::Mat ref;
        as_mat(s).convertTo(ref, cv_depth(dt), sc, of);
        const test::Diff diff = test::compare(d, from_mat(ref).view());
        // f32: float x * scale + offset, possibly fused in OpenCV (the product rounded or not):
        // one rounding of the largest product, 2^-23 * max |x * scale|, plus one of the result.
        const double big = (st == ElemType::u8    ? 255.0
                            : st == ElemType::u16 ? 65535.0
                                                  : 1.0) *
                               std::fabs(sc) +
                           std::fabs(of);
        if (dt == ElemType::f32)
          EXPECT_LE(diff.max_abs, 2.0 * big * std::ldexp(1.0, -23)) << diff.describe();
        else if (identity)
          EXPECT_EQ(diff.count, 0) << diff.describe();  // plain saturate_cast
        else
          EXPECT_LE(diff.max_abs, 1.0) << diff.describe();  // fused multiply-add at ties
      }
    }
}

}  // namespace
}  // namespace texcv::color_opencv_test
