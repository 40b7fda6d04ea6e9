// sobel against cv::Sobel (opencv/filter_test_util.hpp), with scharr and laplacian beside it
// against cv::Scharr and cv::Laplacian, into the source's type and f32.
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

TEST(OpenCVFilters, SobelScharrLaplacian) {
  const int sobel_cases[][3] = {{1, 0, 3}, {0, 1, 3}, {1, 1, 3}, {2, 0, 5},
                                {1, 2, 7}, {1, 0, 1}, {0, 2, 1}, {3, 1, 5}};
  for_each_source([&](const ImageView& src, const std::string& what) {
    std::vector<ElemType> outs{src.type};
    if (src.type != ElemType::f32) outs.push_back(ElemType::f32);  // signed, unsaturated output
    for (ElemType out_t : outs) {
      const std::string w = what + " -> " + to_string(out_t);
      const int ddepth = out_t == src.type ? -1 : CV_32F;
      const double delta = src.type == ElemType::f32 ? 0.25 : 100.0;
      for (const auto& c : sobel_cases)
        for (Border b : kBorders) {
          SobelParams p{c[0], c[1], c[2], 0.5, delta, {b, {0, 0, 0, 0}}};
          Image ours(src.width, src.height, src.channels, out_t);
          sobel(src, ours, p);
          const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
            cv::Sobel(in, out, ddepth, c[0], c[1], c[2], 0.5, delta, bf);
          });
          cv::Mat kx, ky;
          cv::getDerivKernels(kx, ky, c[0], c[1], c[2], false, CV_32F);
          const double sk = cv::norm(kx, cv::NORM_L1) * cv::norm(ky, cv::NORM_L1) * 0.5;
          expect_within(ours, theirs, tol(src.type, out_t, sk),
                        "sobel " + w + " " + std::to_string(c[0]) + "," + std::to_string(c[1]) +
                            " k" + std::to_string(c[2]) + " " + to_string(b));
        }
      for (int dx : {0, 1})
        for (Border b : {Border::reflect101, Border::constant, Border::wrap}) {
          ScharrParams p{dx, 1 - dx, 2.0, delta, {b, {0, 0, 0, 0}}};
          Image ours(src.width, src.height, src.channels, out_t);
          scharr(src, ours, p);
          const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
            cv::Scharr(in, out, ddepth, dx, 1 - dx, 2.0, delta, bf);
          });
          expect_within(ours, theirs, tol(src.type, out_t, 32 * 2 * 2.0),
                        "scharr " + w + " dx " + std::to_string(dx) + " " + to_string(b));
        }
      for (int k : {1, 3, 5})
        for (Border b : kBorders) {
          LaplacianParams p{k, 1.5, delta, {b, {0, 0, 0, 0}}};
          Image ours(src.width, src.height, src.channels, out_t);
          laplacian(src, ours, p);
          const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
            cv::Laplacian(in, out, ddepth, k, 1.5, delta, bf);
          });
          const double sk = k == 1 ? 8 : k == 3 ? 16 : 256;  // sum |kernel| (ksize 5: bound)
          expect_within(ours, theirs, tol(src.type, out_t, sk * 1.5),
                        "laplacian " + w + " k" + std::to_string(k) + " " + to_string(b));
        }
    }
  });
}

}  // namespace
}  // namespace texcv::filter_opencv_test
