// Codecs against OpenCV's imgcodecs (cv::imread with IMREAD_UNCHANGED, BGR(A) turned to
// RGB(A)). Both decode through the same system libraries (Debian's OpenCV links libpng16,
// libjpeg62-turbo and libtiff6, as texcv does) with the same JPEG settings (integer slow DCT,
// fancy upsampling), so every comparison is exact: no tolerance. Sample values as stored
// (OpenCV applies no gamma either); the one documented difference is OpenCV's premultiplied
// colour for 8-bit RGBA TIFF (see FilesTexcvWritesReadBackInOpenCV).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "io/io_test_util.hpp"
#include "opencv/opencv_support.hpp"

namespace texcv::test {
namespace {

const std::string kExamples = TEXCV_EXAMPLE_IMAGES;
const std::string kData = std::string(TEXCV_TEST_DATA) + "/io/";

// Joins the pieces (ostringstream: GCC 12 warns falsely, -Wrestrict, on some string "+" at -O3).
template <typename... T>
std::string cat(const T&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  return s.str();
}

// A cv::Mat header over a host view (no copy).
// cv::imread(IMREAD_UNCHANGED) in RGB(A) order.
cv::Mat cv_read_rgb(const std::string& path) {
  cv::Mat m = cv::imread(path, cv::IMREAD_UNCHANGED);
  if (m.channels() == 3) cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
  if (m.channels() == 4) cv::cvtColor(m, m, cv::COLOR_BGRA2RGBA);
  return m;
}

void expect_same_as_opencv(const std::string& path) {
  SCOPED_TRACE(path);
  const cv::Mat ref = cv_read_rgb(path);
  ASSERT_FALSE(ref.empty()) << "OpenCV cannot read " << path;
  const Image img = imread(path);
  const cv::Mat got = as_mat(img.view());
  ASSERT_EQ(got.rows, ref.rows);
  ASSERT_EQ(got.cols, ref.cols);
  ASSERT_EQ(got.type(), ref.type()) << "texcv " << img.view().describe();
  EXPECT_EQ(cv::norm(got, ref, cv::NORM_INF), 0.0);
}

TEST(IoOpenCV, SampleImagesDecodeIdentically) {
  for (const char* name : {"camera.png", "coffee.png", "chelsea.png", "rocket.jpg"})
    expect_same_as_opencv(kExamples + "/" + name);
  for (const char* name : {"astronaut.png", "brick.png", "hubble_deep_field.jpg"})
    expect_same_as_opencv(sample_image(name));
#if defined(TEXCV_HAS_TIFF)
  expect_same_as_opencv(kExamples + "/chessboard_GRAY_U16.tif");
#endif
}

TEST(IoOpenCV, PngFixturesDecodeIdentically) {
  // Low bit depths, palettes with and without tRNS, gray + alpha, 16-bit interlaced.
  for (const char* name : {"gray1.png", "gray2.png", "pal8.png", "pal4_trns.png", "ga8.png",
                           "ga16.png", "rgb16_adam7.png"})
    expect_same_as_opencv(kData + name);
}

#if defined(TEXCV_HAS_TIFF)
TEST(IoOpenCV, TiffFixturesDecodeIdentically) {
  for (const char* name : {"tiled_rgb16.tif", "tiled_gray_f32.tif", "strip_gray16_be.tif"})
    expect_same_as_opencv(kData + name);
}
#endif

TEST(IoOpenCV, FilesTexcvWritesReadBackInOpenCV) {
  TempDir dir;
  std::uint32_t seed = 1;
  struct Case {
    const char* ext;
    ElemType t;
    int c;
  };
  std::vector<Case> cases = {{"png", ElemType::u8, 1},  {"png", ElemType::u8, 3},
                             {"png", ElemType::u8, 4},  {"png", ElemType::u16, 1},
                             {"png", ElemType::u16, 3}, {"png", ElemType::u16, 4}};
#if defined(TEXCV_HAS_TIFF)
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) cases.push_back({"tif", t, c});
#endif
  for (const Case& k : cases) {
    SCOPED_TRACE(cat(k.ext, " ", to_string(k.t), " x", k.c));
    const Image img = random_image(29, 17, k.c, k.t, ++seed);
    const std::string p = dir.file(cat("w", seed, ".", k.ext));
    imwrite(p, img);
    const cv::Mat ref = cv_read_rgb(p);
    ASSERT_EQ(ref.type(), CV_MAKETYPE(cv_depth(k.t), k.c));
    cv::Mat want = as_mat(img.view()).clone();
    if (std::string(k.ext) == "tif" && k.t == ElemType::u8 && k.c == 4) {
      // OpenCV reads 8-bit TIFF through libtiff's RGBA interface, which premultiplies
      // unassociated alpha (as texcv writes it): colour (v * a + 127) / 255, alpha as stored.
      // texcv returns the stored values; the alpha channel and this rule make it exact.
      for (int y = 0; y < want.rows; ++y)
        for (int x = 0; x < want.cols; ++x) {
          auto& px = want.at<cv::Vec4b>(y, x);
          for (int c = 0; c < 3; ++c) px[c] = static_cast<uchar>((px[c] * px[3] + 127) / 255);
        }
    }
    EXPECT_EQ(cv::norm(want, ref, cv::NORM_INF), 0.0);
  }
  // JPEG is lossy; the decoders are the same, so OpenCV reads exactly what texcv reads back.
  for (int c : {1, 3}) {
    const Image img = random_image(40, 24, c, ElemType::u8, ++seed);
    const std::string p = dir.file(cat("w", c, ".jpg"));
    imwrite(p, img);
    EXPECT_EQ(cv::norm(as_mat(imread(p).view()), cv_read_rgb(p), cv::NORM_INF), 0.0);
  }
}

TEST(IoOpenCV, FilesOpenCVWritesReadInTexcv) {
  TempDir dir;
  cv::Mat bgr(31, 45, CV_8UC3), gray16(31, 45, CV_16UC1);
  cv::randu(bgr, 0, 256);
  cv::randu(gray16, 0, 65536);
  const std::string jpg = dir.file("cv.jpg"), png = dir.file("cv.png");
  ASSERT_TRUE(cv::imwrite(jpg, bgr, {cv::IMWRITE_JPEG_QUALITY, 90}));
  ASSERT_TRUE(cv::imwrite(png, gray16));
  expect_same_as_opencv(jpg);
  expect_same_as_opencv(png);
  EXPECT_EQ(cv::norm(as_mat(imread(png).view()), gray16, cv::NORM_INF), 0.0);
}

}  // namespace
}  // namespace texcv::test
