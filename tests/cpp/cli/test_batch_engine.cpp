// The batch engine (src/batch/engine.cpp) run in-process with fake workers (test doubles
// that stand for GPU workers and throw WorkerLost on cue): a lost device retires every worker on
// it, the file in flight is retried on another worker and reported, every file is processed
// exactly once, and when every worker is lost the fallback takes the files left. Also the fault
// injection (TEXCV_BATCH_INJECT_FAULT) and, through the texcv process, --devices errors and an
// injected loss end to end. None of it needs a GPU.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/batch_test_util.hpp"
#include "common/test_support.hpp"
#include "src/batch/engine.hpp"
#include "texcv/texcv.hpp"

namespace fs = std::filesystem;
using texcv::batch::EngineConfig;
using texcv::batch::EngineReport;
using texcv::batch::Job;
using texcv::batch::Result;
using texcv::batch::Status;
using texcv::batch::Worker;
using texcv::batch::WorkerLost;
using texcv::batch::WorkItem;
using texcv::test::batch::has;
using texcv::test::batch::Proc;
using texcv::test::batch::read_all;
using texcv::test::batch::spawn;
using texcv::test::batch::wait_for;

namespace {

// What the fake workers did, shared by all of them.
struct Log {
  std::mutex m;
  int seq = 0;
  // Every start of process: (sequence number, worker name, input).
  std::vector<std::tuple<int, std::string, std::string>> starts;
  std::map<std::string, int> processed;  // input -> times processed successfully
  int lost_at = -1;                      // sequence number of the first WorkerLost
  // Devices a fake worker has lost: like a sticky CUDA error, every later start of a file on
  // one of them fails too (a sibling may start one before the engine marks the device lost).
  std::set<std::string> lost_devices;
  int starts_on_lost = 0;  // such starts (not in `starts`)
};

// What both fakes do with a file once started: flip it left-right (so the written file proves a
// worker ran), after `delay`, and count it.
void fake_process(WorkItem& item, const std::string& device, std::chrono::milliseconds delay,
                  Log& log) {
  std::this_thread::sleep_for(delay);
  item.result.device = device;
  texcv::Image out = texcv::apply("flip", item.image.view(), {});
  item.image = std::move(out);
  std::lock_guard<std::mutex> lock(log.m);
  ++log.processed[item.input];
}

// Processes an item as fake_process does, after `delay`; throws WorkerLost when it starts its
// (lose_after+1)-th file (never when < 0).
class FakeWorker final : public Worker {
 public:
  FakeWorker(std::string name, std::string device, int lose_after, Log& log,
             std::chrono::milliseconds delay = std::chrono::milliseconds(2))
      : name_(std::move(name)),
        device_(std::move(device)),
        lose_after_(lose_after),
        log_(log),
        delay_(delay) {}
  std::string name() const override { return name_; }
  std::string device() const override { return device_; }
  void process(WorkItem& item) override {
    {
      std::lock_guard<std::mutex> lock(log_.m);
      if (log_.lost_devices.count(device_)) {
        ++log_.starts_on_lost;
        throw WorkerLost("fake " + device_ + " fell off the bus");
      }
      const int s = log_.seq++;
      log_.starts.emplace_back(s, name_, item.input);
      if (lose_after_ >= 0 && started_ == lose_after_) {
        if (log_.lost_at < 0) log_.lost_at = s;
        log_.lost_devices.insert(device_);
        throw WorkerLost("fake " + device_ + " fell off the bus");
      }
    }
    ++started_;
    fake_process(item, device_, delay_, log_);
  }

 private:
  std::string name_, device_;
  int lose_after_;
  Log& log_;
  std::chrono::milliseconds delay_;
  int started_ = 0;
};

// A worker that takes files in batches of up to 4 (as the CUDA worker with nvJPEG's batched
// decode): prepare() marks each file of a batch, process() flips it as FakeWorker does. Loses
// its device in its (lose_prepare+1)-th prepare() or when it starts its (lose_after+1)-th file.
class BatchingWorker final : public Worker {
 public:
  BatchingWorker(std::string name, std::string device, int lose_prepare, int lose_after, Log& log)
      : name_(std::move(name)),
        device_(std::move(device)),
        lose_prepare_(lose_prepare),
        lose_after_(lose_after),
        log_(log) {}
  std::string name() const override { return name_; }
  std::string device() const override { return device_; }
  std::size_t batch_size() const override { return 4; }
  void prepare(const std::vector<WorkItem*>& items) override {
    std::lock_guard<std::mutex> lock(log_.m);
    batch_sizes.push_back(items.size());
    if (prepares_++ == lose_prepare_) throw WorkerLost("fake " + device_ + " lost in prepare");
    for (WorkItem* w : items) prepared_.insert(w->input);
  }
  void process(WorkItem& item) override {
    {
      std::lock_guard<std::mutex> lock(log_.m);
      log_.starts.emplace_back(log_.seq++, name_, item.input);
      if (lose_after_ >= 0 && started_ == lose_after_)
        throw WorkerLost("fake " + device_ + " lost in process");
    }
    ++started_;
    {
      std::lock_guard<std::mutex> lock(log_.m);
      item.result.note = prepared_.erase(item.input) ? "prepared" : "";
    }
    fake_process(item, device_, std::chrono::milliseconds(1), log_);
  }
  std::vector<std::size_t> batch_sizes;  // of every prepare() call

 private:
  std::string name_, device_;
  int lose_prepare_, lose_after_;
  Log& log_;
  int prepares_ = 0, started_ = 0;
  std::set<std::string> prepared_;
};

class BatchEngine : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dir_ / "in"); }

  // n small gray PNGs, pixel (x, y) of file i = 8 i + x; their jobs and the plan (all of them).
  void make_files(int n) {
    for (int i = 0; i < n; ++i) {
      texcv::Image img(9, 7, 1, texcv::ElemType::u8, texcv::Location::host);
      for (int y = 0; y < 7; ++y)
        for (int x = 0; x < 9; ++x)
          static_cast<unsigned char*>(img.data())[y * img.pitch() + x] =
              static_cast<unsigned char>(8 * i + x);
      std::string name = "f";
      name += std::to_string(100 + i);
      name += ".png";
      texcv::imwrite((dir_ / "in" / name).string(), img.view());
      jobs_.push_back({(dir_ / "in" / name).string(), {}, (dir_ / "out" / name).string()});
      todo_.push_back(static_cast<std::size_t>(i));
    }
  }

  EngineReport run(std::vector<std::unique_ptr<Worker>>& workers, EngineConfig cfg = {}) {
    cfg.decode_threads = 2;
    cfg.encode_threads = 2;
    if (cfg.queue_capacity == 0) cfg.queue_capacity = 2;
    std::atomic<bool> stop{false};
    results_.assign(jobs_.size(), Result());
    std::vector<int> calls(jobs_.size(), 0);
    cfg.on_event = [&](const std::string& line) { events_.push_back(line); };
    EngineReport rep = texcv::batch::run_engine(
        jobs_, todo_, cfg, workers,
        [&](const Result& r) {
          ++calls[r.index];
          results_[r.index] = r;
        },
        stop);
    for (std::size_t i = 0; i < jobs_.size(); ++i)
      EXPECT_EQ(calls[i], 1) << "on_done calls for " << jobs_[i].input;
    return rep;
  }

  // Every file ok, processed exactly once, written flipped (pixel (0, 0) = 8 i + 8).
  void expect_all_ok_once() {
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
      const Result& r = results_[i];
      EXPECT_EQ(r.status, Status::ok) << jobs_[i].input << ": " << r.error;
      EXPECT_EQ(log_.processed[jobs_[i].input], 1) << jobs_[i].input;
      const texcv::Image out = texcv::imread(jobs_[i].output);
      ASSERT_EQ(out.width(), 9) << jobs_[i].output;
      EXPECT_EQ(static_cast<const unsigned char*>(out.data())[0], 8 * static_cast<int>(i) + 8);
    }
  }

  std::set<std::string> starters_after(int seq, const std::string& device_prefix) {
    std::set<std::string> names;
    for (const auto& [s, name, input] : log_.starts)
      if (s > seq && name.rfind(device_prefix, 0) == 0) names.insert(name);
    return names;
  }

  texcv::test::TempDir tmp_{"texcv_engine_"};  // removed with the fixture
  fs::path dir_ = tmp_.path();
  std::vector<Job> jobs_;
  std::vector<std::size_t> todo_;
  std::vector<Result> results_;
  std::vector<std::string> events_;
  Log log_;
};

TEST_F(BatchEngine, LostWorkersFileIsRetriedOnAnotherWorkerAndReported) {
  make_files(24);
  std::vector<std::unique_ptr<Worker>> workers;
  workers.push_back(std::make_unique<FakeWorker>("gpu0", "cuda:0", 3, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu1", "cuda:1", -1, log_));
  const EngineReport rep = run(workers);
  expect_all_ok_once();
  ASSERT_EQ(rep.lost.size(), 1u);
  EXPECT_EQ(rep.lost[0], "cuda:0: fake cuda:0 fell off the bus");
  EXPECT_EQ(rep.retried, 1u);
  EXPECT_FALSE(rep.all_lost);
  EXPECT_EQ(rep.fallback_workers, 0u);
  // Exactly one file was on cuda:0 when it was lost; it ran again on cuda:1 and says so.
  int retried = 0, on0 = 0;
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const Result& r = results_[i];
    if (r.device == "cuda:0") ++on0;
    if (r.retried_from.empty()) continue;
    ++retried;
    EXPECT_EQ(r.retried_from, std::vector<std::string>{"cuda:0"});
    EXPECT_EQ(r.retry_reason, "cuda:0 lost: fake cuda:0 fell off the bus");
    EXPECT_EQ(r.device, "cuda:1");
  }
  EXPECT_EQ(retried, 1);
  EXPECT_EQ(on0, 3);  // the three files it finished before
  EXPECT_TRUE(starters_after(log_.lost_at, "gpu0").empty());
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_NE(events_[0].find("cuda:0 lost (fake cuda:0 fell off the bus)"), std::string::npos)
      << events_[0];
}

// Files are handed over in batches (the ones already waiting, up to batch_size()); prepare()
// sees each batch before process() runs on its files; every file is processed exactly once.
TEST_F(BatchEngine, BatchingWorkerGetsWaitingFilesTogether) {
  make_files(30);
  std::vector<std::unique_ptr<Worker>> workers;
  workers.push_back(std::make_unique<BatchingWorker>("gpu0", "cuda:0", -1, -1, log_));
  auto* w = static_cast<BatchingWorker*>(workers.back().get());
  EngineConfig cfg;
  cfg.queue_capacity = 16;
  const EngineReport rep = run(workers, cfg);
  expect_all_ok_once();
  EXPECT_TRUE(rep.lost.empty());
  std::size_t in_batches = 0, largest = 0;
  for (std::size_t n : w->batch_sizes) {
    EXPECT_GE(n, 1u);
    EXPECT_LE(n, 4u);
    in_batches += n;
    largest = std::max(largest, n);
  }
  EXPECT_GT(largest, 1u) << "no batch of several files was ever formed";
  // Every file went through prepare(), in a batch of one or more.
  EXPECT_EQ(in_batches, jobs_.size());
  int prepared = 0;
  for (const auto& r : results_) prepared += r.note == "prepared";
  EXPECT_EQ(static_cast<std::size_t>(prepared), in_batches);
}

// A loss in prepare() or in the middle of a batch sends every file of the batch not yet done
// back to the queue, reported as retried; another GPU's worker runs them.
TEST_F(BatchEngine, LossDuringABatchRetriesTheRestOfTheBatch) {
  for (const bool in_prepare : {true, false}) {
    SCOPED_TRACE(in_prepare ? "lost in prepare" : "lost in process");
    jobs_.clear();
    todo_.clear();
    log_.processed.clear();
    fs::remove_all(dir_ / "out");
    make_files(30);
    std::vector<std::unique_ptr<Worker>> workers;
    workers.push_back(std::make_unique<BatchingWorker>("gpu0", "cuda:0", in_prepare ? 1 : -1,
                                                       in_prepare ? -1 : 5, log_));
    workers.push_back(std::make_unique<FakeWorker>("gpu1", "cuda:1", -1, log_));
    EngineConfig cfg;
    cfg.queue_capacity = 16;
    const EngineReport rep = run(workers, cfg);
    expect_all_ok_once();
    ASSERT_EQ(rep.lost.size(), 1u);
    std::size_t retried = 0;
    for (const auto& r : results_) {
      if (r.retried_from.empty()) continue;
      ++retried;
      EXPECT_EQ(r.device, "cuda:1");
      EXPECT_EQ(r.retry_reason, std::string("cuda:0 lost: fake cuda:0 lost in ") +
                                    (in_prepare ? "prepare" : "process"));
    }
    EXPECT_EQ(rep.retried, retried);
    EXPECT_GE(retried, 1u);
    EXPECT_LE(retried, 4u);
  }
}

// One shared queue: a slow GPU takes fewer files and never holds the others up (issue 6, item 1).
// The fake cuda:1 takes 25 ms a file, cuda:0 1 ms: cuda:0 must have done far more than half.
TEST_F(BatchEngine, ASlowDeviceTakesFewerFilesFromTheSharedQueue) {
  make_files(30);
  std::vector<std::unique_ptr<Worker>> workers;
  workers.push_back(
      std::make_unique<FakeWorker>("gpu0", "cuda:0", -1, log_, std::chrono::milliseconds(1)));
  workers.push_back(
      std::make_unique<FakeWorker>("gpu1", "cuda:1", -1, log_, std::chrono::milliseconds(25)));
  const EngineReport rep = run(workers);
  expect_all_ok_once();
  EXPECT_TRUE(rep.lost.empty());
  int on0 = 0, on1 = 0;
  for (const auto& r : results_) (r.device == "cuda:0" ? on0 : on1) += 1;
  EXPECT_EQ(on0 + on1, 30);
  EXPECT_GE(on1, 1);       // the slow GPU worked too
  EXPECT_GE(on0, 2 * on1)  // an even split would be 15 each
      << "cuda:0 " << on0 << ", cuda:1 " << on1;
}

TEST_F(BatchEngine, TwoWorkersSharingALostDeviceAreBothRetired) {
  make_files(30);
  std::vector<std::unique_ptr<Worker>> workers;
  // gpu0a and gpu0b share "cuda:0"; only gpu0a sees the loss, after its second file.
  workers.push_back(std::make_unique<FakeWorker>("gpu0a", "cuda:0", 2, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu0b", "cuda:0", -1, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu1", "cuda:1", -1, log_));
  const EngineReport rep = run(workers);
  expect_all_ok_once();
  ASSERT_EQ(rep.lost.size(), 1u);
  EXPECT_FALSE(rep.all_lost);
  ASSERT_GE(log_.lost_at, 0);
  // After the loss no worker of cuda:0 starts a file (gpu0b may finish the one it had).
  EXPECT_TRUE(starters_after(log_.lost_at, "gpu0").empty());
  int after_on1 = 0;
  for (const auto& [s, name, input] : log_.starts)
    if (s > log_.lost_at && name == "gpu1") ++after_on1;
  EXPECT_GE(after_on1, 1);
  for (const auto& r : results_)
    if (!r.retried_from.empty()) {
      EXPECT_EQ(r.device, "cuda:1");
    }
}

TEST_F(BatchEngine, WhenEveryWorkerIsLostTheFallbackRunsTheRest) {
  make_files(20);
  std::vector<std::unique_ptr<Worker>> workers;
  // Each fake GPU worker finishes at most one or two files, then its device is lost; which
  // device goes first depends on the schedule.
  workers.push_back(std::make_unique<FakeWorker>("gpu0a", "cuda:0", 1, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu0b", "cuda:0", 1, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu1", "cuda:1", 2, log_));
  EngineConfig cfg;
  int fallback_calls = 0;
  cfg.fallback = [&] {
    ++fallback_calls;
    std::vector<std::unique_ptr<Worker>> v;
    v.push_back(std::make_unique<FakeWorker>("cpu", "cpu:0", -1, log_));
    return v;
  };
  const EngineReport rep = run(workers, cfg);
  expect_all_ok_once();
  EXPECT_EQ(fallback_calls, 1);
  EXPECT_TRUE(rep.all_lost);
  EXPECT_EQ(rep.fallback_workers, 1u);
  EXPECT_EQ(rep.lost.size(), 2u);
  // One retry per failed start: gpu0a's and gpu1's losses, and gpu0b's unless the engine had
  // marked cuda:0 lost before it started a second file.
  int on_cpu = 0, retries = 0;
  for (const auto& r : results_) {
    if (r.device == "cpu:0") ++on_cpu;
    retries += static_cast<int>(r.retried_from.size());
    for (const auto& d : r.retried_from) {
      EXPECT_TRUE(d == "cuda:0" || d == "cuda:1") << d;
      EXPECT_NE(d, r.device) << "a file ran again on the device it was lost on";
    }
    if (r.retried_from.size() == 2) {
      EXPECT_NE(r.retried_from[0], r.retried_from[1]);
    }
    if (!r.retried_from.empty()) {
      EXPECT_EQ(r.retry_reason, r.retried_from.back() + " lost: fake " + r.retried_from.back() +
                                    " fell off the bus");
    }
  }
  EXPECT_EQ(static_cast<int>(rep.retried), retries);
  EXPECT_GE(retries, 2);
  EXPECT_LE(retries, 3);
  // At most 1 + 1 + 2 files finished on the fake GPUs.
  EXPECT_GE(on_cpu, 20 - 4);
  ASSERT_FALSE(events_.empty());
  EXPECT_NE(events_.back().find("every worker was lost; the files left run on 1 fallback"),
            std::string::npos)
      << events_.back();
}

TEST_F(BatchEngine, WithoutFallbackTheFilesLeftFailAndTheRunEnds) {
  make_files(12);
  std::vector<std::unique_ptr<Worker>> workers;
  workers.push_back(std::make_unique<FakeWorker>("gpu0", "cuda:0", 2, log_));
  EngineConfig cfg;
  cfg.queue_capacity = 1;  // decoders blocked on a full queue must not hang the run
  const EngineReport rep = run(workers, cfg);
  EXPECT_TRUE(rep.all_lost);
  EXPECT_EQ(rep.fallback_workers, 0u);
  int ok = 0, failed = 0;
  for (const auto& r : results_) {
    if (r.status == Status::ok) {
      ++ok;
      EXPECT_EQ(r.device, "cuda:0");
    } else {
      ++failed;
      EXPECT_EQ(r.status, Status::failed);
      EXPECT_EQ(r.stage, "process");
      EXPECT_EQ(r.error, "batch: no worker left: every worker's device was lost") << r.error;
    }
  }
  EXPECT_EQ(ok, 2);
  EXPECT_EQ(failed, 10);
}

TEST_F(BatchEngine, InjectedFaultLosesTheDeviceAtItsNthFile) {
  make_files(16);
  std::vector<std::unique_ptr<Worker>> workers;
  workers.push_back(std::make_unique<FakeWorker>("gpu0a", "cuda:0", -1, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu0b", "cuda:0", -1, log_));
  workers.push_back(std::make_unique<FakeWorker>("gpu1", "cuda:1", -1, log_));
  EngineConfig cfg;
  cfg.faults = texcv::batch::parse_injected_faults("cuda:0:after=3");
  const EngineReport rep = run(workers, cfg);
  expect_all_ok_once();
  ASSERT_EQ(rep.lost.size(), 1u);
  EXPECT_EQ(rep.lost[0], "cuda:0: injected fault (TEXCV_BATCH_INJECT_FAULT=cuda:0:after=3)");
  int on0 = 0, retried = 0;
  for (const auto& r : results_) {
    if (r.device == "cuda:0") ++on0;
    if (!r.retried_from.empty()) {
      ++retried;
      EXPECT_EQ(r.device, "cuda:1");
      EXPECT_EQ(r.retry_reason,
                "cuda:0 lost: injected fault (TEXCV_BATCH_INJECT_FAULT=cuda:0:after=3)");
    }
  }
  EXPECT_EQ(on0, 3);  // the 4th file started on cuda:0 was the lost one
  // ... and a 5th when the sibling started one before the engine marked cuda:0 lost.
  EXPECT_GE(retried, 1);
  EXPECT_LE(retried, 2);
  EXPECT_EQ(rep.retried, static_cast<std::size_t>(retried));
}

TEST(BatchFaultInjection, ParsesEntriesAndRejectsBadOnes) {
  const auto f = texcv::batch::parse_injected_faults("cuda:0:after=3,cuda:1:after=0");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].device, "cuda:0");
  EXPECT_EQ(f[0].after, 3u);
  EXPECT_EQ(f[1].device, "cuda:1");
  EXPECT_EQ(f[1].after, 0u);
  EXPECT_TRUE(texcv::batch::parse_injected_faults("").empty());
  for (const char* bad : {"cuda:0", "after=3", ":after=3", "cuda:0:after=", "cuda:0:after=x"}) {
    try {
      texcv::batch::parse_injected_faults(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const texcv::Error& e) {
      EXPECT_EQ(e.code(), texcv::ErrorCode::InvalidArgument);
      EXPECT_EQ(std::string(e.what()), std::string("batch: TEXCV_BATCH_INJECT_FAULT: bad entry; "
                                                   "got '") +
                                           bad +
                                           "', expected DEVICE:after=N such as cuda:0:after=3 "
                                           "(entries separated by ',')");
    }
  }
  ::setenv("TEXCV_BATCH_INJECT_FAULT", "cpu:1:after=7", 1);
  const auto e = texcv::batch::injected_faults_from_env();
  ::unsetenv("TEXCV_BATCH_INJECT_FAULT");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].device, "cpu:1");
  EXPECT_EQ(e[0].after, 7u);
  EXPECT_TRUE(texcv::batch::injected_faults_from_env().empty());
}

// ---- Through the texcv process ----------------------------------------------------------------

// Runs texcv with args and extra environment entries ("NAME=value") (batch_test_util.hpp).
Proc texcv_run(const std::vector<std::string>& args, const std::vector<std::string>& env,
               const fs::path& dir) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  Proc p = wait_for(spawn(args, out, err, env), out, err);
  fs::remove(out);
  fs::remove(err);
  return p;
}

TEST_F(BatchEngine, DevicesNamingAMissingGpuIsAUsageErrorAndWritesNothing) {
  make_files(2);
  const std::string in = (dir_ / "in").string(), out = (dir_ / "out").string();
  // Syntax: checked whatever the device.
  Proc r = texcv_run({"batch", "-i", in, "-o", out, "-p", "flip", "--devices", "0,x"}, {}, dir_);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err,
                  "--devices 0,x: 'x' is not a GPU index; expected 'all' or indices such "
                  "as 0,1 separated by ','"))
      << r.err;
  const int count = static_cast<int>(texcv::cuda_available() ? texcv::gpus().size() : 0);
  const std::string missing = std::to_string(count + 5);
  r = texcv_run(
      {"batch", "-i", in, "-o", out, "-p", "flip", "--device", "cuda", "--devices", "0," + missing},
      {}, dir_);
  EXPECT_EQ(r.code, 2);
  if (count == 0) {
    EXPECT_TRUE(has(r.err, "--device cuda: no usable GPU; ")) << r.err;
    EXPECT_TRUE(has(r.err, "--devices 0," + missing + ": GPUs 0, " + missing +
                               " do not exist: the CUDA runtime sees 0 GPU(s)"))
        << r.err;
  } else {
    EXPECT_TRUE(has(r.err, "--devices 0," + missing + ": GPU " + missing +
                               " does not exist: the CUDA runtime sees " + std::to_string(count) +
                               " GPU(s) (indices 0.." + std::to_string(count - 1) + ")"))
        << r.err;
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(BatchEngine, InjectedLossOfTheOnlyCpuWorkerIsRetriedOnAFallbackWorker) {
  make_files(6);
  const fs::path report = dir_ / "r.jsonl";
  const std::string in = (dir_ / "in").string(), out = (dir_ / "out").string();
  Proc r = texcv_run({"batch", "-i", in, "-o", out, "-p", "flip", "--device", "cpu", "--workers",
                      "1", "--report", report.string()},
                     {"TEXCV_BATCH_INJECT_FAULT=cpu:0:after=2"}, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "cpu:0 lost (injected fault (TEXCV_BATCH_INJECT_FAULT=cpu:0:after=2))"))
      << r.err;
  EXPECT_TRUE(has(r.err,
                  "every cpu worker was lost: the files left ran on 1 CPU backend "
                  "worker(s)"))
      << r.err;
  EXPECT_TRUE(has(r.err, "1 file(s) in flight on a lost device were retried")) << r.err;
  const std::string rep = read_all(report);
  int lines = 0, retried = 0;
  for (std::size_t s = 0, e; (e = rep.find('\n', s)) != std::string::npos; s = e + 1) {
    const std::string l = rep.substr(s, e - s);
    ++lines;
    EXPECT_TRUE(has(l, "\"status\":\"ok\"")) << l;
    if (has(l, "\"retried\":true")) {
      ++retried;
      EXPECT_TRUE(has(l, "\"device\":\"cpu\"")) << l;
      EXPECT_TRUE(has(l,
                      "\"retried_from\":[\"cpu:0\"],\"retry_reason\":\"cpu:0 lost: injected "
                      "fault (TEXCV_BATCH_INJECT_FAULT=cpu:0:after=2)\""))
          << l;
    }
  }
  EXPECT_EQ(lines, 6);
  EXPECT_EQ(retried, 1);
  for (int i = 0; i < 6; ++i) {
    const texcv::Image img = texcv::imread(jobs_[static_cast<std::size_t>(i)].output);
    EXPECT_EQ(static_cast<const unsigned char*>(img.data())[0], 8 * i + 8);
  }
  // A bad specification is a usage error.
  r = texcv_run({"batch", "-i", in, "-o", (dir_ / "o2").string(), "-p", "flip", "--device", "cpu"},
                {"TEXCV_BATCH_INJECT_FAULT=cpu:0"}, dir_);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "TEXCV_BATCH_INJECT_FAULT: bad entry; got 'cpu:0'")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o2"));
}

// On a GPU: the workers of GPU 0 are lost at its second file; the others (the other GPUs, or the
// CPU backend on a one-GPU machine) finish, the retried files are reported, and the outputs
// equal the CPU backend's.
TEST_F(BatchEngine, InjectedGpuLossFinishesTheRunOnTheOtherWorkers) {
  TEXCV_REQUIRE_GPU();
  // GPU 0's two workers each take a file at once (24 are waiting), so its second start, the one
  // that fails, happens whatever the other GPUs do.
  make_files(24);
  const fs::path report = dir_ / "r.jsonl";
  const std::string in = (dir_ / "in").string();
  Proc r = texcv_run({"batch", "-i", in, "-o", (dir_ / "cpu").string(), "-p", "flip", "--device",
                      "cpu", "--quiet"},
                     {}, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  r = texcv_run({"batch", "-i", in, "-o", (dir_ / "gpu").string(), "-p", "flip", "--device", "cuda",
                 "--streams", "2", "--workers", "1", "--report", report.string()},
                {"TEXCV_BATCH_INJECT_FAULT=cuda:0:after=1"}, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "cuda:0 lost (injected fault")) << r.err;
  const std::string rep = read_all(report);
  EXPECT_TRUE(has(rep, "\"retried\":true,\"retried_from\":[\"cuda:0\"]")) << rep;
  if (texcv::gpus().size() == 1) {  // GPU 0 was the only one: the rest ran on the CPU backend
    EXPECT_TRUE(has(r.err, "every cuda worker was lost: the files left ran on 1 CPU backend"))
        << r.err;
  } else {  // the other GPUs finished the run
    EXPECT_FALSE(has(r.err, "every cuda worker was lost")) << r.err;
    EXPECT_TRUE(has(rep, "\"device\":\"cuda:1\"")) << rep;
    EXPECT_FALSE(has(rep, "\"device\":\"cpu\"")) << rep;
  }
  for (int i = 0; i < 24; ++i) {
    std::string name = "f";
    name += std::to_string(100 + i);
    name += ".png";
    EXPECT_EQ(read_all(dir_ / "cpu" / name), read_all(dir_ / "gpu" / name)) << name;
  }
}

}  // namespace

namespace {

// run_steps_on_host reads a crop that more steps follow as a sub-view instead of copying it:
// the results must equal the step-by-step copies of texcv::apply, including borders at the
// rectangle's edges (a filter after the crop must not see the pixels around the rectangle).
TEST(BatchSteps, CropFollowedByStepsIsReadInPlaceWithTheSameResult) {
  const texcv::Image src = texcv::test::random_image(64, 48, 3, texcv::ElemType::u8, 11);
  for (const char* text : {"crop:x=5,y=7,width=30,height=20;convolve:kernel=-1|-1|-1|-1|16|-1|-1|"
                           "-1|-1,scale=0.125",
                           "crop:x=1,y=2,width=40,height=30;resize:scale=0.9;crop:x=3,y=3",
                           "crop:x=10,y=0,width=20,height=48;crop:x=2,y=4,width=9,height=9;"
                           "gaussian_blur:sigma=1.5,border=replicate"}) {
    SCOPED_TRACE(text);
    const auto steps = texcv::parse_pipeline(text);
    texcv::Image want;
    for (const auto& s : steps)
      want = texcv::apply(s.name, want.empty() ? src.view() : want.view(), s.params);
    const texcv::Image got = texcv::batch::run_steps_on_host(src, steps);
    ASSERT_EQ(got.width(), want.width());
    ASSERT_EQ(got.height(), want.height());
    const texcv::test::Diff d = texcv::test::compare(got, want);
    EXPECT_EQ(d.count, 0) << d.describe();
  }
}

// A worker that counts its setup() and attach() calls and the threads they ran on.
class CountingWorker final : public Worker {
 public:
  CountingWorker(std::string device, Log& log) : device_(std::move(device)), log_(log) {}
  std::string name() const override { return device_; }
  std::string device() const override { return device_; }
  void setup() override { ++setups; }
  void attach() override {
    ++attaches;
    attach_thread = std::this_thread::get_id();
  }
  void process(WorkItem& item) override {
    EXPECT_EQ(std::this_thread::get_id(), attach_thread) << "process ran off the attached thread";
    fake_process(item, device_, std::chrono::milliseconds(1), log_);
  }
  int setups = 0, attaches = 0;
  std::thread::id attach_thread;

 private:
  std::string device_;
  Log& log_;
};

// Workers kept between runs (batch::Session): the engine sets each up once, in its first run,
// and attaches it to every run's new thread before it takes a file.
TEST_F(BatchEngine, AWorkerKeptBetweenRunsIsSetUpOnceAndAttachedEveryRun) {
  make_files(6);
  std::vector<std::unique_ptr<Worker>> workers;
  workers.push_back(std::make_unique<CountingWorker>("fake:0", log_));
  workers.push_back(std::make_unique<CountingWorker>("fake:1", log_));
  auto* w0 = static_cast<CountingWorker*>(workers[0].get());
  auto* w1 = static_cast<CountingWorker*>(workers[1].get());
  (void)run(workers);
  expect_all_ok_once();
  const std::thread::id first0 = w0->attach_thread;
  log_.processed.clear();
  (void)run(workers);
  expect_all_ok_once();
  for (const CountingWorker* w : {w0, w1}) {
    EXPECT_EQ(w->setups, 1) << w->name();
    EXPECT_EQ(w->attaches, 2) << w->name();
  }
  EXPECT_NE(w0->attach_thread, first0) << "the second run's thread is a new one";
}

}  // namespace
