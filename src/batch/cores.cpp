// SpareCores: the CPUs that work at normal priority leaves over (cores.hpp).
#include "src/batch/cores.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

#include <algorithm>
#include <fstream>
#include <sstream>

namespace texcv::batch {

CpuTimes parse_proc_stat(const std::string& text, const std::vector<int>& cpus) {
  CpuTimes t;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // "cpuN ..." (not the first line's "cpu ...", the machine's sum)
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9')
      continue;
    std::istringstream f(line.substr(3));
    int n = -1;
    f >> n;
    if (!f || std::find(cpus.begin(), cpus.end(), n) == cpus.end()) continue;
    std::uint64_t v[8] = {};  // user nice system idle iowait irq softirq steal
    int got = 0;
    while (got < 8 && (f >> v[got])) ++got;
    if (got < 4) continue;  // not a line of this format
    std::uint64_t total = 0;
    for (int i = 0; i < got; ++i) total += v[i];
    t.total += total;
    t.spare += v[1] + v[3] + v[4];
    ++t.cpus;
  }
  return t;
}

double spare_cpus(const CpuTimes& a, const CpuTimes& b) {
  if (a.cpus == 0 || a.cpus != b.cpus || b.total <= a.total || b.spare < a.spare) return -1;
  const double frac =
      static_cast<double>(b.spare - a.spare) / static_cast<double>(b.total - a.total);
  return std::min(1.0, frac) * b.cpus;
}

namespace {

std::vector<int> affinity_cpus() {
  std::vector<int> cpus;
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int i = 0; i < CPU_SETSIZE; ++i)
      if (CPU_ISSET(i, &set)) cpus.push_back(i);
#endif
  return cpus;
}

bool read_proc_stat(std::string& text) {
  std::ifstream f("/proc/stat");
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  text = s.str();
  return !text.empty();
}

}  // namespace

SpareCores::SpareCores(std::chrono::milliseconds window) : cpus_(affinity_cpus()), window_(window) {
  broken_ = cpus_.empty();
}

double SpareCores::operator()() {
  std::lock_guard<std::mutex> lock(m_);
  if (broken_) return -1;
  const auto now = std::chrono::steady_clock::now();
  if (have_prev_ && now - last_ < window_) return value_;
  std::string text;
  if (!read_proc_stat(text)) {
    broken_ = true;
    return value_ = -1;
  }
  const CpuTimes cur = parse_proc_stat(text, cpus_);
  if (cur.cpus == 0) {
    broken_ = true;
    return value_ = -1;
  }
  if (have_prev_) {
    const double v = spare_cpus(prev_, cur);
    if (v < 0 && cur.total == prev_.total) return value_;  // no tick yet: keep the last value
    value_ = v;
  }
  prev_ = cur;
  have_prev_ = true;
  last_ = now;
  return value_;
}

}  // namespace texcv::batch
