// The batch engine: decode threads, workers, encode threads and the bounded queues between them
// (see batch_engine.hpp), and the CPU worker.
#include "tools/texcv/batch_engine.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
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

// Writes bytes as imwrite writes images: a temporary file ".<name>.tmp-<16 hex>" beside the
// target, then a rename (so --resume's rule and the stale-file clean-up hold for it too).
void write_bytes_atomic(const std::string& path, const std::vector<unsigned char>& data) {
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  static std::atomic<std::uint64_t> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    char suffix[32];
    const std::uint64_t r = (static_cast<std::uint64_t>(::getpid()) << 40) ^
                            static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
                            (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
    std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(r));
    std::string name(".");  // appended piecewise: GCC 12 warns (-Wrestrict) on "." + string
    name += p.filename().string();
    name += ".tmp-";
    name += suffix;
    tmp = (dir / name).string();
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      fail(ErrorCode::Io, "batch",
           path + ": cannot create a temporary file: " + std::strerror(errno));
  }
  if (fd < 0) fail(ErrorCode::Io, "batch", path + ": cannot find a free temporary file name");
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

class CpuWorker final : public Worker {
 public:
  explicit CpuWorker(const std::vector<PipelineStep>& steps) : steps_(steps) {}
  std::string name() const override { return "cpu"; }
  void process(WorkItem& item) override {
    item.result.device = "cpu";
    Image out = run_steps_on_host(host_input(item).view(), steps_);
    item.image = std::move(out);
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

// Checks one file with the engine's limits: the byte cap from stat, the pixel cap from the
// header, both before any pixel buffer is allocated. Fills r's input fields.
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
  if (cfg.max_pixels > 0 && info.pixels() > cfg.max_pixels)
    fail(ErrorCode::Io, "batch",
         p + ": the header claims " + std::to_string(info.width) + "x" +
             std::to_string(info.height) + " pixels, more than --max-pixels",
         std::to_string(info.pixels()) + " pixels", "at most " + std::to_string(cfg.max_pixels));
  return info;
}

Image read_checked(const std::string& p, const EngineConfig& cfg, JobResult& r) {
  check_file(p, cfg, r);
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

const Image& host_input(WorkItem& item) {
  if (item.image.empty() && !item.encoded.empty()) {
    std::vector<unsigned char>().swap(item.encoded);
    item.image = imread(item.input);
  }
  return item.image;
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
        } else {
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

  auto worker_loop = [&](Worker& wk) {
    while (auto item = decoded.pop()) {
      const auto t0 = Clock::now();
      WorkItem& w = item->work;
      try {
        wk.process(w);
      } catch (const std::exception& e) {
        failed(w.result, "process", e);
        if (w.result.device.empty()) w.result.device = wk.name();
      }
      std::vector<unsigned char>().swap(w.encoded);
      w.result.process_ms = ms_since(t0);
      if (w.result.status == JobStatus::failed) {
        w.image = Image();
        finish(w.result, item->start);
        continue;
      }
      processed.push(std::move(*item));
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
