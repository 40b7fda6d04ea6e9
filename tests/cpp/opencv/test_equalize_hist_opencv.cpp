// equalize_hist against cv::equalizeHist (opencv/color_test_util.hpp).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "opencv/color_test_util.hpp"
#include "opencv/opencv_support.hpp"
#include "texcv/color.hpp"

namespace texcv::color_opencv_test {
namespace {

TEST(ColorOpenCV, EqualizeHistMatches) {
  for (const char* name : {"astronaut.png", "coffee.png", "camera.png", "random"}) {
    SCOPED_TRACE(name);
    const Image s = std::string(name) == "random" ? test::random_image(83, 29, 1, ElemType::u8, 8)
                                                  : from_mat(photo(name, 1, ElemType::u8));
    Image o;
    const ImageView d = out_view(o, s.width(), s.height(), 1, ElemType::u8);
    equalize_hist(s, d);
    cv::Mat ref;
    cv::equalizeHist(as_mat(s.view()), ref);
    EXPECT_EQ(test::compare(d, from_mat(ref).view()).count, 0);  // same integer table
  }
}

}  // namespace
}  // namespace texcv::color_opencv_test
