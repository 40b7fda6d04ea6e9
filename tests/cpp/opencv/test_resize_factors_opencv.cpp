// resize's factor form (ResizeParams::fx/fy) against cv::resize(src, dst, Size(), fx, fy), and
// the pipeline step resize:scale/fx/fy against the same (OpenCV 4.6, as the other reference
// tests). Odd and even sizes, factors below and above 1, every interpolation, u8/u16/f32 x 1, 3,
// 4 channels. The bounds are those of test_resize_opencv.cpp's resize test
// (docs/conventions.md): nearest identical, linear/cubic/area 1 level for u8/u16, 1e-5 for f32.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/registry.hpp"

namespace texcv {
namespace {

using test::as_mat;

constexpr ElemType kTypes[] = {ElemType::u8, ElemType::u16, ElemType::f32};
constexpr int kChannels[] = {1, 3, 4};
constexpr Interp kInterps[] = {Interp::nearest, Interp::linear, Interp::cubic, Interp::area};

// texcv's nearest is cv::INTER_NEAREST_EXACT (which ignores the factors and maps by the sizes).
using test::cv_resize_interp;

// nearest picks pixels: identical. Otherwise u8/u16 1 level (OpenCV's fixed-point weights for
// u8, rounding of another summation order), f32 1e-5 (data in [0, 1]; cubic's 16 products summed
// in another order).
double bound(Interp ip, ElemType t) {
  if (ip == Interp::nearest) return 0;
  return t == ElemType::f32 ? 1e-5 : 1.0;
}

void expect_within(const ImageView& ours, const cv::Mat& theirs, double tol,
                   const std::string& what) {
  ASSERT_EQ(ours.width, theirs.cols) << what;
  ASSERT_EQ(ours.height, theirs.rows) << what;
  Image ref(theirs.cols, theirs.rows, theirs.channels(), ours.type);
  theirs.copyTo(as_mat(ref));
  const test::Diff d = test::compare(ours, ref);
  EXPECT_EQ(d.nan_or_poison, 0) << what;
  EXPECT_LE(d.max_abs, tol) << what << ": " << d.describe();
}

// Sources: photographs (odd 159x119 and even 160x120 crops) and random data (odd 61x47, even
// 60x46), the extremes of smoothness.
struct Src {
  bool photo;
  int w, h;
};
constexpr Src kSources[] = {{true, 159, 119}, {true, 160, 120}, {false, 61, 47}, {false, 60, 46}};

Image make_source(const Src& s, ElemType t, int ch) {
  return s.photo ? test::photo(t, ch, s.w, s.h) : test::random_image(s.w, s.h, ch, t, 7);
}

std::string name(const Src& s, ElemType t, int ch, Interp ip, double fx, double fy) {
  return std::string(s.photo ? "photo " : "random ") + std::to_string(s.w) + "x" +
         std::to_string(s.h) + " " + to_string(t) + " x" + std::to_string(ch) + " " +
         to_string(ip) + " fx " + std::to_string(fx) + " fy " + std::to_string(fy);
}

// (fx, fy) pairs: shrinking (0.5 hits the ties 159 * 0.5 = 79.5 -> 80, 119 * 0.5 -> 60; 0.3,
// 0.7), enlarging (1.5, 2.5), and one axis each way.
constexpr double kFactors[][2] = {{0.5, 0.5}, {0.3, 0.3}, {0.7, 0.7}, {1.5, 1.5},
                                  {2.5, 2.5}, {0.5, 1.7}, {1.3, 0.45}};

TEST(OpenCVResizeFactors, MatchesCvResizeWithFxFy) {
  for (const Src& s : kSources)
    for (ElemType t : kTypes)
      for (int ch : kChannels) {
        const Image src = make_source(s, t, ch);
        for (const auto& f : kFactors) {
          const Rect r = resized_size(s.w, s.h, f[0], f[1]);
          for (Interp ip : kInterps) {
            const std::string what = name(s, t, ch, ip, f[0], f[1]);
            cv::Mat theirs;
            cv::resize(as_mat(src), theirs, cv::Size(), f[0], f[1], cv_resize_interp(ip));
            ASSERT_EQ(r.width, theirs.cols) << what;
            ASSERT_EQ(r.height, theirs.rows) << what;
            Image ours(r.width, r.height, ch, t);
            test::poison(ours.view());
            ResizeParams p;
            p.interp = ip;
            p.fx = f[0];
            p.fy = f[1];
            resize(src, ours, p);
            expect_within(ours, theirs, bound(ip, t), what);
          }
        }
      }
}

// One factor given (the other 0: the size ratio of an unchanged side) equals cv::resize with the
// other factor 1.
TEST(OpenCVResizeFactors, OneAxisFactor) {
  const Image src = test::photo(ElemType::u8, 3, 159, 119);
  for (Interp ip : kInterps) {
    for (bool along_x : {true, false}) {
      const double fx = along_x ? 0.5 : 1.0, fy = along_x ? 1.0 : 0.5;
      cv::Mat theirs;
      cv::resize(as_mat(src), theirs, cv::Size(), fx, fy, cv_resize_interp(ip));
      Image ours(theirs.cols, theirs.rows, 3, ElemType::u8);
      ResizeParams p;
      p.interp = ip;
      (along_x ? p.fx : p.fy) = 0.5;
      resize(src, ours, p);
      expect_within(ours, theirs, bound(ip, ElemType::u8),
                    std::string(to_string(ip)) + (along_x ? " fx only" : " fy only"));
    }
  }
}

// A factor that rounds back to the source size is a copy in cv::resize (Size equal: copyTo), on
// both axes; texcv gives the source unchanged too.
TEST(OpenCVResizeFactors, FactorKeepingTheSizeIsACopy) {
  for (ElemType t : kTypes) {
    const Image src = test::random_image(61, 47, 3, t, 3);
    for (Interp ip : kInterps) {
      cv::Mat theirs;
      cv::resize(as_mat(src), theirs, cv::Size(), 1.005, 1.005, cv_resize_interp(ip));
      ASSERT_EQ(theirs.cols, 61);
      ASSERT_EQ(theirs.rows, 47);
      Image ours(61, 47, 3, t);
      ResizeParams p;
      p.interp = ip;
      p.fx = p.fy = 1.005;
      resize(src, ours, p);
      expect_within(ours, theirs, 0, std::string(to_string(t)) + " " + to_string(ip));
    }
  }
}

// Area enlarging where (floor(d * scale) + 1) * inv_scale is whole (160 -> 208: inv_scale 1.3,
// d = 13): the fraction must use cv::resize's inv_scale (dst / src or fx), not a division by
// src / dst, or it flips between 0 and ~1 (up to 100 levels before the fix), in both forms.
TEST(OpenCVResizeFactors, AreaEnlargingOnWholeProducts) {
  for (ElemType t : kTypes) {
    const Image src = test::photo(t, 1, 160, 120);
    for (const auto& sz : {std::pair{208, 54}, std::pair{54, 208}, std::pair{208, 120}}) {
      cv::Mat theirs;
      cv::resize(as_mat(src), theirs, cv::Size(sz.first, sz.second), 0, 0, cv::INTER_AREA);
      Image ours(sz.first, sz.second, 1, t);
      ResizeParams p;
      p.interp = Interp::area;
      resize(src, ours, p);
      expect_within(ours, theirs, bound(Interp::area, t),
                    std::string(to_string(t)) + " size form to " + std::to_string(sz.first) + "x" +
                        std::to_string(sz.second));
    }
    cv::Mat theirs;
    cv::resize(as_mat(src), theirs, cv::Size(), 1.3, 0.45, cv::INTER_AREA);
    Image ours(theirs.cols, theirs.rows, 1, t);
    ResizeParams p;
    p.interp = Interp::area;
    p.fx = 1.3;
    p.fy = 0.45;
    resize(src, ours, p);
    expect_within(ours, theirs, bound(Interp::area, t), std::string(to_string(t)) + " fx 1.3");
  }
}

// The pipeline step (texcv run/batch): resize:scale=S and resize:fx=X,fy=Y give cv::resize's
// factor form; resize:width=W,height=H its size form.
TEST(OpenCVResizeFactors, PipelineStepMatchesCvResize) {
  for (ElemType t : kTypes)
    for (const Src& s : kSources) {
      const Image src = make_source(s, t, 3);
      for (Interp ip : kInterps) {
        const std::string ipn = to_string(ip);
        for (const char* sc : {"0.5", "0.3", "1.5"}) {
          const double f = std::stod(sc);
          const Image got = apply("resize", src, {{"scale", sc}, {"interp", ipn}});
          cv::Mat theirs;
          cv::resize(as_mat(src), theirs, cv::Size(), f, f, cv_resize_interp(ip));
          expect_within(got, theirs, bound(ip, t),
                        name(s, t, 3, ip, f, f) + " pipeline resize:scale=" + sc);
        }
        {
          const Image got = apply("resize", src, {{"fx", "0.7"}, {"fy", "2.5"}, {"interp", ipn}});
          cv::Mat theirs;
          cv::resize(as_mat(src), theirs, cv::Size(), 0.7, 2.5, cv_resize_interp(ip));
          expect_within(got, theirs, bound(ip, t), name(s, t, 3, ip, 0.7, 2.5) + " pipeline fx/fy");
        }
        {
          const Image got = apply("resize", src, {{"fx", "0.5"}, {"interp", ipn}});
          cv::Mat theirs;
          cv::resize(as_mat(src), theirs, cv::Size(), 0.5, 1.0, cv_resize_interp(ip));
          expect_within(got, theirs, bound(ip, t), name(s, t, 3, ip, 0.5, 1) + " pipeline fx");
        }
        {
          const Image got =
              apply("resize", src, {{"width", "37"}, {"height", "29"}, {"interp", ipn}});
          cv::Mat theirs;
          cv::resize(as_mat(src), theirs, cv::Size(37, 29), 0, 0, cv_resize_interp(ip));
          expect_within(got, theirs, bound(ip, t),
                        name(s, t, 3, ip, 0, 0) + " pipeline width/height");
        }
      }
    }
}

// The pipeline parser end to end: "resize:scale=0.5" through parse_pipeline and apply.
TEST(OpenCVResizeFactors, ParsedPipelineMatchesCvResize) {
  const Image src = test::photo(ElemType::u8, 3, 159, 119);
  const std::vector<PipelineStep> steps = parse_pipeline("resize:scale=0.5,interp=area");
  ASSERT_EQ(steps.size(), 1u);
  const Image got = apply(steps[0].name, src, steps[0].params);
  cv::Mat theirs;
  cv::resize(as_mat(src), theirs, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
  expect_within(got, theirs, 1.0, "resize:scale=0.5,interp=area");
}

}  // namespace
}  // namespace texcv
