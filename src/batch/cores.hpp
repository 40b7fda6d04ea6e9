// How many of the CPUs this process may run on are left over by work at normal priority: the
// batch engine's CPU workers of Device::automatic run at a low priority (nice 10) and may start
// a file only while such cores are to spare, so that they never take the cores that feed the GPU
// (the decode threads' libjpeg-turbo check, the encoders, the CUDA workers' host side). Measured,
// not guessed: Linux counts the time of a thread with a positive nice value apart ("nice" in
// /proc/stat), so idle + iowait + nice over a short window is what the normal-priority threads
// of every process left, the low-priority workers' own time included.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace texcv::batch {

// The times of /proc/stat's per-CPU lines ("cpuN user nice system idle iowait irq softirq steal
// ..." in clock ticks), summed over the CPUs listed in `cpus`.
struct CpuTimes {
  std::uint64_t total = 0;  // user + nice + system + idle + iowait + irq + softirq + steal
  std::uint64_t spare = 0;  // nice + idle + iowait
  int cpus = 0;             // how many of `cpus` had a line
};
// Parses /proc/stat's text. Lines that are not "cpuN" for an N in `cpus` are skipped (the first
// line, "cpu", is the sum of every CPU of the machine).
CpuTimes parse_proc_stat(const std::string& text, const std::vector<int>& cpus);
// The CPUs left over between two readings of the same CPUs: (b.spare - a.spare) / (b.total -
// a.total) x the number of CPUs. -1 when it cannot be told (no time passed, different CPUs).
double spare_cpus(const CpuTimes& a, const CpuTimes& b);

// The measurement on this machine: the CPUs of the process's affinity mask, read from /proc/stat
// at most every `window` (a call in between returns the last value). -1 until two readings
// exist, and where /proc/stat cannot be read (then always). Thread-safe.
class SpareCores {
 public:
  explicit SpareCores(std::chrono::milliseconds window = std::chrono::milliseconds(50));
  double operator()();

 private:
  std::mutex m_;
  std::vector<int> cpus_;
  std::chrono::milliseconds window_;
  std::chrono::steady_clock::time_point last_{};
  CpuTimes prev_{};
  bool have_prev_ = false;
  bool broken_ = false;
  double value_ = -1;
};

}  // namespace texcv::batch
