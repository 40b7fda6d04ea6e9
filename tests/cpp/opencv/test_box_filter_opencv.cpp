// box_filter against cv::boxFilter (opencv/filter_test_util.hpp), normalized and sums.
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

TEST(OpenCVFilters, BoxFilter) {
  const int cases[][4] = {{3, 3, -1, -1}, {5, 5, -1, -1}, {4, 2, 0, 1}, {1, 9, -1, -1}};
  for_each_source([&](const ImageView& src, const std::string& what) {
    for (const auto& c : cases)
      for (bool normalize : {true, false})
        for (Border b : kBorders) {
          BoxParams p{c[0], c[1], normalize, c[2], c[3], {b, {0, 0, 0, 0}}};
          Image ours(src.width, src.height, src.channels, src.type);
          box_filter(src, ours, p);
          const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
            cv::boxFilter(in, out, -1, cv::Size(c[0], c[1]), cv::Point(c[2], c[3]), normalize, bf);
          });
          // Integer sums are exact on both sides; the 1-level bound covers the rounding of the
          // final division. f32: 1e-5 of the largest sum.
          expect_within(ours, theirs, tol(src.type, src.type, normalize ? 1.0 : c[0] * c[1]),
                        "box_filter " + what + " " + std::to_string(c[0]) + "x" +
                            std::to_string(c[1]) + (normalize ? " normalized " : " sum ") +
                            to_string(b));
        }
  });
}

}  // namespace
}  // namespace texcv::filter_opencv_test
