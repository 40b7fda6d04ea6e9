// gaussian_blur against OpenCV (opencv/filter_test_util.hpp): gaussian_kernel against
// cv::getGaussianKernel, and cv::GaussianBlur's float and fixed-point paths.
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

TEST(OpenCVFilters, GaussianKernelMatchesGetGaussianKernel) {
  for (int n : {1, 3, 5, 7, 9, 11, 15, 31})
    for (double sigma : {0.0, 0.5, 1.0, 2.5}) {
      const std::vector<float> ours = gaussian_kernel(n, sigma);
      const cv::Mat theirs = cv::getGaussianKernel(n, sigma, CV_32F);
      // The table sizes (sigma <= 0, n <= 9) are identical; elsewhere OpenCV 4.6 evaluates exp
      // and the sum in software double (softdouble), whose last bit differs from libm's exp:
      // relative 1e-6 (a few float ulps).
      const bool table = sigma <= 0 && n <= 9;
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(ours[i], theirs.at<float>(i), table ? 0.0 : 1e-6 * theirs.at<float>(i))
            << "n " << n << " sigma " << sigma << " i " << i;
    }
}

TEST(OpenCVFilters, GaussianBlur) {
  // (ksize_x, ksize_y, sigma_x, sigma_y): table kernels, sizes from sigma, sigma from size.
  const double cases[][4] = {
      {3, 3, 0, 0}, {5, 7, 0, 0}, {0, 0, 2, 0}, {0, 0, 1.2, 3}, {9, 5, 1.5, 0.8}};
  for_each_source([&](const ImageView& src, const std::string& what) {
    for (const auto& c : cases)
      for (Border b : kBorders) {
        GaussianParams p;
        p.ksize_x = static_cast<int>(c[0]);
        p.ksize_y = static_cast<int>(c[1]);
        p.sigma_x = c[2];
        p.sigma_y = c[3];
        p.border.border = b;
        Image ours(src.width, src.height, src.channels, src.type);
        gaussian_blur(src, ours, p);
        const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
          cv::GaussianBlur(in, out, cv::Size(p.ksize_x, p.ksize_y), p.sigma_x, p.sigma_y, bf);
        });
        const std::string name = "gaussian_blur " + what + " " + std::to_string(c[0]) + "," +
                                 std::to_string(c[1]) + "," + std::to_string(c[2]) + "," +
                                 std::to_string(c[3]) + " " + to_string(b);
        if (src.type == ElemType::f32) {
          // f32: OpenCV's float path with the same float kernel; 1e-5 (sum |k| = 1).
          expect_within(ours, theirs, tol(src.type, src.type, 1.0), name);
          continue;
        }
        // u8/u16 against OpenCV's float path (the source converted to f32, blurred, rounded half
        // to even and saturated back by convertTo): 1 level (summation order).
        cv::Mat as_f32, blurred_f32, rounded;
        as_mat(src).convertTo(as_f32, CV_32F);
        const cv::Mat fsrc = as_f32;
        Image fimg(src.width, src.height, src.channels, ElemType::f32);
        fsrc.copyTo(as_mat(fimg));
        blurred_f32 = reference(fimg, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
          cv::GaussianBlur(in, out, cv::Size(p.ksize_x, p.ksize_y), p.sigma_x, p.sigma_y, bf);
        });
        // OpenCV derives the size from sigma with 3 sigma for u8 (4 for the rest): ask the f32
        // path for the size the u8 rule gives.
        if (src.type == ElemType::u8 && (p.ksize_x <= 0 || p.ksize_y <= 0)) {
          const double sy = p.sigma_y > 0 ? p.sigma_y : p.sigma_x;
          const int kx =
              p.ksize_x > 0 ? p.ksize_x : (static_cast<int>(std::nearbyint(p.sigma_x * 6 + 1)) | 1);
          const int ky =
              p.ksize_y > 0 ? p.ksize_y : (static_cast<int>(std::nearbyint(sy * 6 + 1)) | 1);
          blurred_f32 = reference(fimg, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
            cv::GaussianBlur(in, out, cv::Size(kx, ky), p.sigma_x, p.sigma_y, bf);
          });
        }
        blurred_f32.convertTo(rounded, cv_depth(src.type));
        expect_within(ours, rounded, 1.0, name + " (OpenCV float path)");
        // Against OpenCV's own u8/u16 path: 2 levels. OpenCV 4.6 blurs integers in fixed point
        // (u8: kernel coefficients with 8 fractional bits, ufixedpoint16), which moves results
        // derived from a sigma by up to 2 levels on random data (the table kernels for sizes <= 9
        // are exact in 1/256 and stay within 1).
        expect_within(ours, theirs, 2.0, name + " (OpenCV fixed-point path)");
      }
  });
}

}  // namespace
}  // namespace texcv::filter_opencv_test
