// clahe against cv::createCLAHE (opencv/color_test_util.hpp).
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

TEST(ColorOpenCV, ClaheMatches) {
  struct Case {
    double clip;
    int tx, ty;
  };
  const Case cases[] = {{40.0, 8, 8}, {2.0, 8, 8}, {0.0, 4, 4}, {3.0, 7, 5}, {1.0, 1, 1}};
  for (ElemType t : {ElemType::u8, ElemType::u16})
    for (const char* name : kPhotos)
      for (const Case& k : cases) {
        SCOPED_TRACE(std::string(name) + " " + to_string(t) + " clip " + std::to_string(k.clip) +
                     " grid " + std::to_string(k.tx) + "x" + std::to_string(k.ty));
        const cv::Mat m = photo(name, 1, t)(cv::Rect(3, 5, 301, 207)).clone();
        const Image s = from_mat(m);
        Image o;
        const ImageView d = out_view(o, s.width(), s.height(), 1, t);
        ClaheParams p;
        p.clip_limit = k.clip;
        p.tiles_x = k.tx;
        p.tiles_y = k.ty;
        clahe(s, d, p);
        cv::Mat ref;
        cv::createCLAHE(k.clip, cv::Size(k.tx, k.ty))->apply(m, ref);
        const test::Diff diff = test::compare(d, from_mat(ref).view());
        // Same tables; the bilinear blend of four table entries is float arithmetic whose order
        // and fusing in OpenCV's SIMD loop may differ: 1 level.
        EXPECT_LE(diff.max_abs, 1.0) << diff.describe();
      }
}

}  // namespace
}  // namespace texcv::color_opencv_test
