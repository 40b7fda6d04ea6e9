// batch::Session on the GPU (texcv/batch.hpp): the CUDA workers (streams, buffers, nvJPEG's
// states) made by the first run serve the later ones, which start with them at once, and every
// run's outputs equal batch::run's on the CPU backend (PNG in and out: lossless, so bit for bit)
// or, for JPEG inputs decoded by nvJPEG, are all ok with the input's size.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/batch.hpp"
#include "texcv/texcv.hpp"

namespace texcv {
namespace {

std::vector<unsigned char> file_bytes(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

TEST(BatchSessionCuda, CudaWorkersServeEveryRunWithTheCpuResults) {
  TEXCV_REQUIRE_GPU();
  const std::vector<unsigned char> png = file_bytes(test::sample_image("chelsea.png"));
  const std::vector<unsigned char> jpg = file_bytes(test::sample_image("hubble_deep_field.jpg"));
  ASSERT_FALSE(png.empty());
  ASSERT_FALSE(jpg.empty());
  std::vector<batch::Job> jobs;
  for (int i = 0; i < 6; ++i) {
    const std::string n = std::to_string(i);
    jobs.push_back({"p" + n + ".png", png, "p" + n + ".png"});
    jobs.push_back({"j" + n + ".jpg", jpg, "j" + n + ".png"});
  }
  batch::Options opt;
  opt.steps = parse_pipeline("flip:code=horizontal;gaussian_blur:sigma=1.5");
  opt.deliver = batch::Deliver::images;
  opt.decode_threads = opt.encode_threads = 2;

  // The reference: the CPU backend through batch::run.
  batch::Options cpu = opt;
  cpu.device = batch::Device::cpu;
  cpu.cpu_workers = 2;
  std::vector<Image> want(jobs.size());
  std::mutex m;
  cpu.on_output = [&](const batch::Result& r, batch::Output&& o) {
    std::lock_guard<std::mutex> lock(m);
    want[r.index] = std::move(o.image);
  };
  ASSERT_EQ(batch::run(jobs, cpu).ok, jobs.size());

  opt.device = batch::Device::cuda;
  opt.streams = 2;
  batch::Session session(opt);
  std::vector<std::string> first_workers;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("run " + std::to_string(round));
    std::vector<Image> got(jobs.size());
    std::vector<batch::Result> res(jobs.size());
    // Poisoned: an output the run did not deliver stays empty and fails the comparison.
    const batch::Summary s = session.run(
        jobs, {}, [&](const batch::Result& r) { res[r.index] = r; },
        [&](const batch::Result& r, batch::Output&& o) {
          std::lock_guard<std::mutex> lock(m);
          got[r.index] = std::move(o.image);
        });
    std::cout << "[ info ] session run " << round << ": " << s.seconds << " s, first file after "
              << s.first_file_s << " s\n";
    EXPECT_EQ(s.ok, jobs.size());
    EXPECT_EQ(s.on_cuda, jobs.size());
    EXPECT_TRUE(s.lost.empty());
    EXPECT_EQ(s.workers_made, round == 0 ? 2u * gpus().size() : 0u);
    if (round > 0) {
      EXPECT_EQ(s.gpu_ready_s, 0.0);
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      SCOPED_TRACE(jobs[i].input);
      ASSERT_EQ(res[i].status, batch::Status::ok) << res[i].error;
      EXPECT_EQ(res[i].device.rfind("cuda:", 0), 0u) << res[i].device;
      ASSERT_NE(got[i].data(), nullptr);
      ASSERT_EQ(got[i].width(), want[i].width());
      ASSERT_EQ(got[i].height(), want[i].height());
      if (jobs[i].input[0] == 'p') {
        const test::Diff d = test::compare(got[i].view(), want[i].view());
        EXPECT_EQ(d.max_abs, 0.0) << d.describe();
      }
    }
    if (round == 0) {
      first_workers = session.workers();
      EXPECT_EQ(first_workers.size(), 2u * gpus().size()) << "two streams a GPU";
      for (const std::string& w : first_workers) EXPECT_EQ(w.rfind("cuda:", 0), 0u) << w;
    } else {
      EXPECT_EQ(session.workers(), first_workers) << "the same CUDA workers serve every run";
    }
  }
}

}  // namespace
}  // namespace texcv
