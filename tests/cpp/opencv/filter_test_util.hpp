// Helpers shared by the tests of the CPU filters against OpenCV 4.6 (test_<op>_opencv.cpp of
// convolve, separable_filter, gaussian_blur, box_filter, sharpen, sobel, median_blur and
// bilateral_filter; the version is pinned by OpenCV.VersionIsPinned in test_opencv_version.cpp):
// OpenCV's result for every border (wrap through a padded copy), the tolerance of a filter
// output, random kernels, and the sources (the sample images, random data, sub-image views).
// Each tolerance is written next to its check with the reason (CONVENTIONS.md: u8 1 level).
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv::filter_opencv_test {

using test::as_mat;
using test::cv_border_isolated;
using test::cv_depth;
using test::photo;

inline constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};

inline constexpr int kChannels[] = {1, 3, 4};

inline constexpr Border kBorders[] = {Border::constant, Border::replicate, Border::reflect,
                                      Border::reflect101, Border::wrap};

// OpenCV 4.6's filter engine rejects BORDER_WRAP ("columnBorderType != BORDER_WRAP"): for wrap the
// reference pads the source with cv::copyMakeBorder(BORDER_WRAP) by 32 pixels (more than any
// kernel here reaches), filters the padded image and crops; other borders call f directly.
inline cv::Mat reference(const ImageView& src, Border b,
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

inline double full_scale(ElemType t) {
  return t == ElemType::u8 ? 255.0 : t == ElemType::u16 ? 65535.0 : 1.0;
}

// Tolerance of a filter output: integer outputs 1 level (OpenCV sums in another order or in fixed
// point, which moves the rounding of a value near .5 by one level); f32 outputs 1e-5 of the
// largest possible |sum| (sum |k| x full scale of the source: float sums of up to 961 products in
// another order; relative to the output it would fail where large terms cancel, e.g. derivatives
// of flat regions).
inline double tol(ElemType src_t, ElemType dst_t, double sum_abs_k) {
  if (dst_t != ElemType::f32) return 1.0;
  return 1e-5 * sum_abs_k * full_scale(src_t);
}

inline double sum_abs(const std::vector<float>& k) {
  double s = 0;
  for (float v : k) s += std::fabs(v);
  return s;
}

inline void expect_within(const ImageView& ours, const cv::Mat& theirs, double bound,
                          const std::string& what) {
  ASSERT_EQ(theirs.cols, ours.width) << what;
  ASSERT_EQ(theirs.rows, ours.height) << what;
  Image ref(theirs.cols, theirs.rows, theirs.channels(), ours.type);
  theirs.copyTo(as_mat(ref));
  const test::Diff d = test::compare(ours, ref);
  EXPECT_EQ(d.nan_or_poison, 0) << what;
  EXPECT_LE(d.max_abs, bound) << what << ": " << d.describe();
}

inline std::vector<float> random_kernel(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> k(static_cast<std::size_t>(n));
  for (auto& v : k) v = u(rng);
  return k;
}

// Runs check(src, what) over: the photo region, random 61x47, and a random 23x17 sub-image view
// (offset, padded pitch), for every type and channel count.
inline void for_each_source(
    const std::function<void(const ImageView&, const std::string&)>& check) {
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

// check(src, what) over the photo region, a random 61x47 image and a random 23x17 padded view,
// for one type and channel count.
inline void for_each_source(
    ElemType t, int ch, const std::function<void(const ImageView&, const std::string&)>& check) {
  const std::string base = std::string(to_string(t)) + " x" + std::to_string(ch);
  Image p = photo(t, ch);
  check(p.view(), base + " photo");
  Image r = test::random_image(61, 47, ch, t, 21u + static_cast<std::uint32_t>(ch));
  check(r.view(), base + " random 61x47");
  Image owner;
  const ImageView v = test::padded_view(owner, 23, 17, ch, t, 5, 3, 2);
  Image fill = test::random_image(23, 17, ch, t, 77);
  as_mat(fill.view()).copyTo(as_mat(v));
  check(v, base + " view 23x17");
}

inline Image to_image(const cv::Mat& m, ElemType t) {
  Image img(m.cols, m.rows, m.channels(), t);
  m.copyTo(as_mat(img));
  return img;
}

}  // namespace texcv::filter_opencv_test
