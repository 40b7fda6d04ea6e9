// The shared benchmark harness (bench/harness.hpp says what it does and how).
#include "bench/harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>

#include "bench/copy_floor.hpp"
#include "texcv/error.hpp"
#include "texcv/runtime.hpp"

namespace texcv_bench {

namespace {
std::string& program_name() {
  static std::string name = "bench";
  return name;
}
}  // namespace

void set_program(const std::string& name) {
  program_name() = name;
}
const std::string& program() {
  return program_name();
}

// ---------------------------------------------------------------------------------------------
// Errors

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

std::string shorten(std::string s, std::size_t n) {
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

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void usage(FILE* f) {
  const std::string pad(7 + program().size() + 1, ' ');
  std::fprintf(f,
               "usage: %s [--quick] [--filter S[,S...]] [--config NAME[,NAME...]]\n"
               "%s[--out FILE.json] [--csv FILE.csv] [--reps N] [--warmup N]\n"
               "%s[--budget SECONDS] [--no-npp] [--list]\n"
               "  --quick    small sizes and 5 reps (a smoke test)\n"
               "  --filter   run only ops whose 'op params' contains one of the substrings\n"
               "  --config   run only these configurations (see --list)\n"
               "  --budget   stop starting new rows after this many seconds (rows say so)\n",
               program().c_str(), pad.c_str(), pad.c_str());
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

std::vector<Config> select_configs(const std::vector<Config>& all, const Options& o) {
  std::vector<Config> configs;
  for (const Config& c : all) {
    bool take = o.configs.empty();
    for (auto& n : o.configs) take = take || n == c.name;
    if (take) configs.push_back(c);
  }
  return configs;
}

void print_configs(const std::vector<Config>& configs) {
  for (const Config& c : configs)
    std::printf("%s %dx%d %s x%d %s\n", c.name.c_str(), c.width, c.height, tname(c.type),
                c.channels, c.full_ops ? "all ops" : "reduced op set");
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

// ---------------------------------------------------------------------------------------------
// Results

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

void write_json(const std::string& path, const Meta& meta, const std::vector<Row>& rows) {
  if (path.empty()) return;
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", program().c_str(), tmp.c_str());
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

Timer::Timer(cudaStream_t s, int max_reps) : stream_(s) {
  events_.resize(2 * static_cast<std::size_t>(max_reps));
  for (auto& e : events_) BENCH_CUDA(cudaEventCreate(&e));
}

Timer::~Timer() {
  for (auto& e : events_)
    if (e) cudaEventDestroy(e);
}

Timing Timer::run(int warmup, int reps, const std::function<void(int)>& fn) {
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

// ---------------------------------------------------------------------------------------------
// Data

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

HostBuffer::HostBuffer(int w, int h, int c, ElemType t) {
  view.width = w;
  view.height = h;
  view.channels = c;
  view.type = t;
  view.pitch = static_cast<std::size_t>(w) * c * esize(t);
  view.location = texcv::Location::host;
  bytes.resize(view.pitch * static_cast<std::size_t>(h));
  view.data = bytes.data();
}

int buffers_for(double bytes_each, int max_buffers) {
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
double Sample::at(int r, std::size_t i) const {
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

DiffResult compare(const Sample& a, const Sample& b, int margin) {
  DiffResult d;
  if (a.bytes.size() != b.bytes.size() || a.rows != b.rows) return {-1, -1, 0};
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

std::shared_ptr<void> device_alloc(std::size_t bytes) {
  void* ptr = nullptr;
  BENCH_CUDA(cudaMalloc(&ptr, std::max<std::size_t>(bytes, 1)));
  return std::shared_ptr<void>(ptr, [](void* q) { cudaFree(q); });
}

std::shared_ptr<void> device_upload(const void* host, std::size_t bytes) {
  auto d = device_alloc(bytes);
  BENCH_CUDA(cudaMemcpy(d.get(), host, bytes, cudaMemcpyHostToDevice));
  return d;
}

// ---------------------------------------------------------------------------------------------
// NPP

#if defined(TEXCV_BENCH_HARNESS_NPP)
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

std::string npp_warn_note(NppStatus st) {
  return st > 0 ? "NPP warning " + std::to_string(st) : std::string();
}

std::string npp_version() {
  const NppLibraryVersion* v = nppGetLibVersion();
  return v ? std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                 std::to_string(v->build)
           : "?";
}
#endif

// ---------------------------------------------------------------------------------------------
// The run

double RunnerBase::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool RunnerBase::over_budget() const {
  return opt.budget_s > 0 && elapsed() > opt.budget_s;
}

bool RunnerBase::wanted(const std::string& op, const std::string& params) const {
  if (opt.filters.empty()) return true;
  const std::string key = op + " " + params;
  for (auto& f : opt.filters)
    if (key.find(f) != std::string::npos) return true;
  return false;
}

void RunnerBase::add(Row r) {
  print_row(r);
  rows.push_back(std::move(r));
  write_json(opt.out, meta, rows);
}

void RunnerBase::timed(Row& r, const std::function<void(int)>& fn, double copy_gbps) {
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
    lost_reason = r.op + " " + r.params + " " + r.impl + " " + r.path + ": " + shorten(r.note, 80);
  }
}

int RunnerBase::setup(const std::string& auto_rule, bool with_npp) {
  int ndev = 0;
  const cudaError_t derr = cudaGetDeviceCount(&ndev);
  if (derr != cudaSuccess || ndev == 0) {
    std::fprintf(stderr, "%s: no CUDA GPU found (%s); nothing to measure\n", program().c_str(),
                 derr != cudaSuccess ? cudaGetErrorString(derr) : "0 devices");
    return 2;
  }

  try {
    cudaDeviceProp prop{};
    BENCH_CUDA(cudaGetDeviceProperties(&prop, 0));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    timer = std::make_unique<Timer>(stream, std::max(opt.reps, 1));

    meta.strings.push_back({"gpu", prop.name});
    meta.strings.push_back({"texcv_version", texcv::build_info().version});
    meta.strings.push_back({"mode", opt.quick ? "quick" : "full"});
    if (const char* c = std::getenv("TEXCV_COMMIT")) meta.strings.push_back({"commit", c});
    meta.numbers.push_back({"sm_count", prop.multiProcessorCount});
    meta.numbers.push_back({"l2_bytes", prop.l2CacheSize});
    meta.numbers.push_back({"cuda_driver", drv});
    meta.numbers.push_back({"cuda_runtime", rt});
    meta.numbers.push_back({"reps", opt.reps});
    meta.numbers.push_back({"warmup", opt.warmup});
    std::string npp_text = "not built";
#if defined(TEXCV_BENCH_HARNESS_NPP)
    if (!with_npp) {
      npp_text = "not built";
    } else if (!opt.no_npp) {
      npp_text = npp_version();
      npp_ctx = npp_context(stream);
      npp = true;
    } else {
      npp_text = "disabled (--no-npp)";
    }
#else
    (void)with_npp;
#endif
    meta.strings.push_back({"npp", npp_text});
    std::printf("%s: %s, %d SMs, L2 %d MB, driver %d, runtime %d, NPP %s\n", program().c_str(),
                prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, drv, rt,
                npp_text.c_str());
    std::printf(
        "method: CUDA events per call, %d warm-up, median of %d; buffers rotate so "
        ">= 256 MB is touched between reuses; path auto rule %s\n",
        opt.warmup, opt.reps, auto_rule.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: setup failed: %s\n", program().c_str(), e.what());
    return 1;
  }
  return 0;
}

Row RunnerBase::base_row(const Config& cfg) {
  Row base;
  base.config = cfg.name;
  base.type = tname(cfg.type);
  base.channels = cfg.channels;
  base.width = cfg.width;
  base.height = cfg.height;
  return base;
}

void RunnerBase::setup_failed(const Row& base, const std::string& what) {
  Row r = base;
  // Strings built then moved in: GCC 12 warns (-Wrestrict, a false positive) on assigning these
  // literals here when NPP is linked.
  r.op = std::string("setup");
  r.impl = std::string("-");
  r.status = std::string("error");
  r.note = what;
  add(r);
}

bool RunnerBase::make_inputs(const Row& base, int w, int h, int c, ElemType t, std::uint32_t seed,
                             ImageSet& in, double& in_bytes) {
  try {
    HostBuffer host(w, h, c, t);
    fill_host(host.view, seed);
    in_bytes = view_bytes(host.view);
    in = make_set(w, h, c, t, buffers_for(in_bytes));
    for (auto& im : in.images) texcv::copy(host.view, im.view(), static_cast<void*>(stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
  } catch (const std::exception& e) {
    setup_failed(base, std::string("inputs: ") + e.what());
    cudaGetLastError();
    if (!context_alive()) {
      context_lost = true;
      lost_reason = "setup of " + base.config;
    }
    return false;
  }
  return true;
}

bool RunnerBase::make_outputs(const Row& opbase, int w, int h, int c, ElemType t, double out_bytes,
                              ImageSet& out) {
  try {
    if (context_lost) throw BenchError("CUDA context lost earlier: " + lost_reason);
    out = make_set(w, h, c, t, buffers_for(out_bytes));
  } catch (const std::exception& e) {
    Row r = opbase;
    r.impl = "-";
    r.status = "error";
    r.note = std::string("outputs: ") + e.what();
    add(r);
    return false;
  }
  return true;
}

double RunnerBase::time_copy_floor(const Row& base, const ImageSet& in, double in_bytes) {
  const ImageView& v0 = in[0];
  // Times one device-to-device copy of the input image per call (copy(src, dst)).
  auto time_copy = [&](const char* params, const auto& copy) {
    Row r = base;
    r.op = "copy";
    r.params = params;
    r.impl = "cuda";
    r.dst_width = v0.width;
    r.dst_height = v0.height;
    r.bytes = 2 * in_bytes;
    try {
      ImageSet out = make_set(v0.width, v0.height, v0.channels, v0.type, in.size());
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
  return copy_gbps;
}

void RunnerBase::run_variants(const Row& opbase, const ImageSet& in, const ImageSet& out,
                              const std::vector<Variant>& variants, const std::vector<Peer>& peers,
                              double copy_gbps, const std::string& no_peer, int margin) {
  std::optional<Sample> ref;  // the first texcv variant that ran: the others compare with it
  std::string ref_name;
  const ElemType out_type = out[0].type;
  for (const Variant& v : variants) {
    Row r = opbase;
    r.impl = "texcv";
    r.path = v.path;
    r.auto_choice = v.auto_choice;
    timed(
        r, [&](int i) { v.run(in[i], out[i], stream); }, copy_gbps);
    if (r.status == "ok") {
      // One more call on poisoned output (NaN for f32), then a sample to compare.
      try {
        poison(out[0], stream, 0xFF);
        v.run(in[0], out[0], stream);
        BENCH_CUDA(cudaStreamSynchronize(stream));
        Sample s = download_sample(out[0]);
        if (!ref) {
          ref = std::move(s);
          ref_name = "texcv " + r.path;
          if (out_type == ElemType::f32) {
            const DiffResult self = compare(*ref, *ref, margin);
            if (self.nonfinite > 0) {
              r.nonfinite = self.nonfinite;
              r.note = "UNWRITTEN: " + std::to_string(self.nonfinite) +
                       " sampled values still NaN poison";
            }
          }
        } else {
          const DiffResult d = compare(s, *ref, margin);
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

  // The peers, same buffers.
  if (peers.empty()) {
    Row r = opbase;
    r.impl = "npp";
    r.path = "-";
    r.status = "n/a";
    r.note = no_peer;
    add(r);
    return;
  }
  for (const Peer& p : peers) {
    Row r = opbase;
    r.impl = p.impl;
    r.path = p.path;
    std::string warn;
    timed(
        r, [&](int i) { warn = p.run(in[i], out[i], stream); }, copy_gbps);
    if (r.status == "ok") {
      r.note = p.name + (warn.empty() ? "" : " (" + warn + ")");
      if (ref && p.comparable) {
        try {
          poison(out[0], stream, p.prefill);
          p.run(in[0], out[0], stream);
          BENCH_CUDA(cudaStreamSynchronize(stream));
          const DiffResult d = compare(download_sample(out[0]), *ref, margin);
          r.diff_vs = ref_name;
          r.diff_mean = d.mean;
          r.diff_max = d.max;
          r.note += ", max diff " + jnum(d.max) + " vs " + ref_name;
        } catch (const std::exception& e) {
          r.note += std::string(", check failed: ") + shorten(e.what(), 50);
          cudaGetLastError();
        }
      }
      if (!p.caveat.empty()) r.note += " [" + p.caveat + "]";
    } else {
      r.note = p.name + ": " + r.note;
    }
    add(r);
  }
}

void RunnerBase::clear_textures() {
  try {
    texcv::clear_texture_cache();
  } catch (const std::exception& e) {
    std::printf("   clear_texture_cache: %s\n", e.what());
  }
}

void RunnerBase::finish(const std::vector<std::pair<std::string, std::string>>& summary_paths) {
  write_json(opt.out, meta, rows);
  write_csv(opt.csv, rows);
  print_summary(rows, summary_paths);
  if (stream) cudaStreamDestroy(stream);
  stream = nullptr;
}

// ---------------------------------------------------------------------------------------------
// Summary

void print_summary(const std::vector<Row>& rows,
                   const std::vector<std::pair<std::string, std::string>>& paths) {
  std::printf(
      "\n== summary (median ms; %%copy of the best texcv path; diff = mean |npp - texcv|)\n");
  std::printf("%-6s %-16s %-18s", "config", "op", "params");
  for (const auto& p : paths) std::printf(" %9s", p.second.c_str());
  std::printf(" %9s %-16s %9s %6s %8s\n", "auto", "(auto chose)", "peer", "%copy", "diff");
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
    std::vector<const Row*> by_path(paths.size(), nullptr);
    const Row* auto_row = nullptr;
    const Row* peer = nullptr;
    double best_pct = 0;
    for (const Row* r : g) {
      if (r->impl == "texcv") {
        for (std::size_t k = 0; k < paths.size(); ++k)
          if (r->path == paths[k].first) by_path[k] = r;
        if (r->path == "auto" || r->path == "-") auto_row = r;
        if (r->status == "ok") best_pct = std::max(best_pct, r->pct_copy);
      } else {
        if (r->path == "-") peer = r;
        if (r->op == "copy" && r->status == "ok") best_pct = 100;
      }
    }
    const Row* any = g.front();
    char diff[32] = "";
    if (peer && peer->diff_mean >= 0) std::snprintf(diff, sizeof diff, "%.3g", peer->diff_mean);
    std::string chose = auto_row ? auto_row->auto_choice : "";
    std::printf("%-6s %-16s %-18s", any->config.c_str(), any->op.c_str(), any->params.c_str());
    for (const Row* r : by_path) std::printf(" %9s", cell(r).c_str());
    std::printf(" %9s %-16s %9s %5.1f%% %8s\n", cell(auto_row).c_str(), chose.c_str(),
                cell(peer).c_str(), best_pct, diff);
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

}  // namespace texcv_bench
