// histogram against cv::calcHist (opencv/color_test_util.hpp).
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

TEST(ColorOpenCV, HistogramMatchesCalcHist) {
  struct Case {
    ElemType t;
    int bins;
    float lo, hi;
  };
  const Case cases[] = {{ElemType::u8, 256, 0, 256},   {ElemType::u8, 10, 20, 200},
                        {ElemType::u16, 64, 0, 65536}, {ElemType::u16, 7, 1000, 50000},
                        {ElemType::f32, 10, 0.f, 1.f}, {ElemType::f32, 33, 0.1f, 0.9f}};
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(to_string(k.t)) + " bins " + std::to_string(k.bins));
    Image so;
    const ImageView s = random_view(so, 53, 41, 3, k.t, 21);
    const auto h = histogram(s, k.bins, {k.lo, k.hi});
    ASSERT_EQ(h.size(), 3u);
    const cv::Mat m = as_mat(s).clone();
    for (int c = 0; c < 3; ++c) {
      cv::Mat hist;
      const int chans[] = {c};
      const int sizes[] = {k.bins};
      const float range[] = {k.lo, k.hi};
      const float* ranges[] = {range};
      cv::calcHist(&m, 1, chans, cv::Mat(), hist, 1, sizes, ranges);
      ASSERT_EQ(h[c].size(), static_cast<std::size_t>(k.bins));
      for (int i = 0; i < k.bins; ++i)
        EXPECT_EQ(static_cast<double>(h[c][i]), hist.at<float>(i))
            << "channel " << c << " bin " << i;
    }
  }
}

}  // namespace
}  // namespace texcv::color_opencv_test
