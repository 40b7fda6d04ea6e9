// median_blur against cv::medianBlur: equal exactly, on a 160x120 region of camera.png (1
// channel) / astronaut.png (3, 4 channels), random images and a padded sub-image view
// (opencv/filter_test_util.hpp).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/filter_test_util.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/filters.hpp"

namespace texcv::filter_opencv_test {
namespace {

TEST(OpenCVNonlinear, MedianIdentical) {
  // OpenCV: u8 any odd size; u16 and f32 only 3 and 5.
  struct Case {
    ElemType t;
    std::vector<int> sizes;
  };
  const Case cases[] = {{ElemType::u8, {1, 3, 5, 7, 9, 11, 15, 21, 31}},
                        {ElemType::u16, {3, 5}},
                        {ElemType::f32, {3, 5}}};
  for (const Case& cs : cases)
    for (int ch : {1, 3, 4})
      for_each_source(cs.t, ch, [&](const ImageView& src, const std::string& what) {
        for (int k : cs.sizes) {
          Image ours(src.width, src.height, ch, cs.t);
          test::poison(ours.view());
          median_blur(src, ours, k);
          cv::Mat theirs;
          cv::medianBlur(as_mat(src), theirs, k);
          const test::Diff d = test::compare(ours, to_image(theirs, cs.t));
          EXPECT_EQ(d.count, 0) << "median " << what << " k " << k << ": " << d.describe();
          EXPECT_EQ(d.nan_or_poison, 0) << what;
        }
      });
}

}  // namespace
}  // namespace texcv::filter_opencv_test
