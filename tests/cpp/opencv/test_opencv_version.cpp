// The OpenCV the reference tests (tests/cpp/opencv) are built with: 4.6, whose implementation
// their tolerances were derived from.
#include <opencv2/core.hpp>

#include <gtest/gtest.h>

namespace texcv {
namespace {

TEST(OpenCV, VersionIsPinned) {
  EXPECT_EQ(CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR, 406) << CV_VERSION;
}

}  // namespace
}  // namespace texcv
