// separable_filter against cv::sepFilter2D (opencv/filter_test_util.hpp).
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

TEST(OpenCVFilters, SeparableFilter) {
  const int sizes[][2] = {{1, 5}, {3, 3}, {7, 2}, {15, 9}};
  for_each_source([&](const ImageView& src, const std::string& what) {
    for (const auto& sz : sizes)
      for (Border b : kBorders) {
        const std::vector<float> kx = random_kernel(sz[0], 21), ky = random_kernel(sz[1], 22);
        SeparableParams p;
        p.delta = src.type == ElemType::f32 ? 0.5 : 40.0;
        p.border.border = b;
        Image ours(src.width, src.height, src.channels, src.type);
        separable_filter(src, ours, kx, ky, p);
        const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
          cv::sepFilter2D(in, out, -1, cv::Mat(kx), cv::Mat(ky), cv::Point(-1, -1), p.delta, bf);
        });
        expect_within(ours, theirs, tol(src.type, src.type, sum_abs(kx) * sum_abs(ky)),
                      "separable_filter " + what + " " + std::to_string(sz[0]) + "x" +
                          std::to_string(sz[1]) + " " + to_string(b));
      }
  });
}

}  // namespace
}  // namespace texcv::filter_opencv_test
