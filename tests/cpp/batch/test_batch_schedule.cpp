// The batch engine's scheduling of CPU and GPU workers together (src/batch/engine.hpp,
// "Scheduling"), with fake workers of chosen speeds and start-up delays: GPU workers that join
// late (EngineConfig::late) after a set-up on their own thread, CPU workers from the start. A
// hybrid run must never end later than the faster of the CPU workers alone and the GPU workers
// alone, beyond the one CPU file that may have started before the GPU's rate was known; the
// decoders leave JPEG files encoded for a GPU that keeps up and decode them for the CPU when
// the GPU falls behind; each result names the device of each stage. No GPU is needed: the fakes
// sleep for their time per file (sleeping threads need no core, so the 2-core CI machine runs
// them at their speeds).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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
using texcv::batch::WorkItem;
using ms = std::chrono::milliseconds;

namespace {

// What a fake does with a file: decode it if it is still encoded (a GPU fake that decodes JPEG
// stands for nvJPEG), sleep for its time per file, flip it (the written file proves a worker
// ran) and count it.
struct Counts {
  std::mutex m;
  int cpu = 0, gpu = 0;
  std::vector<std::string> gpu_got_encoded;  // inputs a GPU fake received still encoded
  int cpu_got_encoded = 0;                   // files a CPU fake received still encoded
  int cpu_now = 0, cpu_max = 0;              // CPU fakes processing at once: now, at most
  // The nice values the CPU fakes' threads had when they started a file: lowest, highest.
  int cpu_nice_min = 100, cpu_nice_max = -100;
  // The late-worker factory's thread: its nice value before and after its own set-up (Speeds::
  // factory), -100 until it ran.
  std::atomic<int> factory_nice_before{-100}, factory_nice_after{-100};
  std::atomic<int> factory_calls{0};  // the late-worker factory's calls
};

class FakeCpu final : public Worker {
 public:
  FakeCpu(int slot, ms per_file, Counts& c) : slot_(slot), per_file_(per_file), c_(c) {}
  std::string name() const override { return "cpu"; }
  std::string device() const override { return "cpu:" + std::to_string(slot_); }
  void process(WorkItem& item) override {
    if (item.image.empty()) {
      std::lock_guard<std::mutex> lock(c_.m);
      ++c_.cpu_got_encoded;
    }
    {
      const int nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
      std::lock_guard<std::mutex> lock(c_.m);
      c_.cpu_max = std::max(c_.cpu_max, ++c_.cpu_now);
      c_.cpu_nice_min = std::min(c_.cpu_nice_min, nice);
      c_.cpu_nice_max = std::max(c_.cpu_nice_max, nice);
    }
    const texcv::Image& in = texcv::batch::host_input(item);
    std::this_thread::sleep_for(per_file_);
    item.result.device = "cpu";
    texcv::Image out = texcv::apply("flip", in.view(), {});
    item.image = std::move(out);
    std::lock_guard<std::mutex> lock(c_.m);
    ++c_.cpu;
    --c_.cpu_now;
  }

 private:
  int slot_;
  ms per_file_;
  Counts& c_;
};

class FakeGpu final : public Worker {
 public:
  FakeGpu(int slot, ms setup, ms per_file, bool jpeg, Counts& c)
      : slot_(slot), setup_(setup), per_file_(per_file), jpeg_(jpeg), c_(c) {}
  std::string name() const override { return "cuda:0/" + std::to_string(slot_); }
  std::string device() const override { return "cuda:0"; }
  bool is_gpu() const override { return true; }
  bool decodes_jpeg() const override { return jpeg_; }
  void setup() override { std::this_thread::sleep_for(setup_); }
  void process(WorkItem& item) override {
    if (item.image.empty()) {
      std::lock_guard<std::mutex> lock(c_.m);
      c_.gpu_got_encoded.push_back(item.input);
    }
    if (item.image.empty()) {
      // Stands for nvJPEG's decode, without the CPU time of a real one (the fake must keep up
      // with the decode threads on a busy 2-core machine): a 9x4 image of the right size.
      item.image = texcv::Image(9, 4, 1, texcv::ElemType::u8);
      std::memset(item.image.data(), 0, item.image.pitch() * 4);
      std::vector<unsigned char>().swap(item.encoded);
      item.result.read_device = "cuda:0";
    }
    std::this_thread::sleep_for(per_file_);
    item.result.device = "cuda:0";
    texcv::Image out = texcv::apply("flip", item.image.view(), {});
    item.image = std::move(out);
    std::lock_guard<std::mutex> lock(c_.m);
    ++c_.gpu;
  }

 private:
  int slot_;
  ms setup_, per_file_;
  bool jpeg_;
  Counts& c_;
};

struct Speeds {
  int cpu_workers = 4;
  ms cpu_per_file{40};
  int gpu_workers = 2;
  ms gpu_setup{150};
  ms gpu_per_file{2};
  bool gpu_jpeg = false;
  // The cores the work at normal priority leaves over (EngineConfig::spare_cores): the fakes
  // sleep, so by default every one.
  double spare_cores = 64;
  double decoder_idle_share = 0.5;  // EngineConfig's default
  std::size_t host_queue = 0;       // EngineConfig::host_queue_capacity
  bool timing = false;              // EngineConfig::timing
  bool precheck = false;            // EngineConfig::gpu_jpeg_coming
  std::size_t encoded_bytes = 0;    // EngineConfig::encoded_queue_bytes
  double late_setup_guess_s = 0;    // EngineConfig::late_setup_guess_s
  ms factory{0};                    // the late-worker factory's own set-up (nvJPEG's handle)
  double late_useful_s = 0;         // EngineConfig::late_useful_s
  int cpu_join_nice = 0;            // EngineConfig::cpu_join_nice
  bool wait_verdict = false;        // EngineConfig::late_wait_verdict
};

// hybrid: the GPU workers join late (EngineConfig::late); both: CPU and GPU workers from the
// start (the GPU workers counted as running while they set up); gpu_late: only GPU workers,
// joining late (texcv batch --device cuda).
enum class Mode { cpu_only, gpu_only, hybrid, both, gpu_late };

class BatchSchedule : public ::testing::Test {
 protected:
  // n small files (9x4 gray, pixel (x, y) = 8 i + x); ext ".png" or ".jpg".
  void make_files(int n, const std::string& ext = ".png") {
    lossless_ = ext == ".png";
    fs::create_directories(dir_ / "in");
    for (int i = 0; i < n; ++i) {
      texcv::Image img(9, 4, 1, texcv::ElemType::u8);
      for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 9; ++x)
          static_cast<unsigned char*>(img.data())[y * img.pitch() + x] =
              static_cast<unsigned char>(8 * i + x);
      const std::string name = "f" + std::to_string(1000 + i) + ext;
      texcv::imwrite((dir_ / "in" / name).string(), img.view());
      jobs_.push_back({(dir_ / "in" / name).string(), {}, (dir_ / "out" / name).string()});
    }
  }

  // Runs every job in `mode` (fresh outputs each time) and returns the wall time in ms.
  double run(Mode mode, const Speeds& sp, std::size_t queue = 8, bool gpu_decode = false) {
    fs::remove_all(dir_ / "out");
    counts_ = std::make_unique<Counts>();
    Counts& c = *counts_;
    EngineConfig cfg;
    cfg.decode_threads = 2;
    cfg.encode_threads = 2;
    cfg.queue_capacity = queue;
    cfg.gpu_jpeg_decode = gpu_decode;
    cfg.detach_late = false;
    cfg.spare_cores = [v = sp.spare_cores] { return v; };
    cfg.decoder_idle_share = sp.decoder_idle_share;
    cfg.host_queue_capacity = sp.host_queue;
    cfg.timing = sp.timing;
    cfg.gpu_jpeg_coming = sp.precheck;
    cfg.encoded_queue_bytes = sp.encoded_bytes;
    cfg.late_setup_guess_s = sp.late_setup_guess_s;
    cfg.late_useful_s = sp.late_useful_s;
    cfg.cpu_join_nice = sp.cpu_join_nice;
    cfg.late_wait_verdict = sp.wait_verdict;
    std::vector<std::unique_ptr<Worker>> workers;
    if (mode != Mode::gpu_only && mode != Mode::gpu_late)
      for (int i = 0; i < sp.cpu_workers; ++i)
        workers.push_back(std::make_unique<FakeCpu>(i, sp.cpu_per_file, c));
    auto gpus = [sp, &c] {
      ++c.factory_calls;
      if (sp.factory.count() > 0) {
        const auto tid = static_cast<id_t>(::gettid());
        c.factory_nice_before = ::getpriority(PRIO_PROCESS, tid);
        std::this_thread::sleep_for(sp.factory);
        c.factory_nice_after = ::getpriority(PRIO_PROCESS, tid);
      }
      std::vector<std::unique_ptr<Worker>> v;
      for (int i = 0; i < sp.gpu_workers; ++i)
        v.push_back(std::make_unique<FakeGpu>(i, sp.gpu_setup, sp.gpu_per_file, sp.gpu_jpeg, c));
      return v;
    };
    if (mode == Mode::gpu_only) workers = gpus();  // set up on their threads, before any file
    if (mode == Mode::both)
      for (auto& g : gpus()) workers.push_back(std::move(g));
    if (mode == Mode::hybrid || mode == Mode::gpu_late) cfg.late = gpus;
    cfg.on_event = [&](const std::string& l) { events_.push_back(l); };
    std::vector<std::size_t> todo(jobs_.size());
    for (std::size_t i = 0; i < todo.size(); ++i) todo[i] = i;
    results_.assign(jobs_.size(), Result());
    std::atomic<bool> stop{false};
    const auto t0 = std::chrono::steady_clock::now();
    report_ = texcv::batch::run_engine(
        jobs_, todo, cfg, workers,
        [&](const Result& r) {
          results_[r.index] = r;
          last_done_ms_ =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count();
        },
        stop);
    const double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
      EXPECT_EQ(results_[i].status, Status::ok) << jobs_[i].input << ": " << results_[i].error;
      const texcv::Image out = texcv::imread(jobs_[i].output);
      EXPECT_EQ(out.width(), 9) << jobs_[i].output;
      if (lossless_ && out.width() == 9) {
        EXPECT_EQ(static_cast<const unsigned char*>(out.data())[0], (8 * i + 8) % 256)
            << jobs_[i].output;
      }
    }
    EXPECT_EQ(c.cpu + c.gpu, static_cast<int>(jobs_.size()));
    return wall;
  }

  // The three runs of a case; checks the hybrid one against the faster of the others.
  void expect_never_slower(const Speeds& sp, std::size_t queue, bool gpu_decode = false) {
    const double cpu = run(Mode::cpu_only, sp, queue, gpu_decode);
    const double gpu = run(Mode::gpu_only, sp, queue, gpu_decode);
    const double both = run(Mode::hybrid, sp, queue, gpu_decode);
    std::cout << "[ info ] " << jobs_.size() << " files: cpu alone " << cpu << " ms, gpu alone "
              << gpu << " ms, together " << both << " ms (cpu " << counts_->cpu << " files, gpu "
              << counts_->gpu << ")\n";
    // The bound: one CPU file may have started before the GPU's rate was known (its time is the
    // granularity of the split), plus 60 ms for thread start-up and timer slack on a loaded
    // machine.
    const double slack = static_cast<double>(sp.cpu_per_file.count()) + 60.0;
    EXPECT_LE(both, std::min(cpu, gpu) + slack)
        << "cpu alone " << cpu << " ms, gpu alone " << gpu << " ms";
  }

  // A cpu-only run, then a hybrid one the GPU must not join: every file on the CPU, the report's
  // note says why, no GPU worker was set up, and the run takes the CPU's time.
  void expect_gpu_does_not_join(const Speeds& sp) {
    const double cpu = run(Mode::cpu_only, sp, 8);
    const double both = run(Mode::hybrid, sp, 8);
    std::cout << "[ info ] cpu alone " << cpu << " ms, auto " << both << " ms; "
              << report_.late_note << "\n";
    EXPECT_EQ(counts_->gpu, 0);
    EXPECT_EQ(counts_->cpu, static_cast<int>(jobs_.size()));
    EXPECT_EQ(report_.late_note.rfind("not joined: the CPU workers were to finish every file ", 0),
              0u)
        << report_.late_note;
    EXPECT_LT(report_.late_ready_s, 0) << "no GPU worker was set up";
    EXPECT_LE(both, cpu + 60.0);
    for (const Result& r : results_) EXPECT_EQ(r.device, "cpu");
  }

  texcv::test::TempDir tmp_{"texcv_schedule_"};
  fs::path dir_ = tmp_.path();
  std::vector<Job> jobs_;
  std::vector<Result> results_;
  std::vector<std::string> events_;
  std::unique_ptr<Counts> counts_;
  EngineReport report_;
  // When the last file of the latest run was reported, in ms from its start (the run itself
  // also waits for a GPU set-up still going on, without EngineConfig::detach_late).
  double last_done_ms_ = 0;
  bool lossless_ = true;
};

// A fast GPU that takes 150 ms to set up, slow CPU workers: the CPU takes the first files, the
// GPU the rest once it has joined; no CPU file starts once the GPU alone would finish first.
TEST_F(BatchSchedule, FastGpuJoiningLateIsNeverSlowerThanEitherAlone) {
  make_files(80);
  Speeds sp;
  expect_never_slower(sp, 8);
  EXPECT_GT(counts_->cpu, 0) << "the CPU workers take files while the GPU is set up";
  EXPECT_GT(counts_->gpu, counts_->cpu) << "the GPU, 20 times as fast, takes most files";
  EXPECT_GE(report_.late_ready_s, 0.14);
  for (const Result& r : results_) {
    EXPECT_EQ(r.read_device, "cpu");
    EXPECT_EQ(r.write_device, "cpu");
    EXPECT_TRUE(r.device == "cpu" || r.device == "cuda:0") << r.device;
  }
}

// CPU files of unknown cost while the GPU is still being set up: every CPU worker takes one at
// once (8 files of 200 ms on 8 workers, a GPU 0.55 s from joining), and the run takes one CPU
// file's time, as the CPU alone does. Two at a time until a file was timed (the rule before
// 2026-12-07) made it take two: on the GPU machine's 32 TIFFs, 0.73 s against the CPU's 0.61.
TEST_F(BatchSchedule, EveryCpuWorkerTakesAFileAtOnceWhileTheGpuIsSetUp) {
  make_files(8);
  Speeds sp;
  sp.cpu_workers = 8;
  sp.cpu_per_file = ms(200);
  sp.gpu_setup = ms(400);
  const double cpu = run(Mode::cpu_only, sp, 8);
  run(Mode::hybrid, sp, 8);
  const double both = last_done_ms_;  // the run then waits for the set-up (no detach_late)
  std::cout << "[ info ] cpu alone " << cpu << " ms, auto's last file done at " << both << " ms, "
            << counts_->cpu_max << " CPU files at once\n";
  EXPECT_EQ(counts_->cpu, 8);
  EXPECT_EQ(counts_->cpu_max, 8);
  EXPECT_LE(both, cpu + 60.0);
}

// Fast CPU workers (240 files done 0.25 s into the run) and a GPU assumed to need 0.3 s to set up.
Speeds cpu_ends_before_the_gpu_helps() {
  Speeds sp;
  sp.cpu_per_file = ms(4);
  sp.gpu_setup = ms(300);
  sp.gpu_per_file = ms(1);
  sp.late_setup_guess_s = 0.3;
  return sp;
}

// EngineConfig::late_setup_guess_s: fast CPU workers that finish every file 0.25 s into the run,
// a GPU assumed to need 0.3 s to set up. At 0.15 s the engine finds the CPU would be done before
// the GPU could help: the GPU never joins (none of its workers is set up, none takes a file), the
// report says why, and the run takes the CPU's time.
TEST_F(BatchSchedule, GpuThatCouldOnlyJoinAtTheEndDoesNotJoin) {
  make_files(240);
  expect_gpu_does_not_join(cpu_ends_before_the_gpu_helps());
}

// EngineConfig::late_wait_verdict: the factory waits for the decision. A GPU that will not join
// is then never set up at all (no factory call: on a GPU machine, no CUDA runtime and no nvJPEG
// handle), and one that joins is set up once the CPU's rate says so and still takes most files.
TEST_F(BatchSchedule, FactoryWaitingForTheDecisionIsNotCalledForAGpuThatWillNotJoin) {
  make_files(240);
  Speeds never = cpu_ends_before_the_gpu_helps();
  never.wait_verdict = true;
  expect_gpu_does_not_join(never);
  EXPECT_EQ(counts_->factory_calls.load(), 0);

  Speeds joins;
  joins.gpu_setup = ms(100);
  joins.late_setup_guess_s = 0.1;
  joins.wait_verdict = true;
  const double cpu = run(Mode::cpu_only, joins, 8);
  const double both = run(Mode::hybrid, joins, 8);
  std::cout << "[ info ] cpu alone " << cpu << " ms, together " << both << " ms (cpu "
            << counts_->cpu << " files, gpu " << counts_->gpu << ")\n";
  EXPECT_EQ(counts_->factory_calls.load(), 1);
  EXPECT_TRUE(report_.late_note.empty()) << report_.late_note;
  EXPECT_GT(counts_->gpu, counts_->cpu);
  EXPECT_LT(both, cpu);

  // Without it (the default) the factory runs from the start, also for a GPU that never joins.
  (void)run(Mode::hybrid, cpu_ends_before_the_gpu_helps(), 8);
  EXPECT_EQ(counts_->gpu, 0);
  EXPECT_EQ(counts_->factory_calls.load(), 1);
}

// The factory of workers that will not join is still setting up when the engine decides (nvJPEG's
// handle takes 0.52 s of a core): it goes on at nice 19, below the CPU workers, so the CPU path
// keeps the cores.
TEST_F(BatchSchedule, FactoryOfWorkersThatWillNotJoinGoesOnAtTheLowestPriority) {
  make_files(240);
  Speeds sp = cpu_ends_before_the_gpu_helps();
  sp.factory = ms(400);
  (void)run(Mode::hybrid, sp, 8);
  EXPECT_EQ(counts_->gpu, 0);
  // (the run ends before the factory: no note, EngineConfig::late)
  const int before = counts_->factory_nice_before.load();
  ASSERT_GT(before, -100) << "the factory ran";
  EXPECT_LT(before, 19) << "the test needs a process below nice 19";
  EXPECT_EQ(counts_->factory_nice_after.load(), 19);
  EXPECT_EQ(::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid())), before)
      << "only the factory's thread was reniced";
}

// EngineConfig::late_useful_s: the CPU workers that would keep busy 2.4 s let a GPU join that
// is set up in 0.1 s and helps 0.6 s later (the default), but not one that needs 5 s more.
TEST_F(BatchSchedule, GpuThatHelpsOnlyLaterThanTheCpuEndsDoesNotJoin) {
  make_files(240);
  Speeds sp;
  sp.gpu_setup = ms(100);
  sp.late_setup_guess_s = 0.1;
  sp.late_useful_s = 5.0;
  (void)run(Mode::hybrid, sp, 8);
  EXPECT_EQ(counts_->gpu, 0);
  EXPECT_NE(report_.late_note.find("and 5.0 s more"), std::string::npos) << report_.late_note;
}

// A factory whose workers join keeps its priority.
TEST_F(BatchSchedule, FactoryOfWorkersThatJoinKeepsItsPriority) {
  make_files(240);
  Speeds sp;
  sp.gpu_setup = ms(100);
  sp.late_setup_guess_s = 0.1;
  sp.factory = ms(200);
  (void)run(Mode::hybrid, sp, 8);
  EXPECT_TRUE(report_.late_note.empty()) << report_.late_note;
  EXPECT_GT(counts_->gpu, 0);
  EXPECT_EQ(counts_->factory_nice_after.load(), counts_->factory_nice_before.load());
}

// EngineConfig::cpu_join_nice: the CPU workers run at the process's priority until a GPU is to
// join, then at the nice value given. A GPU that will not join leaves them there for the whole
// run (as on a CPU-only run); one that joins once the CPU's rate is known (8 files in) has them
// start the first files at the process's priority and later ones at 10; GPU workers running from
// the start have them at 10 from the first file.
TEST_F(BatchSchedule, CpuWorkersGoBelowTheGpuOnlyOnceItIsToJoin) {
  const int base = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
  ASSERT_LT(base, 10) << "the test needs a process below nice 10";
  make_files(240);
  Speeds never = cpu_ends_before_the_gpu_helps();
  never.cpu_join_nice = 10;
  (void)run(Mode::hybrid, never, 8);
  EXPECT_EQ(counts_->gpu, 0);
  EXPECT_EQ(counts_->cpu_nice_min, base);
  EXPECT_EQ(counts_->cpu_nice_max, base) << "a GPU that did not join reniced the CPU workers";

  Speeds joins;
  joins.gpu_setup = ms(100);
  joins.late_setup_guess_s = 0.1;
  joins.cpu_join_nice = 10;
  (void)run(Mode::hybrid, joins, 8);
  EXPECT_GT(counts_->gpu, 0);
  EXPECT_EQ(counts_->cpu_nice_min, base) << "the first files, before the decision";
  EXPECT_EQ(counts_->cpu_nice_max, 10) << "the files after it";

  Speeds both = joins;
  both.gpu_setup = ms(0);
  (void)run(Mode::both, both, 8);
  EXPECT_EQ(counts_->cpu_nice_min, 10);
  EXPECT_EQ(counts_->cpu_nice_max, 10);
  EXPECT_EQ(::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid())), base)
      << "only the CPU workers' threads were reniced";
}

// The same decision with slow CPU workers (2.4 s for every file alone): the GPU joins as soon
// as the first 8 CPU files give a rate (at about 80 ms: 2 files a worker) and takes most files.
// The run is never slower than either alone by more than that wait.
TEST_F(BatchSchedule, GpuThatCanStillHelpJoinsOnceTheCpuRateIsKnown) {
  make_files(240);
  Speeds sp;
  sp.gpu_setup = ms(100);
  sp.late_setup_guess_s = 0.1;
  const double cpu = run(Mode::cpu_only, sp, 8);
  const double gpu = run(Mode::gpu_only, sp, 8);
  const double both = run(Mode::hybrid, sp, 8);
  std::cout << "[ info ] cpu alone " << cpu << " ms, gpu alone " << gpu << " ms, together " << both
            << " ms (cpu " << counts_->cpu << " files, gpu " << counts_->gpu << ")\n";
  EXPECT_TRUE(report_.late_note.empty()) << report_.late_note;
  EXPECT_GT(counts_->gpu, counts_->cpu);
  const double wait = 2.0 * static_cast<double>(sp.cpu_per_file.count());
  EXPECT_LE(both, std::min(cpu, gpu) + static_cast<double>(sp.cpu_per_file.count()) + 60.0 + wait);
  EXPECT_LT(report_.late_ready_s, 0.15 + 0.1) << "it joined before the latest decision";
}

// Files that take long: 8 CPU workers, 250 ms a file, a GPU set up in 0.1 s and assumed to need
// 0.3 s.
Speeds long_files_in_waves() {
  Speeds sp;
  sp.cpu_workers = 8;
  sp.cpu_per_file = ms(250);
  sp.gpu_setup = ms(100);
  sp.late_setup_guess_s = 0.3;
  return sp;
}

// Files that take long, started together (the GPU machine's 32 TIFFs: 16 done 0.25 s into the
// run, then 16 more): 8 CPU workers, 16 files of 250 ms, a GPU assumed to need 0.3 s to set up
// and 0.6 s more to help. At the first CPU file the engine finds the second wave ends before
// that (8 files per 0.25 s): the GPU never joins. The rule before 2026-12-07 (no rate of 8
// files: join) set it up to take nothing: on the H100 machine auto took 0.58 s against cpu's
// 0.53.
TEST_F(BatchSchedule, GpuDoesNotJoinWavesOfLongFilesItCannotHelp) {
  make_files(16);
  expect_gpu_does_not_join(long_files_in_waves());
}

// The same files, 5 waves of them (40): with no CPU file done, each wave taking as long as the
// time so far keeps the CPU busy past the GPU's help from 0.18 s (0.9 s over 5), so the GPU
// joins then, without waiting for the first CPU file (at 0.25 s), and takes most files.
TEST_F(BatchSchedule, GpuJoinsManyWavesOfLongFilesBeforeTheFirstIsDone) {
  make_files(40);
  const Speeds sp = long_files_in_waves();
  (void)run(Mode::hybrid, sp, 8);
  EXPECT_TRUE(report_.late_note.empty()) << report_.late_note;
  EXPECT_GT(counts_->gpu, counts_->cpu);
  EXPECT_LT(report_.late_ready_s, 0.25 + 0.1) << "it waited for the first CPU file";
}

// EngineConfig::timing adds the engine's lines (TEXCV_BATCH_TIMING): the decoders' waits and
// the queue's lock, then one line per worker with its waits for files and its batches; without
// it, none.
TEST_F(BatchSchedule, TimingAddsTheEnginesLinesOnlyWhenAsked) {
  make_files(40);
  Speeds sp;
  run(Mode::hybrid, sp, 8);
  EXPECT_TRUE(report_.timing.empty()) << report_.timing.front();
  sp.timing = true;
  run(Mode::hybrid, sp, 8);
  ASSERT_FALSE(report_.timing.empty());
  EXPECT_EQ(report_.timing[0].rfind("engine: decoders waited ", 0), 0u) << report_.timing[0];
  EXPECT_NE(report_.timing[0].find("waits for the queue's lock: push "), std::string::npos);
  // Then the cache of host image buffers (src/core/host_cache.hpp), then a line a worker.
  ASSERT_GE(report_.timing.size(), 2u);
  EXPECT_EQ(report_.timing[1].rfind("engine: host image buffers: ", 0), 0u) << report_.timing[1];
  int cpu_lines = 0, gpu_lines = 0;
  std::size_t files = 0;
  for (std::size_t i = 2; i < report_.timing.size(); ++i) {
    const std::string& l = report_.timing[i];
    const bool cpu = l.rfind("engine: cpu:", 0) == 0;
    const bool gpu = l.rfind("engine: cuda:0/", 0) == 0;
    EXPECT_TRUE(cpu || gpu) << l;
    cpu_lines += cpu;
    gpu_lines += gpu;
    // "...; F files in T takes (...)": F summed over the workers is every file.
    const auto semi = l.find("; "), in = l.find(" files in ");
    ASSERT_TRUE(semi != std::string::npos && in != std::string::npos) << l;
    files += std::stoul(l.substr(semi + 2, in - semi - 2));
  }
  EXPECT_EQ(cpu_lines + gpu_lines, static_cast<int>(report_.timing.size()) - 2);
  EXPECT_GE(gpu_lines, counts_->gpu > 0 ? 1 : 0);
  EXPECT_LE(gpu_lines, sp.gpu_workers);
  EXPECT_EQ(files, jobs_.size()) << "the takes' files add up to the run's";
}

// A GPU that needs 1.5 s to start and fast CPU workers: the run is the CPU's (the GPU never
// takes a file) and, with detach_late, it does not wait for the GPU's set-up either.
TEST_F(BatchSchedule, SlowGpuStartDoesNotDelayTheCpuWorkers) {
  make_files(40);
  Speeds sp;
  sp.cpu_per_file = ms(5);
  sp.gpu_setup = ms(1500);
  const double cpu = run(Mode::cpu_only, sp, 8);
  // Hybrid, not waiting for the late set-up at the end.
  fs::remove_all(dir_ / "out");
  auto counts = std::make_shared<Counts>();
  EngineConfig cfg;
  cfg.decode_threads = 2;
  cfg.encode_threads = 2;
  cfg.queue_capacity = 8;
  cfg.detach_late = true;
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < sp.cpu_workers; ++i)
    workers.push_back(std::make_unique<FakeCpu>(i, sp.cpu_per_file, *counts));
  // The detached maker may outlive this test: it owns what its workers use.
  cfg.late = [counts, sp] {
    std::this_thread::sleep_for(sp.gpu_setup);
    std::vector<std::unique_ptr<Worker>> v;
    v.push_back(std::make_unique<FakeGpu>(0, ms(0), sp.gpu_per_file, false, *counts));
    return v;
  };
  std::vector<std::size_t> todo(jobs_.size());
  for (std::size_t i = 0; i < todo.size(); ++i) todo[i] = i;
  std::atomic<bool> stop{false};
  std::vector<Result> res(jobs_.size());
  const auto t0 = std::chrono::steady_clock::now();
  const EngineReport rep = texcv::batch::run_engine(
      jobs_, todo, cfg, workers, [&](const Result& r) { res[r.index] = r; }, stop);
  const double both =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ info ] cpu alone " << cpu << " ms, with a GPU still starting " << both << " ms\n";
  for (const Result& r : res) {
    EXPECT_EQ(r.status, Status::ok) << r.error;
    EXPECT_EQ(r.device, "cpu");
  }
  EXPECT_LT(rep.late_ready_s, 0) << "the GPU joined before the end";
  EXPECT_LE(both, cpu + 65.0);
  EXPECT_LT(both, 1000.0) << "the run waited for the GPU's set-up";
}

// The GPU is the bottleneck (slower per file than the CPU workers together): once the queue
// backs up the CPU workers take files, and the run is at least as fast as the CPU alone.
TEST_F(BatchSchedule, SlowGpuIsHelpedByTheCpuWorkersWhenTheQueueBacksUp) {
  make_files(60);
  Speeds sp;
  sp.cpu_per_file = ms(30);
  sp.gpu_workers = 1;
  sp.gpu_setup = ms(0);
  sp.gpu_per_file = ms(20);
  expect_never_slower(sp, 8);
  EXPECT_GT(counts_->gpu, 5);
  EXPECT_GT(counts_->cpu, 20);
}

// JPEG inputs and a GPU that decodes them (running from the start: a GPU that joins late gets
// the files decoded before it joined, which for these tiny files may be all of them): every file
// is queued encoded for the GPU; when the queue is full (the GPU is behind) the CPU workers take
// the last files of the queue and decode them themselves.
TEST_F(BatchSchedule, JpegFilesGoEncodedToTheGpuAndTheCpuTakesTheLastOnesWhenTheQueueIsFull) {
  make_files(60, ".jpg");
  Speeds fast;
  fast.gpu_setup = ms(0);
  fast.gpu_per_file = ms(0);
  fast.gpu_workers = 6;  // against 2 decode threads: it keeps up
  fast.gpu_jpeg = true;
  fast.cpu_per_file = ms(200);
  run(Mode::both, fast, 64, true);
  std::size_t encoded = counts_->gpu_got_encoded.size();
  std::cout << "[ info ] fast GPU: " << counts_->gpu << " files on the GPU (" << encoded
            << " encoded), " << counts_->cpu << " on the CPU\n";
  // 60 files cannot fill a queue of 64: every one goes to the GPU encoded.
  EXPECT_EQ(encoded, 60u);
  EXPECT_EQ(counts_->cpu, 0);
  for (const Result& r : results_) {
    if (r.device == "cuda:0" && r.read_device == "cuda:0") {
      EXPECT_EQ(r.write_device, "cpu");
    }
  }

  Speeds slow = fast;
  slow.gpu_workers = 1;
  slow.gpu_per_file = ms(40);
  slow.cpu_per_file = ms(10);
  run(Mode::both, slow, 8, true);
  encoded = counts_->gpu_got_encoded.size();
  std::cout << "[ info ] slow GPU: " << counts_->gpu << " files on the GPU (" << encoded
            << " encoded), " << counts_->cpu << " on the CPU\n";
  EXPECT_GT(counts_->cpu, 30);
  // Every file was queued encoded: the GPU's were decoded by it, the CPU's by the CPU workers.
  EXPECT_EQ(static_cast<int>(encoded) + counts_->cpu_got_encoded, 60);
  for (const Result& r : results_) {
    if (r.device == "cpu") {
      EXPECT_EQ(r.read_device, "cpu");
    } else {
      EXPECT_EQ(r.read_device, "cuda:0");
    }
  }
}

// One GPU worker that decodes JPEG, set up at once and slower per file than a CPU worker: the
// queue backs up, the decode threads wait for room.
Speeds slow_jpeg_gpu() {
  Speeds sp;
  sp.gpu_workers = 1;
  sp.gpu_setup = ms(0);
  sp.gpu_per_file = ms(15);
  sp.gpu_jpeg = true;
  sp.cpu_per_file = ms(10);
  return sp;
}

// The same slow GPU, but the cores are busy with work at normal priority (on the machine: the
// decode threads' checks and the encoders feeding the GPU): a full queue is not enough, the CPU
// workers take a file only while the measured spare cores hold one for each busy CPU worker, the
// new one and a margin of one. None spare: every file goes to the GPU. Two spare: one CPU worker
// at a time. Unknown (the measurement failed): none.
TEST_F(BatchSchedule, CpuWorkersTakeFilesOnlyWhileCoresAreMeasuredToBeSpare) {
  make_files(40, ".jpg");
  Speeds sp = slow_jpeg_gpu();
  for (const double spare : {1.5, -1.0}) {
    sp.spare_cores = spare;
    run(Mode::both, sp, 4, true);
    std::cout << "[ info ] " << spare << " cores spare: " << counts_->gpu << " files on the GPU, "
              << counts_->cpu << " on the CPU\n";
    EXPECT_EQ(counts_->cpu, 0) << spare << " cores spare";
    EXPECT_EQ(counts_->gpu_got_encoded.size(), 40u) << "every file went to the GPU encoded";
  }
  sp.spare_cores = 2.0;
  run(Mode::both, sp, 4, true);
  std::cout << "[ info ] 2 cores spare: " << counts_->gpu << " files on the GPU, " << counts_->cpu
            << " on the CPU, at most " << counts_->cpu_max << " at once\n";
  EXPECT_GT(counts_->cpu, 3);
  EXPECT_EQ(counts_->cpu_max, 1);
  sp.spare_cores = 64;
  run(Mode::both, sp, 4, true);
  std::cout << "[ info ] 64 cores spare: " << counts_->cpu << " on the CPU, at most "
            << counts_->cpu_max << " at once\n";
  EXPECT_GT(counts_->cpu_max, 1);
}

// A full queue is not enough either: the decode threads must have spent most of the last window
// waiting for room in it (the GPU is the bound; when they are, the queue still fills for moments
// as the GPU takes its files in batches). Here they do wait (a slow GPU), as measured: with the
// default share the CPU workers help; with a share no measurement can reach they never take a
// file, though the queue is full and every core spare.
TEST_F(BatchSchedule, CpuWorkersTakeFilesOnlyWhileTheDecodersWaitForTheGpu) {
  make_files(40, ".jpg");
  Speeds sp = slow_jpeg_gpu();
  run(Mode::both, sp, 4, true);
  std::cout << "[ info ] decoders waiting on a slow GPU: " << counts_->cpu << " files on the CPU\n";
  EXPECT_GT(counts_->cpu, 3);
  sp.decoder_idle_share = 1.01;
  run(Mode::both, sp, 4, true);
  std::cout << "[ info ] a share never reached: " << counts_->cpu << " files on the CPU\n";
  EXPECT_EQ(counts_->cpu, 0);
  EXPECT_EQ(counts_->gpu_got_encoded.size(), 40u);
}

// Decoded images count against the queue's host capacity as well as its capacity: with slow CPU
// workers the decoders run ahead, and the queue holds no more decoded images than the host
// capacity however large the queue (sized for the GPU's JPEG batches); without one, the whole
// queue fills.
TEST_F(BatchSchedule, DecodedImagesWaitingAreBoundedByTheHostCapacity) {
  make_files(30);
  Speeds sp;
  sp.cpu_workers = 2;
  sp.cpu_per_file = ms(15);
  sp.host_queue = 3;
  run(Mode::cpu_only, sp, 16);
  std::cout << "[ info ] host capacity 3 of 16: at most " << report_.peak_host_queued
            << " decoded images waiting\n";
  EXPECT_EQ(report_.peak_host_queued, 3u);
  EXPECT_EQ(counts_->cpu, 30);
  sp.host_queue = 0;
  run(Mode::cpu_only, sp, 16);
  std::cout << "[ info ] no host capacity: at most " << report_.peak_host_queued << "\n";
  EXPECT_EQ(report_.peak_host_queued, 16u);
}

// JPEG files with a GPU that joins late and decodes them: decoded images (before it joins) and
// encoded files (after) share the queue; the decoded ones stay within their capacity, the run
// ends (a decoder waiting for room among the decoded never blocks one that has bytes to queue).
TEST_F(BatchSchedule, DecodedAndEncodedFilesShareTheQueueWithinTheirCapacities) {
  make_files(60, ".jpg");
  Speeds sp;
  sp.gpu_jpeg = true;
  sp.gpu_setup = ms(60);
  sp.cpu_per_file = ms(10);
  sp.host_queue = 2;
  for (int i = 0; i < 3; ++i) {
    run(Mode::hybrid, sp, 16, true);
    std::cout << "[ info ] " << counts_->cpu << " files on the CPU, " << counts_->gpu
              << " on the GPU (" << counts_->gpu_got_encoded.size() << " encoded); at most "
              << report_.peak_host_queued << " decoded images waiting\n";
    EXPECT_LE(report_.peak_host_queued, 2u);
    EXPECT_GT(counts_->gpu_got_encoded.size(), 0u);
  }
}

// A GPU worker whose set-up fails is reported and the CPU workers do every file; a factory that
// throws is reported as such.
TEST_F(BatchSchedule, FailedGpuSetUpLeavesTheRunToTheCpuWorkers) {
  make_files(12);
  class BadGpu final : public Worker {
   public:
    std::string name() const override { return "cuda:0/0"; }
    std::string device() const override { return "cuda:0"; }
    bool is_gpu() const override { return true; }
    void setup() override { throw std::runtime_error("cannot set up a worker on GPU 0: boom"); }
    void process(WorkItem&) override { ADD_FAILURE() << "a worker whose set-up failed ran"; }
  };
  for (int variant = 0; variant < 2; ++variant) {
    fs::remove_all(dir_ / "out");
    Counts c;
    EngineConfig cfg;
    cfg.decode_threads = 2;
    cfg.encode_threads = 2;
    cfg.queue_capacity = 4;
    cfg.late_what = "CUDA workers";
    if (variant == 0) {
      cfg.late = [] {
        std::vector<std::unique_ptr<Worker>> v;
        v.push_back(std::make_unique<BadGpu>());
        return v;
      };
    } else {
      cfg.late = []() -> std::vector<std::unique_ptr<Worker>> {
        throw texcv::Error(texcv::ErrorCode::Unsupported, "batch: GPU 3 does not exist");
      };
    }
    std::vector<std::string> events;
    cfg.on_event = [&](const std::string& l) { events.push_back(l); };
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < 2; ++i) workers.push_back(std::make_unique<FakeCpu>(i, ms(1), c));
    std::vector<std::size_t> todo(jobs_.size());
    for (std::size_t i = 0; i < todo.size(); ++i) todo[i] = i;
    std::atomic<bool> stop{false};
    std::vector<Result> res(jobs_.size());
    const EngineReport rep = texcv::batch::run_engine(
        jobs_, todo, cfg, workers, [&](const Result& r) { res[r.index] = r; }, stop);
    for (const Result& r : res) EXPECT_EQ(r.status, Status::ok) << r.error;
    EXPECT_EQ(c.cpu, 12);
    ASSERT_EQ(events.size(), 1u);
    if (variant == 0) {
      ASSERT_EQ(rep.lost.size(), 1u);
      EXPECT_EQ(rep.lost[0], "cuda:0: cannot set up a worker on GPU 0: boom");
      EXPECT_EQ(events[0],
                "cuda:0 could not be set up (cannot set up a worker on GPU 0: boom): its workers "
                "take no files");
    } else {
      EXPECT_EQ(rep.late_note, "batch: GPU 3 does not exist");
      EXPECT_EQ(events[0], "no CUDA workers joined: batch: GPU 3 does not exist");
    }
    EXPECT_FALSE(rep.all_lost);
  }
}

// The sizes of the input files, in bytes.
std::vector<std::size_t> file_sizes(const std::vector<Job>& jobs) {
  std::vector<std::size_t> v;
  for (const Job& j : jobs) v.push_back(static_cast<std::size_t>(fs::file_size(j.input)));
  return v;
}

// GPU workers that decode JPEG, set up in the background for 300 ms with nothing else to take
// the files (texcv batch --device cuda): with EngineConfig::gpu_jpeg_coming the decode threads
// check every file meanwhile and queue its bytes, so all 24 wait encoded (their bytes summed) by
// the time the GPU joins and every one reaches it encoded. Without it they decode the files on
// the CPU for want of a JPEG worker, and the GPU gets none encoded.
TEST_F(BatchSchedule, GpuSetUpInTheBackgroundFindsEveryJpegCheckedAndEncoded) {
  make_files(24, ".jpg");
  std::size_t total = 0;
  for (std::size_t b : file_sizes(jobs_)) total += b;
  Speeds sp;
  sp.gpu_jpeg = true;
  sp.gpu_setup = ms(300);
  sp.precheck = true;
  run(Mode::gpu_late, sp, 64, true);
  std::cout << "[ info ] precheck: " << counts_->gpu_got_encoded.size()
            << " of 24 encoded; at most " << report_.peak_encoded_queued_bytes << " of " << total
            << " bytes waiting\n";
  EXPECT_EQ(counts_->gpu_got_encoded.size(), 24u);
  EXPECT_EQ(counts_->cpu, 0);
  EXPECT_EQ(report_.peak_encoded_queued_bytes, total);
  EXPECT_EQ(report_.peak_host_queued, 0u);
  EXPECT_GE(report_.late_ready_s, 0.29);
  for (const Result& r : results_) EXPECT_EQ(r.read_device, "cuda:0") << r.index;

  sp.precheck = false;
  run(Mode::gpu_late, sp, 64, true);
  std::cout << "[ info ] no precheck: " << counts_->gpu_got_encoded.size() << " of 24 encoded, "
            << report_.peak_host_queued << " decoded images waiting at most\n";
  EXPECT_EQ(counts_->gpu_got_encoded.size(), 0u);
  EXPECT_EQ(report_.peak_host_queued, 24u);
}

// The queue holds encoded files only up to EngineConfig::encoded_queue_bytes (a byte budget on
// top of the file count): with room for 3.5 files' bytes no more than 3 wait at once; a budget
// smaller than any file still lets one in at a time, and the run ends.
TEST_F(BatchSchedule, EncodedFilesWaitingAreBoundedByTheirBytes) {
  make_files(20, ".jpg");
  const std::vector<std::size_t> sizes = file_sizes(jobs_);
  const std::size_t big = *std::max_element(sizes.begin(), sizes.end());
  const std::size_t small = *std::min_element(sizes.begin(), sizes.end());
  Speeds sp;
  sp.gpu_jpeg = true;
  sp.gpu_setup = ms(200);
  sp.gpu_per_file = ms(1);
  sp.precheck = true;
  sp.encoded_bytes = 3 * big + big / 2;
  run(Mode::gpu_late, sp, 64, true);
  std::cout << "[ info ] budget " << sp.encoded_bytes << " bytes (files " << small << "-" << big
            << "): at most " << report_.peak_encoded_queued_bytes << " waiting\n";
  EXPECT_LE(report_.peak_encoded_queued_bytes, sp.encoded_bytes);
  EXPECT_GE(report_.peak_encoded_queued_bytes, 3 * small);
  EXPECT_EQ(counts_->gpu_got_encoded.size(), 20u);
  sp.encoded_bytes = 1;
  run(Mode::gpu_late, sp, 64, true);
  std::cout << "[ info ] budget 1 byte: at most " << report_.peak_encoded_queued_bytes
            << " waiting\n";
  EXPECT_LE(report_.peak_encoded_queued_bytes, big);
  EXPECT_GE(report_.peak_encoded_queued_bytes, small);
  EXPECT_EQ(counts_->gpu_got_encoded.size(), 20u);
}

// CPU and GPU workers with gpu_jpeg_coming (texcv batch --device auto's A/B variant): while the
// GPU is set up, CPU workers take files only as once it runs, from a full queue whose decoders
// wait for room. A queue with room for every file: none goes to the CPU. A queue of 4 that fills
// while the GPU is set up for 400 ms: the CPU workers take the last files of it, still encoded
// (decoded by themselves), and the GPU the rest, all encoded.
TEST_F(BatchSchedule, CpuWorkersWaitForAFullQueueWhileTheGpuIsSetUpWithPrecheck) {
  make_files(30, ".jpg");
  Speeds sp;
  sp.gpu_jpeg = true;
  sp.gpu_setup = ms(250);
  sp.cpu_per_file = ms(10);
  sp.precheck = true;
  run(Mode::hybrid, sp, 64, true);
  std::cout << "[ info ] room for all: " << counts_->cpu << " on the CPU, " << counts_->gpu
            << " on the GPU\n";
  EXPECT_EQ(counts_->cpu, 0);
  EXPECT_EQ(counts_->gpu_got_encoded.size(), 30u);
  sp.gpu_setup = ms(400);
  run(Mode::hybrid, sp, 4, true);
  std::cout << "[ info ] a queue of 4: " << counts_->cpu << " on the CPU ("
            << counts_->cpu_got_encoded << " encoded), " << counts_->gpu << " on the GPU\n";
  EXPECT_GT(counts_->cpu, 0);
  EXPECT_EQ(counts_->cpu_got_encoded, counts_->cpu);
  EXPECT_EQ(static_cast<int>(counts_->gpu_got_encoded.size()), counts_->gpu);
}

// Only late workers (no CPU worker) whose factory makes none: the fallback takes the files.
TEST_F(BatchSchedule, OnlyLateWorkersAndNoneJoinsRunsTheFallback) {
  make_files(6);
  Counts c;
  EngineConfig cfg;
  cfg.decode_threads = 1;
  cfg.encode_threads = 1;
  cfg.queue_capacity = 2;
  cfg.late = [] { return std::vector<std::unique_ptr<Worker>>(); };
  cfg.fallback = [&c] {
    std::vector<std::unique_ptr<Worker>> v;
    v.push_back(std::make_unique<FakeCpu>(9, ms(1), c));
    return v;
  };
  std::vector<std::unique_ptr<Worker>> none;
  std::vector<std::size_t> todo(jobs_.size());
  for (std::size_t i = 0; i < todo.size(); ++i) todo[i] = i;
  std::atomic<bool> stop{false};
  std::vector<Result> res(jobs_.size());
  const EngineReport rep = texcv::batch::run_engine(
      jobs_, todo, cfg, none, [&](const Result& r) { res[r.index] = r; }, stop);
  for (const Result& r : res) EXPECT_EQ(r.status, Status::ok) << r.error;
  EXPECT_EQ(c.cpu, 6);
  EXPECT_EQ(rep.fallback_workers, 1u);
}

}  // namespace
