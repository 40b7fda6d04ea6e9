// texcv::batch::run, the library's batch engine as its users call it (texcv/batch.hpp): files
// and in-memory inputs, outputs as files, encoded bytes or images through a callback, one result
// per job, progress and cancellation, option errors. On the CPU device (any machine) and on
// automatic (CPU workers at once; on a GPU machine the CUDA workers join).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/host_cache.hpp"
#include "texcv/batch.hpp"
#include "texcv/texcv.hpp"

namespace fs = std::filesystem;
namespace batch = texcv::batch;

namespace {

std::vector<unsigned char> file_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// "<prefix><i>.png" (built in steps: GCC 12 warns, wrongly, about "x" + std::to_string(i)).
std::string numbered(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  s += ".png";
  return s;
}

// The reference: the same pipeline through texcv::apply on the decoded input.
texcv::Image expected(const std::string& path) {
  const texcv::Image in = texcv::imread(path);
  texcv::Image half = texcv::apply("resize", in.view(), {{"scale", "0.5"}, {"interp", "area"}});
  return texcv::apply("flip", half.view(), {{"code", "horizontal"}});
}

void expect_same(const texcv::ImageView& a, const texcv::ImageView& b, const std::string& what) {
  const texcv::test::Diff d = texcv::test::compare(a, b);
  EXPECT_EQ(d.max_abs, 0.0) << what << ": " << d.describe();
}

class BatchApi : public ::testing::Test {
 protected:
  void SetUp() override {
    png_ = texcv::test::sample_image("chelsea.png");
    opt_.steps = texcv::parse_pipeline("resize:scale=0.5,interp=area;flip:code=horizontal");
    opt_.device = batch::Device::cpu;
    opt_.cpu_workers = 2;
    opt_.decode_threads = 2;
    opt_.encode_threads = 2;
  }
  std::string png_;
  batch::Options opt_;
  texcv::test::TempDir tmp_{"texcv_batch_api_"};
};

TEST_F(BatchApi, FilesAndInMemoryInputsToFilesWithOneResultEach) {
  const std::vector<unsigned char> bytes = file_bytes(png_);
  std::vector<batch::Job> jobs = {
      {png_, {}, tmp_.file("a.png")},
      {"from-memory.png", bytes, tmp_.file("b.png")},
      {"garbage", {1, 2, 3, 4, 5, 6, 7, 8}, tmp_.file("c.png")},
      {tmp_.file("missing.png"), {}, tmp_.file("d.png")},
  };
  std::map<std::size_t, batch::Result> got;
  std::mutex m;
  opt_.on_result = [&](const batch::Result& r) {
    std::lock_guard<std::mutex> lock(m);
    EXPECT_TRUE(got.emplace(r.index, r).second) << "two results for job " << r.index;
  };
  const batch::Summary s = batch::run(jobs, opt_);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(s.ok, 2u);
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(s.on_cpu, 2u);
  const texcv::Image want = expected(png_);
  for (std::size_t i : {0u, 1u}) {
    const batch::Result& r = got[i];
    EXPECT_EQ(r.status, batch::Status::ok) << r.error;
    EXPECT_EQ(r.read_device, "cpu");
    EXPECT_EQ(r.device, "cpu");
    EXPECT_EQ(r.write_device, "cpu");
    EXPECT_EQ(r.width, 451);
    EXPECT_EQ(r.out_width, want.width());
    EXPECT_EQ(r.bytes_out, fs::file_size(jobs[i].output));
    expect_same(texcv::imread(jobs[i].output).view(), want.view(), jobs[i].output);
  }
  EXPECT_EQ(got[1].bytes_in, bytes.size());
  EXPECT_EQ(got[2].status, batch::Status::failed);
  EXPECT_EQ(got[2].stage, "read");
  EXPECT_NE(got[2].error.find("garbage"), std::string::npos) << got[2].error;
  EXPECT_EQ(got[3].stage, "read");
  EXPECT_NE(got[3].error.find("missing.png: cannot stat"), std::string::npos) << got[3].error;
  EXPECT_FALSE(fs::exists(jobs[2].output));
  EXPECT_FALSE(fs::exists(jobs[3].output));
}

// The engine reuses the host buffers of released images for the next ones of the same size
// (src/core/host_cache.hpp): two different pictures of one size in turn, each output equal to
// its own reference (a reused buffer holds the other picture's pixels until the decoder
// overwrites them), and the kept buffers freed when the run ends.
TEST_F(BatchApi, ReusedImageBuffersGiveEachFileItsOwnResult) {
  const texcv::Image a = texcv::imread(png_);
  const texcv::Image b = texcv::apply("flip", a.view(), {{"code", "vertical"}});
  ASSERT_GE(a.pitch() * static_cast<std::size_t>(a.height()), texcv::detail::kHostCacheMinBytes);
  const std::vector<unsigned char> pa = texcv::imencode(a.view(), texcv::ImageFormat::png);
  const std::vector<unsigned char> pb = texcv::imencode(b.view(), texcv::ImageFormat::png);
  const std::string ref_b = tmp_.file("b_in.png");
  texcv::imwrite(ref_b, b.view());
  std::vector<batch::Job> jobs;
  for (int i = 0; i < 24; ++i)
    jobs.push_back({numbered("in", i), i % 2 ? pb : pa, tmp_.file(numbered("out", i))});
  const batch::Summary s = batch::run(jobs, opt_);
  ASSERT_EQ(s.ok, jobs.size());
  const texcv::Image want_a = expected(png_), want_b = expected(ref_b);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    expect_same(texcv::imread(jobs[i].output).view(), (i % 2 ? want_b : want_a).view(),
                jobs[i].output);
  const texcv::detail::HostCacheStats hs = texcv::detail::host_cache_stats();
  EXPECT_GE(hs.hits + hs.misses, jobs.size()) << "one decoded image a file at least";
  EXPECT_GT(hs.hits, 0u) << "no buffer was reused";
  EXPECT_EQ(hs.cached_bytes, 0u) << "buffers kept after the run";
}

TEST_F(BatchApi, EncodedAndImageOutputsGoToTheCallbackAndNothingIsWritten) {
  const texcv::Image want = expected(png_);
  for (batch::Deliver mode : {batch::Deliver::encoded, batch::Deliver::images}) {
    std::vector<batch::Job> jobs = {{png_, {}, "name-only.png"}, {png_, {}, "second.tif"}};
    std::mutex m;
    std::map<std::size_t, batch::Output> outs;
    opt_.deliver = mode;
    opt_.on_output = [&](const batch::Result& r, batch::Output&& o) {
      std::lock_guard<std::mutex> lock(m);
      outs[r.index] = std::move(o);
    };
    const batch::Summary s = batch::run(jobs, opt_);
    const auto formats = texcv::supported_formats();
    const bool tiff = std::find(formats.begin(), formats.end(), "tiff") != formats.end();
    EXPECT_EQ(s.ok, tiff || mode == batch::Deliver::images ? 2u : 1u);
    ASSERT_TRUE(outs.count(0));
    if (mode == batch::Deliver::encoded) {
      const batch::Output& o = outs[0];
      EXPECT_TRUE(o.image.empty());
      // The bytes imwrite would write for a .png of that image.
      EXPECT_EQ(o.encoded, texcv::imencode(want.view(), texcv::ImageFormat::png));
      const texcv::Image back =
          texcv::imdecode(o.encoded.data(), o.encoded.size(), "callback bytes");
      expect_same(back.view(), want.view(), "encoded png");
    } else {
      for (auto& [i, o] : outs) {
        EXPECT_TRUE(o.encoded.empty());
        expect_same(o.image.view(), want.view(), "image " + std::to_string(i));
      }
    }
    EXPECT_FALSE(fs::exists("name-only.png"));
    EXPECT_FALSE(fs::exists("second.tif"));
  }
}

// No steps, images delivered: the decoded inputs themselves (texcv.decode's lists). The CPU
// worker returned an empty image for an empty pipeline before (its status ok, no pixels).
TEST_F(BatchApi, NoStepsDeliversTheDecodedImages) {
  const std::vector<unsigned char> bytes = file_bytes(png_);
  const texcv::Image decoded = texcv::imread(png_);
  std::vector<batch::Job> jobs = {{"a", bytes, ""}, {"b", bytes, ""}, {"c", {9, 9, 9}, ""}};
  std::mutex m;
  std::map<std::size_t, batch::Output> outs;
  opt_.steps.clear();
  opt_.deliver = batch::Deliver::images;
  opt_.on_output = [&](const batch::Result& r, batch::Output&& o) {
    std::lock_guard<std::mutex> lock(m);
    outs[r.index] = std::move(o);
  };
  const batch::Summary s = batch::run(jobs, opt_);
  EXPECT_EQ(s.ok, 2u);
  EXPECT_EQ(s.failed, 1u);
  ASSERT_EQ(outs.size(), 2u);
  for (std::size_t i : {0u, 1u}) {
    ASSERT_FALSE(outs[i].image.empty()) << i;
    expect_same(outs[i].image.view(), decoded.view(), "job " + std::to_string(i));
  }
}

TEST_F(BatchApi, StopBeforeOrDuringTheRunCancelsTheFilesNotStarted) {
  std::vector<batch::Job> jobs;
  for (int i = 0; i < 12; ++i) jobs.push_back({png_, {}, tmp_.file(numbered("o", i))});
  {
    std::stop_source stop;
    stop.request_stop();
    const batch::Summary s = batch::run(jobs, opt_, stop.get_token());
    EXPECT_EQ(s.cancelled, 12u);
    EXPECT_EQ(s.ok, 0u);
    EXPECT_TRUE(tmp_.entries().empty());
  }
  {
    std::stop_source stop;
    opt_.decode_threads = 1;
    opt_.queue = 1;
    std::atomic<int> done{0};
    opt_.on_result = [&](const batch::Result& r) {
      if (r.status == batch::Status::ok && ++done == 1) stop.request_stop();
    };
    const batch::Summary s = batch::run(jobs, opt_, stop.get_token());
    EXPECT_EQ(s.ok + s.cancelled, 12u);
    EXPECT_GE(s.ok, 1u);
    // At most the queue, the workers, the encoders and the decoder's file were under way.
    EXPECT_GE(s.cancelled, 12u - 7u);
    EXPECT_EQ(tmp_.entries().size(), s.ok);
  }
}

TEST_F(BatchApi, BadOptionsAreErrorsThatSayWhatIsExpected) {
  using texcv::ErrorCode;
  auto expect = [&](batch::Options o, ErrorCode code, const std::string& msg) {
    texcv::test::expect_error([&] { batch::check_options(o); }, code, msg);
    texcv::test::expect_error([&] { (void)batch::run({}, o); }, code, msg);
  };
  batch::Options o = opt_;
  o.bit_depth = 12;
  expect(o, ErrorCode::InvalidArgument, "batch: bit_depth; got 12, expected 0 (keep), 8, 16 or 32");
  o = opt_;
  o.streams = 0;
  expect(o, ErrorCode::InvalidArgument,
         "batch: streams (CUDA workers per GPU); got 0, expected >= 1");
  o = opt_;
  o.deliver = batch::Deliver::encoded;
  expect(o, ErrorCode::InvalidArgument,
         "batch: deliver; got encoded, expected an on_output callback to receive the outputs");
  o = opt_;
  o.jpeg_codec = batch::JpegCodec::nvjpeg;
  if (!batch::nvjpeg_available())
    expect(o, ErrorCode::Unsupported,
           "batch: jpeg_codec nvjpeg: this build has no nvJPEG (it needs the CUDA toolkit's "
           "nvjpeg.h and libnvjpeg at configure time)");
  else
    expect(o, ErrorCode::InvalidArgument,
           "batch: jpeg_codec nvjpeg: nvJPEG runs on the CUDA workers; the device is cpu");
  std::string why;
  if (!texcv::test::gpu_available(&why)) {
    o = opt_;
    o.device = batch::Device::cuda;
    expect(o, ErrorCode::Unsupported,
           texcv::build_info().cuda_compiled
               ? "batch: device cuda: no usable GPU: the CUDA runtime sees no GPU on this "
                 "machine (use cpu or auto)"
               : "batch: device cuda: this build has no CUDA backend (use cpu or auto)");
  }
  EXPECT_EQ(batch::parse_device("auto"), batch::Device::automatic);
  texcv::test::expect_error([] { (void)batch::parse_device("gpu"); }, ErrorCode::InvalidArgument,
                            "batch: unknown device; got 'gpu', expected cpu, cuda or auto");
}

// Device::automatic: the CPU workers start at once; on a GPU machine the CUDA workers join and
// the results are the same as on the CPU (resize area and flip are exact on both backends).
TEST_F(BatchApi, DeliverAndJpegCodecHaveOneParserEach) {
  EXPECT_EQ(batch::parse_deliver("files"), batch::Deliver::files);
  EXPECT_EQ(batch::parse_deliver("encoded"), batch::Deliver::encoded);
  EXPECT_EQ(batch::parse_deliver("images"), batch::Deliver::images);
  EXPECT_EQ(batch::parse_jpeg_codec("auto"), batch::JpegCodec::automatic);
  EXPECT_EQ(batch::parse_jpeg_codec("cpu"), batch::JpegCodec::cpu);
  EXPECT_EQ(batch::parse_jpeg_codec("nvjpeg"), batch::JpegCodec::nvjpeg);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const texcv::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { batch::parse_deliver("bytes"); }),
            "batch: unknown deliver; got 'bytes', expected files, encoded or images");
  EXPECT_EQ(message([] { batch::parse_jpeg_codec("gpu"); }),
            "batch: unknown JPEG codec; got 'gpu', expected auto, cpu or nvjpeg");
}

TEST_F(BatchApi, AutomaticGivesTheCpuResultsWhereverTheStepsRan) {
  std::vector<batch::Job> jobs;
  for (int i = 0; i < 24; ++i) jobs.push_back({png_, {}, tmp_.file(numbered("a", i))});
  opt_.device = batch::Device::automatic;
  std::vector<std::string> devices(jobs.size());
  opt_.on_result = [&](const batch::Result& r) { devices[r.index] = r.device; };
  const batch::Summary s = batch::run(jobs, opt_);
  EXPECT_EQ(s.ok, 24u);
  EXPECT_EQ(s.on_cpu + s.on_cuda, 24u);
  std::cout << "[ info ] automatic: " << s.on_cpu << " on the CPU, " << s.on_cuda
            << " on the GPU; GPU workers " << (s.gpu_ready_s >= 0 ? "joined" : "did not join")
            << (s.gpu_note.empty() ? "" : " (" + s.gpu_note + ")") << "; first file after "
            << s.first_file_s << " s\n";
  std::string why;
  if (!texcv::test::gpu_available(&why)) {
    EXPECT_EQ(s.on_cuda, 0u);
    EXPECT_LT(s.gpu_ready_s, 0);
    if (texcv::build_info().cuda_compiled) {
      // No device nodes: no CUDA set-up at all; nodes but no usable GPU: the runtime's verdict.
      EXPECT_TRUE(s.gpu_note == "no NVIDIA GPU device on this machine (no /dev/nvidiactl)" ||
                  s.gpu_note == "the CUDA runtime sees no usable GPU")
          << s.gpu_note;
    }
  }
  EXPECT_GE(s.first_file_s, 0);
  const texcv::Image want = expected(png_);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    SCOPED_TRACE(devices[i]);
    expect_same(texcv::imread(jobs[i].output).view(), want.view(), jobs[i].output);
  }
}

// A CUDA worker uploads a large input decoded into the pinned input pool (the default), or from
// pageable memory through its pinned staging buffer (TEXCV_BATCH_PINNED_INPUT=0): a 2999x1201
// RGB input (10.8 MB, rows of 8,997 bytes in a padded host image) comes out as the CPU's result,
// bit for bit, both ways.
TEST_F(BatchApi, CudaLargePaddedInputGivesTheCpuResult) {
  TEXCV_REQUIRE_GPU();
  texcv::Image big(2999, 1201, 3, texcv::ElemType::u8);
  std::uint32_t state = 12345;
  for (int y = 0; y < big.height(); ++y) {
    auto* row = static_cast<unsigned char*>(big.data()) + y * big.pitch();
    for (int x = 0; x < big.width() * 3; ++x) {
      state = state * 1664525u + 1013904223u;
      row[x] = static_cast<unsigned char>(state >> 24);
    }
  }
  const std::string in = tmp_.file("big.png");
  texcv::imwrite(in, big.view());
  const texcv::Image want =
      texcv::apply("flip", texcv::imread(in).view(), {{"code", "horizontal"}});
  opt_.steps = texcv::parse_pipeline("flip:code=horizontal");
  opt_.device = batch::Device::cuda;
  for (const char* pinned : {"", "0"}) {
    SCOPED_TRACE(std::string("TEXCV_BATCH_PINNED_INPUT=") + pinned);
    // Unset for the default; restored (unset) however the iteration ends.
    struct Env {
      explicit Env(const char* v) {
        if (*v)
          ::setenv("TEXCV_BATCH_PINNED_INPUT", v, 1);
        else
          ::unsetenv("TEXCV_BATCH_PINNED_INPUT");
      }
      ~Env() { ::unsetenv("TEXCV_BATCH_PINNED_INPUT"); }
    } env(pinned);
    const std::string out = tmp_.file(std::string("big_out") + pinned + ".png");
    std::vector<batch::Result> results;
    opt_.on_result = [&](const batch::Result& r) { results.push_back(r); };
    const batch::Summary s = batch::run({{in, {}, out}}, opt_);
    ASSERT_EQ(s.ok, 1u);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].device, "cuda:0");
    expect_same(texcv::imread(out).view(), want.view(), out);
  }
}

// A Session keeps its workers between runs: each run's results are batch::run's, the workers
// made by the first run serve the second, a run's own callbacks replace the options', a second
// run at the same time is refused, and a lost device's workers are dropped.
TEST_F(BatchApi, SessionKeepsItsWorkersBetweenRunsWithTheSameResults) {
  const std::vector<unsigned char> bytes = file_bytes(png_);
  opt_.deliver = batch::Deliver::encoded;  // the callback comes with each run
  batch::Session session(opt_);
  EXPECT_TRUE(session.workers().empty()) << "no worker before the first run";
  const batch::Summary started = session.start();
  EXPECT_EQ(started.ok, 0u);
  EXPECT_EQ(started.workers_made, 2u);
  EXPECT_EQ(session.workers(), (std::vector<std::string>{"cpu:0", "cpu:1"})) << "made by start()";
  std::vector<batch::Job> jobs = {{"a.png", bytes, "a.png"},
                                  {"bad.png", {1, 2, 3, 4, 5, 6, 7, 8}, "bad.png"},
                                  {"c.png", bytes, "c.png"}};
  // Without a callback for the outputs, the run says what is missing.
  try {
    session.run(jobs);
    ADD_FAILURE() << "a run of Deliver::encoded without on_output did not throw";
  } catch (const texcv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("an on_output callback"), std::string::npos) << e.what();
  }
  const texcv::Image want = expected(png_);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("run " + std::to_string(round));
    std::vector<batch::Result> res(jobs.size());
    std::vector<std::vector<unsigned char>> enc(jobs.size());
    std::mutex m;
    const batch::Summary s = session.run(
        jobs, {}, [&](const batch::Result& r) { res[r.index] = r; },
        [&](const batch::Result& r, batch::Output&& o) {
          std::lock_guard<std::mutex> lock(m);
          enc[r.index] = std::move(o.encoded);
        });
    EXPECT_EQ(s.ok, 2u);
    EXPECT_EQ(s.failed, 1u);
    EXPECT_EQ(s.workers_made, 0u) << "start()'s workers serve every run";
    EXPECT_EQ(res[1].stage, "read");
    for (std::size_t i : {0u, 2u}) {
      ASSERT_EQ(res[i].status, batch::Status::ok) << res[i].error;
      expect_same(texcv::imdecode(enc[i].data(), enc[i].size(), "session bytes").view(),
                  want.view(), jobs[i].input);
    }
    EXPECT_EQ(session.workers(), (std::vector<std::string>{"cpu:0", "cpu:1"}))
        << "the same workers serve every run";
  }
  // A run while another is under way is refused (the first one holds the session in a callback).
  std::atomic<bool> refused{false};
  session.run(
      {jobs[0]}, {},
      [&](const batch::Result&) {
        try {
          session.run(jobs);
        } catch (const texcv::Error& e) {
          refused = std::string(e.what()).find("one batch at a time") != std::string::npos;
        }
      },
      [](const batch::Result&, batch::Output&&) {});
  EXPECT_TRUE(refused.load());
}

TEST_F(BatchApi, SessionDropsTheWorkersOfALostDeviceAndMakesWorkersAgainWhenNoneIsLeft) {
  std::vector<batch::Job> jobs;
  for (int i = 0; i < 6; ++i) jobs.push_back({png_, {}, tmp_.file(numbered("s", i))});
  opt_.cpu_workers = 1;
  batch::Session session(opt_);
  ::setenv("TEXCV_BATCH_INJECT_FAULT", "cpu:0:after=1", 1);
  const batch::Summary s1 = session.run(jobs);
  ::unsetenv("TEXCV_BATCH_INJECT_FAULT");
  EXPECT_EQ(s1.ok, 6u);
  ASSERT_EQ(s1.lost.size(), 1u);
  EXPECT_EQ(s1.fallback_workers, 1u);
  EXPECT_EQ(s1.workers_made, 2u) << "the worker and the fallback";
  // cpu:0 was lost; the fallback worker (slot 1) took the rest and is kept.
  EXPECT_EQ(session.workers(), (std::vector<std::string>{"cpu:1"}));
  const batch::Summary s2 = session.run(jobs);
  EXPECT_EQ(s2.ok, 6u);
  EXPECT_EQ(s2.workers_made, 0u);
  EXPECT_TRUE(s2.lost.empty());
  const texcv::Image want = expected(png_);
  for (const batch::Job& j : jobs)
    expect_same(texcv::imread(j.output).view(), want.view(), j.output);
  // Every worker lost, the fallback too: the files left fail, no worker is kept, and the next
  // run makes them again.
  ::setenv("TEXCV_BATCH_INJECT_FAULT", "cpu:1:after=0", 1);
  const batch::Summary s3 = session.run(jobs);
  ::unsetenv("TEXCV_BATCH_INJECT_FAULT");
  EXPECT_EQ(s3.ok, 0u);
  EXPECT_EQ(s3.failed, 6u);
  EXPECT_TRUE(session.workers().empty());
  const batch::Summary s4 = session.run(jobs);
  EXPECT_EQ(s4.ok, 6u);
  EXPECT_EQ(s4.workers_made, 1u);
  EXPECT_EQ(session.workers(), (std::vector<std::string>{"cpu:0"}));
  // Options errors come from the constructor, as from check_options.
  batch::Options bad = opt_;
  bad.bit_depth = 12;
  EXPECT_THROW(batch::Session{bad}, texcv::Error);
}

}  // namespace
