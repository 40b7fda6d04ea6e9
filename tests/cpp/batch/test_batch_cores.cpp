// SpareCores (src/batch/cores.hpp): the CPUs that work at normal priority leaves over, from
// /proc/stat's per-CPU lines. The parser and the arithmetic on hand-written readings; the
// measurement itself on this machine.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "src/batch/cores.hpp"

using texcv::batch::CpuTimes;
using texcv::batch::parse_proc_stat;
using texcv::batch::spare_cpus;
using texcv::batch::SpareCores;

namespace {

// Two readings of a 4-CPU machine 100 ticks apart per CPU. Columns: user nice system idle
// iowait irq softirq steal guest guest_nice (guest time is already counted in user and nice).
const char* kBefore =
    "cpu  4000 400 800 8000 100 0 50 0 7 3\n"
    "cpu0 1000 100 200 2000 25 0 10 0 7 3\n"
    "cpu1 1000 100 200 2000 25 0 10 0 0 0\n"
    "cpu2 1000 100 200 2000 25 0 15 0 0 0\n"
    "cpu3 1000 100 200 2000 25 0 15 0 0 0\n"
    "intr 12345 0 0\n"
    "ctxt 999\n"
    "cpufreq 5\n";
// In those 100 ticks: cpu0 busy at normal priority all the time (user 90, system 10); cpu1 half
// niced work, half idle; cpu2 idle; cpu3 iowait 20, idle 60, steal 20.
const char* kAfter =
    "cpu  4190 450 810 8210 120 0 50 20 7 3\n"
    "cpu0 1090 100 210 2000 25 0 10 0 7 3\n"
    "cpu1 1000 150 200 2050 25 0 10 0 0 0\n"
    "cpu2 1000 100 200 2100 25 0 15 0 0 0\n"
    "cpu3 1000 100 200 2060 45 0 15 20 0 0\n"
    "intr 12399 0 0\n";

TEST(BatchCores, ParsesTheListedCpusOnly) {
  const CpuTimes all = parse_proc_stat(kBefore, {0, 1, 2, 3});
  EXPECT_EQ(all.cpus, 4);
  // Each line: 1000 + 100 + 200 + 2000 + 25 + 0 + softirq + 0 (guest columns not added).
  EXPECT_EQ(all.total, 3335u + 3335u + 3340u + 3340u);
  EXPECT_EQ(all.spare, 4u * (100 + 2000 + 25));
  const CpuTimes two = parse_proc_stat(kBefore, {1, 3, 7});  // cpu7 has no line
  EXPECT_EQ(two.cpus, 2);
  EXPECT_EQ(two.total, 3335u + 3340u);
  EXPECT_EQ(parse_proc_stat("cpu  1 2 3 4\nintr 5\n", {0}).cpus, 0) << "the machine's sum line";
  EXPECT_EQ(parse_proc_stat("cpu0 1 2\n", {0}).cpus, 0) << "a line too short to be a CPU's";
}

TEST(BatchCores, SpareCpusIsWhatNormalPriorityWorkLeftOver) {
  const std::vector<int> cpus{0, 1, 2, 3};
  const CpuTimes a = parse_proc_stat(kBefore, cpus), b = parse_proc_stat(kAfter, cpus);
  // Spare ticks: cpu0 0, cpu1 100 (nice 50 + idle 50), cpu2 100, cpu3 80 (idle 60 + iowait 20;
  // steal is not ours to use): 280 of 400 ticks, x 4 CPUs = 2.8 CPUs.
  EXPECT_DOUBLE_EQ(spare_cpus(a, b), 2.8);
  const std::vector<int> busy{0};
  EXPECT_DOUBLE_EQ(spare_cpus(parse_proc_stat(kBefore, busy), parse_proc_stat(kAfter, busy)), 0.0);
  // Cannot tell: no time passed, another set of CPUs, nothing read.
  EXPECT_LT(spare_cpus(a, a), 0);
  EXPECT_LT(spare_cpus(a, parse_proc_stat(kAfter, {0, 1})), 0);
  EXPECT_LT(spare_cpus(CpuTimes{}, CpuTimes{}), 0);
}

#if defined(__linux__)
// On this machine: unknown before the first window, then between 0 and the CPUs this process may
// use; a thread spinning at normal priority lowers it.
TEST(BatchCores, MeasuresThisMachine) {
  SpareCores meter(std::chrono::milliseconds(40));
  EXPECT_LT(meter(), 0) << "one reading cannot tell";
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const double v = meter();
  const unsigned n = std::thread::hardware_concurrency();
  std::cout << "[ info ] spare CPUs over 60 ms: " << v << " of " << n << "\n";
  ASSERT_GE(v, 0.0) << "/proc/stat could not be read";
  EXPECT_LE(v, static_cast<double>(n) + 1e-9);
  EXPECT_EQ(meter(), v) << "within the window the last value is returned";
}
#endif

}  // namespace
