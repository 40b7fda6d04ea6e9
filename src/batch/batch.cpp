// texcv::batch::run (texcv/batch.hpp): the options turned into the engine's configuration and
// workers (src/batch/engine.hpp), the CUDA workers of Device::automatic made in the background.
#include "texcv/batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "src/batch/engine.hpp"
#include "src/core/cuda_call.hpp"
#include "texcv/error.hpp"
#include "texcv/runtime.hpp"

namespace texcv::batch {

namespace {

// The nice value of the CPU workers of Device::automatic on a CUDA build once a GPU is to join
// (EngineConfig::cpu_join_nice).
constexpr int kCpuWorkerNice = 10;
// The queue while the decode threads check JPEG files for GPU workers still being set up
// (EngineConfig::gpu_jpeg_coming): at most this many files and this many MB of their bytes.
constexpr std::size_t kPrecheckQueueFiles = 2048;
constexpr std::size_t kPrecheckQueueMB = 512;

int hardware_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// "GPU 5 does not exist: the CUDA runtime sees 2 GPU(s) (indices 0..1)" for the indices in
// `wanted` that are not below `count` ("" when all exist).
std::string missing_gpus(const std::vector<int>& wanted, int count) {
  std::string bad;
  int nbad = 0;
  for (int d : wanted)
    if (d < 0 || d >= count) bad += (nbad++ ? ", " : "") + std::to_string(d);
  if (nbad == 0) return {};
  std::string s = (nbad == 1 ? "GPU " : "GPUs ") + bad + (nbad == 1 ? " does" : " do") +
                  " not exist: the CUDA runtime sees " + std::to_string(count) + " GPU(s)";
  if (count > 0) s += " (indices 0.." + std::to_string(count - 1) + ")";
  if (const char* vis = std::getenv("CUDA_VISIBLE_DEVICES"))
    s += std::string("; CUDA_VISIBLE_DEVICES=") + vis + " limits and renumbers them";
  return s;
}

// The GPUs to use: opt.gpus checked against the machine's, or all of them. Calls the CUDA
// runtime (its start takes ~0.2 s).
std::vector<int> resolve_gpus(const std::vector<int>& wanted) {
  const int count = cuda_available() ? static_cast<int>(gpus().size()) : 0;
  if (const std::string why = missing_gpus(wanted, count); !why.empty())
    fail(ErrorCode::Unsupported, "batch", why);
  if (!wanted.empty()) return wanted;
  std::vector<int> all;
  for (int d = 0; d < count; ++d) all.push_back(d);
  return all;
}

// The CUDA workers (src/cuda/batch/cuda_worker.cpp), or NotCompiled in a build without the CUDA
// backend (src/core/cuda_call.hpp).
std::vector<std::unique_ptr<Worker>> cuda_workers(const std::vector<PipelineStep>& steps,
                                                  const std::vector<int>& devices, int streams,
                                                  bool nvjpeg, int jpeg_batch) {
  return TEXCV_CUDA("batch", make_cuda_workers(steps, devices, streams, nvjpeg, jpeg_batch));
}

// Workers made with `new` and never destroyed (Options::fast_exit): the process ends first.
void park(std::vector<std::unique_ptr<Worker>>& ws) {
  static std::mutex m;
  static auto* parked = new std::vector<std::unique_ptr<Worker>>();
  std::lock_guard<std::mutex> lock(m);
  for (auto& w : ws) parked->push_back(std::move(w));
  ws.clear();
}

}  // namespace

const char* to_string(Device d) noexcept {
  switch (d) {
    case Device::cpu:
      return "cpu";
    case Device::cuda:
      return "cuda";
    case Device::automatic:
      return "auto";
  }
  return "unknown";
}

Device parse_device(const std::string& s) {
  if (s == "cpu") return Device::cpu;
  if (s == "cuda") return Device::cuda;
  if (s == "auto") return Device::automatic;
  fail(ErrorCode::InvalidArgument, "batch", "unknown device", "'" + s + "'", "cpu, cuda or auto");
}

JpegCodec parse_jpeg_codec(const std::string& s) {
  if (s == "auto") return JpegCodec::automatic;
  if (s == "cpu") return JpegCodec::cpu;
  if (s == "nvjpeg") return JpegCodec::nvjpeg;
  fail(ErrorCode::InvalidArgument, "batch", "unknown JPEG codec", "'" + s + "'",
       "auto, cpu or nvjpeg");
}

Deliver parse_deliver(const std::string& s) {
  if (s == "files") return Deliver::files;
  if (s == "encoded") return Deliver::encoded;
  if (s == "images") return Deliver::images;
  fail(ErrorCode::InvalidArgument, "batch", "unknown deliver", "'" + s + "'",
       "files, encoded or images");
}

bool gpu_device_nodes() {
  return ::access("/dev/nvidiactl", F_OK) == 0 || ::access("/dev/dxg", F_OK) == 0;
}

bool nvjpeg_available() {
  return TEXCV_CUDA_OR(false, nvjpeg_compiled());
}

bool gpu_jpeg_engines(int gpu) {
  return TEXCV_CUDA_OR(false, nvjpeg_hardware_decoder(gpu));
}

void check_options(const Options& opt) {
  (void)injected_faults_from_env();  // a testing aid's syntax: a usage error before any file
  auto bad = [](const std::string& what, const std::string& got, const std::string& expected) {
    fail(ErrorCode::InvalidArgument, "batch", what, got, expected);
  };
  if (opt.streams < 1) bad("streams (CUDA workers per GPU)", std::to_string(opt.streams), ">= 1");
  if (opt.gpu_jpeg_batch < 1)
    bad("gpu_jpeg_batch", std::to_string(opt.gpu_jpeg_batch), ">= 1 (1: no batched decode)");
  if (opt.cpu_workers < 0)
    bad("cpu_workers", std::to_string(opt.cpu_workers), ">= 0 (0: one per core)");
  if (opt.cpu_threads_each < 0)
    bad("cpu_threads_each", std::to_string(opt.cpu_threads_each), ">= 0 (0: cores / workers)");
  if (opt.decode_threads < 0 || opt.encode_threads < 0)
    bad("decode_threads / encode_threads",
        std::to_string(opt.decode_threads) + " / " + std::to_string(opt.encode_threads),
        ">= 0 (0: one per core)");
  if (opt.bit_depth != 0 && opt.bit_depth != 8 && opt.bit_depth != 16 && opt.bit_depth != 32)
    bad("bit_depth", std::to_string(opt.bit_depth), "0 (keep), 8, 16 or 32");
  if (opt.deliver != Deliver::files && !opt.on_output)
    bad("deliver", opt.deliver == Deliver::encoded ? "encoded" : "images",
        "an on_output callback to receive the outputs");
  if (opt.jpeg_codec == JpegCodec::nvjpeg) {
    if (!nvjpeg_available())
      fail(ErrorCode::Unsupported, "batch",
           "jpeg_codec nvjpeg: this build has no nvJPEG (it needs the CUDA toolkit's nvjpeg.h and "
           "libnvjpeg at configure time)");
    if (opt.device == Device::cpu)
      fail(ErrorCode::InvalidArgument, "batch",
           "jpeg_codec nvjpeg: nvJPEG runs on the CUDA workers; the device is cpu");
  }
  if (opt.device == Device::cuda) {
    if (!build_info().cuda_compiled)
      fail(ErrorCode::Unsupported, "batch",
           "device cuda: this build has no CUDA backend (use cpu or auto)");
    if (!cuda_available())
      fail(ErrorCode::Unsupported, "batch",
           "device cuda: no usable GPU: the CUDA runtime sees no GPU on this machine (use cpu or "
           "auto)");
    (void)resolve_gpus(opt.gpus);
  } else if (opt.device == Device::automatic && !opt.gpus.empty()) {
    (void)resolve_gpus(opt.gpus);  // GPUs asked for by index must exist
  }
}

// The workers a Session keeps between its runs.
struct Session::Kept {
  std::vector<std::unique_ptr<Worker>> workers;  // empty: made by the next run
  std::string gpu_note;                          // why no CUDA worker joined (automatic)
  std::mutex running;                            // one run at a time
};

namespace {

// run() after check_options: fills sum and marks seen[i] for each job given to on_result.
// kept: a Session's workers, used (or made, when there are none) and kept for its next run;
// nullptr: batch::run, whose workers are made for these jobs and released (or parked) after.
void run_checked(const std::vector<Job>& jobs, const Options& opt, std::stop_token stop,
                 std::vector<char>& seen, Summary& sum, Session::Kept* kept) {
  const auto t0 = std::chrono::steady_clock::now();
  const int hw = hardware_threads();
  const bool want_gpu =
      opt.device == Device::cuda ||
      (opt.device == Device::automatic && build_info().cuda_compiled && gpu_device_nodes());
  const bool nvjpeg = want_gpu && nvjpeg_available() && opt.jpeg_codec != JpegCodec::cpu;
  const int cpu_workers = opt.cpu_workers > 0 ? opt.cpu_workers : hw;
  int cpu_threads_each =
      opt.cpu_threads_each > 0 ? opt.cpu_threads_each : std::max(1, hw / cpu_workers);
  // TEXCV_BATCH_CPU_THREADS_EACH=N (an A/B aid, docs/batch.md): each CPU worker runs its
  // operations on N threads, whatever the number of workers (with --workers 4 on 16 cores the
  // workers would otherwise take 4 threads each, the same cores in all).
  if (const char* te = std::getenv("TEXCV_BATCH_CPU_THREADS_EACH"); te && std::atoi(te) > 0)
    cpu_threads_each = std::atoi(te);

  EngineConfig cfg;
  cfg.steps = opt.steps;
  cfg.write = opt.write;
  cfg.read = opt.read;
  cfg.decode_threads = opt.decode_threads > 0 ? opt.decode_threads : hw;
  cfg.encode_threads = opt.encode_threads > 0 ? opt.encode_threads : hw;
  cfg.bit_depth = opt.bit_depth;
  cfg.max_pixels = opt.max_pixels;
  cfg.max_bytes = opt.max_bytes;
  cfg.fail_fast = opt.fail_fast;
  cfg.gpu_jpeg_decode = nvjpeg;
  cfg.gpu_jpeg_encode = nvjpeg;
  cfg.deliver = opt.deliver;
  cfg.on_output = opt.on_output;
  cfg.on_event = opt.on_event;
  cfg.faults = injected_faults_from_env();
  cfg.detach_late = opt.fast_exit;
  cfg.timing = timing_from_env();
  // Inputs of 4 MB or more are decoded into the pinned pool while a CUDA worker runs, so that
  // the worker uploads them with no staging copy (issue 15, item 5). While the pool's buffers
  // were page-locked by cudaMallocHost that cost more than it saved (the TIFF task on --device
  // cuda: 1.09-1.67 s against 0.71 on the H200 at 5e443d6, 1.28 against 0.96 on the H100 at
  // efd9d25: the decoders waited 0.6 s for their first buffers); with cudaHostRegister on huge
  // pages (3e26c08) the two tie (0.63 against 0.63 s, 4 rounds on the H100; docs/performance.md).
  // TEXCV_BATCH_PINNED_INPUT=0 (an A/B aid, docs/batch.md) decodes into pageable memory.
  const char* pinned_env = std::getenv("TEXCV_BATCH_PINNED_INPUT");
  if (want_gpu && !(pinned_env && std::string(pinned_env) == "0"))
    cfg.pinned_alloc = TEXCV_CUDA_OR(decltype(cfg.pinned_alloc)(), pinned_input_allocator());

  // nvJPEG's states and the hardware decoder are set up (a large part of a second) only for a
  // run with JPEG inputs or outputs, and the batched decode only with JPEG inputs.
  auto jpeg_name = [](const std::string& name) {
    try {
      return format_from_path(name) == ImageFormat::jpeg;
    } catch (const Error&) {
      return false;
    }
  };
  auto jpeg_input = [&](const Job& j) {
    if (!j.data.empty()) return j.data.size() >= 2 && j.data[0] == 0xFF && j.data[1] == 0xD8;
    return jpeg_name(j.input);
  };
  const bool any_jpeg_in = std::any_of(jobs.begin(), jobs.end(), jpeg_input);
  const bool all_jpeg = !jobs.empty() && std::all_of(jobs.begin(), jobs.end(), jpeg_input);
  const bool any_jpeg_out =
      opt.deliver != Deliver::images &&
      std::any_of(jobs.begin(), jobs.end(), [&](const Job& j) { return jpeg_name(j.output); });
  // A session's workers serve its later runs too, whatever their files: they get nvJPEG and the
  // batched decode whenever this build and the options allow.
  const bool nvjpeg_workers = nvjpeg && (kept || any_jpeg_in || any_jpeg_out);
  const int jpeg_batch = kept || any_jpeg_in ? opt.gpu_jpeg_batch : 1;

  // The workers: CPU backend workers at once (cpu, automatic), CUDA workers at once (cuda) or
  // made in the background and joining when set up (automatic); a session's from its last run.
  std::vector<std::unique_ptr<Worker>> workers;
  std::size_t gpu_workers_expected = 0;
  // The CPU workers' nice value while a GPU takes files beside them (Device::automatic):
  // TEXCV_BATCH_CPU_NICE=n another, for A/B runs (docs/batch.md).
  int cpu_nice = opt.device == Device::automatic && want_gpu ? kCpuWorkerNice : 0;
  if (const char* v = std::getenv("TEXCV_BATCH_CPU_NICE"); v && cpu_nice > 0)
    cpu_nice = std::clamp(std::atoi(v), 0, 19);
  const bool reuse = kept && !kept->workers.empty();
  // TEXCV_BATCH_CUDA_BACKGROUND=1 (an A/B aid, docs/batch.md): Device::cuda's workers are made
  // in the background too, while the decode threads check the first JPEG files for them. Not the
  // default: on the H100 machine at 7e0cc90 the set-up under the decode threads' load took
  // 0.88-1.12 s instead of ~0.6 s, so the GPU joined later than the checked files needed it; wall
  // time 1.52-1.68 s against 1.25-1.74 s on 1,000 JPEGs, 4.07-4.35 s against 3.97-4.12 s on
  // 8,000, with 1.6-2.9x the peak memory (docs/performance.md, "Issue 15: the CUDA workers set up
  // in the background").
  const bool late_cuda =
      opt.device == Device::cuda && !reuse && env_is_one("TEXCV_BATCH_CUDA_BACKGROUND");
  if (reuse) {
    workers = std::move(kept->workers);
    kept->workers.clear();
    gpu_workers_expected = static_cast<std::size_t>(
        std::count_if(workers.begin(), workers.end(), [](const auto& w) { return w->is_gpu(); }));
  } else if (opt.device == Device::cuda && !late_cuda) {
    workers =
        cuda_workers(cfg.steps, resolve_gpus(opt.gpus), opt.streams, nvjpeg_workers, jpeg_batch);
    gpu_workers_expected = workers.size();
  } else if (opt.device == Device::cuda) {
    // Set up in the background (below) while the decode threads read and check the first files.
  } else {
    for (int i = 0; i < cpu_workers; ++i)
      workers.push_back(make_cpu_worker(cfg.steps, i, cpu_threads_each));
  }
  // Below the GPU's set-up and feeding once a GPU is to join.
  cfg.cpu_join_nice = cpu_nice;
  auto gpu_note = std::make_shared<std::string>();
  if (opt.device == Device::automatic && build_info().cuda_compiled && !want_gpu)
    *gpu_note = "no NVIDIA GPU device on this machine (no /dev/nvidiactl)";
  if (reuse) *gpu_note = kept->gpu_note;
  const bool late_gpu = (opt.device == Device::automatic && want_gpu && !reuse) || late_cuda;
  if (late_gpu) {
    const std::vector<int> devices = late_cuda ? resolve_gpus(opt.gpus) : opt.gpus;
    gpu_workers_expected =
        static_cast<std::size_t>(opt.streams) * (late_cuda ? devices.size() : std::size_t{1});
    cfg.late_what = "CUDA workers";
    cfg.late = [steps = cfg.steps, wanted = devices, streams = opt.streams, nvjpeg = nvjpeg_workers,
                batch = jpeg_batch, gpu_note] {
      if (!cuda_available()) {
        *gpu_note = "the CUDA runtime sees no usable GPU";
        return std::vector<std::unique_ptr<Worker>>();
      }
      return cuda_workers(steps, resolve_gpus(wanted), streams, nvjpeg, batch);
    };
    // automatic: a GPU that could only join at the run's end does not (EngineConfig::
    // late_setup_guess_s; the set-up measured on the H100 machine: the CUDA runtime 0.09-0.18 s,
    // nvJPEG's hardware handle 0.61-0.62 s). TEXCV_BATCH_AUTO_ALWAYS_JOIN=1 (an A/B aid): it
    // always joins, as before 2026-12-07.
    if (opt.device == Device::automatic && !env_is_one("TEXCV_BATCH_AUTO_ALWAYS_JOIN"))
      cfg.late_setup_guess_s = nvjpeg_workers && any_jpeg_in ? 0.8 : 0.3;
    // TEXCV_BATCH_LATE_USEFUL_S=s (an A/B aid, docs/batch.md): the decision's time after the
    // set-up before the GPU helps (EngineConfig::late_useful_s; 0.6 s).
    if (const char* v = std::getenv("TEXCV_BATCH_LATE_USEFUL_S"); v && std::atof(v) > 0)
      cfg.late_useful_s = std::atof(v);
    // TEXCV_BATCH_HOST_CACHE=0 (an A/B aid, docs/batch.md): no cache of host image buffers.
    if (const char* v = std::getenv("TEXCV_BATCH_HOST_CACHE"); v && std::string(v) == "0")
      cfg.host_cache = false;
    // TEXCV_BATCH_LATE_WAIT=1 (an A/B aid, docs/batch.md): the set-up only after the decision.
    cfg.late_wait_verdict = env_is_one("TEXCV_BATCH_LATE_WAIT");
    // TEXCV_BATCH_SETUP_NICE=n (an A/B aid, docs/batch.md): the set-up at that nice value.
    if (const char* v = std::getenv("TEXCV_BATCH_SETUP_NICE"); v && std::atoi(v) > 0)
      cfg.late_nice = std::clamp(std::atoi(v), 1, 19);
    // The decode threads check JPEG files for the GPU while it is set up (EngineConfig::
    // gpu_jpeg_coming) on cuda; on automatic with TEXCV_BATCH_AUTO_PRECHECK=1 (an A/B aid).
    cfg.gpu_jpeg_coming =
        nvjpeg_workers && any_jpeg_in && (late_cuda || env_is_one("TEXCV_BATCH_AUTO_PRECHECK"));
  }
  // Every worker lost: CPU backend workers take the files left.
  const int first_slot = opt.device == Device::cuda ? 0 : cpu_workers;
  cfg.fallback = [steps = cfg.steps, cpu_workers, first_slot, cpu_threads_each] {
    std::vector<std::unique_ptr<Worker>> v;
    for (int i = 0; i < cpu_workers; ++i)
      v.push_back(make_cpu_worker(steps, first_slot + i, cpu_threads_each));
    return v;
  };

  // The queues. Batched GPU decoding needs the files of a batch waiting in the queue (each is
  // its encoded bytes until a worker decodes it): room for two batches a GPU worker, at most
  // 512 files, when every input is a JPEG (other files wait decoded: a TIFF of 5000^2 holds
  // 75 MB); else two files a worker.
  const std::size_t nworkers = workers.size() + (late_gpu ? gpu_workers_expected : 0);
  if (opt.queue > 0) {
    cfg.queue_capacity = opt.queue;
  } else if (nvjpeg_workers && all_jpeg && jpeg_batch > 1 && gpu_workers_expected > 0) {
    cfg.queue_capacity =
        std::min<std::size_t>(512, 2 * gpu_workers_expected * static_cast<std::size_t>(jpeg_batch));
    // Decoded images (the files the CPU decodes before the GPU joins, or for the CPU workers)
    // as in a queue of other files: two a worker.
    cfg.host_queue_capacity = std::max<std::size_t>(4, 2 * nworkers);
    if (cfg.gpu_jpeg_coming) {
      // Room for the files checked while the GPU is set up (~3,000 1080p files a second on 16
      // cores for 0.3-0.6 s), bounded by their bytes (kPrecheckQueueMB, or
      // TEXCV_BATCH_PRECHECK_MB for A/B runs); the results as before.
      cfg.output_queue_capacity = cfg.queue_capacity;
      cfg.queue_capacity = kPrecheckQueueFiles;
      std::size_t mb = kPrecheckQueueMB;
      if (const char* v = std::getenv("TEXCV_BATCH_PRECHECK_MB"); v && std::atoi(v) > 0)
        mb = static_cast<std::size_t>(std::atoi(v));
      cfg.encoded_queue_bytes = mb << 20;
    }
  } else {
    cfg.queue_capacity = std::max<std::size_t>(4, 2 * nworkers);
  }

  std::atomic<bool> stop_flag{false};
  std::stop_callback on_stop(stop, [&] { stop_flag.store(true); });
  std::vector<std::size_t> todo(jobs.size());
  for (std::size_t i = 0; i < todo.size(); ++i) todo[i] = i;
  EngineReport rep = run_engine(
      jobs, todo, cfg, workers,
      [&](const Result& r) {
        if (r.index < seen.size()) seen[r.index] = 1;
        switch (r.status) {
          case Status::ok:
            ++sum.ok;
            break;
          case Status::failed:
            ++sum.failed;
            break;
          case Status::cancelled:
            ++sum.cancelled;
            break;
          case Status::corrupt:
            ++sum.corrupt;
            break;
          default:
            break;
        }
        if (r.status == Status::ok || r.status == Status::corrupt) {
          if (r.device.rfind("cuda", 0) == 0)
            ++sum.on_cuda;
          else
            ++sum.on_cpu;
        }
        if (opt.on_result) opt.on_result(r);
      },
      stop_flag);
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sum.first_file_s = rep.first_done_s;
  sum.gpu_ready_s =
      (opt.device == Device::cuda && !late_cuda) || (reuse && gpu_workers_expected > 0)
          ? 0.0
          : rep.late_ready_s;
  sum.gpu_note = !rep.late_note.empty() ? rep.late_note : *gpu_note;
  sum.lost = std::move(rep.lost);
  sum.retried = rep.retried;
  sum.fallback_workers = rep.fallback_workers;
  sum.all_lost = rep.all_lost;
  sum.workers_made = (reuse ? 0 : workers.size()) + rep.late_workers.size();
  sum.timing = std::move(rep.timing);
  if (kept) {
    // The workers whose device was not lost (the late CUDA workers and the fallback workers
    // included) serve the next run; none left: it makes them again.
    const std::set<std::string> gone(rep.lost_devices.begin(), rep.lost_devices.end());
    for (auto* v : {&workers, &rep.late_workers})
      for (auto& w : *v)
        if (!w->device().empty() && !gone.count(w->device()))  // "": the engine's NoWorker
          kept->workers.push_back(std::move(w));
    kept->gpu_note = sum.gpu_note;
    return;
  }
  if (opt.fast_exit) {
    // Releasing CUDA workers (streams, buffers, nvJPEG states) took 0.24 s after 1,000 JPEGs
    // on the H200, for nothing: the caller ends the process, and the driver frees the GPU.
    if (opt.device != Device::cpu) park(workers);
    park(rep.late_workers);
  }
}

// Whether a failure of the run's set-up is the machine's (memory, threads) rather than the
// options' (those stay errors of run(), as check_options').
bool resource_failure(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) || dynamic_cast<const std::system_error*>(&e))
    return true;
  const auto* err = dynamic_cast<const Error*>(&e);
  return err && err->code() == ErrorCode::OutOfMemory;
}

// batch::run (kept nullptr) and Session::run.
Summary run_with(const std::vector<Job>& jobs, const Options& opt, std::stop_token stop,
                 Session::Kept* kept) {
  // Every job gets its result, also when the run cannot be set up for want of memory or threads
  // (a failed allocation before the first file, or while summing up after the last): the jobs
  // without one fail with the reason. Only a failure before this vector exists makes run() throw
  // (Error(OutOfMemory), before any file).
  std::vector<char> seen;
  try {
    check_options(opt);
    seen.assign(jobs.size(), 0);
  } catch (const std::bad_alloc&) {
    fail(ErrorCode::OutOfMemory, "batch",
         "out of memory before any file was started (an allocation failed: std::bad_alloc)");
  }
  Summary sum;
  try {
    run_checked(jobs, opt, stop, seen, sum, kept);
  } catch (const std::exception& e) {
    if (!resource_failure(e)) throw;
    const bool oom = !dynamic_cast<const std::system_error*>(&e);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      if (seen[i]) continue;
      Result r;
      r.index = i;
      r.status = Status::failed;
      r.stage = "read";
      try {
        r.error = "batch: " + jobs[i].input + ": the run could not be set up (" +
                  (oom && !dynamic_cast<const Error*>(&e)
                       ? std::string("out of memory: an allocation failed: std::bad_alloc")
                       : std::string(e.what())) +
                  "); the file was not read";
      } catch (const std::exception&) {
        r.error = "out of memory";  // fits the string's own buffer: no allocation
      }
      ++sum.failed;
      try {
        if (opt.on_result) opt.on_result(r);
      } catch (const std::exception&) {
      }
    }
  }
  return sum;
}

}  // namespace

Summary run(const std::vector<Job>& jobs, const Options& opt, std::stop_token stop) {
  return run_with(jobs, opt, stop, nullptr);
}

Session::Session(Options opt) : opt_(std::move(opt)), kept_(std::make_unique<Kept>()) {
  opt_.fast_exit = false;  // the destructor releases the workers
  // The outputs' callback may come with each run (Session::run's on_output).
  Options checked = opt_;
  if (!checked.on_output) checked.on_output = [](const Result&, Output&&) {};
  check_options(checked);
}

Session::~Session() = default;

const Options& Session::options() const noexcept {
  return opt_;
}

std::vector<std::string> Session::workers() const {
  std::lock_guard<std::mutex> lock(kept_->running);
  std::vector<std::string> names;
  for (const auto& w : kept_->workers) names.push_back(w->device());
  return names;
}

Summary Session::start() {
  return run({}, {}, {}, [](const Result&, Output&&) {});
}

Summary Session::run(const std::vector<Job>& jobs, std::stop_token stop,
                     std::function<void(const Result&)> on_result,
                     std::function<void(const Result&, Output&&)> on_output) {
  std::unique_lock<std::mutex> lock(kept_->running, std::try_to_lock);
  if (!lock.owns_lock())
    fail(ErrorCode::InvalidArgument, "batch",
         "Session::run called while another run of the same session is under way; a session "
         "runs one batch at a time (use one session per thread)");
  Options opt = opt_;
  if (on_result) opt.on_result = std::move(on_result);
  if (on_output) opt.on_output = std::move(on_output);
  return run_with(jobs, opt, stop, kept_.get());
}

}  // namespace texcv::batch
