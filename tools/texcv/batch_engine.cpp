// The batch engine: decode threads, workers, encode threads and the bounded queues between them
// (see batch_engine.hpp), and the CPU worker.
#include "tools/texcv/batch_engine.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "texcv/error.hpp"
#include "tools/texcv/batch_queue.hpp"

namespace fs = std::filesystem;

namespace texcv::cli {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// An image travelling between the stages with its record.
struct Item {
  Image image;
  JobResult result;
  Clock::time_point start;
};

class CpuWorker final : public Worker {
 public:
  explicit CpuWorker(const std::vector<PipelineStep>& steps) : steps_(steps) {}
  std::string name() const override { return "cpu"; }
  Image process(const Image& src, JobResult& r) override {
    r.device = "cpu";
    return run_steps_on_host(src.view(), steps_);
  }

 private:
  const std::vector<PipelineStep>& steps_;
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

// Reads one file with the engine's limits: the byte cap from stat, the pixel cap from the
// header, both before the image is allocated.
Image read_checked(const std::string& p, const EngineConfig& cfg, JobResult& r) {
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
  if (cfg.max_pixels > 0 && info.pixels() > cfg.max_pixels)
    fail(ErrorCode::Io, "batch",
         p + ": the header claims " + std::to_string(info.width) + "x" +
             std::to_string(info.height) + " pixels, more than --max-pixels",
         std::to_string(info.pixels()) + " pixels", "at most " + std::to_string(cfg.max_pixels));
  return imread(p);
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
  }
  return "unknown";
}

Image run_steps_on_host(const ImageView& src, const std::vector<PipelineStep>& steps) {
  Image cur;
  for (const auto& s : steps) {
    try {
      cur = apply(s.name, cur.empty() ? src : cur.view(), s.params);
    } catch (const Error& e) {
      throw Error(e.code(), "step " + std::to_string(s.index) + " (" + s.name + "): " + e.what());
    }
  }
  return cur;
}

std::unique_ptr<Worker> make_cpu_worker(const std::vector<PipelineStep>& steps) {
  return std::make_unique<CpuWorker>(steps);
}

void run_engine(const std::vector<BatchJob>& jobs, const std::vector<std::size_t>& todo,
                const EngineConfig& cfg, std::vector<std::unique_ptr<Worker>>& workers,
                const std::function<void(const JobResult&)>& on_done, std::atomic<bool>& stop) {
  BoundedQueue<Item> decoded(cfg.queue_capacity), processed(cfg.queue_capacity);
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;

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

  auto decoder = [&] {
    for (;;) {
      if (stop.load()) return;
      const std::size_t k = next.fetch_add(1);
      if (k >= todo.size()) return;
      Item item;
      item.start = Clock::now();
      item.result.index = todo[k];
      try {
        item.image = read_checked(jobs[todo[k]].input, cfg, item.result);
        const ImageView& v = item.image.view();
        item.result.width = v.width;
        item.result.height = v.height;
        item.result.channels = v.channels;
        item.result.type = v.type;
      } catch (const std::exception& e) {
        failed(item.result, "read", e);
      }
      item.result.read_ms = ms_since(item.start);
      if (item.result.status == JobStatus::failed) {
        finish(item.result, item.start);
        continue;
      }
      decoded.push(std::move(item));
    }
  };

  auto worker_loop = [&](Worker& w) {
    while (auto item = decoded.pop()) {
      const auto t0 = Clock::now();
      try {
        Image out = w.process(item->image, item->result);
        item->image = std::move(out);
      } catch (const std::exception& e) {
        failed(item->result, "process", e);
        if (item->result.device.empty()) item->result.device = w.name();
      }
      item->result.process_ms = ms_since(t0);
      if (item->result.status == JobStatus::failed) {
        item->image = Image();
        finish(item->result, item->start);
        continue;
      }
      processed.push(std::move(*item));
    }
  };

  auto encoder = [&] {
    while (auto item = processed.pop()) {
      const auto t0 = Clock::now();
      JobResult& r = item->result;
      const BatchJob& job = jobs[r.index];
      try {
        if (cfg.bit_depth != 0) {
          Image converted = convert_depth(item->image, cfg.bit_depth);
          if (!converted.empty()) item->image = std::move(converted);
        }
        const ImageView& v = item->image.view();
        r.out_width = v.width;
        r.out_height = v.height;
        r.out_channels = v.channels;
        r.out_type = v.type;
        const fs::path parent = fs::path(job.output).parent_path();
        if (!parent.empty()) {
          std::error_code ec;
          fs::create_directories(parent, ec);
          if (!fs::is_directory(parent))
            fail(ErrorCode::Io, "batch",
                 "cannot create the output folder '" + parent.string() + "': " + ec.message());
        }
        imwrite(job.output, v, cfg.write);
        std::error_code ec;
        const auto size = fs::file_size(job.output, ec);
        if (!ec) r.bytes_out = size;
      } catch (const std::exception& e) {
        failed(r, "write", e);
      }
      item->image = Image();
      r.write_ms = ms_since(t0);
      finish(r, item->start);
    }
  };

  const int nd = cfg.decode_threads > 0 ? cfg.decode_threads : 1;
  const int ne = cfg.encode_threads > 0 ? cfg.encode_threads : 1;
  std::vector<std::thread> decoders, worker_threads, encoders;
  for (int i = 0; i < ne; ++i) encoders.emplace_back(encoder);
  for (auto& w : workers) worker_threads.emplace_back(worker_loop, std::ref(*w));
  for (int i = 0; i < nd; ++i) decoders.emplace_back(decoder);

  for (auto& t : decoders) t.join();
  decoded.close();
  for (auto& t : worker_threads) t.join();
  processed.close();
  for (auto& t : encoders) t.join();

  // Files never started (stopped early): reported as cancelled, in order.
  for (std::size_t k = next.load(); k < todo.size(); ++k) {
    JobResult r;
    r.index = todo[k];
    r.status = JobStatus::cancelled;
    on_done(r);
  }
}

}  // namespace texcv::cli
