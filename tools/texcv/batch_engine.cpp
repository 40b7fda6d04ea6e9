// The batch engine: decode threads, workers, encode threads and the bounded queues between them
// (see batch_engine.hpp), and the CPU worker.
#include "tools/texcv/batch_engine.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "texcv/error.hpp"
#include "texcv/runtime.hpp"
#include "tools/texcv/batch_queue.hpp"

namespace fs = std::filesystem;

namespace texcv::cli {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A work item with its start time.
struct Item {
  WorkItem work;
  Clock::time_point start;
};

// Reads a whole file (the caller has checked its size).
std::vector<unsigned char> read_bytes(const std::string& path, std::uint64_t size) {
  std::vector<unsigned char> data(static_cast<std::size_t>(size));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) fail(ErrorCode::Io, "batch", path + ": cannot open: " + std::strerror(errno));
  const std::size_t n = std::fread(data.data(), 1, data.size(), f);
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err || n != data.size())
    fail(ErrorCode::Io, "batch", path + ": read error or file changed while reading");
  return data;
}

// Writes bytes as imwrite writes images: a temporary file beside the target (create_temp_file,
// so --resume's rule and the stale-file clean-up hold for it too), then a rename.
void write_bytes_atomic(const std::string& path, const std::vector<unsigned char>& data) {
  std::string tmp;
  const int fd = create_temp_file(path, tmp);
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t w = ::write(fd, data.data() + done, data.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(ErrorCode::Io, "batch", path + ": write error: " + std::strerror(e));
    }
    done += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    fail(ErrorCode::Io, "batch",
         path + ": cannot move the written file into place: " + std::strerror(e));
  }
}

// The queue between the decoders and the workers. Unlike BoundedQueue it knows how many taken
// items are still being processed: a worker whose device is lost puts its item back first in
// line, so a worker may only end once the queue is closed, empty and no worker is busy (nothing
// can come back).
class WorkQueue {
 public:
  explicit WorkQueue(std::size_t capacity) : capacity_(capacity > 0 ? capacity : 1) {}

  // Decoders: waits for room, then adds the item.
  void push(Item item) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_full_.wait(lock, [&] { return items_.size() < capacity_; });
    items_.push_back(std::move(item));
    lock.unlock();
    changed_.notify_all();
  }
  // Workers: waits for an item and marks the caller busy; nothing once finished().
  std::optional<Item> take() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !items_.empty() || (closed_ && busy_ == 0); });
    if (items_.empty()) return std::nullopt;
    Item item = std::move(items_.front());
    items_.pop_front();
    ++busy_;
    lock.unlock();
    not_full_.notify_one();
    return item;
  }
  // Workers, after take(): appends up to n more items that are waiting now (never waits) and
  // marks the caller busy with each.
  void take_ready(std::size_t n, std::vector<Item>& out) {
    std::unique_lock<std::mutex> lock(mutex_);
    std::size_t got = 0;
    for (; got < n && !items_.empty(); ++got) {
      out.push_back(std::move(items_.front()));
      items_.pop_front();
      ++busy_;
    }
    lock.unlock();
    if (got > 0) not_full_.notify_all();
  }
  // The item the caller took has left this stage.
  void done() {
    std::unique_lock<std::mutex> lock(mutex_);
    --busy_;
    lock.unlock();
    changed_.notify_all();
  }
  // The item the caller took goes back, first in line (beyond the capacity: at most one item
  // per worker).
  void put_back(Item item) {
    std::unique_lock<std::mutex> lock(mutex_);
    items_.push_front(std::move(item));
    --busy_;
    lock.unlock();
    changed_.notify_all();
  }
  // No more pushes.
  void close() {
    std::unique_lock<std::mutex> lock(mutex_);
    closed_ = true;
    lock.unlock();
    changed_.notify_all();
  }
  bool finished() {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_ && busy_ == 0 && items_.empty();
  }

 private:
  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_, changed_;
  std::deque<Item> items_;
  std::size_t busy_ = 0;
  bool closed_ = false;
};

// Takes the files left when every worker (and every fallback worker) is lost: each fails.
class NoWorker final : public Worker {
 public:
  explicit NoWorker(std::string why) : why_(std::move(why)) {}
  std::string name() const override { return ""; }
  void process(WorkItem&) override { fail(ErrorCode::Cuda, "batch", why_); }

 private:
  std::string why_;
};

class CpuWorker final : public Worker {
 public:
  CpuWorker(const std::vector<PipelineStep>& steps, int slot, int threads)
      : steps_(steps), slot_(slot), threads_(threads) {}
  std::string name() const override { return "cpu"; }
  std::string device() const override { return "cpu:" + std::to_string(slot_); }
  void process(WorkItem& item) override {
    // process() always runs on this worker's thread: set its operations' thread count once.
    if (!threads_set_) {
      set_cpu_threads(threads_);
      threads_set_ = true;
    }
    item.result.device = "cpu";
    Image out = run_steps_on_host(host_input(item).view(), steps_);
    item.image = std::move(out);
  }

 private:
  const std::vector<PipelineStep>& steps_;
  int slot_ = 0;
  int threads_ = 0;
  bool threads_set_ = false;
};

// The element type and conversion scale for --bit-depth.
Image convert_depth(const Image& img, int bit_depth) {
  const ElemType want =
      bit_depth == 8 ? ElemType::u8 : (bit_depth == 16 ? ElemType::u16 : ElemType::f32);
  if (img.type() == want) return Image();
  auto max_of = [](ElemType t) {
    return t == ElemType::u8 ? 255.0 : (t == ElemType::u16 ? 65535.0 : 1.0);
  };
  const double scale = max_of(want) / max_of(img.type());
  ParamValues p{{"type", to_string(want)}, {"scale", std::to_string(scale)}};
  // std::to_string keeps 6 decimals; 1/65535 needs more.
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", scale);
  p["scale"] = buf;
  return apply("convert", img.view(), p);
}

// The warning of a file with several pages (a multi-page TIFF) of which only the first is read.
std::string pages_warning(int pages) {
  return "multi-page TIFF: only page 1 of " + std::to_string(pages) +
         " was processed (texcv reads the first page of a TIFF)";
}

// Checks one file with the engine's limits: the byte cap from stat, the pixel cap from the
// header, both before any pixel buffer is allocated. Fills r's input fields and its warning
// (several pages).
ImageInfo check_file(const std::string& p, const EngineConfig& cfg, JobResult& r) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0)
    fail(ErrorCode::Io, "batch", p + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(ErrorCode::Io, "batch", p + ": not a regular file");
  r.bytes_in = static_cast<std::uint64_t>(st.st_size);
  if (st.st_size == 0) fail(ErrorCode::Io, "batch", p + ": empty file (0 bytes)");
  if (cfg.max_bytes > 0 && r.bytes_in > cfg.max_bytes)
    fail(ErrorCode::Io, "batch", p + ": file too large (--max-bytes)",
         std::to_string(r.bytes_in) + " bytes", "at most " + std::to_string(cfg.max_bytes));
  const ImageInfo info = read_info(p);
  r.width = info.width;
  r.height = info.height;
  r.channels = info.channels;
  r.type = info.type;
  if (info.pages > 1) r.warning = pages_warning(info.pages);
  if (cfg.max_pixels > 0 && info.pixels() > cfg.max_pixels)
    fail(ErrorCode::Io, "batch",
         p + ": the header claims " + std::to_string(info.width) + "x" +
             std::to_string(info.height) + " pixels, more than --max-pixels",
         std::to_string(info.pixels()) + " pixels", "at most " + std::to_string(cfg.max_pixels));
  return info;
}

// A corrupt file's status and message (--allow-corrupt): "<path>: <the decoder's warning>".
void mark_corrupt(JobResult& r, const std::string& path, const std::string& warning) {
  r.status = JobStatus::corrupt;
  r.stage = "read";
  r.error = path + ": " + warning;
}

Image read_checked(const std::string& p, const EngineConfig& cfg, JobResult& r) {
  check_file(p, cfg, r);
  ReadNotes notes;
  Image img = imread(p, cfg.read, &notes);
  if (!notes.corrupt.empty()) mark_corrupt(r, p, notes.corrupt);
  return img;
}

}  // namespace

const char* to_string(JobStatus s) noexcept {
  switch (s) {
    case JobStatus::ok:
      return "ok";
    case JobStatus::failed:
      return "failed";
    case JobStatus::skipped:
      return "skipped";
    case JobStatus::cancelled:
      return "cancelled";
    case JobStatus::corrupt:
      return "corrupt";
    case JobStatus::excluded:
      return "excluded";
  }
  return "unknown";
}

Image run_steps_on_host(const ImageView& src, const std::vector<PipelineStep>& steps) {
  Image cur;             // the last step's result (owns the pixels `view` may point into)
  ImageView view = src;  // what the next step reads
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const PipelineStep& s = steps[i];
    try {
      // A crop followed by more steps is a sub-view, not a copy (the next operation reads the
      // rectangle in place; its borders are the rectangle's, as after a copy).
      if (s.name == "crop" && i + 1 < steps.size()) {
        view = view.roi(output_size(s.name, view.width, view.height, s.params));
        continue;
      }
      cur = apply(s.name, view, s.params);
      view = cur.view();
    } catch (const Error& e) {
      throw Error(e.code(), "step " + std::to_string(s.index) + " (" + s.name + "): " + e.what());
    }
  }
  return cur;
}

const Image& host_input(WorkItem& item) {
  if (item.image.empty() && !item.encoded.empty()) {
    std::vector<unsigned char>().swap(item.encoded);
    item.image = imread(item.input);
  }
  return item.image;
}

std::unique_ptr<Worker> make_cpu_worker(const std::vector<PipelineStep>& steps, int slot,
                                        int threads) {
  return std::make_unique<CpuWorker>(steps, slot, threads);
}

std::vector<InjectedFault> parse_injected_faults(const std::string& spec) {
  std::vector<InjectedFault> out;
  std::size_t b = 0;
  while (b <= spec.size()) {
    std::size_t e = spec.find(',', b);
    if (e == std::string::npos) e = spec.size();
    const std::string entry = spec.substr(b, e - b);
    b = e + 1;
    if (entry.empty()) continue;
    const std::size_t at = entry.rfind(":after=");
    const std::string count = at == std::string::npos ? std::string() : entry.substr(at + 7);
    const bool digits = !count.empty() && count.size() <= 9 &&
                        count.find_first_not_of("0123456789") == std::string::npos;
    if (at == std::string::npos || at == 0 || !digits)
      fail(ErrorCode::InvalidArgument, "batch", std::string(kInjectFaultEnv) + ": bad entry",
           "'" + entry + "'", "DEVICE:after=N such as cuda:0:after=3 (entries separated by ',')");
    out.push_back({entry.substr(0, at), static_cast<std::size_t>(std::stoul(count))});
  }
  return out;
}

std::vector<InjectedFault> injected_faults_from_env() {
  const char* v = std::getenv(kInjectFaultEnv);
  return v ? parse_injected_faults(v) : std::vector<InjectedFault>();
}

EngineReport run_engine(const std::vector<BatchJob>& jobs, const std::vector<std::size_t>& todo,
                        const EngineConfig& cfg, std::vector<std::unique_ptr<Worker>>& workers,
                        const std::function<void(const JobResult&)>& on_done,
                        std::atomic<bool>& stop) {
  WorkQueue decoded(cfg.queue_capacity);
  BoundedQueue<Item> processed(cfg.queue_capacity);
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  EngineReport report;

  auto finish = [&](JobResult& r, Clock::time_point start) {
    r.total_ms = ms_since(start);
    if (r.status == JobStatus::failed && cfg.fail_fast) stop.store(true);
    std::lock_guard<std::mutex> lock(done_mutex);
    on_done(r);
  };
  auto failed = [&](JobResult& r, const char* stage, const std::exception& e) {
    r.status = JobStatus::failed;
    r.stage = stage;
    r.error = e.what();
  };
  auto event = [&](const std::string& line) {
    if (!cfg.on_event) return;
    std::lock_guard<std::mutex> lock(done_mutex);
    cfg.on_event(line);
  };

  auto decoder = [&] {
    for (;;) {
      if (stop.load()) return;
      const std::size_t k = next.fetch_add(1);
      if (k >= todo.size()) return;
      Item item;
      item.start = Clock::now();
      WorkItem& w = item.work;
      w.result.index = todo[k];
      const BatchJob& job = jobs[todo[k]];
      w.input = job.input;
      w.output = job.output;
      try {
        const ImageFormat fin = format_from_path(job.input);
        if (cfg.gpu_jpeg_decode && fin == ImageFormat::jpeg) {
          check_file(job.input, cfg, w.result);  // caps and header, no decode
          w.encoded = read_bytes(job.input, w.result.bytes_in);
          // The verdict the CPU path gives: libjpeg-turbo's entropy decoder reads the file (no
          // pixels) and throws what imread throws; nvJPEG decodes only what it found sound. A
          // corrupt file allowed by --allow-corrupt is decoded on the CPU (its recovery, as with
          // --device cpu).
#if !defined(TEXCV_AB_NO_JPEG_CHECK)  // bench/ab_jpeg_check.sh's variant only: the check's cost
          const std::string corrupt =
              check_jpeg(w.encoded.data(), w.encoded.size(), job.input, cfg.read);
#else
          const std::string corrupt;
#endif
          if (!corrupt.empty()) {
            std::vector<unsigned char>().swap(w.encoded);
            w.image = read_checked(job.input, cfg, w.result);
          }
        }
        if (w.encoded.empty() && w.image.empty()) {
          w.image = read_checked(job.input, cfg, w.result);
          const ImageView& v = w.image.view();
          w.result.width = v.width;
          w.result.height = v.height;
          w.result.channels = v.channels;
          w.result.type = v.type;
        }
        if (cfg.gpu_jpeg_encode && format_from_path(job.output) == ImageFormat::jpeg &&
            (cfg.bit_depth == 0 || cfg.bit_depth == 8))
          w.encode_jpeg_quality = cfg.write.jpeg_quality;
      } catch (const std::exception& e) {
        failed(w.result, "read", e);
      }
      w.result.read_ms = ms_since(item.start);
      if (w.result.status == JobStatus::failed) {
        finish(w.result, item.start);
        continue;
      }
      decoded.push(std::move(item));
    }
  };

  // ---- Workers, device losses and the fallback ----
  // state_mutex guards: lost (device -> reason), started (files started per device, for the
  // injected faults), alive (worker threads still taking files), generation, late_threads and
  // late_workers (the fallback workers and their threads, started by the last lost worker).
  std::mutex state_mutex;
  std::map<std::string, std::string> lost;
  std::map<std::string, std::size_t> started;
  int alive = static_cast<int>(workers.size());
  int generation = 0;  // 0: the caller's workers; 1: the fallback; 2: NoWorker
  std::vector<std::unique_ptr<Worker>> late_workers;
  std::vector<std::thread> late_threads;

  auto is_lost = [&](const std::string& dev) {
    std::lock_guard<std::mutex> lock(state_mutex);
    return lost.count(dev) > 0;
  };
  // The reason for an injected fault when this start is the one to fail, else "".
  auto injected = [&](const std::string& dev) -> std::string {
    if (cfg.faults.empty()) return {};
    std::lock_guard<std::mutex> lock(state_mutex);
    const std::size_t n = started[dev]++;
    for (const auto& f : cfg.faults)
      if (f.device == dev && f.after <= n)  // from then on: a lost device stays lost
        return "injected fault (" + std::string(kInjectFaultEnv) + "=" + f.device +
               ":after=" + std::to_string(f.after) + ")";
    return {};
  };
  auto mark_lost = [&](const std::string& dev, const std::string& why) {
    bool first = false;
    {
      std::lock_guard<std::mutex> lock(state_mutex);
      first = lost.emplace(dev, why).second;
      if (first) report.lost.push_back(dev + ": " + why);
    }
    if (first)
      event(dev + " lost (" + why +
            "): its workers stop taking files; the file(s) in flight on it are retried on "
            "other workers");
  };

  std::function<void(Worker&)> worker_loop;
  // A worker stops taking files (its device is lost). The last one starts the fallback.
  auto retire = [&] {
    std::unique_lock<std::mutex> lock(state_mutex);
    if (--alive > 0 || decoded.finished()) return;
    std::vector<std::unique_ptr<Worker>> fresh;
    if (generation == 0 && !workers.empty()) report.all_lost = true;
    if (generation == 0 && cfg.fallback) {
      lock.unlock();
      try {
        fresh = cfg.fallback();
      } catch (const std::exception& e) {
        event(std::string("cannot start the fallback workers: ") + e.what());
      }
      lock.lock();
      report.fallback_workers = fresh.size();
    }
    generation = fresh.empty() ? 2 : generation + 1;
    std::string what;
    if (generation == 2) {
      what = "no worker left: every worker's device was lost";
      fresh.clear();
      fresh.push_back(std::make_unique<NoWorker>(what));
    }
    alive = static_cast<int>(fresh.size());
    lock.unlock();
    event(generation == 2
              ? what + "; the files left fail"
              : "every worker was lost; the files left run on " + std::to_string(fresh.size()) +
                    " fallback worker(s) (" + fresh.front()->name() + ")");
    lock.lock();
    for (auto& w : fresh) {
      late_threads.emplace_back([&worker_loop, wp = w.get()] { worker_loop(*wp); });
      late_workers.push_back(std::move(w));
    }
  };

  worker_loop = [&](Worker& wk) {
    const std::string dev = wk.device();
    const std::size_t want = std::max<std::size_t>(1, wk.batch_size());
    std::vector<Item> batch;
    batch.reserve(want);
    // The device is lost while the files of `batch` were on it: they go back first in line, in
    // their order, each reported as retried; the worker retires.
    auto give_back = [&](const std::string& why) {
      mark_lost(dev, why);
      for (std::size_t k = batch.size(); k-- > 0;) {
        WorkItem& w = batch[k].work;
        JobResult& r = w.result;
        r.retried_from.push_back(dev);
        r.retry_reason = dev + " lost: " + why;
        r.device.clear();
        r.decoder.clear();
        r.cpu_fallback = false;
        r.note.clear();
        std::vector<unsigned char>().swap(w.encoded_output);
        {
          std::lock_guard<std::mutex> lock(state_mutex);
          ++report.retried;
        }
        decoded.put_back(std::move(batch[k]));
      }
      retire();
    };
    for (;;) {
      if (is_lost(dev)) return retire();
      auto first = decoded.take();
      if (!first) return;  // finished: nothing can come back
      batch.clear();
      batch.push_back(std::move(*first));
      if (want > 1) decoded.take_ready(want - 1, batch);
      if (is_lost(dev)) {
        // not started here: no retry to report
        for (std::size_t k = batch.size(); k-- > 0;) decoded.put_back(std::move(batch[k]));
        return retire();
      }
      if (want > 1) {
        std::vector<WorkItem*> items;
        for (auto& it : batch) items.push_back(&it.work);
        const auto t0 = Clock::now();
        std::string lost_why;
        try {
          wk.prepare(items);
        } catch (const WorkerLost& e) {
          lost_why = e.what();
        } catch (const std::exception& e) {
          event(wk.name() + ": preparing " + std::to_string(items.size()) +
                " files together failed (" + e.what() + "); each is processed on its own");
        }
        // The shared work's time, split evenly between the files.
        const double share = ms_since(t0) / static_cast<double>(items.size());
        for (WorkItem* w : items) w->result.process_ms += share;
        if (!lost_why.empty()) return give_back(lost_why);
      }
      for (std::size_t k = 0; k < batch.size(); ++k) {
        Item& item = batch[k];
        const auto t0 = Clock::now();
        WorkItem& w = item.work;
        std::string lost_why;
        try {
          lost_why = injected(dev);
          if (!lost_why.empty()) throw WorkerLost(lost_why);
          wk.process(w);
        } catch (const WorkerLost& e) {
          lost_why = e.what();
        } catch (const std::exception& e) {
          // A failure while this worker's device was lost by another worker is not the file's.
          {
            std::lock_guard<std::mutex> lock(state_mutex);
            if (auto it = lost.find(dev); it != lost.end()) lost_why = it->second;
          }
          if (lost_why.empty()) {
            failed(w.result, "process", e);
            if (w.result.device.empty()) w.result.device = wk.name();
          }
        }
        w.result.process_ms += ms_since(t0);
        if (!lost_why.empty()) {
          // batch[..k) has left this stage; batch[k..] goes back.
          batch.erase(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(k));
          return give_back(lost_why);
        }
        std::vector<unsigned char>().swap(w.encoded);
        if (w.result.status == JobStatus::failed) {
          w.image = Image();
          decoded.done();
          finish(w.result, item.start);
          continue;
        }
        processed.push(std::move(item));
        decoded.done();
      }
    }
  };

  auto encoder = [&] {
    while (auto item = processed.pop()) {
      const auto t0 = Clock::now();
      WorkItem& w = item->work;
      JobResult& r = w.result;
      try {
        const fs::path parent = fs::path(w.output).parent_path();
        if (!parent.empty()) {
          std::error_code ec;
          fs::create_directories(parent, ec);
          if (!fs::is_directory(parent))
            fail(ErrorCode::Io, "batch",
                 "cannot create the output folder '" + parent.string() + "': " + ec.message());
        }
        if (!w.encoded_output.empty()) {
          write_bytes_atomic(w.output, w.encoded_output);  // encoded on the GPU (nvJPEG)
        } else {
          if (cfg.bit_depth != 0) {
            Image converted = convert_depth(w.image, cfg.bit_depth);
            if (!converted.empty()) w.image = std::move(converted);
          }
          const ImageView& v = w.image.view();
          r.out_width = v.width;
          r.out_height = v.height;
          r.out_channels = v.channels;
          r.out_type = v.type;
          imwrite(w.output, v, cfg.write);
        }
        std::error_code ec;
        const auto size = fs::file_size(w.output, ec);
        if (!ec) r.bytes_out = size;
      } catch (const std::exception& e) {
        failed(r, "write", e);
      }
      w.image = Image();
      std::vector<unsigned char>().swap(w.encoded_output);
      r.write_ms = ms_since(t0);
      finish(r, item->start);
    }
  };

  const int nd = cfg.decode_threads > 0 ? cfg.decode_threads : 1;
  const int ne = cfg.encode_threads > 0 ? cfg.encode_threads : 1;
  std::vector<std::thread> decoders, worker_threads, encoders;
  for (int i = 0; i < ne; ++i) encoders.emplace_back(encoder);
  for (auto& w : workers)
    worker_threads.emplace_back([&worker_loop, wp = w.get()] { worker_loop(*wp); });
  if (workers.empty()) {
    alive = 1;
    retire();  // no worker at all: the fallback (or NoWorker) from the start
  }
  for (int i = 0; i < nd; ++i) decoders.emplace_back(decoder);

  for (auto& t : decoders) t.join();
  decoded.close();
  for (auto& t : worker_threads) t.join();
  // Workers started by a retiring worker (which may in turn start others): join until none.
  for (;;) {
    std::vector<std::thread> late;
    {
      std::lock_guard<std::mutex> lock(state_mutex);
      late.swap(late_threads);
    }
    if (late.empty()) break;
    for (auto& t : late) t.join();
  }
  processed.close();
  for (auto& t : encoders) t.join();

  // Files never started (stopped early): reported as cancelled, in order.
  for (std::size_t k = next.load(); k < todo.size(); ++k) {
    JobResult r;
    r.index = todo[k];
    r.status = JobStatus::cancelled;
    on_done(r);
  }
  return report;
}

}  // namespace texcv::cli
