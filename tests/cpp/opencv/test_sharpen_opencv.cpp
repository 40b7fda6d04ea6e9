// sharpen against cv::filter2D with its kernel (opencv/filter_test_util.hpp).
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

TEST(OpenCVFilters, SharpenIsFilter2DWithItsKernel) {
  for_each_source([&](const ImageView& src, const std::string& what) {
    for (double s : {1.0, 0.5, 2.0})
      for (Border b : {Border::reflect101, Border::replicate}) {
        Image ours(src.width, src.height, src.channels, src.type);
        sharpen(src, ours, s, {b, {0, 0, 0, 0}});
        const float f = static_cast<float>(s);
        std::vector<float> k{0, -f, 0, -f, static_cast<float>(1 + 4 * s), -f, 0, -f, 0};
        const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
          cv::filter2D(in, out, -1, cv::Mat(3, 3, CV_32F, k.data()), cv::Point(-1, -1), 0, bf);
        });
        expect_within(ours, theirs, tol(src.type, src.type, sum_abs(k)),
                      "sharpen " + what + " strength " + std::to_string(s));
      }
  });
}

}  // namespace
}  // namespace texcv::filter_opencv_test
