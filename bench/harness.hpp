// The harness that bench_geometry and bench_filters share: options, configurations, result rows
// and their JSON/CSV writers, the CUDA-event timer with buffer rotation, input generation, output
// poisoning and sampled comparison, the copy floor, NPP stream contexts and the final summary.
//
// Method (docs/performance.md "What is measured"): CUDA events around each call on one
// non-blocking stream, a warm-up, the median of --reps calls; the calls rotate over several input
// and output buffers so that at least kTouchBytes (256 MB, over 4x the H200's 60 MB L2) is
// touched between two uses of one buffer. Bytes counted: each input read once plus each output
// written once (plus what an op adds, such as remap's maps). GB/s = bytes / median; %copy = the
// copy floor's time for those bytes over the op's time, the floor being a 16-byte-per-thread
// device-to-device copy kernel (bench/copy_floor.cu) on the same buffers, in the same process.
//
// NPP: TEXCV_BENCH_HARNESS_NPP (set by bench/CMakeLists.txt on the harness and everything that
// links it, when NPP's core library is found) gives the stream context helpers and
// RunnerBase::npp_ctx; a benchmark's own TEXCV_BENCH_HAS_NPP says whether its peers are built.
//
// A failing call never ends a run: texcv::Error Unsupported / InvalidArgument / NotCompiled make
// a row "n/a" with the library's reason, any other failure a row "error"; a sticky CUDA error
// (lost context) makes every later row "skipped" with the reason.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

#if defined(TEXCV_BENCH_HARNESS_NPP)
#include <nppcore.h>
#include <nppdefs.h>
#endif

namespace texcv_bench {

using texcv::ElemType;
using texcv::ImageView;
using texcv::Path;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// Errors

struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define BENCH_CUDA(call)                                                                           \
  do {                                                                                             \
    const cudaError_t bench_err_ = (call);                                                         \
    if (bench_err_ != cudaSuccess)                                                                 \
      throw ::texcv_bench::BenchError(std::string(#call) + ": " + cudaGetErrorString(bench_err_)); \
  } while (0)

// True when the CUDA context still works (a sticky error such as an illegal address ruins it
// for the rest of the process).
bool context_alive();
std::string shorten(std::string s, std::size_t n = 60);
// "rotate: 3 channels have no texture format; got ..." -> "3 channels have no texture format..."
std::string strip_op(const std::string& msg);

// The program's name in messages ("bench_geometry: cannot write ...").
void set_program(const std::string& name);
const std::string& program();

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

std::vector<std::string> split(const std::string& s);
void usage(FILE* f);
// Throws BenchError for a bad option; --help prints usage() and exits 0.
Options parse_args(int argc, char** argv);
// The configurations named by --config (all when none is named), in the order of `all`.
std::vector<Config> select_configs(const std::vector<Config>& all, const Options& o);
// --list: one line per configuration.
void print_configs(const std::vector<Config>& configs);

std::size_t esize(ElemType t);
const char* tname(ElemType t);
std::string path_name(Path p);

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

std::string json_escape(const std::string& s);
std::string jnum(double v);

struct Meta {
  std::vector<std::pair<std::string, std::string>> strings;
  std::vector<std::pair<std::string, double>> numbers;
};

void write_json(const std::string& path, const Meta& meta, const std::vector<Row>& rows);
void write_csv(const std::string& path, const std::vector<Row>& rows);
void print_header();
void print_row(const Row& r);

// The compact table printed last: one line per op variant, texcv's median ms on each path of
// `paths` (path name, column header), then auto (and what it chose), the peer (the last
// non-texcv row whose path is "-"), the best texcv %copy and the peer's mean difference.
void print_summary(const std::vector<Row>& rows,
                   const std::vector<std::pair<std::string, std::string>>& paths);

// ---------------------------------------------------------------------------------------------
// Timing

struct Timing {
  double median = 0, min = 0, max = 0, p10 = 0, p90 = 0, host_us = 0;
  int reps = 0;
};

class Timer {
 public:
  Timer(cudaStream_t s, int max_reps);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // fn(i) enqueues one call on the stream, using buffer set i.
  Timing run(int warmup, int reps, const std::function<void(int)>& fn);

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
void fill_host(const ImageView& v, std::uint32_t seed);

struct HostBuffer {
  std::vector<unsigned char> bytes;
  ImageView view;
  HostBuffer(int w, int h, int c, ElemType t);
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

int buffers_for(double bytes_each, int max_buffers = 8);
ImageSet make_set(int w, int h, int c, ElemType t, int n);
double view_bytes(const ImageView& v);

// A sample of a device image: every `step`-th row, downloaded to the host.
struct Sample {
  std::vector<unsigned char> bytes;
  int rows = 0, step = 1, width = 0, channels = 1;
  ElemType type = ElemType::u8;
  std::size_t row_bytes = 0;
  double at(int r, std::size_t i) const;
};

Sample download_sample(const ImageView& v);

struct DiffResult {
  double mean = 0, max = 0;
  long nonfinite = 0;
};

// Mean and max |a - b| over the sample, leaving out a margin of `margin` pixels at the image
// edges (border conventions differ between libraries). Non-finite values are counted apart.
DiffResult compare(const Sample& a, const Sample& b, int margin = 4);

void poison(const ImageView& v, cudaStream_t s, int byte);

// Device memory for a peer's constants or scratch (kernels, masks, tables), freed with the last
// copy of the pointer.
std::shared_ptr<void> device_alloc(std::size_t bytes);
// Uploads `bytes` bytes of host data into a new device allocation (synchronously).
std::shared_ptr<void> device_upload(const void* host, std::size_t bytes);

// ---------------------------------------------------------------------------------------------
// NPP

#if defined(TEXCV_BENCH_HARNESS_NPP)
NppStreamContext npp_context(cudaStream_t s);
// Throws BenchError for an NPP error (negative status); warnings (positive) are returned.
NppStatus npp_check(NppStatus st, const char* fn);
// "" or "NPP warning N".
std::string npp_warn_note(NppStatus st);
std::string npp_version();
inline NppiSize nsize(const ImageView& v) {
  return {v.width, v.height};
}
inline NppiRect nrect(const ImageView& v) {
  return {0, 0, v.width, v.height};
}
inline int nstep(const ImageView& v) {
  return static_cast<int>(v.pitch);
}
#endif

// ---------------------------------------------------------------------------------------------
// The run

// One way texcv runs an op variant (an access path, or "-" for ops without one).
struct Variant {
  std::string path = "-";
  std::string auto_choice;  // what path=auto resolved to, when the backend says
  std::function<void(const ImageView&, const ImageView&, cudaStream_t)> run;
};

// One peer of an op variant (NPP, or a CUDA runtime call).
struct Peer {
  std::string name;          // the function, first in the row's note
  std::string impl = "npp";  // npp or cuda
  std::string path = "-";    // "-" for the peer the summaries show; another label for extras
  // Enqueues the peer; returns a note (an NPP warning) or "".
  std::function<std::string(const ImageView&, const ImageView&, cudaStream_t)> run;
  // Fill byte of the output before the accuracy check (NPP leaves some pixels untouched).
  int prefill = 0;
  // False when the peer computes something else (another kernel, another colour matrix): the
  // row is timed but not compared.
  bool comparable = true;
  std::string caveat;  // appended to the note (what differs from texcv)
};

struct RunnerBase {
  Options opt;
  cudaStream_t stream = nullptr;
  std::unique_ptr<Timer> timer;
  std::vector<Row> rows;
  Meta meta;
  Clock::time_point start = Clock::now();
  bool context_lost = false;
  std::string lost_reason;
  bool npp = false;
#if defined(TEXCV_BENCH_HARNESS_NPP)
  NppStreamContext npp_ctx{};
#endif

  double elapsed() const;
  bool over_budget() const;
  // --filter: the key "op params" contains one of the substrings (all when none is given).
  bool wanted(const std::string& op, const std::string& params) const;
  void add(Row r);
  // Runs one timed row; failures become the row's status, never an exception.
  void timed(Row& r, const std::function<void(int)>& fn, double copy_gbps);

  // Device check, stream, timer, NPP context (when `with_npp`, the benchmark's peers are built,
  // and not --no-npp) and the run's metadata; prints the banner. `auto_rule` says whether
  // path=auto's choice is reported. Returns 0, or the exit code (2: no GPU; 1: setup failed)
  // after printing why.
  int setup(const std::string& auto_rule, bool with_npp);

  // A row of the configuration with the fields every row of it shares.
  static Row base_row(const Config& cfg);
  void setup_failed(const Row& base, const std::string& what);
  // The inputs of a configuration: random smooth content on the host (fill_host), copied to
  // buffers_for() device images through texcv::copy. Returns false (after a setup row) when
  // that fails.
  bool make_inputs(const Row& base, int w, int h, int c, ElemType t, std::uint32_t seed,
                   ImageSet& in, double& in_bytes);
  // The output buffers of an op (buffers_for(out_bytes) images); false (after an error row)
  // when they cannot be made or the context is lost.
  bool make_outputs(const Row& opbase, int w, int h, int c, ElemType t, double out_bytes,
                    ImageSet& out);
  // The rows "copy cudaMemcpy2D" (reference) and "copy floor d2d" (the floor) of the image
  // set `in`; returns the floor's GB/s (read + write), 0 when it failed.
  double time_copy_floor(const Row& base, const ImageSet& in, double in_bytes);
  // Times every texcv variant and every peer of one op on the same buffers, each texcv row
  // checked once more on a poisoned output (0xFF bytes: NaN for f32) and compared on a sampled
  // output with the first variant that ran; peers are compared with it too. `no_peer` is the
  // note of the n/a peer row written when `peers` is empty. `margin`: pixels left out at the
  // edges when comparing.
  void run_variants(const Row& opbase, const ImageSet& in, const ImageSet& out,
                    const std::vector<Variant>& variants, const std::vector<Peer>& peers,
                    double copy_gbps, const std::string& no_peer, int margin = 4);
  // Drops the cached texture objects while their buffers still exist.
  void clear_textures();
  // JSON and CSV files, the summary, the stream.
  void finish(const std::vector<std::pair<std::string, std::string>>& summary_paths);
};

}  // namespace texcv_bench
