// Failing allocations (issue 18): every allocation a small batch makes fails in turn, and each run
// must finish (no crash, no deadlock) with one result for every file: a failed file with a message
// that says what failed (never a bare "std::bad_alloc") and no output, left behind or half
// written, as libvips's failing-allocation tests do.
//
// The injector replaces the global operator new of this test program (every form, so the
// library's std::vector, std::string, std::deque and std::thread state, and texcv::Image's pixel
// buffers, which come from the aligned nothrow form): while armed, the N-th allocation of the run
// fails (throws std::bad_alloc, or returns nullptr for the nothrow forms) and every other one
// succeeds. Not covered: what the codec libraries allocate with malloc themselves (libpng,
// libjpeg-turbo, libtiff report their own failures through their error paths).
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "common/test_support.hpp"
#include "src/core/host_cache.hpp"
#include "texcv/batch.hpp"
#include "texcv/texcv.hpp"

namespace fs = std::filesystem;
namespace batch = texcv::batch;

namespace {

// The injector's state. counting: allocations are counted (the run under test); countdown > 0:
// the allocation that brings it to 0 fails. suspended: this thread's allocations are neither
// counted nor failed (the test's own callbacks).
std::atomic<bool> g_counting{false};
std::atomic<long> g_count{0};
std::atomic<long> g_countdown{0};
std::atomic<long> g_failed{0};
thread_local int t_suspended = 0;

bool fail_this_allocation() noexcept {
  if (!g_counting.load(std::memory_order_relaxed) || t_suspended > 0) return false;
  g_count.fetch_add(1, std::memory_order_relaxed);
  if (g_countdown.load(std::memory_order_relaxed) <= 0) return false;
  if (g_countdown.fetch_sub(1) != 1) return false;
  g_failed.fetch_add(1);
  return true;
}

void* plain(std::size_t n) noexcept {
  return std::malloc(n ? n : 1);
}
void* aligned(std::size_t n, std::align_val_t a) noexcept {
  const std::size_t al = static_cast<std::size_t>(a);
  return std::aligned_alloc(al, (n + al - 1) / al * al + (n ? 0 : al));
}

// Out of line: GCC would otherwise see std::free on what operator new returned once both are
// inlined, and warn (-Wmismatched-new-delete) about this very replacement.
[[gnu::noinline]] void release(void* p) noexcept {
  std::free(p);
}

struct Suspend {
  Suspend() { ++t_suspended; }
  ~Suspend() { --t_suspended; }
  Suspend(const Suspend&) = delete;
  Suspend& operator=(const Suspend&) = delete;
};

}  // namespace

void* operator new(std::size_t n) {
  if (fail_this_allocation()) throw std::bad_alloc();
  if (void* p = plain(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return ::operator new(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return fail_this_allocation() ? nullptr : plain(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return fail_this_allocation() ? nullptr : plain(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
  if (fail_this_allocation()) throw std::bad_alloc();
  if (void* p = aligned(n, a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return ::operator new(n, a);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return fail_this_allocation() ? nullptr : aligned(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return fail_this_allocation() ? nullptr : aligned(n, a);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release(p);
}

namespace {

// What one run gave.
struct Outcome {
  std::vector<batch::Result> results;  // by job index
  std::vector<int> count;              // results per job
  std::string threw;                   // what run() threw, if it did
  bool threw_error = false;            // ...as texcv::Error
  long allocations = 0;                // counted while it ran
  long failed = 0;                     // allocations made to fail (0 or 1)
};

class BatchAllocFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    // Small inputs of each format, written before anything is counted: files, and one PNG as
    // in-memory data.
    const texcv::Image img = texcv::test::random_image(24, 16, 3, texcv::ElemType::u8, 7);
    std::vector<std::string> exts = {".png", ".jpg"};
#if defined(TEXCV_HAS_TIFF)
    exts.push_back(".tif");
#endif
    for (const auto& ext : exts) {
      const std::string in = tmp_.file("in" + ext);
      texcv::imwrite(in, img.view());
      jobs_.push_back({in, {}, tmp_.file("out/o" + ext)});
    }
    jobs_.push_back({"memory.png", texcv::imencode(img.view(), texcv::ImageFormat::png),
                     tmp_.file("out/m.png")});
    opt_.steps = texcv::parse_pipeline("resize:scale=0.5,interp=area;flip;erode:ksize=3");
    opt_.device = batch::Device::cpu;
    opt_.cpu_workers = 1;
    opt_.cpu_threads_each = 1;
    opt_.decode_threads = 2;
    opt_.encode_threads = 1;
  }

  // Runs the batch with the n-th allocation failing (0: none) on a thread of its own; a run that
  // has not finished after 30 s ends the test program (a deadlock).
  Outcome run(long n) {
    fs::remove_all(tmp_.file("out"));
    Outcome o;
    o.results.resize(jobs_.size());
    o.count.assign(jobs_.size(), 0);
    std::mutex m;
    batch::Options opt = opt_;
    opt.on_result = [&](const batch::Result& r) {
      Suspend s;  // the test's own bookkeeping is not under test
      std::lock_guard<std::mutex> lock(m);
      if (r.index < o.results.size()) {
        o.results[r.index] = r;
        ++o.count[r.index];
      }
    };
    std::promise<void> done;
    std::future<void> finished = done.get_future();
    std::thread t([&] {
      g_count = 0;
      g_failed = 0;
      g_countdown = n;
      g_counting = true;
      try {
        (void)batch::run(jobs_, opt);
      } catch (const texcv::Error& e) {
        Suspend s;
        o.threw = e.what();
        o.threw_error = true;
      } catch (const std::exception& e) {
        Suspend s;
        o.threw = e.what();
      }
      g_counting = false;
      g_countdown = 0;
      o.allocations = g_count.load();
      o.failed = g_failed.load();
      done.set_value();
    });
    if (finished.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
      std::fprintf(stderr, "allocation %ld failing: the batch did not finish in 30 s (deadlock)\n",
                   n);
      std::fflush(stderr);
      std::_Exit(1);
    }
    t.join();
    return o;
  }

  // Temporary files the run left in the output folder (a half-written output).
  std::vector<std::string> leftovers() {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(tmp_.file("out"), ec))
      if (e.path().filename().string().find(".tmp-") != std::string::npos)
        out.push_back(e.path().string());
    return out;
  }

  texcv::test::TempDir tmp_{"texcv_alloc_fail_"};
  std::vector<batch::Job> jobs_;
  batch::Options opt_;
};

TEST_F(BatchAllocFailure, EveryAllocationFailingInTurnLeavesOneResultPerFileAndNoHalfOutput) {
  const Outcome clean = run(0);
  ASSERT_TRUE(clean.threw.empty()) << clean.threw;
  for (std::size_t i = 0; i < jobs_.size(); ++i)
    ASSERT_EQ(clean.results[i].status, batch::Status::ok)
        << jobs_[i].input << ": " << clean.results[i].error;
  ASSERT_GT(clean.allocations, 10);
  // The run's allocations vary a little from run to run (threads interleave); a margin covers it.
  const long total = clean.allocations + clean.allocations / 4;
  long runs_with_failure = 0, failed_files = 0, threw = 0;
  for (long n = 1; n <= total; ++n) {
    const Outcome o = run(n);
    if (o.failed == 0) continue;  // this run made fewer than n allocations
    ++runs_with_failure;
    const std::string at = "allocation " + std::to_string(n) + " failing: ";
    if (!o.threw.empty()) {
      // Only before any file: texcv::Error naming the reason, no result, nothing written.
      ++threw;
      EXPECT_TRUE(o.threw_error) << at << "run() threw a bare exception: " << o.threw;
      for (std::size_t i = 0; i < jobs_.size(); ++i)
        EXPECT_EQ(o.count[i], 0) << at << "run() threw after a result: " << o.threw;
    } else {
      for (std::size_t i = 0; i < jobs_.size(); ++i) {
        const batch::Result& r = o.results[i];
        const std::string file = at + jobs_[i].input;
        ASSERT_EQ(o.count[i], 1) << file << ": results";
        const bool exists = fs::exists(jobs_[i].output);
        if (r.status == batch::Status::ok) {
          EXPECT_TRUE(exists) << file << ": ok without its output";
          if (exists) {
            EXPECT_NO_THROW((void)texcv::imread(jobs_[i].output)) << file << ": unreadable output";
          }
          continue;
        }
        ++failed_files;
        EXPECT_EQ(r.status, batch::Status::failed) << file << ": " << batch::to_string(r.status);
        EXPECT_FALSE(exists) << file << ": failed (" << r.error << ") but its output exists";
        EXPECT_FALSE(r.stage.empty()) << file << ": no stage";
        // What failed and where: the file or the step, never a bare exception's name.
        EXPECT_NE(r.error, "std::bad_alloc") << file << ": a bare exception";
        const bool named = r.error.find(jobs_[i].input) != std::string::npos ||
                           r.error.find("step ") != std::string::npos;
        EXPECT_TRUE(named || r.error == "out of memory")
            << file << ": the message names neither the file nor the step: " << r.error;
      }
    }
    EXPECT_TRUE(leftovers().empty()) << at << "a temporary file was left: " << leftovers()[0];
    if (HasFailure()) break;  // the first failing n says enough
  }
  std::printf(
      "%ld allocations in a clean run; %ld runs with one failing: %ld files failed, %ld "
      "runs refused before any file\n",
      clean.allocations, runs_with_failure, failed_files, threw);
  EXPECT_GE(runs_with_failure, clean.allocations / 2);
}

// The batch engine's cache of host image buffers (src/core/host_cache.hpp): an image allocation
// that fails while buffers of other sizes are kept drops them all and is tried again, so what the
// cache keeps never makes a file fail for lack of memory.
TEST(HostCacheAllocFailure, AFailedAllocationDropsTheKeptBuffersAndIsTriedAgain) {
  namespace detail = texcv::detail;
  using texcv::ElemType;
  detail::HostCacheScope scope;
  {
    texcv::Image a(1024, 1024, 1, ElemType::u8), b(1024, 1024, 1, ElemType::u8),
        c(1024, 1024, 1, ElemType::u8), d(1024, 1024, 1, ElemType::u8);
  }
  ASSERT_EQ(detail::host_cache_stats().cached_bytes, std::size_t{4} << 20);
  g_count = 0;
  g_failed = 0;
  g_countdown = 1;  // the next allocation fails
  g_counting = true;
  std::string threw;
  texcv::Image big;
  try {
    big = texcv::Image(1024, 2048, 1, ElemType::u8);  // 2 MiB: two kept buffers are dropped first
  } catch (const std::exception& e) {
    threw = e.what();
  }
  g_counting = false;
  g_countdown = 0;
  EXPECT_EQ(g_failed.load(), 1);
  EXPECT_TRUE(threw.empty()) << threw;
  EXPECT_FALSE(big.empty());
  const detail::HostCacheStats s = detail::host_cache_stats();
  EXPECT_EQ(s.dropped, 4u);
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.misses, 5u);
}

// The CPU operations whose threads allocate scratch memory inside an OpenMP region (the filters'
// rows, resize's rows, the medians' windows, CLAHE's histograms): an exception leaving the region
// ended the process (std::terminate). Each allocation of one call fails in turn, on an image
// large enough for the threads to be used; the call either succeeds or throws std::bad_alloc on
// the calling thread, and the test program lives on.
TEST(CpuOpsAllocFailure, AFailedAllocationInsideTheThreadsIsThrownToTheCaller) {
  using texcv::ElemType;
  const texcv::Image u8 = texcv::test::random_image(256, 256, 1, ElemType::u8, 3);
  const texcv::Image f32 = texcv::test::random_image(256, 256, 1, ElemType::f32, 4);
  texcv::Image o8(256, 256, 1, ElemType::u8), o32(256, 256, 1, ElemType::f32);
  texcv::Image big(300, 300, 1, ElemType::u8);
  const texcv::Kernel k3{3, 3, {0.f, 1.f, 0.f, 1.f, -4.f, 1.f, 0.f, 1.f, 0.f}};
  texcv::GaussianParams g;
  g.ksize_x = 5;
  g.sigma_x = 1.5;
  texcv::ResizeParams linear, cubic;
  cubic.interp = texcv::Interp::cubic;
  texcv::ClaheParams cp;
  cp.clip_limit = 2.0;
  struct Op {
    const char* name;
    std::function<void()> call;
  };
  const std::vector<Op> ops = {
      {"gaussian_blur", [&] { texcv::gaussian_blur(u8.view(), o8.view(), g); }},
      {"convolve", [&] { texcv::convolve(u8.view(), o8.view(), k3); }},
      {"median_blur 7 u8", [&] { texcv::median_blur(u8.view(), o8.view(), 7); }},
      {"median_blur 7 f32", [&] { texcv::median_blur(f32.view(), o32.view(), 7); }},
      {"resize linear", [&] { texcv::resize(u8.view(), big.view(), linear); }},
      {"resize cubic", [&] { texcv::resize(u8.view(), big.view(), cubic); }},
      {"clahe", [&] { texcv::clahe(u8.view(), o8.view(), cp); }},
  };
  for (const Op& op : ops) {
    long allocations = 0;
    for (long n = 0;; ++n) {
      g_count = 0;
      g_failed = 0;
      g_countdown = n;
      g_counting = true;
      std::string threw;
      try {
        op.call();
      } catch (const std::bad_alloc&) {
        threw = "bad_alloc";
      } catch (const texcv::Error& e) {
        Suspend s;
        threw = std::string("texcv::Error: ") + e.what();
      }
      g_counting = false;
      g_countdown = 0;
      if (n == 0) {
        ASSERT_TRUE(threw.empty()) << op.name << ": " << threw;
        allocations = g_count.load();
        ASSERT_GT(allocations, 0) << op.name;
        continue;
      }
      if (g_failed.load() == 0) break;  // fewer than n allocations: every one has failed once
      EXPECT_FALSE(threw.empty()) << op.name << ": allocation " << n
                                  << " failed and the call returned normally";
      if (n > 4 * allocations + 16) break;  // a guard: allocations vary little between calls
    }
  }
}

}  // namespace
