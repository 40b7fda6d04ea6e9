// flip against cv::flip for every code (with crop beside it), exact
// (opencv/geometry_test_util.hpp).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/geometry_test_util.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv::geometry_opencv_test {
namespace {

TEST(OpenCVFlip, AllCodes) {
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      Image src = source(true, t, ch);
      const std::pair<FlipCode, int> codes[] = {
          {FlipCode::horizontal, 1}, {FlipCode::vertical, 0}, {FlipCode::both, -1}};
      for (const auto& [code, cvcode] : codes) {
        Image ours(src.width(), src.height(), ch, t);
        flip(src, ours, code);
        cv::Mat theirs;
        cv::flip(as_mat(src), theirs, cvcode);
        expect_within(ours, theirs, 0,
                      ctx("flip", t, ch, true) + " " + to_string(code));  // a permutation
      }
      Image part(50, 40, ch, t);
      crop(src, part, Rect{33, 21, 50, 40});
      expect_within(part, as_mat(src)(cv::Rect(33, 21, 50, 40)), 0, ctx("crop", t, ch, true));
    }
}

}  // namespace
}  // namespace texcv::geometry_opencv_test
