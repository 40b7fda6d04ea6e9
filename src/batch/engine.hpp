// The batch engine's internals (the public API is texcv/batch.hpp): decode threads -> bounded
// queue -> workers (CPU backend workers, and CUDA workers, one stream each, several per GPU) ->
// bounded queue -> encode threads. Private to the library and its tests.
//
// Memory model: at most decode_threads + host_queue_capacity + workers + queue_capacity +
// encode_threads images are alive at any time (plus each CUDA worker's reused staging and device
// buffers), whatever the number of files. Each file's failure is isolated: it is reported through
// on_done and the others go on (unless fail_fast).
//
// Workers that join late: EngineConfig::late makes workers on a background thread while the
// others already run (the CUDA workers of Device::automatic: the CUDA runtime takes ~0.2 s to
// start, nvJPEG's hardware decoder ~0.4 s); each then runs Worker::setup on its own thread and
// starts taking files from the same queue. See "Scheduling" below for how the work is split.
//
// Worker loss: a worker whose device becomes unusable (a sticky CUDA error) throws WorkerLost
// from process(). Its device is then marked lost and every worker on it stops taking files; the
// file is put back first in line and another worker runs it (its report line says so). When
// every worker is lost, the engine starts the fallback workers (EngineConfig::fallback: CPU
// backend workers) for the files left.
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

#include "texcv/batch.hpp"
#include "texcv/image.hpp"
#include "texcv/io.hpp"
#include "texcv/registry.hpp"

namespace texcv::batch {

// One file between the stages.
struct WorkItem {
  std::string input, output;  // the job's paths (input: the name of in-memory data)
  Image image;                // decoded host image (empty while `encoded` holds the input)
  // The input file's bytes, when the decoder left JPEG decoding to a GPU worker (nvJPEG).
  std::vector<unsigned char> encoded;
  // The job's in-memory input (Job::data), or nullptr for a file.
  const std::vector<unsigned char>* data = nullptr;
  // GPU JPEG encoding: the quality to encode the result with (0: the encoder threads write
  // `image` through imwrite), and the encoded file the worker made (written as is).
  int encode_jpeg_quality = 0;
  std::vector<unsigned char> encoded_output;
  Result result;
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
  // Whether this worker runs on a GPU (the scheduler treats CPU workers differently once GPU
  // workers are running: see run_engine).
  virtual bool is_gpu() const { return false; }
  // Whether it decodes JPEG files left encoded (WorkItem::encoded) on its device (nvJPEG);
  // valid after setup().
  virtual bool decodes_jpeg() const { return false; }
  // Called once, on the worker's thread before it takes its first file: the device set-up
  // (stream, buffers, nvJPEG states). Throwing ends the worker before it took any file: its
  // device is marked lost with the message, the other workers go on.
  virtual void setup() {}
  // Called on the worker's thread of every run, after setup(), before it takes a file: what
  // belongs to the thread rather than the worker (the current CUDA device, a nice value, the
  // operations' thread count). A worker kept between runs (batch::Session) runs on a new thread
  // each run. Throwing is as in setup().
  virtual void attach() {}
  // setup() the first time, then attach(): what the engine calls on each run's worker thread.
  void start_on_this_thread() {
    if (!set_up_) {
      setup();
      set_up_ = true;
    }
    attach();
  }
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

 private:
  bool set_up_ = false;
};

// Runs the steps on the CPU backend.
Image run_steps_on_host(const ImageView& src, const std::vector<PipelineStep>& steps);
// A CPU backend worker; its device() is "cpu:<slot>" (the report says "cpu"). Its operations
// use `threads` threads (texcv::set_cpu_threads on the worker's thread; 0: the default, all
// cores). Its priority is the engine's to set (EngineConfig::cpu_join_nice).
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
// An allocator for ReadOptions::allocate that gives images in pinned host memory from a
// process-wide pool (pinned_input_budget of the machine's memory; beyond it ordinary host
// images), so that a CUDA worker copies such an input to the GPU without a staging copy. Empty in
// a build without CUDA.
std::function<Image(int, int, int, ElemType)> pinned_input_allocator();
// The pinned input pool's budget on a machine with `ram_bytes` of memory (0: unknown): 1/32 of
// it, at least 1 GB and at most 4 GB. The engine's memory model already bounds how many inputs
// are alive; the budget bounds how much of that is page-locked (never swapped, and kept by the
// pool until the process ends). TEXCV_BATCH_PINNED_POOL_MB=n (64 to 65536) sets another.
std::size_t pinned_input_budget(std::uint64_t ram_bytes);
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

// TEXCV_BATCH_TIMING set and not "0": the engine and the CUDA workers say where their time goes.
bool timing_from_env();

// Whether the environment variable `name` is exactly "1" (the batch engine's A/B aids).
bool env_is_one(const char* name);

struct EngineConfig {
  int decode_threads = 2;
  int encode_threads = 2;
  std::size_t queue_capacity = 4;
  // Of those, how many may be decoded images (not JPEG bytes left for nvJPEG); 0: as many as
  // queue_capacity. A queue sized for the GPU's JPEG batches holds encoded files of ~0.5 MB; the
  // same number of decoded 1080p images, queued while the CPU decodes before the GPU joins,
  // took 2.3 GB on the H200 (docs/performance.md).
  std::size_t host_queue_capacity = 0;
  // Of the queue's room, how many bytes encoded files (JPEG bytes left for a GPU worker) may
  // take; 0: no limit but queue_capacity. One such file is always let into a queue that holds
  // none, however large.
  std::size_t encoded_queue_bytes = 0;
  // The capacity of the queue between the workers and the encode threads; 0: queue_capacity.
  std::size_t output_queue_capacity = 0;
  // Late workers (below) that decode JPEG are coming: until the first GPU worker has joined, the
  // decode threads already check JPEG inputs and leave them encoded for it, and CPU workers take
  // files only as once a GPU runs (from a full queue, while the decoders wait for room and cores
  // are to spare). The cores then check files for the GPU during its set-up instead of running
  // the whole CPU path, which costs a 1080p JPEG ~5x the CPU time. A worker that gets such a file
  // without decoding JPEG itself decodes it on the CPU (host_input).
  bool gpu_jpeg_coming = false;
  std::vector<PipelineStep> steps;
  WriteOptions write;
  // allow_corrupt: a file whose decoder reports corrupt data is written from what it recovered,
  // with the status corrupt (the CPU decoder's recovery, whatever the device: a JPEG the GPU
  // would decode is decoded on the CPU then). Without it such a file fails at the read stage.
  ReadOptions read;
  int bit_depth = 0;  // 0: keep; 8, 16 or 32 (f32)
  std::uint64_t max_pixels = kDefaultMaxPixels;
  std::uint64_t max_bytes = 0;  // 0: no limit
  bool fail_fast = false;
  // nvJPEG on the CUDA workers: encode JPEG outputs on the GPU (decoding: the decoders leave
  // JPEG inputs encoded while a worker that decodes_jpeg() runs and keeps up, see run_engine).
  bool gpu_jpeg_encode = false;
  // Inputs may be left encoded for GPU decoding (false: the decoders always decode).
  bool gpu_jpeg_decode = true;
  // Workers that join late: called once on a background thread when the run starts; each worker
  // it returns runs setup() on its own thread, then takes files from the same queue. An
  // exception is reported through on_event (the run goes on with the other workers). The run
  // does not wait for it: a run that ends first leaves it to finish on its own, and its workers
  // are then destroyed on that thread. late_what: how on_event names them ("CUDA workers").
  std::function<std::vector<std::unique_ptr<Worker>>()> late;
  std::string late_what = "late workers";
  // With `late` beside CPU workers: how long the late workers take to be set up, from the run's
  // start (s). When > 0, the workers the factory made wait before their own set-up until the
  // engine has decided whether they can still help, from the CPU workers' rate once 8 CPU files
  // are done: they join at once when the CPU workers would still be busy twice as long as that
  // set-up and 0.6 s more (the GPU's first batches); at 0.15 s into the run (a steadier rate)
  // they join when the CPU would be busy longer than that set-up and 0.6 s, else they are
  // destroyed without being set up and EngineReport::late_note says why (a factory still running
  // then goes on at nice 19, below the CPU workers). Files that take long (fewer than 8 CPU
  // files by 0.15 s, or all at once): from the first CPU file done, the rate is the CPU workers'
  // count over the time so far (one wave of files), with the files in flight half done; with no
  // CPU file done, they join once every wave of files (the count over the CPU workers') taking
  // as long as the time so far would keep the CPU busy past that set-up and 0.6 s, and 0.17 s
  // into the run at the earliest. A GPU that joins in a
  // run's last tenth of a second costs more than it gives (the H100 machine, 1,000 JPEGs:
  // --device auto 1.03 s against cpu's 0.87). 0: they always join, at once.
  double late_setup_guess_s = 0;
  // > 0: how long after that set-up the late workers need before they help (the "0.6 s" above;
  // TEXCV_BATCH_LATE_USEFUL_S, an A/B aid). 0: 0.6 s.
  double late_useful_s = 0;
  // true: with late_setup_guess_s, the factory is called only once the decision above is made
  // (a CPU file's rate, or kLateDecideS + 0.02 s without one): a "never join" verdict then costs
  // no set-up at all (no CUDA runtime, no nvJPEG handle), and a "join" starts it a CPU file's
  // time later (TEXCV_BATCH_LATE_WAIT=1, an A/B aid). false: the set-up starts at once.
  bool late_wait_verdict = false;
  // > 0: the factory's thread (and the threads the driver starts from it) runs at this nice
  // value (TEXCV_BATCH_SETUP_NICE, an A/B aid). 0: the process's own.
  int late_nice = 0;
  // > 0: the CPU workers' threads go to this nice value once GPU workers are to take files (from
  // the start when GPU workers run from the start or `late` has no late_setup_guess_s; else
  // when the decision above says they join), below the decode and encode threads and a GPU
  // worker's set-up, so that they use the cycles the GPU's feeding leaves (on the H200 with
  // nice 0 throughout, the CUDA workers' set-up took 1.4-1.8 s instead of 0.6 s while 16 CPU
  // workers ran). Until then, and for the whole run when they never join, the CPU workers run at
  // the process's own priority, as on a CPU-only run (on the H100 machine, 1,000 JPEGs:
  // --device auto whose GPU did not join took 1.11-1.22 s with its CPU workers at nice 10
  // throughout, against cpu's 0.95-1.17 in the same rounds).
  int cpu_join_nice = 0;
  // true: a late-worker factory still running when the run ends is left to finish on its own
  // (the caller ends the process soon: texcv batch); false: the run waits for it at the end.
  bool detach_late = false;
  // Keep the large host image buffers that are released during the run and give them to the next
  // images of the same size (src/core/host_cache.hpp): no fresh pages for each file's decoded
  // image and step results. The memory kept never takes the run past the most it had alive.
  bool host_cache = true;
  // Adds the engine's own line to EngineReport::timing: the decoders' waits for room, the waits
  // for the queue's lock, and each worker's waits for files and the sizes of its batches.
  bool timing = false;
  // Decoding into pinned memory for the GPU workers (pinned_input_allocator): used by the
  // decoders for inputs of at least pinned_min_bytes while a GPU worker runs. Empty: never.
  std::function<Image(int, int, int, ElemType)> pinned_alloc;
  std::size_t pinned_min_bytes = std::size_t{4} << 20;
  // Where the outputs go (Deliver::files: Job::output) and the callback of the other modes.
  Deliver deliver = Deliver::files;
  std::function<void(const Result&, Output&&)> on_output;
  // The CPUs left over by work at normal priority, measured over the last few tens of
  // milliseconds (< 0: unknown): a CPU worker takes a file from a full queue while a GPU runs only
  // while the CPUs it and the CPU workers already busy need are to spare (see "Scheduling"
  // below). Empty: SpareCores (cores.hpp) on this machine's /proc/stat. Tests give their own.
  std::function<double()> spare_cores;
  // The share of the last 50 ms the decode threads must have spent waiting for room in the queue
  // (the GPU is then the bound, and the cores they leave are idle) before a CPU worker takes a
  // file from it while a GPU runs. On the H200 at c96c194 the spare-core measure alone still let
  // CPU workers take 14 % of 8,000 JPEGs from a queue that filled and drained with the GPU's
  // batches (a vCPU idle for a moment is not capacity the GPU's feeding can spare), and --device
  // auto took 8.7-9.0 s against 4.5-5.5 s on cuda. Above 1: never.
  double decoder_idle_share = 0.5;
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
  std::vector<std::string> lost;          // "cuda:0: <reason>", one per lost device, in order
  std::vector<std::string> lost_devices;  // the same devices' names ("cuda:0")
  std::size_t retried = 0;                // files put back after a loss (counted each time)
  std::size_t fallback_workers = 0;       // workers started after every worker was lost
  bool all_lost = false;                  // every original worker was lost
  double first_done_s = -1;               // when the first file finished (-1: none)
  double late_ready_s = -1;          // when the first late worker finished its setup (-1: none)
  std::string late_note;             // why no late worker joined ("" when one did or none asked)
  std::size_t peak_host_queued = 0;  // the most decoded images waiting in the queue at once
  std::size_t peak_encoded_queued_bytes = 0;  // the most encoded bytes waiting in it at once
  std::vector<std::string> timing;            // Worker::timing() of every worker that had one
  // The workers that joined late and the fallback workers: the caller releases them (or ends
  // the process first: releasing CUDA workers takes a quarter of a second).
  std::vector<std::unique_ptr<Worker>> late_workers;
};

// Processes jobs[i] for every i in `todo` (indices into jobs). Calls on_done once for each of
// them, serialized (never concurrently), from the engine's threads. Once `stop` becomes true
// (set by the caller, or by the engine on a failure with fail_fast) no new file is started; the
// files already started finish and those never started are reported as cancelled.
//
// Scheduling, while GPU workers (is_gpu) and CPU workers run together. The CPU path of a file
// costs the cores more than the GPU's (a 1080p JPEG: ~26 ms of CPU decoded, processed and encoded
// there, ~7 ms read and checked for nvJPEG), so CPU workers take files only when cores are to
// spare, that is when the queue is full, the decode threads spent at least half of the last 50 ms
// waiting for room in it (EngineConfig::decoder_idle_share: the GPU is the bound, not them) and
// the cores are measured to be left over by the work at normal priority (EngineConfig::
// spare_cores: one core for each CPU worker busy and for the one starting, plus one more), and
// they run at a low priority (EngineConfig::cpu_join_nice):
// - decode: a JPEG input is left encoded (checked) for a GPU worker that decodes_jpeg() (also
//   while one is being set up, with EngineConfig::gpu_jpeg_coming).
// - process: once a GPU worker runs, a CPU worker takes (a) before the GPU has finished a file,
//   only files decoded on the CPU (those queued before the GPU joined); (b) after, only while the
//   queue is full, the decoders wait for room and cores are to spare, and then the last file of the
//   queue (the one the GPU would reach last; a JPEG still encoded is decoded by the CPU worker);
//   (c) until a CPU file has been timed, two CPU workers at a time; while a GPU is being set up
//   (none runs yet), every CPU worker, but once files are timed to take the CPU longer than a
//   set-up usually lasts, two at a time; (d) once the
//   GPU workers' rate is known, only while the files left would keep them busy longer than the CPU
//   worker's time per file: a CPU worker never finishes after the GPU would have finished alone,
//   beyond a file it started before the GPU's rate was known; (e) with
//   EngineConfig::gpu_jpeg_coming, while the GPU is being set up, as in (b): the decoders check
//   JPEG files for it meanwhile.
// Before any GPU worker has joined (and none is being set up), or once all are lost, CPU workers
// take every file.
EngineReport run_engine(const std::vector<Job>& jobs, const std::vector<std::size_t>& todo,
                        const EngineConfig& cfg, std::vector<std::unique_ptr<Worker>>& workers,
                        const std::function<void(const Result&)>& on_done, std::atomic<bool>& stop);

}  // namespace texcv::batch
