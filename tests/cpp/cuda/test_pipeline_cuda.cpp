// texcv::Pipeline on device images: one image, and a list of mixed sizes and types whose steps
// run in batched launches (one kernel per step for the whole list), into poisoned destinations;
// every result bit for bit the CPU backend's pipeline (steps whose CUDA and CPU results are
// identical: the Gaussian, flip, convert, threshold, cvt_color).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

const char* const kText =
    "gaussian_blur:sigma=1.2;flip:code=horizontal;crop:x=1,y=2,width=30,height=20;"
    "convert:type=f32,scale=0.25;threshold:thresh=20,maxval=1,type=trunc";

std::vector<Image> sources() {
  std::vector<Image> s;
  s.push_back(test::random_image(64, 48, 3, ElemType::u8, 21));
  s.push_back(test::random_image(33, 90, 1, ElemType::u16, 22));
  s.push_back(test::random_image(41, 23, 4, ElemType::f32, 23));
  s.push_back(test::random_image(64, 48, 3, ElemType::u8, 24));
  return s;
}

void expect_identical(const ImageView& got, const ImageView& want, const std::string& what) {
  const test::Diff d = test::compare(got, want);
  EXPECT_EQ(d.count, 0) << what << ": " << d.describe();
  EXPECT_EQ(d.nan_or_poison, 0) << what << ": " << d.describe();
}

TEST(PipelineCuda, ListInBatchedLaunchesIsTheCpuPipeline) {
  TEXCV_REQUIRE_GPU();
  const std::vector<Image> host = sources();
  Pipeline cpu(kText), gpu(kText);
  std::vector<Image> dev, out;
  std::vector<ImageView> dev_views, out_views;
  for (const Image& h : host) {
    dev.push_back(h.clone(Location::device));
    dev_views.push_back(dev.back().view());
    const OutputFormat f = gpu.output_format(dev.back().view());
    out.emplace_back(f.width, f.height, f.channels, f.type, Location::device);
    test::poison(out.back().view());
    out_views.push_back(out.back().view());
  }
  for (int round = 0; round < 2; ++round) {  // the second round on the kept buffers
    gpu.run_into(dev_views, out_views);
    for (std::size_t i = 0; i < host.size(); ++i)
      expect_identical(test::to_host(out_views[i]).view(), cpu.run(host[i].view()).view(),
                       "round " + std::to_string(round) + ", image " + std::to_string(i));
    for (const Image& o : out) test::poison(o.view());
  }
}

TEST(PipelineCuda, OneImageOnAStreamIsTheCpuPipeline) {
  TEXCV_REQUIRE_GPU();
  const std::vector<Image> host = sources();
  Pipeline cpu("cvt_color:code=rgb2gray;" + std::string(kText)), gpu(cpu.text());
  const Image d = host[0].clone(Location::device);
  const Image got = gpu.run(d.view());
  EXPECT_EQ(got.location(), Location::device);
  expect_identical(test::to_host(got.view()).view(), cpu.run(host[0].view()).view(), "rgb");
}

TEST(PipelineCuda, ImagesInTwoLocationsAreRefused) {
  TEXCV_REQUIRE_GPU();
  const std::vector<Image> host = sources();
  const Image d = host[1].clone(Location::device);
  Pipeline p(kText);
  try {
    (void)p.run(std::vector<ImageView>{d.view(), host[1].view()});
    FAIL() << "no error for a host image in a device list";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("image 1: pipeline: the images are not all in one "
                                         "location; got host, expected device (as image 0)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace texcv
