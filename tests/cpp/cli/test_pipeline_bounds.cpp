// Pipeline bounds (issue 18): every step's output size is computed from the input's header
// before any pixel is allocated, and a pipeline whose output or an intermediate would exceed the
// pixel cap is refused, naming the step, the size and the limit: texcv::check_pipeline_size, and
// through it texcv run (at once) and texcv batch (that file fails, the others run).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/batch_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace fs = std::filesystem;

namespace {

using texcv::test::batch::has;
using texcv::test::batch::Proc;

struct CliRun : Proc {
  double seconds = 0;
};

class PipelineBounds : public ::testing::Test {
 protected:
  // texcv as a process (batch_test_util.hpp's spawn and wait_for), timed.
  CliRun texcv(const std::vector<std::string>& args) {
    const auto t0 = std::chrono::steady_clock::now();
    CliRun r;
    static_cast<Proc&>(r) = texcv::test::batch::wait_for(
        texcv::test::batch::spawn(args, dir_ / "stdout.txt", dir_ / "stderr.txt"),
        dir_ / "stdout.txt", dir_ / "stderr.txt");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  fs::path image(const std::string& name, int w, int h) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    texcv::imwrite(p.string(), texcv::test::random_image(w, h, 3, texcv::ElemType::u8, 1).view());
    return p;
  }
  texcv::test::TempDir tmp_{"texcv_bounds_"};
  fs::path dir_ = tmp_.path();
};

std::string error_of(const std::vector<texcv::PipelineStep>& steps, int w, int h,
                     std::uint64_t cap) {
  try {
    texcv::check_pipeline_size(steps, w, h, cap);
  } catch (const texcv::Error& e) {
    return e.what();
  }
  return "";
}

TEST_F(PipelineBounds, CheckNamesTheStepTheSizeAndTheLimit) {
  EXPECT_EQ(error_of(texcv::parse_pipeline("resize:width=40000,height=40000"), 64, 48, 256'000'000),
            "step 1 (resize): its output would be 40000x40000 pixels (from a 64x48 input), more "
            "than the pixel cap (--max-pixels); got 1600000000 pixels, expected at most 256000000");
  // Twenty expanding rotations: the 17th is the first over the cap (an intermediate).
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "rotate:angle=45,expand=true;";
  EXPECT_EQ(error_of(texcv::parse_pipeline(twenty), 64, 48, 256'000'000),
            "step 17 (rotate): its output would be 20972x20972 pixels (from a 14829x14829 "
            "input), more than the pixel cap (--max-pixels); got 439824784 pixels, expected at "
            "most 256000000");
  // Within the cap, or no cap (0).
  EXPECT_EQ(error_of(texcv::parse_pipeline("resize:scale=2;crop:x=0,y=0,width=10,height=10"), 64,
                     48, 256'000'000),
            "");
  EXPECT_EQ(error_of(texcv::parse_pipeline("resize:width=40000,height=40000"), 64, 48, 0), "");
  // A step that cannot run on that size says so, as running it would.
  EXPECT_TRUE(
      has(error_of(texcv::parse_pipeline("resize:scale=0.5;crop:x=0,y=0,width=40,height=40"), 64,
                   48, 256'000'000),
          "step 2 (crop): "));
}

TEST_F(PipelineBounds, RunRefusesAPipelineOverTheCapBeforeDecoding) {
  const fs::path in = image("in.png", 64, 48);
  const fs::path out = dir_ / "out.tif";
  // 16001 x 16001 is just over the 256,000,000-pixel default: 768 MB allocated and resized
  // before, refused at once now.
  const CliRun r = texcv({"run", "-i", in.string(), "-o", out.string(), "-p",
                          "resize:width=16001,height=16001", "--device", "cpu"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(has(r.err, in.string() +
                             ": step 1 (resize): its output would be 16001x16001 pixels (from a "
                             "64x48 input), more than the pixel cap (--max-pixels); got "
                             "256032001 pixels, expected at most 256000000"))
      << r.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_LT(r.seconds, 5.0);
}

TEST_F(PipelineBounds, BatchFailsTheFileOverTheCapAndRunsTheOthers) {
  image("in/small.png", 64, 48);   // x4: 256x192 = 49,152 pixels
  image("in/large.png", 128, 96);  // x4: 512x384 = 196,608 pixels
  const fs::path report = dir_ / "report.jsonl";
  const CliRun r = texcv({"batch", "-i", (dir_ / "in").string(), "-o", (dir_ / "out").string(),
                          "-p", "resize:scale=4;flip", "--max-pixels", "50000", "--device", "cpu",
                          "--report", report.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "small.png"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "large.png"));
  const std::string msg =
      "step 1 (resize): its output would be 512x384 pixels (from a 128x96 input), more than the "
      "pixel cap (--max-pixels); got 196608 pixels, expected at most 50000";
  EXPECT_TRUE(
      has(r.err, std::string("FAILED ") + (dir_ / "in" / "large.png").string() + ": " + msg))
      << r.err;
  const std::string rep = texcv::test::batch::read_all(report);
  EXPECT_TRUE(has(
      rep, std::string("\"status\":\"failed\",\"error\":\"") + msg + "\",\"stage\":\"process\""))
      << rep;
}

}  // namespace
