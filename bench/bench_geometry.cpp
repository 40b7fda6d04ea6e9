// bench_geometry: times the geometric operations on the GPU through texcv's public API, for every
// op x element type x channels x access path, next to NVIDIA NPP (same inputs, same sizes, same
// run) and a device-to-device copy of the same image (the memory floor).
//
// Method (docs/performance.md): CUDA events around each call on one non-blocking stream, a
// warm-up, the median of --reps calls; the calls rotate over several input and output buffers
// so that at least ~256 MB is touched between two uses of one buffer (the H200's L2 is 60 MB).
// Bytes counted: each input read once plus each output written once (remap adds its two float
// maps, crop reads only the cropped rectangle). GB/s = bytes / median; %copy = GB/s over the
// copy's GB/s (read + write) measured in the same process on the same buffers.
//
// Usage: bench_geometry [--quick] [--filter S[,S...]] [--config NAME[,NAME...]] [--out FILE.json]
//                       [--csv FILE.csv] [--reps N] [--warmup N] [--budget SECONDS] [--no-npp]
//                       [--list] [--selftest]
// --selftest writes made-up rows (no GPU needed) to check the writers and bench/summarize.py.
// Exit codes: 0 done (rows may carry errors), 1 bad arguments or setup failure, 2 no GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/copy_floor.hpp"
#include "texcv/error.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"
#include "texcv/runtime.hpp"

#if defined(TEXCV_BENCH_HAS_NPP)
#include <nppcore.h>
#include <nppdefs.h>
#include <nppi_geometry_transforms.h>
#endif

// Which path path=automatic takes, when the CUDA backend exposes its rule.
#if __has_include("src/cuda/ops/common/path_rule.hpp")
#include "src/cuda/ops/common/path_rule.hpp"
#define TEXCV_BENCH_HAS_PATH_RULE 1
#endif

namespace {

using texcv::ElemType;
using texcv::ImageView;
using texcv::Interp;
using texcv::Path;
using texcv::Precision;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// Errors

struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define BENCH_CUDA(call)                                                            \
  do {                                                                              \
    const cudaError_t bench_err_ = (call);                                          \
    if (bench_err_ != cudaSuccess)                                                  \
      throw BenchError(std::string(#call) + ": " + cudaGetErrorString(bench_err_)); \
  } while (0)

// True when the CUDA context still works (a sticky error such as an illegal address ruins it
// for the rest of the process).
bool context_alive() {
  if (cudaDeviceSynchronize() != cudaSuccess) return false;
  void* p = nullptr;
  if (cudaMalloc(&p, 256) != cudaSuccess) return false;
  const bool ok = cudaMemset(p, 0, 256) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess;
  cudaFree(p);
  return ok;
}

std::string shorten(std::string s, std::size_t n = 60) {
  for (char& c : s)
    if (c == '\n' || c == '\t') c = ' ';
  if (s.size() > n) s = s.substr(0, n - 3) + "...";
  return s;
}

// "rotate: 3 channels have no texture format; got ..." -> "3 channels have no texture format..."
std::string strip_op(const std::string& msg) {
  const auto p = msg.find(": ");
  if (p != std::string::npos && p < 24) return msg.substr(p + 2);
  return msg;
}

// ---------------------------------------------------------------------------------------------
// Options and configurations

struct Options {
  bool quick = false;
  bool list = false;
  bool no_npp = false;
  bool selftest = false;  // write made-up rows through the JSON/CSV writers and the summary
  std::vector<std::string> filters;
  std::vector<std::string> configs;
  std::string out;
  std::string csv;
  int reps = 20;
  int warmup = 3;
  double budget_s = 0;  // 0: none
};

struct Config {
  std::string name;
  int width = 0, height = 0, channels = 1;
  ElemType type = ElemType::u8;
  bool full_ops = true;  // all ops, or the reduced set
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void usage(FILE* f) {
  std::fprintf(f,
               "usage: bench_geometry [--quick] [--filter S[,S...]] [--config NAME[,NAME...]]\n"
               "                      [--out FILE.json] [--csv FILE.csv] [--reps N] [--warmup N]\n"
               "                      [--budget SECONDS] [--no-npp] [--list]\n"
               "  --quick    small sizes and 5 reps (a smoke test)\n"
               "  --filter   run only ops whose 'op params' contains one of the substrings\n"
               "  --config   run only these configurations (see --list)\n"
               "  --budget   stop starting new rows after this many seconds (rows say so)\n");
}

Options parse_args(int argc, char** argv) {
  Options o;
  bool reps_set = false, warmup_set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw BenchError("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--selftest") {
      o.selftest = true;
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--no-npp") {
      o.no_npp = true;
    } else if (a == "--filter") {
      for (auto& s : split(value())) o.filters.push_back(s);
    } else if (a == "--config") {
      for (auto& s : split(value())) o.configs.push_back(s);
    } else if (a == "--out") {
      o.out = value();
    } else if (a == "--csv") {
      o.csv = value();
    } else if (a == "--reps") {
      o.reps = std::max(1, std::atoi(value().c_str()));
      reps_set = true;
    } else if (a == "--warmup") {
      o.warmup = std::max(0, std::atoi(value().c_str()));
      warmup_set = true;
    } else if (a == "--budget") {
      o.budget_s = std::atof(value().c_str());
    } else if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    } else {
      throw BenchError("unknown option " + a);
    }
  }
  if (o.quick) {
    if (!reps_set) o.reps = 5;
    if (!warmup_set) o.warmup = 1;
  }
  return o;
}

std::vector<Config> all_configs(bool quick) {
  if (quick) {
    return {{"f32x1", 2048, 2048, 1, ElemType::f32, true},
            {"u8x1", 4096, 4096, 1, ElemType::u8, true},
            {"u8x4", 1024, 1024, 4, ElemType::u8, true},
            {"u16x1", 2048, 2048, 1, ElemType::u16, false},
            {"u8x3", 1024, 1024, 3, ElemType::u8, false},
            {"f32x3", 1024, 1024, 3, ElemType::f32, false}};
  }
  return {{"f32x1", 8192, 8192, 1, ElemType::f32, true},
          {"u8x1", 16384, 16384, 1, ElemType::u8, true},
          {"u8x4", 4096, 4096, 4, ElemType::u8, true},
          {"u16x1", 8192, 8192, 1, ElemType::u16, false},
          {"u8x3", 4096, 4096, 3, ElemType::u8, false},
          {"f32x3", 4096, 4096, 3, ElemType::f32, false}};
}

std::size_t esize(ElemType t) {
  switch (t) {
    case ElemType::u8:
      return 1;
    case ElemType::u16:
      return 2;
    case ElemType::f32:
      return 4;
  }
  return 1;
}

const char* tname(ElemType t) {
  switch (t) {
    case ElemType::u8:
      return "u8";
    case ElemType::u16:
      return "u16";
    case ElemType::f32:
      return "f32";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Results

struct Row {
  std::string config, op, params, type;
  int channels = 1, width = 0, height = 0, dst_width = 0, dst_height = 0;
  std::string impl;                // texcv, npp, cuda (cudaMemcpy2DAsync)
  std::string path = "-";          // texcv's access path, "-" for peers and path-less ops
  std::string auto_choice;         // for path=auto when the rule is exposed
  std::string status = "skipped";  // ok, n/a, error, skipped
  std::string note;
  double median_ms = 0, min_ms = 0, max_ms = 0, p10_ms = 0, p90_ms = 0, host_us = 0;
  int reps = 0;
  double bytes = 0, gbps = 0, floor_ms = 0, pct_copy = 0;
  std::string diff_vs;
  double diff_mean = -1, diff_max = -1;
  long nonfinite = 0;
};

std::string json_escape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += static_cast<char>(c);
    }
  }
  return o;
}

std::string jnum(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

struct Meta {
  std::vector<std::pair<std::string, std::string>> strings;
  std::vector<std::pair<std::string, double>> numbers;
};

void write_json(const std::string& path, const Meta& meta, const std::vector<Row>& rows) {
  if (path.empty()) return;
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "bench_geometry: cannot write %s\n", tmp.c_str());
    return;
  }
  std::fprintf(f, "{\n  \"meta\": {");
  bool first = true;
  for (auto& [k, v] : meta.strings) {
    std::fprintf(f, "%s\n    \"%s\": \"%s\"", first ? "" : ",", json_escape(k).c_str(),
                 json_escape(v).c_str());
    first = false;
  }
  for (auto& [k, v] : meta.numbers) {
    std::fprintf(f, "%s\n    \"%s\": %s", first ? "" : ",", json_escape(k).c_str(),
                 jnum(v).c_str());
    first = false;
  }
  std::fprintf(f, "\n  },\n  \"rows\": [");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::fprintf(
        f,
        "%s\n    {\"config\": \"%s\", \"op\": \"%s\", \"params\": \"%s\", \"type\": \"%s\", "
        "\"channels\": %d, \"width\": %d, \"height\": %d, \"dst_width\": %d, \"dst_height\": %d, "
        "\"impl\": \"%s\", \"path\": \"%s\", \"auto_choice\": \"%s\", \"status\": \"%s\", "
        "\"note\": \"%s\", \"median_ms\": %s, \"min_ms\": %s, \"max_ms\": %s, \"p10_ms\": %s, "
        "\"p90_ms\": %s, \"reps\": %d, \"host_us_per_call\": %s, \"bytes\": %s, \"gbps\": %s, "
        "\"floor_ms\": %s, \"pct_copy\": %s, \"diff_vs\": \"%s\", \"diff_mean\": %s, "
        "\"diff_max\": %s, \"nonfinite\": %ld}",
        i ? "," : "", json_escape(r.config).c_str(), json_escape(r.op).c_str(),
        json_escape(r.params).c_str(), r.type.c_str(), r.channels, r.width, r.height, r.dst_width,
        r.dst_height, r.impl.c_str(), r.path.c_str(), json_escape(r.auto_choice).c_str(),
        r.status.c_str(), json_escape(r.note).c_str(), jnum(r.median_ms).c_str(),
        jnum(r.min_ms).c_str(), jnum(r.max_ms).c_str(), jnum(r.p10_ms).c_str(),
        jnum(r.p90_ms).c_str(), r.reps, jnum(r.host_us).c_str(), jnum(r.bytes).c_str(),
        jnum(r.gbps).c_str(), jnum(r.floor_ms).c_str(), jnum(r.pct_copy).c_str(),
        json_escape(r.diff_vs).c_str(), r.diff_mean < 0 ? "null" : jnum(r.diff_mean).c_str(),
        r.diff_max < 0 ? "null" : jnum(r.diff_max).c_str(), r.nonfinite);
  }
  std::fprintf(f, "\n  ]\n}\n");
  std::fclose(f);
  std::rename(tmp.c_str(), path.c_str());
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  if (path.empty()) return;
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;
  std::fprintf(f,
               "config,op,params,type,channels,width,height,impl,path,auto_choice,status,"
               "median_ms,gbps,pct_copy,diff_mean,note\n");
  for (const Row& r : rows) {
    std::string note = r.note;
    std::replace(note.begin(), note.end(), '"', '\'');
    std::fprintf(f, "%s,%s,\"%s\",%s,%d,%d,%d,%s,%s,%s,%s,%.5f,%.1f,%.1f,%s,\"%s\"\n",
                 r.config.c_str(), r.op.c_str(), r.params.c_str(), r.type.c_str(), r.channels,
                 r.width, r.height, r.impl.c_str(), r.path.c_str(), r.auto_choice.c_str(),
                 r.status.c_str(), r.median_ms, r.gbps, r.pct_copy,
                 r.diff_mean < 0 ? "" : jnum(r.diff_mean).c_str(), note.c_str());
  }
  std::fclose(f);
}

void print_header() {
  std::printf("%-16s %-18s %-4s %2s %-11s %-7s %-22s %9s %8s %6s %9s  %s\n", "op", "params", "type",
              "ch", "size", "impl", "path", "median_ms", "GB/s", "%copy", "diff", "note");
  std::fflush(stdout);
}

void print_row(const Row& r) {
  std::string path = r.path;
  if (!r.auto_choice.empty()) path += "->" + r.auto_choice;
  char diff[32] = "";
  if (r.diff_mean >= 0) std::snprintf(diff, sizeof diff, "%.3g", r.diff_mean);
  const std::string size = std::to_string(r.width) + "x" + std::to_string(r.height);
  std::printf("%-16s %-18s %-4s %2d %-11s %-7s %-22s ", r.op.c_str(), r.params.c_str(),
              r.type.c_str(), r.channels, size.c_str(), r.impl.c_str(), path.c_str());
  if (r.status == "ok") {
    std::printf("%9.4f %8.1f %5.1f%% %9s  %s\n", r.median_ms, r.gbps, r.pct_copy, diff,
                shorten(r.note, 70).c_str());
  } else {
    // texcv's messages end "; got X, expected Y": that part says why in a few words.
    std::string why = r.note;
    const auto g = why.find("; got ");
    if (r.status == "n/a" && g != std::string::npos) why = why.substr(g + 2);
    std::printf("%9s %8s %6s %9s  %s: %s\n", "-", "-", "-", "", r.status.c_str(),
                shorten(why, 70).c_str());
  }
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------------------------
// Timing

struct Timing {
  double median = 0, min = 0, max = 0, p10 = 0, p90 = 0, host_us = 0;
  int reps = 0;
};

class Timer {
 public:
  Timer(cudaStream_t s, int max_reps) : stream_(s) {
    events_.resize(2 * static_cast<std::size_t>(max_reps));
    for (auto& e : events_) BENCH_CUDA(cudaEventCreate(&e));
  }
  ~Timer() {
    for (auto& e : events_)
      if (e) cudaEventDestroy(e);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // fn(i) enqueues one call on the stream, using buffer set i.
  Timing run(int warmup, int reps, const std::function<void(int)>& fn) {
    reps = std::min(reps, static_cast<int>(events_.size() / 2));
    for (int i = 0; i < warmup; ++i) fn(i);
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    const auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) {
      BENCH_CUDA(cudaEventRecord(events_[2 * r], stream_));
      fn(warmup + r);
      BENCH_CUDA(cudaEventRecord(events_[2 * r + 1], stream_));
    }
    const auto t1 = Clock::now();
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    BENCH_CUDA(cudaGetLastError());
    std::vector<double> ms(static_cast<std::size_t>(reps));
    for (int r = 0; r < reps; ++r) {
      float v = 0;
      BENCH_CUDA(cudaEventElapsedTime(&v, events_[2 * r], events_[2 * r + 1]));
      ms[static_cast<std::size_t>(r)] = v;
    }
    std::sort(ms.begin(), ms.end());
    Timing t;
    t.reps = reps;
    auto q = [&](double f) { return ms[static_cast<std::size_t>(f * (reps - 1) + 0.5)]; };
    t.median = reps % 2 ? ms[static_cast<std::size_t>(reps / 2)]
                        : 0.5 * (ms[static_cast<std::size_t>(reps / 2 - 1)] +
                                 ms[static_cast<std::size_t>(reps / 2)]);
    t.min = ms.front();
    t.max = ms.back();
    t.p10 = q(0.1);
    t.p90 = q(0.9);
    t.host_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / reps;
    return t;
  }

 private:
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
};

// ---------------------------------------------------------------------------------------------
// Data

// Smooth random content plus noise (never zeros): a sum of a random sinusoid along x and one
// along y per channel, plus uniform noise of 10 % of the range. Smooth enough that two
// implementations that differ by half a pixel still give a small mean difference, noisy enough
// that a wrong index shows.
void fill_host(const ImageView& v, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> period(40.0, 400.0), phase(0.0, 6.2831853);
  const int c = v.channels;
  std::vector<float> fx(static_cast<std::size_t>(v.width) * c),
      gy(static_cast<std::size_t>(v.height) * c);
  for (int k = 0; k < c; ++k) {
    const double px = period(rng), py = period(rng), ax = phase(rng), ay = phase(rng);
    for (int x = 0; x < v.width; ++x)
      fx[static_cast<std::size_t>(x) * c + k] =
          static_cast<float>(0.2 * std::sin(6.2831853 * x / px + ax));
    for (int y = 0; y < v.height; ++y)
      gy[static_cast<std::size_t>(y) * c + k] =
          static_cast<float>(0.2 * std::sin(6.2831853 * y / py + ay));
  }
  std::uint32_t s = seed * 2654435761u + 12345u;
  auto noise = [&s]() {  // xorshift32, uniform in [-0.05, 0.05)
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return (static_cast<float>(s >> 8) * (1.0f / 16777216.0f) - 0.5f) * 0.1f;
  };
  for (int y = 0; y < v.height; ++y) {
    unsigned char* row =
        static_cast<unsigned char*>(v.data) + v.pitch * static_cast<std::size_t>(y);
    const float* g = &gy[static_cast<std::size_t>(y) * c];
    const std::size_t n = static_cast<std::size_t>(v.width) * c;
    for (std::size_t i = 0; i < n; ++i) {
      float val = 0.5f + fx[i] + g[i % c] + noise();
      val = std::min(1.0f, std::max(0.0f, val));
      switch (v.type) {
        case ElemType::u8:
          row[i] = static_cast<unsigned char>(val * 255.0f + 0.5f);  // val >= 0: rounds
          break;
        case ElemType::u16:
          reinterpret_cast<std::uint16_t*>(row)[i] =
              static_cast<std::uint16_t>(val * 65535.0f + 0.5f);
          break;
        case ElemType::f32:
          reinterpret_cast<float*>(row)[i] = val;
          break;
      }
    }
  }
}

struct HostBuffer {
  std::vector<unsigned char> bytes;
  ImageView view;
  HostBuffer(int w, int h, int c, ElemType t) {
    view.width = w;
    view.height = h;
    view.channels = c;
    view.type = t;
    view.pitch = static_cast<std::size_t>(w) * c * esize(t);
    view.location = texcv::Location::host;
    bytes.resize(view.pitch * static_cast<std::size_t>(h));
    view.data = bytes.data();
  }
};

// A set of device images of one shape, used in turn so the L2 cache does not flatter.
struct ImageSet {
  std::vector<texcv::Image> images;
  const ImageView& operator[](int i) const {
    return images[static_cast<std::size_t>(i) % images.size()].view();
  }
  int size() const { return static_cast<int>(images.size()); }
};

constexpr double kTouchBytes = 256.0 * 1024 * 1024;  // >= 4x the H200's 60 MB L2 per rotation

int buffers_for(double bytes_each, int max_buffers = 8) {
  const int n = static_cast<int>(std::ceil(kTouchBytes / std::max(bytes_each, 1.0)));
  return std::clamp(n, 2, max_buffers);
}

ImageSet make_set(int w, int h, int c, ElemType t, int n) {
  ImageSet s;
  for (int i = 0; i < n; ++i) s.images.emplace_back(w, h, c, t, texcv::Location::device);
  return s;
}

double view_bytes(const ImageView& v) {
  return static_cast<double>(v.row_bytes()) * static_cast<double>(v.height);
}

// A sample of a device image: every `step`-th row, downloaded to the host.
struct Sample {
  std::vector<unsigned char> bytes;
  int rows = 0, step = 1, width = 0, channels = 1;
  ElemType type = ElemType::u8;
  std::size_t row_bytes = 0;
  double at(int r, std::size_t i) const {
    const unsigned char* p = bytes.data() + row_bytes * static_cast<std::size_t>(r);
    switch (type) {
      case ElemType::u8:
        return p[i];
      case ElemType::u16:
        return reinterpret_cast<const std::uint16_t*>(p)[i];
      case ElemType::f32:
        return reinterpret_cast<const float*>(p)[i];
    }
    return 0;
  }
};

Sample download_sample(const ImageView& v) {
  Sample s;
  s.step = std::max(1, v.height / 512);
  s.rows = (v.height + s.step - 1) / s.step;
  s.width = v.width;
  s.channels = v.channels;
  s.type = v.type;
  s.row_bytes = v.row_bytes();
  s.bytes.resize(s.row_bytes * static_cast<std::size_t>(s.rows));
  BENCH_CUDA(cudaMemcpy2D(s.bytes.data(), s.row_bytes, v.data, v.pitch * s.step, s.row_bytes,
                          static_cast<std::size_t>(s.rows), cudaMemcpyDeviceToHost));
  return s;
}

struct DiffResult {
  double mean = 0, max = 0;
  long nonfinite = 0;
};

// Mean and max |a - b| over the sample, leaving out a margin of 4 pixels at the image edges
// (border conventions differ between libraries). Non-finite values in `a` are counted apart.
DiffResult compare(const Sample& a, const Sample& b) {
  DiffResult d;
  if (a.bytes.size() != b.bytes.size() || a.rows != b.rows) return {-1, -1, 0};
  const int margin = 4;
  double sum = 0;
  long n = 0;
  for (int r = 0; r < a.rows; ++r) {
    const int y = r * a.step;
    if (y < margin || y >= a.rows * a.step - margin) continue;
    for (int x = margin; x < a.width - margin; ++x) {
      for (int c = 0; c < a.channels; ++c) {
        const std::size_t i = static_cast<std::size_t>(x) * a.channels + c;
        const double va = a.at(r, i), vb = b.at(r, i);
        if (!std::isfinite(va) || !std::isfinite(vb)) {
          ++d.nonfinite;
          continue;
        }
        const double e = std::fabs(va - vb);
        sum += e;
        d.max = std::max(d.max, e);
        ++n;
      }
    }
  }
  d.mean = n ? sum / n : 0;
  return d;
}

void poison(const ImageView& v, cudaStream_t s, int byte) {
  BENCH_CUDA(cudaMemset2DAsync(v.data, v.pitch, byte, v.row_bytes(),
                               static_cast<std::size_t>(v.height), s));
}

// ---------------------------------------------------------------------------------------------
// NPP

#if defined(TEXCV_BENCH_HAS_NPP)
using NppWarpAffine = NppStatus (*)(const void*, NppiSize, int, NppiRect, void*, int, NppiRect,
                                    const double[2][3], int, NppStreamContext);
using NppWarpPersp = NppStatus (*)(const void*, NppiSize, int, NppiRect, void*, int, NppiRect,
                                   const double[3][3], int, NppStreamContext);
using NppResize = NppStatus (*)(const void*, int, NppiSize, NppiRect, void*, int, NppiSize,
                                NppiRect, int, NppStreamContext);
using NppRemap = NppStatus (*)(const void*, NppiSize, int, NppiRect, const Npp32f*, int,
                               const Npp32f*, int, void*, int, NppiSize, int, NppStreamContext);
using NppMirror = NppStatus (*)(const void*, int, void*, int, NppiSize, NppiAxis, NppStreamContext);

struct NppTable {
  NppWarpAffine warp_affine = nullptr;
  NppWarpPersp warp_perspective = nullptr;
  NppResize resize = nullptr;
  NppRemap remap = nullptr;
  NppMirror mirror = nullptr;
};

#define TEXCV_NPP_TABLE(SUF, T, CH)                                                                \
  NppTable {                                                                                       \
    [](const void* s, NppiSize ss, int st, NppiRect sr, void* d, int dt, NppiRect dr,              \
       const double c[2][3], int in, NppStreamContext x) {                                         \
      return nppiWarpAffine_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), ss, st, sr,             \
                                                 static_cast<T*>(d), dt, dr, c, in, x);            \
    },                                                                                             \
        [](const void* s, NppiSize ss, int st, NppiRect sr, void* d, int dt, NppiRect dr,          \
           const double c[3][3], int in, NppStreamContext x) {                                     \
          return nppiWarpPerspective_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), ss, st, sr,    \
                                                          static_cast<T*>(d), dt, dr, c, in, x);   \
        },                                                                                         \
        [](const void* s, int st, NppiSize ss, NppiRect sr, void* d, int dt, NppiSize ds,          \
           NppiRect dr, int in, NppStreamContext x) {                                              \
          return nppiResize_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), st, ss, sr,             \
                                                 static_cast<T*>(d), dt, ds, dr, in, x);           \
        },                                                                                         \
        [](const void* s, NppiSize ss, int st, NppiRect sr, const Npp32f* mx, int mxs,             \
           const Npp32f* my, int mys, void* d, int dt, NppiSize ds, int in, NppStreamContext x) {  \
          return nppiRemap_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), ss, st, sr, mx, mxs, my, \
                                                mys, static_cast<T*>(d), dt, ds, in, x);           \
        },                                                                                         \
        [](const void* s, int st, void* d, int dt, NppiSize roi, NppiAxis ax,                      \
           NppStreamContext x) {                                                                   \
          return nppiMirror_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), st, static_cast<T*>(d), \
                                                 dt, roi, ax, x);                                  \
        },                                                                                         \
  }

std::optional<NppTable> npp_table(ElemType t, int c) {
  switch (t) {
    case ElemType::u8:
      if (c == 1) return TEXCV_NPP_TABLE(8u, Npp8u, 1);
      if (c == 3) return TEXCV_NPP_TABLE(8u, Npp8u, 3);
      if (c == 4) return TEXCV_NPP_TABLE(8u, Npp8u, 4);
      break;
    case ElemType::u16:
      if (c == 1) return TEXCV_NPP_TABLE(16u, Npp16u, 1);
      if (c == 3) return TEXCV_NPP_TABLE(16u, Npp16u, 3);
      if (c == 4) return TEXCV_NPP_TABLE(16u, Npp16u, 4);
      break;
    case ElemType::f32:
      if (c == 1) return TEXCV_NPP_TABLE(32f, Npp32f, 1);
      if (c == 3) return TEXCV_NPP_TABLE(32f, Npp32f, 3);
      if (c == 4) return TEXCV_NPP_TABLE(32f, Npp32f, 4);
      break;
  }
  return std::nullopt;
}

NppStreamContext npp_context(cudaStream_t s) {
  NppStreamContext ctx{};
  int dev = 0;
  BENCH_CUDA(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
  ctx.hStream = s;
  ctx.nCudaDeviceId = dev;
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  BENCH_CUDA(cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMajor,
                                    cudaDevAttrComputeCapabilityMajor, dev));
  BENCH_CUDA(cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMinor,
                                    cudaDevAttrComputeCapabilityMinor, dev));
  BENCH_CUDA(cudaStreamGetFlags(s, &ctx.nStreamFlags));
  return ctx;
}

// Throws BenchError for an NPP error (negative status); warnings (positive) are returned.
NppStatus npp_check(NppStatus st, const char* fn) {
  if (st < 0) throw BenchError(std::string(fn) + " returned NPP status " + std::to_string(st));
  return st;
}

NppiSize nsize(const ImageView& v) {
  return {v.width, v.height};
}
NppiRect nrect(const ImageView& v) {
  return {0, 0, v.width, v.height};
}
int nstep(const ImageView& v) {
  return static_cast<int>(v.pitch);
}
#endif

// ---------------------------------------------------------------------------------------------
// Operation descriptions

// One op variant: how texcv runs it (with a path) and how the peer runs it.
struct OpSpec {
  std::string op, params;
  bool has_paths = true;
  Interp interp = Interp::linear;
  int dst_w = 0, dst_h = 0;
  double extra_bytes = 0;   // bytes read besides src (remap's maps)
  bool crop_bytes = false;  // reads only the output's size from src
  std::function<void(const ImageView&, const ImageView&, Path, Precision, cudaStream_t)> texcv;
  std::string peer_name;  // "" when there is none
  // Enqueues the peer; returns a note (NPP warning) or "".
  std::function<std::string(const ImageView&, const ImageView&, cudaStream_t)> peer;
  // Fill value for the peer's output before the accuracy check (NPP leaves pixels whose source
  // lies outside untouched; texcv writes the constant border 0 there).
  int peer_prefill = 0;
};

std::array<double, 6> invert_affine(const std::array<double, 6>& m) {
  const double det = m[0] * m[4] - m[1] * m[3];
  const double a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det;
  return {a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])};
}

std::string path_name(Path p) {
  switch (p) {
    case Path::automatic:
      return "auto";
    case Path::global:
      return "global";
    case Path::texture:
      return "texture";
    case Path::texture_filter:
      return "texture_filter";
    case Path::shared:
      return "shared";
  }
  return "?";
}

// Which path the automatic rule picks for this call, when the CUDA backend exposes it
// (src/cuda/ops/common/path_rule.hpp). Precision automatic is fast for u8 and exact otherwise
// (include/texcv/geometry.hpp); warps sample with border constant, resize with replicate.
std::string auto_choice(const OpSpec& spec, const ImageView& src) {
#if defined(TEXCV_BENCH_HAS_PATH_RULE)
  using texcv::cuda::ops::GeomOp;
  try {
    GeomOp op = GeomOp::warp;
    if (spec.op == "resize") op = GeomOp::resize;
    if (spec.op == "remap") op = GeomOp::remap;
    if (spec.op == "flip") op = GeomOp::flip;
    texcv::detail::SamplingDesc s;
    s.interp = spec.interp;
    s.border = spec.op == "resize" ? texcv::Border::replicate : texcv::Border::constant;
    s.precision = Precision::exact;  // what Precision::automatic resolves to (src/core)
    s.path = Path::automatic;
    return path_name(texcv::cuda::ops::resolved_path(op, src, s));
  } catch (const std::exception& e) {
    return std::string("? (") + shorten(e.what(), 30) + ")";
  }
#else
  (void)spec;
  (void)src;
  return "";
#endif
}

// ---------------------------------------------------------------------------------------------
// The run

struct Runner {
  Options opt;
  cudaStream_t stream = nullptr;
  std::unique_ptr<Timer> timer;
  std::vector<Row> rows;
  Meta meta;
  Clock::time_point start = Clock::now();
  bool context_lost = false;
  std::string lost_reason;
  bool npp = false;
#if defined(TEXCV_BENCH_HAS_NPP)
  NppStreamContext npp_ctx{};
#endif

  double elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  bool over_budget() const {
    return opt.budget_s > 0 && elapsed() > opt.budget_s;
  }

  bool wanted(const OpSpec& s) const {
    if (opt.filters.empty()) return true;
    const std::string key = s.op + " " + s.params;
    for (auto& f : opt.filters)
      if (key.find(f) != std::string::npos) return true;
    return false;
  }

  void add(Row r) {
    print_row(r);
    rows.push_back(std::move(r));
    write_json(opt.out, meta, rows);
  }

  // Runs one timed row; failures become the row's status, never an exception.
  void timed(Row& r, const std::function<void(int)>& fn, double copy_gbps) {
    if (context_lost) {
      r.status = "skipped";
      r.note = "CUDA context lost earlier: " + lost_reason;
      return;
    }
    if (over_budget()) {
      r.status = "skipped";
      r.note = "time budget of " + jnum(opt.budget_s) + " s spent";
      return;
    }
    try {
      const Timing t = timer->run(opt.warmup, opt.reps, fn);
      r.status = "ok";
      r.median_ms = t.median;
      r.min_ms = t.min;
      r.max_ms = t.max;
      r.p10_ms = t.p10;
      r.p90_ms = t.p90;
      r.host_us = t.host_us;
      r.reps = t.reps;
      r.gbps = r.median_ms > 0 ? r.bytes / (r.median_ms * 1e-3) / 1e9 : 0;
      if (copy_gbps > 0) {
        r.floor_ms = r.bytes / (copy_gbps * 1e9) * 1e3;
        r.pct_copy = r.median_ms > 0 ? 100.0 * r.floor_ms / r.median_ms : 0;
      }
      return;
    } catch (const texcv::Error& e) {
      const auto code = e.code();
      if (code == texcv::ErrorCode::Unsupported || code == texcv::ErrorCode::InvalidArgument ||
          code == texcv::ErrorCode::NotCompiled) {
        r.status = "n/a";
        r.note = strip_op(e.what());
      } else {
        r.status = "error";
        r.note = std::string(texcv::to_string(code)) + ": " + e.what();
      }
    } catch (const std::exception& e) {
      r.status = "error";
      r.note = e.what();
    }
    cudaGetLastError();  // clear a non-sticky error
    if (!context_alive()) {
      context_lost = true;
      lost_reason =
          r.op + " " + r.params + " " + r.impl + " " + r.path + ": " + shorten(r.note, 80);
    }
  }

  void run_config(const Config& cfg);
};

std::vector<OpSpec> make_specs(const Config& cfg, const ImageView& src0,
                               std::shared_ptr<ImageSet> maps
#if defined(TEXCV_BENCH_HAS_NPP)
                               ,
                               const std::optional<NppTable>& npp, const NppStreamContext& ctx
#endif
) {
  const int w = cfg.width, h = cfg.height;
  std::vector<OpSpec> specs;
  (void)src0;

  auto sampling = [](Interp in, Path p, Precision pr) {
    texcv::Sampling s;
    s.interp = in;
    s.path = p;
    s.precision = pr;
    return s;
  };
  auto vs = [](cudaStream_t s) { return static_cast<void*>(s); };

#if defined(TEXCV_BENCH_HAS_NPP)
  auto npp_interp = [](Interp in) {
    switch (in) {
      case Interp::nearest:
        return static_cast<int>(NPPI_INTER_NN);
      case Interp::linear:
        return static_cast<int>(NPPI_INTER_LINEAR);
      case Interp::cubic:
        return static_cast<int>(NPPI_INTER_CUBIC);
      case Interp::area:
        return static_cast<int>(NPPI_INTER_SUPER);
    }
    return static_cast<int>(NPPI_INTER_LINEAR);
  };
  auto warn_note = [](NppStatus st) {
    return st > 0 ? "NPP warning " + std::to_string(st) : std::string();
  };
#endif

  // rotate 30 degrees about the centre, same size.
  [[maybe_unused]] const std::array<double, 6> rot = texcv::rotation_matrix(w, h, w, h, 30.0);
  for (Interp in : {Interp::linear, Interp::nearest, Interp::cubic}) {
    if (!cfg.full_ops && in != Interp::linear) continue;
    OpSpec s;
    s.op = "rotate";
    s.params = std::string("30deg ") + texcv::to_string(in);
    s.interp = in;
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [in, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                 cudaStream_t st) {
      texcv::rotate(a, b, 30.0, sampling(in, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiWarpAffine";
      s.peer = [in, rot, npp, ctx, npp_interp, warn_note](const ImageView& a, const ImageView& b,
                                                          cudaStream_t) {
        const double c[2][3] = {{rot[0], rot[1], rot[2]}, {rot[3], rot[4], rot[5]}};
        return warn_note(npp_check(npp->warp_affine(a.data, nsize(a), nstep(a), nrect(a), b.data,
                                                    nstep(b), nrect(b), c, npp_interp(in), ctx),
                                   "nppiWarpAffine"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // A general affine map (scale, shear, translation), linear.
  {
    const std::array<double, 6> m = {0.95, 0.15, -0.05 * w, -0.10, 0.90, 0.10 * h};
    OpSpec s;
    s.op = "warp_affine";
    s.params = "general linear";
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [m, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                cudaStream_t st) {
      texcv::warp_affine(a, b, m, false, sampling(Interp::linear, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiWarpAffine";
      s.peer = [m, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        const double c[2][3] = {{m[0], m[1], m[2]}, {m[3], m[4], m[5]}};
        return warn_note(npp_check(npp->warp_affine(a.data, nsize(a), nstep(a), nrect(a), b.data,
                                                    nstep(b), nrect(b), c, NPPI_INTER_LINEAR, ctx),
                                   "nppiWarpAffine"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // A mild perspective (the denominator stays within [1, 1.15]), linear.
  if (cfg.full_ops) {
    const std::array<double, 9> m = {1.0,      0.05,     0.02 * w, 0.03, 0.98,
                                     0.01 * h, 0.10 / w, 0.05 / h, 1.0};
    OpSpec s;
    s.op = "warp_perspective";
    s.params = "mild linear";
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [m, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                cudaStream_t st) {
      texcv::warp_perspective(a, b, m, false, sampling(Interp::linear, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiWarpPerspective";
      s.peer = [m, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        const double c[3][3] = {{m[0], m[1], m[2]}, {m[3], m[4], m[5]}, {m[6], m[7], m[8]}};
        return warn_note(
            npp_check(npp->warp_perspective(a.data, nsize(a), nstep(a), nrect(a), b.data, nstep(b),
                                            nrect(b), c, NPPI_INTER_LINEAR, ctx),
                      "nppiWarpPerspective"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // resize to 0.5 (four interpolations) and to 2.0 (linear).
  struct ResizeCase {
    double scale;
    Interp interp;
  };
  std::vector<ResizeCase> rcases = {{0.5, Interp::linear}};
  if (cfg.full_ops) {
    rcases.push_back({0.5, Interp::nearest});
    rcases.push_back({0.5, Interp::cubic});
    rcases.push_back({0.5, Interp::area});
  }
  rcases.push_back({2.0, Interp::linear});
  for (const ResizeCase& rc : rcases) {
    OpSpec s;
    s.op = "resize";
    s.params = std::string(rc.scale < 1 ? "0.5 " : "2.0 ") + texcv::to_string(rc.interp);
    s.interp = rc.interp;
    s.dst_w = static_cast<int>(w * rc.scale);
    s.dst_h = static_cast<int>(h * rc.scale);
    const Interp in = rc.interp;
    s.texcv = [in](const ImageView& a, const ImageView& b, Path p, Precision pr, cudaStream_t st) {
      texcv::ResizeParams rp;
      rp.interp = in;
      rp.path = p;
      rp.precision = pr;
      texcv::resize(a, b, rp, static_cast<void*>(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = in == Interp::area ? "nppiResize SUPER" : "nppiResize";
      s.peer = [in, npp, ctx, npp_interp, warn_note](const ImageView& a, const ImageView& b,
                                                     cudaStream_t) {
        return warn_note(npp_check(npp->resize(a.data, nstep(a), nsize(a), nrect(a), b.data,
                                               nstep(b), nsize(b), nrect(b), npp_interp(in), ctx),
                                   "nppiResize"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // remap with maps equal to the 30 degree rotation, linear.
  {
    OpSpec s;
    s.op = "remap";
    s.params = "rot30 maps linear";
    s.dst_w = w;
    s.dst_h = h;
    s.extra_bytes = 2.0 * 4.0 * w * h;
    s.texcv = [maps, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                   cudaStream_t st) {
      if (!maps || maps->size() < 2) throw BenchError("remap maps were not created");
      texcv::remap(a, b, (*maps)[0], (*maps)[1], sampling(Interp::linear, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiRemap";
      s.peer = [maps, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        if (!maps || maps->size() < 2) throw BenchError("remap maps were not created");
        const ImageView& mx = (*maps)[0];
        const ImageView& my = (*maps)[1];
        return warn_note(npp_check(
            npp->remap(a.data, nsize(a), nstep(a), nrect(a), static_cast<const Npp32f*>(mx.data),
                       nstep(mx), static_cast<const Npp32f*>(my.data), nstep(my), b.data, nstep(b),
                       nsize(b), NPPI_INTER_LINEAR, ctx),
            "nppiRemap"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // flip: horizontal (left-right) and vertical (top-bottom).
  for (texcv::FlipCode code : {texcv::FlipCode::horizontal, texcv::FlipCode::vertical}) {
    if (!cfg.full_ops && code != texcv::FlipCode::horizontal) continue;
    OpSpec s;
    s.op = "flip";
    s.params = texcv::to_string(code);
    s.has_paths = false;
    s.interp = Interp::nearest;
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [code](const ImageView& a, const ImageView& b, Path, Precision, cudaStream_t st) {
      texcv::flip(a, b, code, static_cast<void*>(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      // NPP names the axis of reflection: a left-right mirror flips about the vertical axis.
      const NppiAxis axis =
          code == texcv::FlipCode::horizontal ? NPP_VERTICAL_AXIS : NPP_HORIZONTAL_AXIS;
      s.peer_name = "nppiMirror";
      s.peer = [axis, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        return warn_note(npp_check(
            npp->mirror(a.data, nstep(a), b.data, nstep(b), nsize(a), axis, ctx), "nppiMirror"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // crop: the centre half (a copy of a w/2 x h/2 rectangle).
  if (cfg.full_ops) {
    const texcv::Rect r{w / 4, h / 4, w / 2, h / 2};
    OpSpec s;
    s.op = "crop";
    s.params = "centre half";
    s.has_paths = false;
    s.interp = Interp::nearest;
    s.dst_w = r.width;
    s.dst_h = r.height;
    s.crop_bytes = true;
    s.texcv = [r](const ImageView& a, const ImageView& b, Path, Precision, cudaStream_t st) {
      texcv::crop(a, b, r, static_cast<void*>(st));
    };
    s.peer_name = "cudaMemcpy2DAsync";
    s.peer = [r](const ImageView& a, const ImageView& b, cudaStream_t st) {
      const unsigned char* p = static_cast<const unsigned char*>(a.data) +
                               a.pitch * static_cast<std::size_t>(r.y) +
                               a.pixel_bytes() * static_cast<std::size_t>(r.x);
      BENCH_CUDA(cudaMemcpy2DAsync(b.data, b.pitch, p, a.pitch, b.row_bytes(),
                                   static_cast<std::size_t>(b.height), cudaMemcpyDeviceToDevice,
                                   st));
      return std::string();
    };
    specs.push_back(std::move(s));
  }
  return specs;
}

void Runner::run_config(const Config& cfg) {
  const std::string size = std::to_string(cfg.width) + "x" + std::to_string(cfg.height);
  std::printf("\n== %s: %s %s x%d (%.0f MB per image)\n", cfg.name.c_str(), size.c_str(),
              tname(cfg.type), cfg.channels,
              static_cast<double>(cfg.width) * cfg.height * cfg.channels * esize(cfg.type) / 1e6);
  std::fflush(stdout);

  Row base;
  base.config = cfg.name;
  base.type = tname(cfg.type);
  base.channels = cfg.channels;
  base.width = cfg.width;
  base.height = cfg.height;

  auto setup_failed = [&](const std::string& what) {
    Row r = base;
    r.op = "setup";
    r.impl = "-";
    r.status = "error";
    r.note = what;
    add(r);
  };

  if (context_lost) {
    setup_failed("CUDA context lost earlier: " + lost_reason);
    return;
  }

  // Inputs: random smooth content on the host, copied to every input buffer through texcv.
  ImageSet in;
  double in_bytes = 0;
  try {
    HostBuffer host(cfg.width, cfg.height, cfg.channels, cfg.type);
    fill_host(host.view, 1234u + static_cast<std::uint32_t>(cfg.channels * 7 + cfg.width));
    in_bytes = view_bytes(host.view);
    in = make_set(cfg.width, cfg.height, cfg.channels, cfg.type, buffers_for(in_bytes));
    for (auto& im : in.images) texcv::copy(host.view, im.view(), static_cast<void*>(stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
  } catch (const std::exception& e) {
    setup_failed(std::string("inputs: ") + e.what());
    cudaGetLastError();
    if (!context_alive()) {
      context_lost = true;
      lost_reason = "setup of " + cfg.name;
    }
    return;
  }

  // Times one device-to-device copy of the input image per call (copy(src, dst)).
  auto time_copy = [&](const char* params, const auto& copy) {
    Row r = base;
    r.op = "copy";
    r.params = params;
    r.impl = "cuda";
    r.dst_width = cfg.width;
    r.dst_height = cfg.height;
    r.bytes = 2 * in_bytes;
    try {
      ImageSet out = make_set(cfg.width, cfg.height, cfg.channels, cfg.type, in.size());
      timed(
          r, [&](int i) { copy(in[i], out[i]); }, 0);
    } catch (const std::exception& e) {
      r.status = "error";
      r.note = e.what();
    }
    return r;
  };
  // cudaMemcpy2DAsync, for reference (slower than a plain copy kernel on the H200, so it is not
  // the floor).
  add(time_copy("cudaMemcpy2D", [&](const ImageView& a, const ImageView& b) {
    BENCH_CUDA(cudaMemcpy2DAsync(b.data, b.pitch, a.data, a.pitch, a.row_bytes(),
                                 static_cast<std::size_t>(a.height), cudaMemcpyDeviceToDevice,
                                 stream));
  }));
  // The copy floor: a 16-byte-per-thread copy kernel, same buffers.
  double copy_gbps = 0;
  {
    Row r = time_copy("floor d2d", [&](const ImageView& a, const ImageView& b) {
      BENCH_CUDA(bench_copy_kernel(a.data, a.pitch, b.data, b.pitch, a.row_bytes(),
                                   static_cast<std::size_t>(a.height), stream));
    });
    if (r.status == "ok") {
      copy_gbps = r.gbps;
      r.floor_ms = r.median_ms;
      r.pct_copy = 100;
    }
    add(r);
  }

  // remap's maps (a rotation by 30 degrees), only when remap is wanted.
  auto maps = std::make_shared<ImageSet>();
  {
    OpSpec probe;
    probe.op = "remap";
    probe.params = "rot30 maps linear";
    if (wanted(probe) && !context_lost) {
      try {
        HostBuffer mx(cfg.width, cfg.height, 1, ElemType::f32);
        HostBuffer my(cfg.width, cfg.height, 1, ElemType::f32);
        const auto inv = invert_affine(
            texcv::rotation_matrix(cfg.width, cfg.height, cfg.width, cfg.height, 30.0));
        for (int y = 0; y < cfg.height; ++y) {
          float* px = mx.view.row<float>(y);
          float* py = my.view.row<float>(y);
          for (int x = 0; x < cfg.width; ++x) {
            px[x] = static_cast<float>(inv[0] * x + inv[1] * y + inv[2]);
            py[x] = static_cast<float>(inv[3] * x + inv[4] * y + inv[5]);
          }
        }
        *maps = make_set(cfg.width, cfg.height, 1, ElemType::f32, 2);
        texcv::copy(mx.view, maps->images[0].view(), static_cast<void*>(stream));
        texcv::copy(my.view, maps->images[1].view(), static_cast<void*>(stream));
        BENCH_CUDA(cudaStreamSynchronize(stream));
      } catch (const std::exception& e) {
        std::printf("   (remap maps could not be made: %s)\n", e.what());
        maps->images.clear();
      }
    }
  }

#if defined(TEXCV_BENCH_HAS_NPP)
  std::optional<NppTable> table;
  if (npp) table = npp_table(cfg.type, cfg.channels);
  std::vector<OpSpec> specs = make_specs(cfg, in[0], maps, table, npp_ctx);
#else
  std::vector<OpSpec> specs = make_specs(cfg, in[0], maps);
#endif

  for (OpSpec& spec : specs) {
    if (!wanted(spec)) continue;
    Row opbase = base;
    opbase.op = spec.op;
    opbase.params = spec.params;
    opbase.dst_width = spec.dst_w;
    opbase.dst_height = spec.dst_h;
    const double out_bytes =
        static_cast<double>(spec.dst_w) * spec.dst_h * cfg.channels * esize(cfg.type);
    opbase.bytes = (spec.crop_bytes ? out_bytes : in_bytes) + out_bytes + spec.extra_bytes;

    ImageSet out;
    try {
      if (context_lost) throw BenchError("CUDA context lost earlier: " + lost_reason);
      out = make_set(spec.dst_w, spec.dst_h, cfg.channels, cfg.type, buffers_for(out_bytes));
    } catch (const std::exception& e) {
      Row r = opbase;
      r.impl = "-";
      r.status = "error";
      r.note = std::string("outputs: ") + e.what();
      add(r);
      continue;
    }

    std::optional<Sample> ref;  // the first texcv path that ran: the others compare with it
    std::string ref_name;
    const std::vector<Path> paths =
        spec.has_paths
            ? std::vector<Path>{Path::global, Path::texture, Path::texture_filter, Path::automatic}
            : std::vector<Path>{Path::automatic};
    for (Path p : paths) {
      Row r = opbase;
      r.impl = "texcv";
      r.path = spec.has_paths ? path_name(p) : "-";
      // Hardware filtering is the `fast` precision; the other paths keep the default.
      const Precision pr = p == Path::texture_filter ? Precision::fast : Precision::automatic;
      if (p == Path::automatic && spec.has_paths) r.auto_choice = auto_choice(spec, in[0]);
      timed(
          r, [&](int i) { spec.texcv(in[i], out[i], p, pr, stream); }, copy_gbps);
      if (r.status == "ok") {
        // One more call on poisoned output (NaN for f32), then a sample to compare.
        try {
          poison(out[0], stream, 0xFF);
          spec.texcv(in[0], out[0], p, pr, stream);
          BENCH_CUDA(cudaStreamSynchronize(stream));
          Sample s = download_sample(out[0]);
          if (!ref) {
            ref = std::move(s);
            ref_name = "texcv " + r.path;
            if (cfg.type == ElemType::f32) {
              const DiffResult self = compare(*ref, *ref);
              if (self.nonfinite > 0) {
                r.nonfinite = self.nonfinite;
                r.note = "UNWRITTEN: " + std::to_string(self.nonfinite) +
                         " sampled values still NaN poison";
              }
            }
          } else {
            const DiffResult d = compare(s, *ref);
            r.diff_vs = ref_name;
            r.diff_mean = d.mean;
            r.diff_max = d.max;
            r.nonfinite = d.nonfinite;
            if (d.nonfinite > 0)
              r.note = "UNWRITTEN/NaN: " + std::to_string(d.nonfinite) + " sampled values";
            else
              r.note = "max diff " + jnum(d.max) + " vs " + ref_name;
          }
        } catch (const std::exception& e) {
          r.note = std::string("check failed: ") + shorten(e.what(), 60);
          cudaGetLastError();
        }
      }
      add(r);
    }

    // The peer, same buffers.
    Row r = opbase;
    r.impl = spec.peer_name.rfind("npp", 0) == 0 ? "npp" : "cuda";
    r.path = "-";
    if (!spec.peer) {
      r.impl = "npp";
      r.status = "n/a";
      r.note = npp ? "no NPP function for this type" : "NPP not available in this build/run";
      add(r);
      continue;
    }
    r.params = spec.params;
    std::string warn;
    timed(
        r, [&](int i) { warn = spec.peer(in[i], out[i], stream); }, copy_gbps);
    if (r.status == "ok") {
      r.note = spec.peer_name + (warn.empty() ? "" : " (" + warn + ")");
      if (ref) {
        try {
          poison(out[0], stream, spec.peer_prefill);
          spec.peer(in[0], out[0], stream);
          BENCH_CUDA(cudaStreamSynchronize(stream));
          const DiffResult d = compare(download_sample(out[0]), *ref);
          r.diff_vs = ref_name;
          r.diff_mean = d.mean;
          r.diff_max = d.max;
          r.note += ", max diff " + jnum(d.max) + " vs " + ref_name;
        } catch (const std::exception& e) {
          r.note += std::string(", check failed: ") + shorten(e.what(), 50);
          cudaGetLastError();
        }
      }
    } else {
      r.note = spec.peer_name + ": " + r.note;
    }
    add(r);
  }
  // Drop the cached texture objects while their buffers still exist (they are freed next).
  try {
    texcv::clear_texture_cache();
  } catch (const std::exception& e) {
    std::printf("   clear_texture_cache: %s\n", e.what());
  }
}

// The compact table printed last: one line per op variant.
void print_summary(const std::vector<Row>& rows) {
  std::printf(
      "\n== summary (median ms; %%copy of the best texcv path; diff = mean |npp - texcv|)\n");
  std::printf("%-6s %-16s %-18s %9s %9s %9s %9s %-16s %9s %6s %8s\n", "config", "op", "params",
              "global", "texture", "tex_filt", "auto", "(auto chose)", "peer", "%copy", "diff");
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Row*>> groups;
  for (const Row& r : rows) {
    const std::string key = r.config + "|" + r.op + "|" + r.params;
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&r);
  }
  auto cell = [](const Row* r) -> std::string {
    if (!r) return "";
    if (r->status == "ok") {
      char b[32];
      std::snprintf(b, sizeof b, "%.4f", r->median_ms);
      return b;
    }
    return r->status;
  };
  for (const std::string& key : order) {
    const auto& g = groups[key];
    const Row* by_path[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};  // g t tf auto peer
    double best_pct = 0;
    for (const Row* r : g) {
      if (r->impl == "texcv") {
        if (r->path == "global") by_path[0] = r;
        if (r->path == "texture") by_path[1] = r;
        if (r->path == "texture_filter") by_path[2] = r;
        if (r->path == "auto" || r->path == "-") by_path[3] = r;
        if (r->status == "ok") best_pct = std::max(best_pct, r->pct_copy);
      } else {
        by_path[4] = r;
        if (r->op == "copy" && r->status == "ok") best_pct = 100;
      }
    }
    const Row* any = g.front();
    char diff[32] = "";
    if (by_path[4] && by_path[4]->diff_mean >= 0)
      std::snprintf(diff, sizeof diff, "%.3g", by_path[4]->diff_mean);
    std::string chose = by_path[3] ? by_path[3]->auto_choice : "";
    std::printf("%-6s %-16s %-18s %9s %9s %9s %9s %-16s %9s %5.1f%% %8s\n", any->config.c_str(),
                any->op.c_str(), any->params.c_str(), cell(by_path[0]).c_str(),
                cell(by_path[1]).c_str(), cell(by_path[2]).c_str(), cell(by_path[3]).c_str(),
                chose.c_str(), cell(by_path[4]).c_str(), best_pct, diff);
  }
  int ok = 0, na = 0, err = 0, skipped = 0;
  for (const Row& r : rows) {
    if (r.status == "ok")
      ++ok;
    else if (r.status == "n/a")
      ++na;
    else if (r.status == "error")
      ++err;
    else
      ++skipped;
  }
  std::printf("rows: %d ok, %d n/a, %d error, %d skipped\n", ok, na, err, skipped);
  for (const Row& r : rows)
    if (r.status == "error")
      std::printf("  error: %s %s %s %s %s: %s\n", r.config.c_str(), r.op.c_str(), r.params.c_str(),
                  r.impl.c_str(), r.path.c_str(), shorten(r.note, 90).c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Runner run;
  try {
    run.opt = parse_args(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_geometry: %s\n", e.what());
    usage(stderr);
    return 1;
  }
  std::vector<Config> configs;
  for (const Config& c : all_configs(run.opt.quick)) {
    bool take = run.opt.configs.empty();
    for (auto& n : run.opt.configs) take = take || n == c.name;
    if (take) configs.push_back(c);
  }
  if (run.opt.list) {
    for (const Config& c : configs)
      std::printf("%s %dx%d %s x%d %s\n", c.name.c_str(), c.width, c.height, tname(c.type),
                  c.channels, c.full_ops ? "all ops" : "reduced op set");
    return 0;
  }
  if (run.opt.selftest) {
    run.meta.strings.push_back({"gpu", "selftest \"quoted\" \\ name"});
    run.meta.numbers.push_back({"reps", run.opt.reps});
    const char* paths[] = {"global", "texture", "texture_filter", "auto"};
    for (const Config& c : configs) {
      Row copy;
      copy.config = c.name;
      copy.op = "copy";
      copy.params = "floor d2d";
      copy.impl = "cuda";
      copy.type = tname(c.type);
      copy.channels = c.channels;
      copy.width = c.width;
      copy.height = c.height;
      copy.status = "ok";
      copy.median_ms = 0.131;
      copy.gbps = 4100;
      copy.pct_copy = 100;
      run.rows.push_back(copy);
      for (int k = 0; k < 4; ++k) {
        Row r = copy;
        r.op = "rotate";
        r.params = "30deg linear";
        r.impl = "texcv";
        r.path = paths[k];
        r.median_ms = 0.2 + 0.01 * k;
        r.pct_copy = 60;
        if (k == 3) r.auto_choice = "texture_filter";
        if (k == 1 && c.channels == 3) {
          r.status = "n/a";
          r.note = "path texture needs a texture; got 3 channels, expected 1 or 4 channels";
        }
        run.rows.push_back(r);
      }
      Row n = copy;
      n.op = "rotate";
      n.params = "30deg linear";
      n.impl = "npp";
      n.median_ms = 0.3;
      n.diff_mean = 0.25;
      n.diff_max = 2;
      n.diff_vs = "texcv global";
      n.note = "nppiWarpAffine, max diff 2 vs texcv global";
      run.rows.push_back(n);
    }
    for (const Row& r : run.rows) print_row(r);
    write_json(run.opt.out, run.meta, run.rows);
    write_csv(run.opt.csv, run.rows);
    print_summary(run.rows);
    return 0;
  }
  if (configs.empty()) {
    std::fprintf(stderr, "bench_geometry: no configuration matches --config\n");
    return 1;
  }

  int ndev = 0;
  const cudaError_t derr = cudaGetDeviceCount(&ndev);
  if (derr != cudaSuccess || ndev == 0) {
    std::fprintf(stderr, "bench_geometry: no CUDA GPU found (%s); nothing to measure\n",
                 derr != cudaSuccess ? cudaGetErrorString(derr) : "0 devices");
    return 2;
  }

  try {
    cudaDeviceProp prop{};
    BENCH_CUDA(cudaGetDeviceProperties(&prop, 0));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    BENCH_CUDA(cudaStreamCreateWithFlags(&run.stream, cudaStreamNonBlocking));
    run.timer = std::make_unique<Timer>(run.stream, std::max(run.opt.reps, 1));

    run.meta.strings.push_back({"gpu", prop.name});
    run.meta.strings.push_back({"texcv_version", texcv::build_info().version});
    run.meta.strings.push_back({"mode", run.opt.quick ? "quick" : "full"});
    if (const char* c = std::getenv("TEXCV_COMMIT")) run.meta.strings.push_back({"commit", c});
    run.meta.numbers.push_back({"sm_count", prop.multiProcessorCount});
    run.meta.numbers.push_back({"l2_bytes", prop.l2CacheSize});
    run.meta.numbers.push_back({"cuda_driver", drv});
    run.meta.numbers.push_back({"cuda_runtime", rt});
    run.meta.numbers.push_back({"reps", run.opt.reps});
    run.meta.numbers.push_back({"warmup", run.opt.warmup});
    std::string npp_version = "not built";
#if defined(TEXCV_BENCH_HAS_NPP)
    if (!run.opt.no_npp) {
      const NppLibraryVersion* v = nppGetLibVersion();
      npp_version = v ? std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                            std::to_string(v->build)
                      : "?";
      run.npp_ctx = npp_context(run.stream);
      run.npp = true;
    } else {
      npp_version = "disabled (--no-npp)";
    }
#endif
    run.meta.strings.push_back({"npp", npp_version});
    std::printf("bench_geometry: %s, %d SMs, L2 %d MB, driver %d, runtime %d, NPP %s\n", prop.name,
                prop.multiProcessorCount, prop.l2CacheSize >> 20, drv, rt, npp_version.c_str());
    std::printf(
        "method: CUDA events per call, %d warm-up, median of %d; buffers rotate so "
        ">= 256 MB is touched between reuses; path auto rule %s\n",
        run.opt.warmup, run.opt.reps,
#if defined(TEXCV_BENCH_HAS_PATH_RULE)
        "exposed"
#else
        "not exposed (auto's choice not printed)"
#endif
    );
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_geometry: setup failed: %s\n", e.what());
    return 1;
  }

  print_header();
  for (const Config& cfg : configs) {
    try {
      run.run_config(cfg);
    } catch (const std::exception& e) {  // should not happen: rows catch their own errors
      std::printf("   config %s aborted: %s\n", cfg.name.c_str(), e.what());
      cudaGetLastError();
    }
  }
  write_json(run.opt.out, run.meta, run.rows);
  write_csv(run.opt.csv, run.rows);
  print_summary(run.rows);
  if (run.stream) cudaStreamDestroy(run.stream);
  return 0;
}
