// The batch engine of `texcv batch`: decode threads -> bounded queue -> workers (the CPU backend,
// or CUDA workers, one stream each, several per GPU) -> bounded queue -> encode threads.
//
// Memory model: at most decode_threads + queue_capacity + workers + queue_capacity +
// encode_threads images are alive at any time (plus each CUDA worker's reused staging and device
// buffers), whatever the number of files. Each file's failure is isolated: it is reported through
// on_done and the others go on (unless fail_fast).
//
// Worker loss: a worker whose device becomes unusable (a sticky CUDA error) throws WorkerLost
// from process(). Its device is then marked lost and every worker on it stops taking files; the
// file is put back first in line and another worker runs it (its report line says so). When
// every worker is lost, the engine starts the fallback workers (EngineConfig::fallback: CPU
// backend workers in texcv batch) for the files left.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
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

// ok: written. failed: no output written (stage and error say why). skipped: the output exists
// (--resume). cancelled: never started (interrupted, --fail-fast). corrupt: written from what the
// decoder recovered of damaged data (--allow-corrupt; `error` holds the decoder's warning).
// excluded: a file under the output folder, which lies inside the input folder: an output of
// this tree, not an input (never read or written).
enum class JobStatus { ok, failed, skipped, cancelled, corrupt, excluded };
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
  // Something the user should know about a file that was processed: a multi-page TIFF of which
  // only page 1 was processed.
  std::string warning;
  // The GPU decoder of a JPEG input: "nvjpeg-hardware" (batched, the JPEG engines) or
  // "nvjpeg-hybrid"; empty when the CPU codecs decoded it.
  std::string decoder;
  // Worker loss: the devices ("cuda:0") that were lost while this file was on them, in order
  // (empty: it ran once), and why the last of them was lost. `device` is where it finally ran.
  std::vector<std::string> retried_from;
  std::string retry_reason;
  std::uint64_t bytes_in = 0, bytes_out = 0;
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  int out_width = 0, out_height = 0, out_channels = 0;
  ElemType out_type = ElemType::u8;
  double read_ms = 0, process_ms = 0, write_ms = 0, total_ms = 0;
};

// One file between the stages.
struct WorkItem {
  std::string input, output;  // the job's paths
  Image image;                // decoded host image (empty while `encoded` holds the input)
  // The input file's bytes, when the decoder left JPEG decoding to a GPU worker (nvJPEG).
  std::vector<unsigned char> encoded;
  // GPU JPEG encoding: the quality to encode the result with (0: the encoder threads write
  // `image` through imwrite), and the encoded file the worker made (written as is).
  int encode_jpeg_quality = 0;
  std::vector<unsigned char> encoded_output;
  JobResult result;
};

// Thrown by Worker::process: the worker's device is unusable (a sticky CUDA error: the context
// is lost for every worker on it) and the item was NOT processed: item.image / item.encoded
// still hold its input. The engine retires every worker of that device and runs the item on
// another worker. what() is the reason.
class WorkerLost : public std::runtime_error {
 public:
  explicit WorkerLost(const std::string& reason) : std::runtime_error(reason) {}
};

// Runs the pipeline on one image. One object per worker thread; process is called from that
// thread only.
class Worker {
 public:
  virtual ~Worker() = default;
  virtual std::string name() const = 0;
  // The device this worker runs on; workers that return the same string share it and are
  // retired together when it is lost ("cuda:0" for every CUDA worker of GPU 0; each CPU worker
  // has its own, "cpu:<slot>").
  virtual std::string device() const { return name(); }
  // Replaces item.image by the result (host), or fills item.encoded_output; fills
  // item.result.device (and cpu_fallback, note). Throws WorkerLost when its device is lost.
  virtual void process(WorkItem& item) = 0;
  // How many files the engine may hand over together (the files already waiting, never more:
  // the engine does not wait to fill a batch). 1: one at a time.
  virtual std::size_t batch_size() const { return 1; }
  // Called (when batch_size() > 1) with the files taken together (1 to batch_size() of them)
  // before process() runs on each, in order: work they can share starts here (nvJPEG's batched
  // decode on the GPU's JPEG engines). A file it cannot handle is left as it was for process().
  // Throws WorkerLost when the device is lost (every file of the batch goes back to the queue);
  // other errors are the worker's to handle.
  virtual void prepare(const std::vector<WorkItem*>& items) { (void)items; }
  // A diagnostic line on where the worker's time went (TEXCV_BATCH_TIMING=1), "" for none.
  virtual std::string timing() const { return {}; }
};

// Runs the steps on the CPU backend.
Image run_steps_on_host(const ImageView& src, const std::vector<PipelineStep>& steps);
// A CPU backend worker; its device() is "cpu:<slot>" (the report says "cpu"). Its operations
// use `threads` threads (texcv::set_cpu_threads on the worker's thread; 0: the default, all
// cores).
std::unique_ptr<Worker> make_cpu_worker(const std::vector<PipelineStep>& steps, int slot = 0,
                                        int threads = 0);
// The decoded input of an item: item.image, or the file decoded on the CPU when the item holds
// the encoded bytes (a fallback from GPU decoding).
const Image& host_input(WorkItem& item);
// `streams` workers per GPU in `devices`, each with its own CUDA stream, pinned staging buffers
// and a device input buffer reused while the image sizes fit. Throws Error(NotCompiled) in a build
// without CUDA.
// With nvjpeg, JPEG files are decoded and encoded on the GPU; jpeg_batch > 1: the files waiting
// are taken up to jpeg_batch at a time and decoded together on the GPU's hardware JPEG decoder
// when it has one.
std::vector<std::unique_ptr<Worker>> make_cuda_workers(const std::vector<PipelineStep>& steps,
                                                       const std::vector<int>& devices, int streams,
                                                       bool nvjpeg, int jpeg_batch);
// Whether the CUDA workers can decode and encode JPEG with nvJPEG (a build with nvJPEG).
bool nvjpeg_compiled();
// Whether nvJPEG's hardware decoder (NVJPEG_BACKEND_HARDWARE) can be used on GPU `device`.
bool nvjpeg_hardware_decoder(int device);

// Fault injection, a testing aid: the workers of `device` (a Worker::device() string such as
// "cuda:0" or "cpu:0") report their device lost when they start its (after+1)-th file, counting
// the files started on that device by all its workers, and at every later start (as a sticky
// CUDA error: a sibling worker may start one before the engine has marked the device lost).
struct InjectedFault {
  std::string device;
  std::size_t after = 0;
};
// The environment variable read by fault_injection_from_env.
inline constexpr const char* kInjectFaultEnv = "TEXCV_BATCH_INJECT_FAULT";
// Parses "cuda:0:after=3" (several separated by ','). Throws Error(InvalidArgument) naming the
// bad entry.
std::vector<InjectedFault> parse_injected_faults(const std::string& spec);
// TEXCV_BATCH_INJECT_FAULT parsed (empty when unset or empty): the one place that reads it.
std::vector<InjectedFault> injected_faults_from_env();

struct EngineConfig {
  int decode_threads = 2;
  int encode_threads = 2;
  std::size_t queue_capacity = 4;
  std::vector<PipelineStep> steps;
  WriteOptions write;
  // allow_corrupt: a file whose decoder reports corrupt data is written from what it recovered,
  // with the status corrupt (the CPU decoder's recovery, whatever the device: a JPEG the GPU
  // would decode is decoded on the CPU then). Without it such a file fails at the read stage.
  ReadOptions read;
  int bit_depth = 0;  // 0: keep; 8, 16 or 32 (f32)
  std::uint64_t max_pixels = 256'000'000;
  std::uint64_t max_bytes = 0;  // 0: no limit
  bool fail_fast = false;
  // nvJPEG on the CUDA workers: decode JPEG inputs / encode JPEG outputs on the GPU.
  bool gpu_jpeg_decode = false;
  bool gpu_jpeg_encode = false;
  // Injected device losses (injected_faults_from_env in texcv batch).
  std::vector<InjectedFault> faults;
  // Makes the workers that take over once every worker is lost (called at most once; may be
  // empty). Without them (or once they are lost too), the files left fail with the reason.
  std::function<std::vector<std::unique_ptr<Worker>>()> fallback;
  // Called (serialized with on_done) with a line to show: a device lost, the fallback started.
  std::function<void(const std::string&)> on_event;
};

// What happened to the workers during a run.
struct EngineReport {
  std::vector<std::string> lost;     // "cuda:0: <reason>", one per lost device, in order
  std::size_t retried = 0;           // files put back after a loss (counted each time)
  std::size_t fallback_workers = 0;  // workers started after every worker was lost
  bool all_lost = false;             // every original worker was lost
};

// Processes jobs[i] for every i in `todo` (indices into jobs). Calls on_done once for each of
// them, serialized (never concurrently), from the engine's threads. Once `stop` becomes true
// (set by the caller, or by the engine on a failure with fail_fast) no new file is started; the
// files already started finish and those never started are reported as cancelled.
EngineReport run_engine(const std::vector<BatchJob>& jobs, const std::vector<std::size_t>& todo,
                        const EngineConfig& cfg, std::vector<std::unique_ptr<Worker>>& workers,
                        const std::function<void(const JobResult&)>& on_done,
                        std::atomic<bool>& stop);

}  // namespace texcv::cli
