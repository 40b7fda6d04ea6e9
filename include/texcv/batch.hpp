// The batch engine: many images through one pipeline, as fast as the machine allows, with one
// result record per file. `texcv batch` is a client of it; so will be the Python package.
//
//   texcv::batch::Options opt;
//   opt.steps = texcv::parse_pipeline("resize:scale=0.5;sharpen");
//   std::vector<texcv::batch::Job> jobs = {{"in/a.jpg", {}, "out/a.jpg"}};
//   texcv::batch::Summary s = texcv::batch::run(jobs, opt);
//
// How it runs: decode threads -> a bounded queue -> workers -> a bounded queue -> encode threads.
// Workers are CPU backend workers (one thread each) and CUDA workers (one stream each, several
// per GPU). With Device::automatic the CPU workers start at once and the CUDA workers are set up
// in the background (the CUDA runtime, streams, nvJPEG) and join the same queue when ready; from
// then on the split between them follows the queue: the decode threads leave JPEG files to the
// GPU's JPEG engines while the GPU keeps up, and decode on the CPU (for the CPU workers) when
// the GPU falls behind; a CPU worker takes a file only while the GPU has more work left than
// that file would take on the CPU, so the CPU never makes the run end later.
//
// Memory is bounded by the queue capacities, not by the number of files. A file's failure is
// its own: reported in its Result, the others go on (unless fail_fast). Nothing is written
// half: each output is written to a temporary file beside it and renamed into place.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "texcv/image.hpp"
#include "texcv/io.hpp"
#include "texcv/registry.hpp"

namespace texcv::batch {

// One file. `input` is the path to read (relative to the current folder or absolute) or, when
// `data` holds the encoded file, only its name (messages and results; the format is taken from
// the bytes). `output` is the path to write; with Options::deliver other than files it is a
// name only, whose extension picks the output format (".png", ".jpg", ".tif").
struct Job {
  std::string input;
  std::vector<unsigned char> data;
  std::string output;
};

// ok: written. failed: no output written (Result::stage and error say why). skipped: the output
// exists (a client's resume). cancelled: never started (stopped, fail_fast). corrupt: written
// from what the decoder recovered of damaged data (ReadOptions::allow_corrupt; Result::error
// holds the decoder's warning). excluded: not an input (a client's rule: an output of this tree).
enum class Status { ok, failed, skipped, cancelled, corrupt, excluded };
const char* to_string(Status s) noexcept;

// What happened to one file (one line of texcv batch's --report).
struct Result {
  std::size_t index = 0;  // into the job list
  Status status = Status::ok;
  std::string stage;  // where it failed: "read", "process", "write" ("" when ok)
  std::string error;
  // Where each stage ran: "cpu" or "cuda:<gpu>". read: the decode (nvJPEG on the GPU, or the
  // CPU codecs); process: the steps (also `device`); write: the encode (nvJPEG or the CPU).
  std::string read_device, write_device;
  std::string device;         // the steps' device: "cpu", "cuda:0"
  bool cpu_fallback = false;  // a CUDA failure (out of memory...) made it rerun on the CPU
  std::string note;           // why it fell back, or how it was decoded
  // Something the user should know about a file that was processed: a multi-page TIFF of which
  // only page 1 was processed.
  std::string warning;
  // The GPU decoder of a JPEG input: "nvjpeg-hardware" (batched, the JPEG engines) or
  // "nvjpeg-hybrid"; empty when the CPU codecs decoded it.
  std::string decoder;
  // Worker loss: the devices ("cuda:0") lost while this file was on them, in order (empty: it
  // ran once), and why the last of them was lost. `device` is where it finally ran.
  std::vector<std::string> retried_from;
  std::string retry_reason;
  std::uint64_t bytes_in = 0, bytes_out = 0;
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  int out_width = 0, out_height = 0, out_channels = 0;
  ElemType out_type = ElemType::u8;
  double read_ms = 0, process_ms = 0, write_ms = 0, total_ms = 0;
};

enum class Device { cpu, cuda, automatic };
// "cpu", "cuda", "auto". parse_device throws Error(InvalidArgument) naming the accepted values.
const char* to_string(Device d) noexcept;
Device parse_device(const std::string& s);

enum class JpegCodec { automatic, cpu, nvjpeg };
// "auto", "cpu", "nvjpeg"; anything else throws Error(InvalidArgument) naming them.
JpegCodec parse_jpeg_codec(const std::string& s);

// What the engine hands to Options::on_output instead of writing a file.
enum class Deliver {
  files,    // write Job::output (the default)
  encoded,  // the encoded output file's bytes (Output::encoded)
  images,   // the decoded result image on the host (Output::image), after bit_depth
};
// "files", "encoded", "images"; anything else throws Error(InvalidArgument) naming them.
Deliver parse_deliver(const std::string& s);

struct Output {
  std::vector<unsigned char> encoded;
  Image image;
};

struct Options {
  std::vector<PipelineStep> steps;  // parse_pipeline(); may be empty (decode, re-encode)
  Device device = Device::automatic;
  std::vector<int> gpus;  // the GPUs to use (CUDA_VISIBLE_DEVICES numbering); empty: all
  int streams = 2;        // CUDA workers per GPU
  int cpu_workers = 0;    // CPU backend workers; 0: one per core
  // Threads of each CPU worker's operations; 0: cores / cpu_workers (at least 1).
  int cpu_threads_each = 0;
  int decode_threads = 0, encode_threads = 0;   // 0: one per core
  std::size_t queue = 0;                        // each queue's capacity; 0: chosen
  JpegCodec jpeg_codec = JpegCodec::automatic;  // automatic: nvJPEG on CUDA workers when built
  int gpu_jpeg_batch = 32;  // JPEG files decoded together on the GPU's JPEG engines; 1: off
  ReadOptions read;         // allow_corrupt
  WriteOptions write;
  int bit_depth = 0;                             // 0: keep; 8, 16 or 32 (f32)
  std::uint64_t max_pixels = kDefaultMaxPixels;  // per file, from the header; 0: no limit
  std::uint64_t max_bytes = 0;                   // per input file; 0: no limit
  bool fail_fast = false;                        // stop starting files after the first failure
  Deliver deliver = Deliver::files;
  // Deliver::encoded / images: receives each processed file's output (status ok or corrupt),
  // from the encode threads, possibly several at once. An exception it throws fails that file
  // at the write stage with its message.
  std::function<void(const Result&, Output&&)> on_output;
  // Every file's result as it finishes (progress), one call at a time, from the engine's threads.
  std::function<void(const Result&)> on_result;
  // A line worth showing (a device lost, the GPU workers joining...), serialized with on_result.
  std::function<void(const std::string&)> on_event;
  // true: the caller ends the process soon after run() returns (texcv batch): the CUDA workers
  // are not released (0.24 s after 1,000 JPEGs on the H200; the driver frees the GPU at exit)
  // and a GPU set-up still under way when the last file is done is not waited for. false: run()
  // releases everything before it returns.
  bool fast_exit = false;
};

// What a run did.
struct Summary {
  std::size_t ok = 0, failed = 0, cancelled = 0, corrupt = 0;
  std::size_t on_cpu = 0, on_cuda = 0;  // files whose steps ran there
  double seconds = 0;                   // from run() to the last file
  double first_file_s = -1;             // from run() to the first file finished (-1: none finished)
  // CUDA workers (Device::cuda, or automatic on a machine with a usable GPU): when they were
  // ready, from run(); -1: none joined. gpu_note: why none joined (automatic).
  double gpu_ready_s = -1;
  std::string gpu_note;
  std::vector<std::string> lost;     // "cuda:0: <reason>", one per lost device, in order
  std::size_t retried = 0;           // files put back after a loss (counted each time)
  std::size_t fallback_workers = 0;  // workers started after every worker was lost
  bool all_lost = false;             // every original worker was lost
  // Workers this run made (the late CUDA workers and the fallback included); a Session's runs
  // after its first: 0 while its workers last.
  std::size_t workers_made = 0;
  std::vector<std::string> timing;  // TEXCV_BATCH_TIMING=1: each worker's account
};

// One line of texcv batch's --report for a file: a JSON object (no newline) with "input",
// "output" (null when none), "status", "error", "stage", "device", "cpu_fallback", "devices"
// (read/process/write), "note", "warning", "decoder", "retried"/"retried_from"/"retry_reason",
// "in" and "out" (width, height, channels, type, bytes) and "ms" (read, process, write, total),
// each present as docs/batch.md ("The report") says; a name that is not UTF-8 is given as text
// with U+FFFD and its bytes in "input_bytes"/"output_bytes" (base64).
std::string report_json(const Job& job, const Result& r);

// Whether this machine may have an NVIDIA GPU, without starting the CUDA runtime: the driver's
// device nodes exist (/dev/nvidiactl, or WSL's /dev/dxg). Without them Device::automatic starts
// no CUDA set-up and its CPU workers keep their normal priority (a thread cannot take back a
// nice value it gave up).
bool gpu_device_nodes();
// Whether this build's CUDA workers decode and encode JPEG with nvJPEG.
bool nvjpeg_available();
// Whether GPU `gpu` has hardware JPEG decoders that nvJPEG can use (A100, H100, H200...). Starts
// the CUDA runtime and makes that GPU's hardware decoder handle (~0.4 s) and, at the same time,
// its other nvJPEG handle (~0.6 s), which its workers then share. false in a build without
// nvJPEG.
bool gpu_jpeg_engines(int gpu);

// Checks the options (not the files): throws Error(InvalidArgument) naming a bad value and what
// is expected, Error(Unsupported) for what this build or machine cannot do (Device::cuda without
// a GPU, JpegCodec::nvjpeg without nvJPEG, a GPU index that does not exist).
void check_options(const Options& opt);

// Processes every job. Calls on_result once per job. Once `stop` is requested no new file is
// started; the files already started finish and the others are reported cancelled. Throws (as
// check_options) only before any file is started.
Summary run(const std::vector<Job>& jobs, const Options& opt, std::stop_token stop = {});

// Workers kept between runs, for a caller that runs many batches with the same options (texcv.ray's
// actors, texcv.process_many's callers, a service): the first run sets up the workers (the CUDA
// runtime, each worker's stream and buffers, nvJPEG's states and the GPU's hardware decoder: a
// large part of a second on the H200), and every later run starts with them. batch::run sets them
// up for each call.
//
//   texcv::batch::Session session(opt);
//   for (const auto& jobs : batches) session.run(jobs);
//
// Each run is as batch::run(jobs, options()): the same results, report and fault isolation. The
// workers of a device lost during a run are dropped (a session that has none left makes them
// again); with Device::automatic the CUDA workers set up in the background during the first run
// (or its end) are kept, and later runs start with them. Options::fast_exit is not used: the
// destructor releases the workers.
class Session {
 public:
  // Checks the options as check_options does (throws the same errors); the on_output callback of
  // Deliver::encoded / images may instead come with each run. Makes no worker yet.
  explicit Session(Options opt);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Processes the jobs as batch::run does with options(). on_result / on_output, when given,
  // replace the options' callbacks for this run. One run at a time: a call while another of the
  // same session is under way throws Error(InvalidArgument).
  Summary run(const std::vector<Job>& jobs, std::stop_token stop = {},
              std::function<void(const Result&)> on_result = {},
              std::function<void(const Result&, Output&&)> on_output = {});

  // Makes the workers and sets them up now, as a run without files (a Ray actor's constructor),
  // so that the first run starts with them. Returns that empty run's summary (lost: a device
  // that could not be set up; gpu_note: why no CUDA worker joined with Device::automatic).
  Summary start();

  const Options& options() const noexcept;
  // The devices of the workers kept for the next run ("cpu:0", "cuda:0", one per worker); empty
  // before the first run.
  std::vector<std::string> workers() const;

  struct Kept;  // the library's own (src/batch/batch.cpp)

 private:
  Options opt_;
  std::unique_ptr<Kept> kept_;
};

// Ends the process with `status` at once, for a caller that ran with Options::fast_exit and has
// written and closed everything it keeps (texcv batch, after its summary). Flushes stdio, closes
// every descriptor of a file, folder, pipe or socket (stdin, stdout and stderr included, so a
// reader of the output sees its end and flock(2) locks are released), then leaves the rest of
// the exit to a helper process that shares the address space and the descriptor table and ends
// once this process is gone: the GPU driver's teardown and the unmapping of the process's memory
// (0.15-0.3 s after a GPU run on the H200) no longer hold up whoever waits for this process.
// The GPU is free again when the helper ends. TEXCV_EXIT_HANDOFF=0 in the environment, or a
// helper that cannot be made, ends the process with std::_Exit as before.
[[noreturn]] void end_process(int status) noexcept;

}  // namespace texcv::batch
