// The batch engine of `texcv batch`: decode threads -> bounded queue -> workers (the CPU backend,
// or CUDA workers, one stream each, several per GPU) -> bounded queue -> encode threads.
//
// Memory model: at most decode_threads + queue_capacity + workers + queue_capacity +
// encode_threads images are alive at any time (plus each CUDA worker's reused staging and device
// buffers), whatever the number of files. Each file's failure is isolated: it is reported through
// on_done and the others go on (unless fail_fast).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "texcv/image.hpp"
#include "texcv/io.hpp"
#include "texcv/registry.hpp"

namespace texcv::cli {

// One file: paths as the user spells them (relative to the current folder or absolute).
struct BatchJob {
  std::string input;
  std::string output;
};

enum class JobStatus { ok, failed, skipped, cancelled };
const char* to_string(JobStatus s) noexcept;

// What happened to one file (one line of the --report file).
struct JobResult {
  std::size_t index = 0;  // into the job list
  JobStatus status = JobStatus::ok;
  std::string stage;  // where it failed: "read", "process", "write" ("" when ok)
  std::string error;
  std::string device;         // "cpu", "cuda:0"
  bool cpu_fallback = false;  // a CUDA failure (out of memory...) made it rerun on the CPU
  std::string note;           // why it fell back
  std::uint64_t bytes_in = 0, bytes_out = 0;
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  int out_width = 0, out_height = 0, out_channels = 0;
  ElemType out_type = ElemType::u8;
  double read_ms = 0, process_ms = 0, write_ms = 0, total_ms = 0;
};

// Runs the pipeline on one image. One object per worker thread; process is called from that
// thread only.
class Worker {
 public:
  virtual ~Worker() = default;
  virtual std::string name() const = 0;
  // Returns the result as a host image; fills r.device (and r.cpu_fallback, r.note).
  virtual Image process(const Image& src, JobResult& r) = 0;
};

// Runs the steps on the CPU backend.
Image run_steps_on_host(const ImageView& src, const std::vector<PipelineStep>& steps);
std::unique_ptr<Worker> make_cpu_worker(const std::vector<PipelineStep>& steps);
// `streams` workers per GPU in `devices`, each with its own CUDA stream, pinned staging buffers
// and a device input buffer reused while the image sizes fit. Throws Error(NotCompiled) in a build
// without CUDA.
std::vector<std::unique_ptr<Worker>> make_cuda_workers(const std::vector<PipelineStep>& steps,
                                                       const std::vector<int>& devices,
                                                       int streams);
// Which JPEG codec the engine uses, for the start line ("libjpeg-turbo (CPU)").
std::string jpeg_codec_name();

struct EngineConfig {
  int decode_threads = 2;
  int encode_threads = 2;
  std::size_t queue_capacity = 4;
  std::vector<PipelineStep> steps;
  WriteOptions write;
  int bit_depth = 0;  // 0: keep; 8, 16 or 32 (f32)
  std::uint64_t max_pixels = 256'000'000;
  std::uint64_t max_bytes = 0;  // 0: no limit
  bool fail_fast = false;
};

// Processes jobs[i] for every i in `todo` (indices into jobs). Calls on_done once for each of
// them, serialized (never concurrently), from the engine's threads. Once `stop` becomes true
// (set by the caller, or by the engine on a failure with fail_fast) no new file is started; the
// files already started finish and those never started are reported as cancelled.
void run_engine(const std::vector<BatchJob>& jobs, const std::vector<std::size_t>& todo,
                const EngineConfig& cfg, std::vector<std::unique_ptr<Worker>>& workers,
                const std::function<void(const JobResult&)>& on_done, std::atomic<bool>& stop);

}  // namespace texcv::cli
