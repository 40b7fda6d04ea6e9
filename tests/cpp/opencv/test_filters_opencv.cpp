// The CPU linear filters against OpenCV 4.6 (pinned in test_geometry_opencv.cpp): filter2D,
// sepFilter2D, GaussianBlur, boxFilter, Sobel, Scharr, Laplacian, on the sample images and random
// data, across element types, channels, borders, kernel sizes, odd sizes and sub-image views.
// Each tolerance is written next to its check with the reason (CONVENTIONS.md: u8 1 level).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/filters.hpp"

namespace texcv {
namespace {

using test::as_mat;
using test::cv_border_isolated;
using test::cv_depth;

constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
constexpr int kChannels[] = {1, 3, 4};
constexpr Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                               Border::reflect101, Border::wrap};

// OpenCV 4.6's filter engine rejects BORDER_WRAP ("columnBorderType != BORDER_WRAP"): for wrap the
// reference pads the source with cv::copyMakeBorder(BORDER_WRAP) by 32 pixels (more than any
// kernel here reaches), filters the padded image and crops; other borders call f directly.
cv::Mat reference(const ImageView& src, Border b,
                  const std::function<void(const cv::Mat&, cv::Mat&, int)>& f) {
  cv::Mat out;
  if (b != Border::wrap) {
    f(as_mat(src), out, cv_border_isolated(b));
    return out;
  }
  constexpr int kPad = 32;
  cv::Mat padded;
  cv::copyMakeBorder(as_mat(src), padded, kPad, kPad, kPad, kPad, cv::BORDER_WRAP);
  f(padded, out, cv::BORDER_REFLECT_101);
  return out(cv::Rect(kPad, kPad, src.width, src.height)).clone();
}

double full_scale(ElemType t) {
  return t == ElemType::u8 ? 255.0 : t == ElemType::u16 ? 65535.0 : 1.0;
}

// Tolerance of a filter output: integer outputs 1 level (OpenCV sums in another order or in fixed
// point, which moves the rounding of a value near .5 by one level); f32 outputs 1e-5 of the
// largest possible |sum| (sum |k| x full scale of the source: float sums of up to 961 products in
// another order; relative to the output it would fail where large terms cancel, e.g. derivatives
// of flat regions).
double tol(ElemType src_t, ElemType dst_t, double sum_abs_k) {
  if (dst_t != ElemType::f32) return 1.0;
  return 1e-5 * sum_abs_k * full_scale(src_t);
}

double sum_abs(const std::vector<float>& k) {
  double s = 0;
  for (float v : k) s += std::fabs(v);
  return s;
}

void expect_within(const ImageView& ours, const cv::Mat& theirs, double bound,
                   const std::string& what) {
  ASSERT_EQ(theirs.cols, ours.width) << what;
  ASSERT_EQ(theirs.rows, ours.height) << what;
  Image ref(theirs.cols, theirs.rows, theirs.channels(), ours.type);
  theirs.copyTo(as_mat(ref));
  const test::Diff d = test::compare(ours, ref);
  EXPECT_EQ(d.nan_or_poison, 0) << what;
  EXPECT_LE(d.max_abs, bound) << what << ": " << d.describe();
}

using test::photo;

std::vector<float> random_kernel(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> k(static_cast<std::size_t>(n));
  for (auto& v : k) v = u(rng);
  return k;
}

// Runs check(src, what) over: the photo region, random 61x47, and a random 23x17 sub-image view
// (offset, padded pitch), for every type and channel count.
void for_each_source(const std::function<void(const ImageView&, const std::string&)>& check) {
  for (ElemType t : kTypes)
    for (int ch : kChannels) {
      const std::string base = std::string(to_string(t)) + " x" + std::to_string(ch);
      Image p = photo(t, ch);
      check(p.view(), base + " photo");
      Image r = test::random_image(61, 47, ch, t, 11u + static_cast<std::uint32_t>(ch));
      check(r.view(), base + " random 61x47");
      Image owner;
      const ImageView v = test::padded_view(owner, 23, 17, ch, t, 5, 3, 2);
      Image fill = test::random_image(23, 17, ch, t, 99);
      as_mat(fill.view()).copyTo(as_mat(v));
      check(v, base + " view 23x17");
    }
}

TEST(OpenCVFilters, ConvolveKernelsAnchorsBorders) {
  // (width, height, anchor_x, anchor_y): odd, even, non-square, off-centre anchors, 31x31.
  const int shapes[][4] = {{1, 1, -1, -1}, {3, 3, -1, -1}, {5, 3, 0, 2},
                           {4, 6, -1, -1}, {7, 7, 6, 1},   {31, 31, -1, -1}};
  for_each_source([&](const ImageView& src, const std::string& what) {
    for (const auto& s : shapes) {
      if (s[0] == 31 && src.width < 100) continue;  // 31x31 on the photo only (time)
      Kernel k{s[0], s[1], random_kernel(s[0] * s[1], static_cast<std::uint32_t>(s[0] * 7 + s[1]))};
      for (Border b : kBorders) {
        ConvolveParams p;
        p.anchor_x = s[2];
        p.anchor_y = s[3];
        p.delta = src.type == ElemType::f32 ? 0.25 : 20.0;
        p.border.border = b;
        Image ours(src.width, src.height, src.channels, src.type);
        convolve(src, ours, k, p);
        const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
          cv::filter2D(in, out, -1, cv::Mat(s[1], s[0], CV_32F, k.values.data()),
                       cv::Point(s[2], s[3]), p.delta, bf);
        });
        expect_within(ours, theirs, tol(src.type, src.type, sum_abs(k.values)),
                      "convolve " + what + " " + std::to_string(s[0]) + "x" + std::to_string(s[1]) +
                          " " + to_string(b));
      }
    }
  });
}

TEST(OpenCVFilters, ConvolveScaleAndF32Output) {
  for_each_source([&](const ImageView& src, const std::string& what) {
    Kernel k{5, 5, random_kernel(25, 3)};
    ConvolveParams p;
    p.scale = 0.5;  // a power of two: OpenCV's kernel * 0.5 is exact, so the sums agree
    p.delta = -3;
    Image ours(src.width, src.height, src.channels, ElemType::f32);
    convolve(src, ours, k, p);
    std::vector<float> half(k.values);
    for (auto& v : half) v *= 0.5f;
    cv::Mat theirs;
    cv::filter2D(as_mat(src), theirs, CV_32F, cv::Mat(5, 5, CV_32F, half.data()), cv::Point(-1, -1),
                 p.delta, cv_border_isolated(Border::reflect101));
    expect_within(ours, theirs, tol(src.type, ElemType::f32, sum_abs(half)),
                  "convolve f32 output " + what);
  });
}

TEST(OpenCVFilters, ConstantBorderValue) {
  // OpenCV's filters read 0 outside for BORDER_CONSTANT; a non-zero value is checked by padding
  // with cv::copyMakeBorder(value) and filtering the padded image, then cropping.
  for_each_source([&](const ImageView& src, const std::string& what) {
    const double s = full_scale(src.type) / 255.0;
    ConvolveParams p;
    p.border.border = Border::constant;
    p.border.value = {17 * s, 200 * s, 3 * s, 99 * s};
    Kernel k{5, 3, random_kernel(15, 8)};
    Image ours(src.width, src.height, src.channels, src.type);
    convolve(src, ours, k, p);
    cv::Mat padded, full;
    cv::copyMakeBorder(
        as_mat(src), padded, 1, 1, 2, 2, cv::BORDER_CONSTANT,
        cv::Scalar(p.border.value[0], p.border.value[1], p.border.value[2], p.border.value[3]));
    cv::filter2D(padded, full, -1, cv::Mat(3, 5, CV_32F, k.values.data()), cv::Point(-1, -1), 0,
                 cv::BORDER_REFLECT_101);
    expect_within(ours, full(cv::Rect(2, 1, src.width, src.height)),
                  tol(src.type, src.type, sum_abs(k.values)), "constant value " + what);
  });
}

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
}  // namespace texcv

namespace texcv {
namespace {

TEST(OpenCVFilters, KernelLargerThanTheImage) {
  // A 9x7 kernel on a 5x3 image: every border mode folds or repeats more than once.
  for (ElemType t : kTypes) {
    Image src = test::random_image(5, 3, 1, t, 31);
    Kernel k{9, 7, random_kernel(63, 32)};
    for (Border b : kBorders) {
      ConvolveParams p;
      p.border.border = b;
      Image ours(5, 3, 1, t);
      convolve(src, ours, k, p);
      const cv::Mat theirs = reference(src, b, [&](const cv::Mat& in, cv::Mat& out, int bf) {
        cv::filter2D(in, out, -1, cv::Mat(7, 9, CV_32F, k.values.data()), cv::Point(-1, -1), 0, bf);
      });
      expect_within(ours, theirs, tol(t, t, sum_abs(k.values)),
                    std::string("convolve 9x7 on 5x3 ") + to_string(t) + " " + to_string(b));
    }
  }
}

}  // namespace
}  // namespace texcv
