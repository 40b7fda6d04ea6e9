// The batch engine: decode threads, workers, encode threads and the bounded queues between them
// (see engine.hpp), the scheduling of CPU and GPU workers together, and the CPU worker.
#include "src/batch/engine.hpp"

#include <fcntl.h>
#include <sys/resource.h>
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

#include "src/batch/cores.hpp"
#include "src/batch/queue.hpp"
#include "src/core/host_cache.hpp"
#include "texcv/error.hpp"
#include "texcv/runtime.hpp"

namespace fs = std::filesystem;

namespace texcv::batch {

namespace {

using Clock = std::chrono::steady_clock;

// The scheduler's two constants (engine.hpp, "Scheduling"): CPU workers that may take files at
// once while a GPU runs and no CPU file has been timed, or while a GPU is being set up and the
// files are known to take the CPU long, and how long a GPU worker's set-up
// is assumed to last when deciding whether a CPU worker may start a file before it joins (the
// CUDA runtime and a worker's stream and buffers: 0.2-0.3 s on the H200; with nvJPEG's hardware
// decoder 0.6 s).
constexpr int kCpuProbes = 2;
constexpr double kGpuSetUpGuessS = 0.3;
// The cores kept free, beyond one for each CPU worker, before a CPU worker may take a file from a
// full queue while a GPU runs: the GPU's feeding comes in bursts (a batch of files decoded, then
// encoded), and on the H200 at 5e443d6 CPU workers that took cores whenever the queue was full
// made 8,000 JPEGs take 7.9 s on --device auto against 4.9 s on cuda.
constexpr double kSpareCoreMargin = 1.0;
// EngineConfig::late_setup_guess_s: when the decision is made, and how long after its set-up a
// GPU needs before it helps (its workers' own set-up and first batches take 0.2-0.3 s on the
// H100; 0.3 s let GPUs join 1,000-JPEG runs the CPU was to end at 1.15-1.3 s, and those runs took
// 0.1-0.17 s longer than --device cpu in three sessions; with 0.6 s they did not join and took
// the CPU's time: docs/performance.md, twentieth session).
constexpr double kLateDecideS = 0.15;
constexpr double kLateUsefulS = 0.6;
// The nice value of a late-worker factory still setting up when the engine decides its workers
// will not join.
constexpr int kNeverNice = 19;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A work item with its start time.
struct Item {
  WorkItem work;
  Clock::time_point start;
};

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
//
// Items decoded on the host (an image, not encoded bytes) count against a second, smaller
// capacity too (host_capacity): a queue sized for the GPU's JPEG batches (128 encoded files of
// ~0.5 MB) would otherwise fill with 128 decoded 1080p images (6 MB each) while the CPU decodes
// before the GPU joins.
class WorkQueue {
 public:
  // encoded_budget: the bytes of encoded files (JPEG bytes left for a GPU worker) the queue may
  // hold; 0: no limit but the capacity. An encoded file is always let into a queue that holds
  // no encoded bytes, however large it is.
  WorkQueue(std::size_t capacity, std::size_t host_capacity, std::size_t encoded_budget = 0)
      : capacity_(capacity > 0 ? capacity : 1),
        host_capacity_(host_capacity > 0 ? std::min(host_capacity, capacity_) : capacity_),
        encoded_budget_(encoded_budget) {}

  // Who waited for the queue's lock (TEXCV_BATCH_TIMING's engine line).
  enum Role { kPush, kTake, kGated, kRoles };

  // Decoders: waits for room (and, for a decoded image, for room among the decoded), then moves
  // the item in. Those waiting on the host capacity wait on host_room_, the others on not_full_.
  // A failed allocation throws with the item left as it was (the caller reports its file).
  void push(Item& item) {
    const bool host = is_host(item);
    const std::size_t bytes = host ? 0 : item.work.encoded.size();
    std::unique_lock<std::mutex> lock = acquire(kPush);
    auto full = [&] {
      return items_.size() >= capacity_ || (encoded_budget_ > 0 && encoded_bytes_ > 0 &&
                                            encoded_bytes_ + bytes > encoded_budget_);
    };
    auto host_full = [&] { return host && host_items_ >= host_capacity_; };
    if (full() || host_full()) {
      advance_locked();
      ++pushers_waiting_;
      for (;;) {
        if (full())
          not_full_.wait(lock);
        else if (host_full())
          host_room_.wait(lock);
        else
          break;
      }
      advance_locked();
      --pushers_waiting_;
    }
    items_.push_back(std::move(item));  // strong guarantee: nothing moved when it throws
    if (host) peak_host_ = std::max(peak_host_, ++host_items_);
    encoded_bytes_ += bytes;
    peak_encoded_bytes_ = std::max(peak_encoded_bytes_, encoded_bytes_);
    lock.unlock();
    changed_.notify_all();
    gated_.notify_one();
  }
  // Workers: waits for an item and marks the caller busy; nothing once finished().
  std::optional<Item> take() {
    std::unique_lock<std::mutex> lock = acquire(kTake);
    changed_.wait(lock, [&] { return !items_.empty() || (closed_ && busy_ == 0); });
    if (items_.empty()) return std::nullopt;
    Item item = std::move(items_.front());
    items_.pop_front();
    ++busy_;
    const bool host = took_locked(item);
    lock.unlock();
    not_full_.notify_one();
    if (host) host_room_.notify_one();
    return item;
  }
  // Workers, after take(): appends up to n more items that are waiting now (never waits) and
  // marks the caller busy with each.
  void take_ready(std::size_t n, std::vector<Item>& out) {
    std::unique_lock<std::mutex> lock = acquire(kTake);
    std::size_t got = 0;
    bool host = false;
    for (; got < n && !items_.empty(); ++got) {
      out.push_back(std::move(items_.front()));
      items_.pop_front();
      ++busy_;
      host = took_locked(out.back()) || host;
    }
    lock.unlock();
    if (got > 0) not_full_.notify_all();
    if (host) host_room_.notify_all();
  }
  // CPU workers while GPU workers may run: gate(waiting, full, idle) says, under the queue's lock,
  // what the caller may take now (waiting: the items in the queue; full: no room for another, by
  // count or by encoded bytes, or a decoder waits for it; idle: how many decoders waited for
  // room in it, on average over the last window, see idle_pushers_locked): 0 the first item, 1 the
  // first item decoded on the host, 3 the last item (the one the GPU workers would reach last,
  // encoded or not), 2 nothing (it depends on the other workers' progress, so it is asked again
  // every few milliseconds and at every change). Marks the caller busy; nothing once finished().
  std::optional<Item> take_gated(const std::function<int(std::size_t, bool, double)>& gate,
                                 std::atomic<int>& active) {
    std::unique_lock<std::mutex> lock = acquire(kGated);
    for (;;) {
      if (items_.empty() && closed_ && busy_ == 0) return std::nullopt;
      const bool full = items_.size() >= capacity_ || pushers_waiting_ > 0;
      const int g = items_.empty() ? 2 : gate(items_.size(), full, idle_pushers_locked());
      auto it = items_.end();
      if (g == 0) it = items_.begin();
      if (g == 3) it = std::prev(items_.end());
      if (g == 1)
        it = std::find_if(items_.begin(), items_.end(),
                          [](const Item& i) { return !i.work.image.empty(); });
      if (it != items_.end()) {
        Item item = std::move(*it);
        items_.erase(it);
        ++busy_;
        ++active;  // under the lock: the next gate sees it
        const bool host = took_locked(item);
        lock.unlock();
        not_full_.notify_one();
        if (host) host_room_.notify_one();
        return item;
      }
      // Refused: asked again at the next push (one waiter a push), put_back or the end, and every
      // kGateRecheck for what changes with time (the GPU's progress, the decoders' waiting). Not
      // on changed_ (and every 2 ms) as before 2026-12-03: each push and done woke every CPU
      // worker (16 on the H200, some 40,000 wake-ups a second at 2,500 files/s), all taking this
      // queue's lock while the GPU's feeding needed it.
      if (items_.empty())
        gated_.wait(lock);
      else
        gated_.wait_for(lock, kGateRecheck);
    }
  }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  std::size_t capacity() const noexcept { return capacity_; }
  // The item the caller took has left this stage.
  void done() {
    std::unique_lock<std::mutex> lock(mutex_);
    --busy_;
    const bool end = closed_ && busy_ == 0 && items_.empty();
    lock.unlock();
    changed_.notify_all();
    if (end) gated_.notify_all();
  }
  // The item the caller took goes back, first in line (beyond the capacity: at most one item
  // per worker). A failed allocation throws with the item left as it was and the caller still
  // busy with it (it then reports the file and calls done()).
  void put_back(Item& item) {
    std::unique_lock<std::mutex> lock(mutex_);
    items_.push_front(std::move(item));  // strong guarantee: nothing moved when it throws
    if (is_host(items_.front()))
      ++host_items_;
    else
      encoded_bytes_ += items_.front().work.encoded.size();
    --busy_;
    lock.unlock();
    changed_.notify_all();
    gated_.notify_all();
  }
  // No more pushes.
  void close() {
    std::unique_lock<std::mutex> lock(mutex_);
    closed_ = true;
    lock.unlock();
    changed_.notify_all();
    gated_.notify_all();
  }
  bool finished() {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_ && busy_ == 0 && items_.empty();
  }

  // The most decoded images the queue held at once.
  std::size_t peak_host() {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_host_;
  }
  // The most encoded bytes it held at once.
  std::size_t peak_encoded_bytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_encoded_bytes_;
  }
  // Seconds spent waiting for the lock by role, and the pusher-seconds spent waiting for room.
  std::string timing() {
    std::lock_guard<std::mutex> lock(mutex_);
    advance_locked();
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "decoders waited %.3f s for room (summed); waits for the queue's lock: "
                  "push %.3f s (%zu), take %.3f s (%zu), gated take %.3f s (%zu)",
                  wait_integral_s_, lock_wait_s_[kPush], lock_waits_[kPush], lock_wait_s_[kTake],
                  lock_waits_[kTake], lock_wait_s_[kGated], lock_waits_[kGated]);
    return buf;
  }

 private:
  // The queue's lock; a wait for it (try_lock failed) is timed for its role.
  std::unique_lock<std::mutex> acquire(Role role) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (lock.owns_lock()) return lock;
    const auto t0 = Clock::now();
    lock.lock();
    lock_wait_s_[role] += std::chrono::duration<double>(Clock::now() - t0).count();
    ++lock_waits_[role];
    return lock;
  }
  static bool is_host(const Item& item) { return !item.work.image.empty(); }
  // An item left the queue: counts it out of the decoded ones; whether it was one.
  bool took_locked(const Item& item) {
    if (!is_host(item)) {
      encoded_bytes_ -= std::min(encoded_bytes_, item.work.encoded.size());
      return false;
    }
    --host_items_;
    return true;
  }
  // The time integral of pushers_waiting_ up to now.
  void advance_locked() {
    const auto now = Clock::now();
    wait_integral_s_ += static_cast<double>(pushers_waiting_) *
                        std::chrono::duration<double>(now - last_change_).count();
    last_change_ = now;
  }
  // How many pushers (decoders) waited for room, on average over the last kIdleWindow or more
  // (updated once a window has passed; 0 before the first): the decode threads' share of the
  // cores that a full queue leaves idle.
  double idle_pushers_locked() {
    advance_locked();
    const double span = std::chrono::duration<double>(last_change_ - window_t0_).count();
    if (span >= kIdleWindowS) {
      idle_avg_ = (wait_integral_s_ - window_i0_) / span;
      window_t0_ = last_change_;
      window_i0_ = wait_integral_s_;
    }
    return idle_avg_;
  }
  static constexpr double kIdleWindowS = 0.05;
  static constexpr std::chrono::milliseconds kGateRecheck{10};

  const std::size_t capacity_;
  const std::size_t host_capacity_;
  const std::size_t encoded_budget_;
  std::size_t host_items_ = 0, peak_host_ = 0;
  std::size_t encoded_bytes_ = 0, peak_encoded_bytes_ = 0;
  std::condition_variable host_room_;  // pushers of decoded images waiting on host_capacity_
  std::mutex mutex_;
  std::condition_variable not_full_, changed_;
  std::condition_variable gated_;  // take_gated's waiters (the CPU workers)
  std::deque<Item> items_;
  std::size_t busy_ = 0;
  bool closed_ = false;
  int pushers_waiting_ = 0;
  double wait_integral_s_ = 0;  // pusher-seconds spent waiting for room
  double lock_wait_s_[kRoles] = {};
  std::size_t lock_waits_[kRoles] = {};
  Clock::time_point last_change_ = Clock::now(), window_t0_ = last_change_;
  double window_i0_ = 0, idle_avg_ = 0;
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
  void attach() override {
    // The operations' thread count is the thread's own (OpenMP's per-thread setting).
    set_cpu_threads(threads_);
  }
  std::string name() const override { return "cpu"; }
  std::string device() const override { return "cpu:" + std::to_string(slot_); }
  void process(WorkItem& item) override {
    item.result.device = "cpu";
    if (steps_.empty()) {  // decode only (texcv.decode's lists): the image as decoded
      (void)host_input(item);
      return;
    }
    Image out = run_steps_on_host(host_input(item).view(), steps_);
    item.image = std::move(out);
  }

 private:
  const std::vector<PipelineStep> steps_;
  int slot_ = 0;
  int threads_ = 0;
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

// cfg.read with the engine's pixel cap, which the decoders enforce on what they decode.
ReadOptions capped(const ReadOptions& read, const EngineConfig& cfg) {
  ReadOptions ro = read;
  if (cfg.max_pixels > 0 && (ro.max_pixels == 0 || cfg.max_pixels < ro.max_pixels))
    ro.max_pixels = cfg.max_pixels;
  return ro;
}

// The limits every input is checked against: the byte cap, and the pixel cap from the header,
// both before any pixel buffer is allocated. Fills r's input fields and its warning (several
// pages).
void check_info(const std::string& p, const ImageInfo& info, const EngineConfig& cfg, Result& r) {
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
}

void check_bytes(const std::string& p, std::uint64_t n, const EngineConfig& cfg, Result& r,
                 const char* what) {
  r.bytes_in = n;
  if (n == 0) fail(ErrorCode::Io, "batch", p + ": empty " + what + " (0 bytes)");
  if (cfg.max_bytes > 0 && n > cfg.max_bytes)
    fail(ErrorCode::Io, "batch", p + ": " + what + " too large (--max-bytes)",
         std::to_string(n) + " bytes", "at most " + std::to_string(cfg.max_bytes));
}

// Checks one input (the file, or the in-memory data) with the engine's limits. A file is opened
// once (`file`, ImageFile: a FIFO or a device is refused from stat before it is opened), its size
// checked from the open file and its header read from it; decode_checked then decodes that same
// open file, so a file renamed over the one checked cannot be decoded in its place. With `bytes`
// (a file's JPEG for a GPU worker's nvJPEG), the open file is read whole into it and its header
// read from those bytes, which nvJPEG then decodes.
ImageInfo check_input(const WorkItem& w, const EngineConfig& cfg, Result& r,
                      std::optional<ImageFile>& file, std::vector<unsigned char>* bytes = nullptr) {
  const std::string& p = w.input;
  if (w.data) {
    check_bytes(p, w.data->size(), cfg, r, "data");
    const ImageInfo info = read_info(w.data->data(), w.data->size(), p);
    check_info(p, info, cfg, r);
    return info;
  }
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0)
    fail(ErrorCode::Io, "batch", p + ": cannot stat: " + std::strerror(errno));
  // ImageFile refuses anything but a regular file from stat, never opening it, and says what it
  // is ("not a regular file (a FIFO); expected a regular image file").
  if (!S_ISREG(st.st_mode)) file.emplace(p);
  check_bytes(p, static_cast<std::uint64_t>(st.st_size), cfg, r, "file");
  if (!file) file.emplace(p);
  check_bytes(p, file->size(), cfg, r, "file");  // the open file's size
  // The codec is chosen by the extension for a file and by the signature for bytes: a file named
  // .jpg that is no JPEG gets the file's verdict and message.
  bool from_bytes = false;
  if (bytes) {
    *bytes = file->bytes();
    from_bytes = bytes->size() >= 2 && (*bytes)[0] == 0xFF && (*bytes)[1] == 0xD8;
  }
  const ImageInfo info = from_bytes ? read_info(bytes->data(), bytes->size(), p) : file->info();
  check_info(p, info, cfg, r);
  return info;
}

// A corrupt file's status and message (--allow-corrupt): "<path>: <the decoder's warning>".
void mark_corrupt(Result& r, const std::string& path, const std::string& warning) {
  r.status = Status::corrupt;
  r.stage = "read";
  r.error = path + ": " + warning;
}

// A file's failure as its report shows it. texcv::Error's message says what and where already;
// anything else (std::bad_alloc from an allocation, std::system_error...) is named with the file
// and the stage, never shown bare ("std::bad_alloc").
std::string failure_text(const std::exception& e, const std::string& input, const char* stage) {
  if (dynamic_cast<const Error*>(&e)) return e.what();
  const std::string doing = std::string(stage) == "read"      ? "reading"
                            : std::string(stage) == "process" ? "processing"
                                                              : "writing";
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "batch: " + input + ": out of memory while " + doing +
           " the file (an allocation failed: std::bad_alloc)";
  return "batch: " + input + ": " + doing + " the file failed: " + e.what();
}

// Decodes an input on the CPU after check_input (from the file it opened), with `ro` (cfg.read
// plus the engine's choice of threads and allocator, and the pixel cap, which the decoder itself
// enforces too).
Image decode_checked(const WorkItem& w, std::optional<ImageFile>& file, const ReadOptions& ro,
                     Result& r) {
  ReadNotes notes;
  Image img = w.data ? imdecode(w.data->data(), w.data->size(), w.input, ro, &notes)
                     : file->read(ro, &notes);
  if (!notes.corrupt.empty()) mark_corrupt(r, w.input, notes.corrupt);
  r.read_device = "cpu";
  return img;
}

// Whether an input is a JPEG: by its bytes for in-memory data, else by its extension (as the
// codecs choose).
bool is_jpeg_input(const WorkItem& w) {
  if (w.data) return w.data->size() >= 3 && (*w.data)[0] == 0xFF && (*w.data)[1] == 0xD8;
  try {
    return format_from_path(w.input) == ImageFormat::jpeg;
  } catch (const Error&) {
    return false;  // the CPU decoder then says what is wrong
  }
}

}  // namespace

const char* to_string(Status s) noexcept {
  switch (s) {
    case Status::ok:
      return "ok";
    case Status::failed:
      return "failed";
    case Status::skipped:
      return "skipped";
    case Status::cancelled:
      return "cancelled";
    case Status::corrupt:
      return "corrupt";
    case Status::excluded:
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
    } catch (const std::bad_alloc&) {
      throw Error(ErrorCode::OutOfMemory,
                  "step " + std::to_string(s.index) + " (" + s.name + "): out of memory on a " +
                      std::to_string(view.width) + "x" + std::to_string(view.height) +
                      " input (an allocation failed: std::bad_alloc)");
    } catch (const std::exception& e) {
      throw Error(ErrorCode::Internal,
                  "step " + std::to_string(s.index) + " (" + s.name + "): " + e.what());
    }
  }
  return cur;
}

const Image& host_input(WorkItem& item) {
  if (item.image.empty() && !item.encoded.empty()) {
    // The decoder's check_jpeg found these bytes sound (a corrupt file is decoded on the CPU by
    // the decoders): the default options give the same image.
    item.image = imdecode(item.encoded.data(), item.encoded.size(), item.input);
    std::vector<unsigned char>().swap(item.encoded);
    item.result.read_device = "cpu";
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

bool timing_from_env() {
  const char* v = std::getenv("TEXCV_BATCH_TIMING");
  return v && *v && std::string(v) != "0";
}

bool env_is_one(const char* name) {
  const char* v = std::getenv(name);
  return v && std::string(v) == "1";
}

std::size_t pinned_input_budget(std::uint64_t ram_bytes) {
  constexpr std::uint64_t kMin = std::uint64_t{1} << 30, kMax = std::uint64_t{4} << 30;
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(ram_bytes / 32, kMin, kMax));
}

std::vector<InjectedFault> injected_faults_from_env() {
  const char* v = std::getenv(kInjectFaultEnv);
  return v ? parse_injected_faults(v) : std::vector<InjectedFault>();
}

EngineReport run_engine(const std::vector<Job>& jobs, const std::vector<std::size_t>& todo,
                        const EngineConfig& cfg, std::vector<std::unique_ptr<Worker>>& workers,
                        const std::function<void(const Result&)>& on_done,
                        std::atomic<bool>& stop) {
  const auto t_run = Clock::now();
  std::optional<detail::HostCacheScope> host_cache;
  if (cfg.host_cache) host_cache.emplace();
  const int nd = cfg.decode_threads > 0 ? cfg.decode_threads : 1;
  const int ne = cfg.encode_threads > 0 ? cfg.encode_threads : 1;
  WorkQueue decoded(cfg.queue_capacity, cfg.host_queue_capacity, cfg.encoded_queue_bytes);
  BoundedQueue<Item> processed(cfg.output_queue_capacity > 0 ? cfg.output_queue_capacity
                                                             : cfg.queue_capacity);
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  EngineReport report;
  auto us_since_run = [&] {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t_run).count();
  };

  // ---- Scheduling state (atomics: the CPU workers' gate reads them under the queue's lock) ----
  std::atomic<int> gpu_workers{0};                  // GPU workers set up and not retired
  std::atomic<int> gpu_jpeg{0};                     // of them, those that decode JPEG
  std::atomic<std::size_t> gpu_done{0};             // files the GPU workers finished
  std::atomic<std::int64_t> gpu_t0_us{-1};          // when a GPU worker took its first file
  std::atomic<std::size_t> cpu_done{0};             // files the CPU workers finished
  std::atomic<std::int64_t> cpu_busy_us{0};         // their process time, summed
  std::atomic<int> late_pending{cfg.late ? 1 : 0};  // the factory, then each late worker's set-up
  // ---- Workers that join late (EngineConfig::late), made on a background thread ----
  // The shared part outlives this call when the run ends first (the thread may be detached):
  // once `closing` is set the thread touches nothing of this call and destroys its workers.
  // decision (EngineConfig::late_setup_guess_s): 0 not yet, 1 they join, 2 they never join
  // (skip_note says why; written before 2 is set, read only after).
  struct LateShared {
    std::mutex m;
    bool closing = false;
    std::atomic<int> decision{0};
    std::string skip_note;
    Clock::time_point run_start;
    std::atomic<bool> cpu_rate{false};  // the decision has a CPU rate: it comes at kLateDecideS
    // Without a CPU file done, the time from which the CPU workers are surely busy past the time
    // the late workers help (each of the run's waves of files takes at least this long): their
    // workers then join without a rate (0: at kLateDecideS).
    double no_rate_join_s = 0;
    // Set (under m, with cv notified) once the factory's workers are registered or none will
    // be: a run with no other worker waits for it before it closes.
    bool factory_done = false;
    std::condition_variable cv;
    // The factory's thread id while it runs (0 before and after), under tid_m: a "never join"
    // verdict lowers that thread to nice 19, so the rest of its set-up (nvJPEG's handle: 0.52 s
    // of a core on the H100 machine) takes only cores the CPU workers leave idle. tid_m guards
    // nothing else, so it nests in any lock.
    std::mutex tid_m;
    pid_t maker_tid = 0;
    // EngineConfig::cpu_join_nice, under tid_m: the CPU workers' threads running now, and
    // whether they went to that nice value (a thread starting after that goes there itself).
    std::vector<pid_t> cpu_tids;
    bool join_niced = false;
    int join_nice = 0;
    // The GPU workers are to take files: the CPU workers go to join_nice (once).
    void to_join_nice() {
      std::lock_guard<std::mutex> lock(tid_m);
      if (join_niced) return;
      join_niced = true;
      if (join_nice > 0)
        for (pid_t t : cpu_tids) (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(t), join_nice);
    }
  };
  auto late_shared = std::make_shared<LateShared>();
  late_shared->run_start = t_run;
  const auto cpu_workers = static_cast<std::size_t>(
      std::count_if(workers.begin(), workers.end(), [](const auto& w) { return !w->is_gpu(); }));
  if (!(cfg.late && cfg.late_setup_guess_s > 0)) late_shared->decision = 1;
  late_shared->join_nice = cfg.cpu_join_nice;
  late_shared->join_niced =
      late_shared->decision.load() == 1 ||
      std::any_of(workers.begin(), workers.end(), [](const auto& w) { return w->is_gpu(); });
  std::atomic<int> cpu_active{0};  // CPU workers processing a file now
  // The cores left over by work at normal priority (EngineConfig::spare_cores).
  std::function<double()> spare_cores = cfg.spare_cores;
  if (!spare_cores) spare_cores = [meter = std::make_shared<SpareCores>()] { return (*meter)(); };
  // What a CPU worker may take (WorkQueue::take_gated; engine.hpp's "Scheduling").
  auto cpu_gate = [&](std::size_t waiting, bool full, double idle_decoders) -> int {
    const int ng = gpu_workers.load();
    const bool pending = late_pending.load() > 0 && late_shared->decision.load() != 2;
    if (ng == 0 && !pending) return 0;  // the CPU alone
    const std::size_t cn = cpu_done.load();
    // Once a GPU runs, until a CPU file has been timed, two CPU workers at a time (the GPU may
    // take over files that take the CPU long).
    const bool probe_ok = cn > 0 || cpu_active.load() < kCpuProbes;
    const double per_file =
        cn > 0 ? static_cast<double>(cpu_busy_us.load()) / 1e6 / static_cast<double>(cn) : 0.0;
    // Files that take the CPU longer than a GPU's set-up usually lasts: only on the probes while
    // a GPU is being set up or has no rate yet.
    const bool long_files = per_file > kGpuSetUpGuessS;
    // While GPU workers that decode JPEG are being set up with gpu_jpeg_coming, the decoders
    // check files for them: CPU workers take files only from a full queue, as once a GPU runs.
    const bool precheck = ng == 0 && cfg.gpu_jpeg_coming;
    // No GPU yet and none checked for: every CPU worker takes files of unknown cost (one started
    // now ends a CPU file's time from now, the split's granularity, however many start; holding
    // them back held back the decode threads feeding them: on 32 TIFFs of 75 MB, 14 of 16 cores
    // waited 0.25 s and auto took 0.73 s against cpu's 0.61); files known to take long, only on
    // the probes.
    if (ng == 0 && !precheck)
      return cn == 0 || !long_files || cpu_active.load() < kCpuProbes ? 0 : 2;
    const std::size_t gd = gpu_done.load();
    if (gd == 0 && !precheck) return probe_ok && !long_files ? 1 : 2;  // decoded before it joined
    if (!full || !probe_ok) return 2;  // the GPU keeps up: no core to spare
    const std::int64_t t0 = gpu_t0_us.load();
    if (precheck) {
      // no rate yet: the rules below
    } else if (cn > 0 && t0 >= 0 && gd >= 2 * static_cast<std::size_t>(ng)) {
      const double elapsed = static_cast<double>(us_since_run() - t0) / 1e6;
      const double rate = elapsed > 0 ? static_cast<double>(gd) / elapsed : 0;
      const std::size_t started = std::min(next.load(), todo.size());
      const double left = static_cast<double>(todo.size() - started + waiting);
      if (rate > 0 && per_file > left / rate) return 2;  // the GPU alone would finish first
    } else if (long_files) {
      return 2;
    }
    // The queue is full now, but the decode threads may still be the bound (the GPU takes its
    // files in batches, so the queue fills and drains): only while they spent most of the last
    // window waiting for room, that is while the GPU is the bound and the cores they leave idle
    // are the CPU worker's to take.
    if (idle_decoders < cfg.decoder_idle_share * static_cast<double>(nd)) return 2;
    // And while the work at normal priority leaves a core for each busy CPU worker, this one and
    // the margin (the machine's other processes count; unknown: none).
    const double spare = spare_cores();
    if (spare < 0 || spare < static_cast<double>(cpu_active.load() + 1) + kSpareCoreMargin)
      return 2;
    // The last file (a JPEG still encoded is decoded by the CPU worker itself, at its low
    // priority).
    return 3;
  };

  // Which jobs have had their on_done (by job index): at the end every job of `todo` without one
  // gets it (a file lost by a failure outside its own handling fails with first_error rather
  // than going unreported). Allocated before any thread starts.
  std::vector<char> reported(jobs.size(), 0);
  std::string first_error;  // under done_mutex
  // The CPU workers' gate as the std::function take_gated takes, made once (a conversion at each
  // take would allocate between files, where a failure would belong to no file).
  const std::function<int(std::size_t, bool, double)> cpu_gate_fn = cpu_gate;

  // EngineConfig::late_setup_guess_s's decision, under done_mutex (from finish): once, at
  // kLateDecideS or later while no late worker runs yet.
  const double late_helps_s =
      cfg.late_setup_guess_s + (cfg.late_useful_s > 0 ? cfg.late_useful_s : kLateUsefulS);
  // The verdict for CPU workers that would finish every file at `end` (s into the run) at `rate`
  // files/s: they join at once when the CPU would still be busy twice as long as the late workers
  // need to help (the first files' rate is rough); from kLateDecideS when it would be busy past
  // that time at all, else never (0: not yet).
  auto verdict_from = [&](double now, double rate, double end) {
    if (end >= 2 * late_helps_s || (now >= kLateDecideS && end >= late_helps_s)) return 1;
    if (now < kLateDecideS) return 0;
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "not joined: the CPU workers were to finish every file %.2f s into the run "
                  "(%.0f files/s), before the set-up (about %.1f s) and %.1f s more",
                  end, rate, cfg.late_setup_guess_s, late_helps_s - cfg.late_setup_guess_s);
    late_shared->skip_note = buf;
    return 2;
  };
  if (cpu_workers > 0) {
    const std::size_t waves = (todo.size() + cpu_workers - 1) / cpu_workers;
    late_shared->no_rate_join_s =
        late_helps_s / static_cast<double>(std::max<std::size_t>(waves, 1));
  }
  auto decide_late = [&] {
    if (late_shared->decision.load() != 0) return;
    const double now = static_cast<double>(us_since_run()) / 1e6;
    int verdict = 0;
    const std::size_t cn = cpu_done.load();
    const double span = report.first_done_s < 0 ? 0 : now - report.first_done_s;
    if (gpu_workers.load() > 0 || late_pending.load() == 0) {
      verdict = 1;  // nothing to decide
    } else if (cn >= 8 && span > 0.01) {
      late_shared->cpu_rate.store(true);
      // The CPU workers' rate so far: when it would keep them busy well past the time the late
      // workers can help (twice as long: the first files' rate is rough), they join at once;
      // from kLateDecideS (a steadier rate) they join when it would keep them busy past that
      // time at all, else they do not.
      const double rate = static_cast<double>(cn) / span;
      const double left = static_cast<double>(todo.size() > cn ? todo.size() - cn : 0);
      verdict = verdict_from(now, rate, now + left / rate);
    } else if (cn > 0 && now >= kLateDecideS) {
      // Fewer than 8 CPU files by kLateDecideS, or all of them at once (files that take long,
      // started together: on the GPU machine's 32 TIFFs of 75 MB, 16 files 0.25 s into the run,
      // then 16 more): the rate of the first wave, the CPU workers' count over the time so far,
      // with the files in flight half done. That rate said "join" and then took none: the GPU
      // joined at 0.43-0.50 s, and auto took 0.58 s against cpu's 0.53.
      late_shared->cpu_rate.store(true);
      const double rate = static_cast<double>(std::max<std::size_t>(cpu_workers, 1)) / now;
      const double done_or_half =
          static_cast<double>(cn) + 0.5 * static_cast<double>(cpu_active.load());
      const double left = std::max(0.0, static_cast<double>(todo.size()) - done_or_half);
      verdict = verdict_from(now, rate, now + left / rate);
    }
    if (verdict == 0) return;
    int undecided = 0;
    if (!late_shared->decision.compare_exchange_strong(undecided, verdict)) return;
    if (verdict == 1) {
      late_shared->to_join_nice();
    } else {
      std::lock_guard<std::mutex> lock(late_shared->tid_m);
      if (late_shared->maker_tid > 0)
        (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(late_shared->maker_tid), kNeverNice);
    }
  };
  auto finish = [&](Result& r, Clock::time_point start) {
    r.total_ms = ms_since(start);
    if (r.status == Status::failed && cfg.fail_fast) stop.store(true);
    std::lock_guard<std::mutex> lock(done_mutex);
    if (report.first_done_s < 0 && r.status != Status::cancelled)
      report.first_done_s = static_cast<double>(us_since_run()) / 1e6;
    decide_late();
    if (r.index < reported.size()) {
      if (reported[r.index]) return;
      reported[r.index] = 1;
    }
    // The caller's callback throwing must not end an engine thread (std::terminate): its file is
    // reported as far as the callback got.
    try {
      on_done(r);
    } catch (const std::exception&) {
    }
  };
  auto failed = [&](Result& r, const char* stage, const std::exception& e,
                    const std::string& input) {
    r.status = Status::failed;
    r.stage = stage;
    try {
      r.error = failure_text(e, input, stage);
    } catch (const std::exception&) {
      r.error.clear();
      r.error = "out of memory";  // fits the string's own buffer: no allocation
    }
  };
  // A failure outside any one file's handling (an engine thread that cannot start, or that
  // failed between files): kept for the files it leaves unreported.
  auto engine_failure = [&](const std::exception& e) {
    std::string what = dynamic_cast<const std::bad_alloc*>(&e)
                           ? std::string("out of memory (an allocation failed: std::bad_alloc)")
                           : std::string(e.what());
    std::lock_guard<std::mutex> lock(done_mutex);
    if (first_error.empty()) first_error = std::move(what);
  };
  std::mutex timing_mutex;
  std::vector<std::string> engine_timing;
  const std::function<void(std::string)> add_timing = [&](std::string line) {
    if (!cfg.timing) return;
    std::lock_guard<std::mutex> lock(timing_mutex);
    engine_timing.push_back(std::move(line));
  };
  auto event = [&](const std::string& line) {
    if (!cfg.on_event) return;
    std::lock_guard<std::mutex> lock(done_mutex);
    cfg.on_event(line);
  };

  auto decode_files = [&] {
    for (;;) {
      if (stop.load()) return;
      const std::size_t k = next.fetch_add(1);
      if (k >= todo.size()) return;
      Item item;
      item.start = Clock::now();
      WorkItem& w = item.work;
      w.result.index = todo[k];
      const Job& job = jobs[todo[k]];
      const char* stage = "read";
      try {
        w.input = job.input;
        w.output = job.output;
        if (!job.data.empty()) w.data = &job.data;
        // A JPEG for a GPU worker's nvJPEG while the GPU keeps up: its bytes, checked here.
        const bool jpeg_in = is_jpeg_input(w);
        // Also while such workers are still being set up (gpu_jpeg_coming): the files checked
        // now wait for them in the queue.
        const bool gpu_coming =
            cfg.gpu_jpeg_coming && late_pending.load() > 0 && gpu_workers.load() == 0;
        const bool for_gpu = cfg.gpu_jpeg_decode && jpeg_in && (gpu_jpeg.load() > 0 || gpu_coming);
        // Caps and header, no decode.
        std::optional<ImageFile> file;
        const ImageInfo info =
            check_input(w, cfg, w.result, file, for_gpu && !w.data ? &w.encoded : nullptr);
        // Pipeline bounds: every step's output size from the header, before any pixel buffer
        // (a resize to 40000x40000 fails here, not in an allocation of 4.8 GB).
        stage = "process";
        check_pipeline_size(cfg.steps, info.width, info.height, cfg.max_pixels);
        stage = "read";
        if (for_gpu) {
          if (w.data) w.encoded = *w.data;
            // The verdict the CPU path gives: check_jpeg reads the file's entropy data (no pixels;
            // a sound sequential file is vouched for by texcv's own walk over its Huffman codes,
            // anything else by libjpeg-turbo's entropy decoder) and throws what imread throws;
            // nvJPEG decodes only what it found sound. A corrupt file allowed by --allow-corrupt
            // is decoded on the CPU (its recovery, as with --device cpu).
#if !defined(TEXCV_AB_NO_JPEG_CHECK)  // bench/ab_jpeg_check.sh's variant only: the check's cost
          const std::string corrupt =
              check_jpeg(w.encoded.data(), w.encoded.size(), job.input, capped(cfg.read, cfg));
#else
          const std::string corrupt;
#endif
          if (!corrupt.empty()) std::vector<unsigned char>().swap(w.encoded);
        }
        if (w.encoded.empty()) {
          ReadOptions ro = capped(cfg.read, cfg);
          // A TIFF's strips on several threads only for the last files (before, every decode
          // thread has a file of its own).
          ro.threads = todo.size() - k >= static_cast<std::size_t>(nd) ? 1 : 0;
          // Straight into pinned memory for a GPU worker's upload (it may go to a CPU worker:
          // pinned memory is host memory).
          // (Not a JPEG decoded here: it is meant for a CPU worker, or nvJPEG could not take it.)
          if (cfg.pinned_alloc && !jpeg_in && gpu_workers.load() > 0 &&
              info.bytes() >= cfg.pinned_min_bytes)
            ro.allocate = cfg.pinned_alloc;
          w.image = decode_checked(w, file, ro, w.result);
          const ImageView& v = w.image.view();
          w.result.width = v.width;
          w.result.height = v.height;
          w.result.channels = v.channels;
          w.result.type = v.type;
        }
        if (cfg.gpu_jpeg_encode && cfg.deliver != Deliver::images &&
            (cfg.bit_depth == 0 || cfg.bit_depth == 8)) {
          bool jpeg_out = false;
          try {
            jpeg_out = format_from_path(job.output) == ImageFormat::jpeg;
          } catch (const Error&) {
          }
          if (jpeg_out) w.encode_jpeg_quality = cfg.write.jpeg_quality;
        }
        w.result.read_ms = ms_since(item.start);
        decoded.push(item);  // moves it; throws (out of memory) with the item left here
        continue;
      } catch (const std::exception& e) {
        failed(w.result, stage, e, job.input);
      }
      w.result.read_ms = ms_since(item.start);
      w.image = Image();
      std::vector<unsigned char>().swap(w.encoded);
      finish(w.result, item.start);
    }
  };
  // A failure outside a file's own handling must not end the thread (std::terminate): it is
  // kept, and the loop goes on with the next file (the file in flight, if any, fails at the end).
  auto decoder = [&] {
    for (;;) {
      try {
        return decode_files();
      } catch (const std::exception& e) {
        engine_failure(e);
      }
    }
  };

  // ---- Workers, device losses and the fallback ----
  // state_mutex guards: lost (device -> reason), started (files started per device, for the
  // injected faults), alive (worker threads still taking files), generation, late_threads and
  // late_workers (the workers that joined late and the fallback workers, and their threads).
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
  // Never throws (a failed allocation leaves the loss unrecorded; the worker retires anyway).
  auto mark_lost = [&](const std::string& dev, const std::string& why, bool at_setup) {
    try {
      bool first = false;
      {
        std::lock_guard<std::mutex> lock(state_mutex);
        first = lost.emplace(dev, why).second;
        if (first) {
          report.lost.push_back(dev + ": " + why);
          report.lost_devices.push_back(dev);
        }
      }
      if (first)
        event(at_setup ? dev + " could not be set up (" + why + "): its workers take no files"
                       : dev + " lost (" + why +
                             "): its workers stop taking files; the file(s) in flight on it are "
                             "retried on other workers");
    } catch (const std::exception& e) {
      engine_failure(e);
    }
  };

  std::function<void(Worker&, bool)> worker_loop, worker_body;
  // A worker stops taking files (its device is lost). The last one starts the fallback.
  // here: the caller's thread may take the files itself when no worker thread can be started
  // (false for the run's own thread, which must go on to start the decoders: the run then starts
  // no file, and every file fails with the reason).
  std::atomic<bool> start_failed{false};
  auto retire = [&](bool here = true) {
    std::unique_lock<std::mutex> lock(state_mutex);
    if (--alive > 0 || decoded.finished()) return;
    std::vector<std::unique_ptr<Worker>> fresh;
    if (generation == 0 && (!workers.empty() || !late_workers.empty())) report.all_lost = true;
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
    std::string start_error;
    for (auto& w : fresh) {
      try {
        late_workers.reserve(late_workers.size() + 1);
        late_threads.emplace_back([&worker_loop, wp = w.get()] { worker_loop(*wp, false); });
        late_workers.push_back(std::move(w));  // reserved: cannot throw
      } catch (const std::exception& e) {
        --alive;  // never started
        if (start_error.empty()) start_error = e.what();
      }
    }
    if (alive > 0) return;
    // No thread could be started for them: this thread fails the files left itself (a worker
    // that takes every file and fails it), so that none waits for a worker forever.
    alive = 1;
    lock.unlock();
    const std::string why = "cannot start a worker thread (" + start_error + ")";
    if (!here) {
      {
        std::lock_guard<std::mutex> done_lock(done_mutex);
        if (first_error.empty()) first_error = why;
      }
      start_failed.store(true);
      stop.store(true);
      return;
    }
    NoWorker drain(why);
    worker_loop(drain, false);
  };

  // joined_late: made by EngineConfig::late (counted in late_pending until set up). A GPU worker
  // the caller gave (Device::cuda) is counted in gpu_workers / gpu_jpeg from the start, so that
  // the decoders leave JPEG files encoded for it while it sets up.
  // A failure outside a file's own handling (none is expected: each file's is its own) retires
  // the worker, as a lost device would, so that the others or the fallback take the files left.
  worker_loop = [&](Worker& wk, bool joined_late) {
    try {
      worker_body(wk, joined_late);
    } catch (const std::exception& e) {
      engine_failure(e);
      retire();
    }
  };
  worker_body = [&](Worker& wk, bool joined_late) {
    const std::string dev = wk.device();
    const bool gpu = wk.is_gpu();
    // EngineConfig::timing: this worker's waits for files and its batches.
    struct Waits {
      double s = 0;
      std::size_t takes = 0, files = 0;
    } waits;
    struct WaitsLine {
      const Waits& w;
      const std::function<void(std::string)>& add;
      std::string name;
      ~WaitsLine() {
        if (w.takes == 0) return;
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "waited %.3f s for files; %zu files in %zu takes (%.1f a take)", w.s, w.files,
                      w.takes, static_cast<double>(w.files) / static_cast<double>(w.takes));
        add(name + ": " + buf);
      }
    } waits_line{waits, add_timing, gpu ? wk.name() : dev};
    const bool counted = gpu && !joined_late;
    const bool jpeg = gpu && wk.decodes_jpeg();
    const std::size_t want = std::max<std::size_t>(1, wk.batch_size());
    std::vector<Item> batch;
    bool set_up = false;
    try {
      wk.start_on_this_thread();
      batch.reserve(want);  // take and take_ready then never allocate
      set_up = true;
    } catch (const std::exception& e) {
      if (counted) {
        --gpu_workers;
        if (jpeg) --gpu_jpeg;
      }
      if (joined_late) --late_pending;
      mark_lost(dev, e.what(), true);
    }
    if (!set_up) return retire();
    // EngineConfig::cpu_join_nice: this CPU worker's thread is reniced with the others when the
    // GPU workers are to join (at once if they are), and is forgotten when it ends (its id may
    // be reused).
    struct CpuTid {
      LateShared* s = nullptr;
      pid_t tid = 0;
      CpuTid() = default;
      CpuTid(const CpuTid&) = delete;
      CpuTid& operator=(const CpuTid&) = delete;
      ~CpuTid() {
        if (!s) return;
        std::lock_guard<std::mutex> lock(s->tid_m);
        std::erase(s->cpu_tids, tid);
      }
    } cpu_tid;
    if (!gpu && cfg.cpu_join_nice > 0) {
      std::lock_guard<std::mutex> lock(late_shared->tid_m);
      const pid_t me = ::gettid();
      if (late_shared->join_niced) {
        (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(me), cfg.cpu_join_nice);
      } else {
        try {
          late_shared->cpu_tids.push_back(me);
          cpu_tid.tid = me;
          cpu_tid.s = late_shared.get();
        } catch (const std::bad_alloc&) {
          // not reniced: it keeps the process's priority
        }
      }
    }
    if (gpu && !counted) {
      ++gpu_workers;
      if (jpeg) ++gpu_jpeg;
    }
    if (joined_late) {
      --late_pending;
      std::lock_guard<std::mutex> lock(state_mutex);
      if (report.late_ready_s < 0) report.late_ready_s = static_cast<double>(us_since_run()) / 1e6;
    }
    auto leave = [&] {  // this worker takes no more files
      if (!gpu) return;
      --gpu_workers;
      if (jpeg) --gpu_jpeg;
    };
    // An item this worker took goes back first in line; when that fails (out of memory) the file
    // fails here instead, so that no worker waits for it.
    auto put_back_or_fail = [&](Item& it) {
      try {
        decoded.put_back(it);
      } catch (const std::exception& e) {
        failed(it.work.result, "process", e, it.work.input);
        it.work.image = Image();
        std::vector<unsigned char>().swap(it.work.encoded);
        decoded.done();
        finish(it.work.result, it.start);
      }
    };
    // The device is lost while the files of `batch` were on it: they go back first in line, in
    // their order, each reported as retried; the worker retires.
    auto give_back = [&](const std::string& why) {
      if (!gpu) --cpu_active;
      leave();
      mark_lost(dev, why, false);
      for (std::size_t k = batch.size(); k-- > 0;) {
        WorkItem& w = batch[k].work;
        Result& r = w.result;
        try {
          r.retried_from.push_back(dev);
          r.retry_reason = dev + " lost: " + why;
        } catch (const std::exception&) {
          // the report then lacks the retry's note; the file still reruns
        }
        r.device.clear();
        r.decoder.clear();
        r.cpu_fallback = false;
        r.note.clear();
        if (w.image.empty()) r.read_device.clear();  // still encoded: decoded where it reruns
        std::vector<unsigned char>().swap(w.encoded_output);
        {
          std::lock_guard<std::mutex> lock(state_mutex);
          ++report.retried;
        }
        put_back_or_fail(batch[k]);
      }
      retire();
    };
    for (;;) {
      if (is_lost(dev)) {
        leave();
        return retire();
      }
      const auto t_take = cfg.timing ? Clock::now() : Clock::time_point();
      auto first = gpu ? decoded.take() : decoded.take_gated(cpu_gate_fn, cpu_active);
      if (cfg.timing) waits.s += std::chrono::duration<double>(Clock::now() - t_take).count();
      if (!first) return leave();  // finished: nothing can come back
      if (gpu) {
        std::int64_t none = -1;
        gpu_t0_us.compare_exchange_strong(none, us_since_run());
      }
      batch.clear();
      batch.push_back(std::move(*first));
      if (want > 1) decoded.take_ready(want - 1, batch);
      if (cfg.timing) {
        ++waits.takes;
        waits.files += batch.size();
      }
      if (is_lost(dev)) {
        // not started here: no retry to report
        if (!gpu) --cpu_active;
        for (std::size_t k = batch.size(); k-- > 0;) put_back_or_fail(batch[k]);
        leave();
        return retire();
      }
      if (want > 1) {
        const auto t0 = Clock::now();
        std::string lost_why;
        try {
          std::vector<WorkItem*> items;
          for (auto& it : batch) items.push_back(&it.work);
          wk.prepare(items);
        } catch (const WorkerLost& e) {
          lost_why = e.what();
        } catch (const std::exception& e) {
          try {
            event(wk.name() + ": preparing " + std::to_string(batch.size()) +
                  " files together failed (" + e.what() + "); each is processed on its own");
          } catch (const std::exception&) {
          }
        }
        // The shared work's time, split evenly between the files.
        const double share = ms_since(t0) / static_cast<double>(batch.size());
        for (auto& it : batch) it.work.result.process_ms += share;
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
            failed(w.result, "process", e, w.input);
            if (w.result.device.empty()) w.result.device = wk.name();
          }
        }
        const double ms = ms_since(t0);
        w.result.process_ms += ms;
        if (!lost_why.empty()) {
          // batch[..k) has left this stage; batch[k..] goes back.
          batch.erase(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(k));
          return give_back(lost_why);
        }
        if (gpu) {
          ++gpu_done;
        } else {
          cpu_busy_us += static_cast<std::int64_t>(ms * 1000);
          ++cpu_done;
          --cpu_active;
        }
        std::vector<unsigned char>().swap(w.encoded);
        if (w.result.status == Status::failed) {
          w.image = Image();
          decoded.done();
          finish(w.result, item.start);
          continue;
        }
        try {
          processed.push(item);  // moves it; throws (out of memory) with the item left here
        } catch (const std::exception& e) {
          failed(w.result, "process", e, w.input);
          w.image = Image();
          finish(w.result, item.start);
        }
        decoded.done();
      }
    }
  };

  auto encode_files = [&] {
    while (auto item = processed.pop()) {
      const auto t0 = Clock::now();
      WorkItem& w = item->work;
      Result& r = w.result;
      try {
        r.write_device = w.encoded_output.empty() ? "cpu" : r.device;
        if (cfg.deliver == Deliver::files) {
          const fs::path parent = fs::path(w.output).parent_path();
          if (!parent.empty()) {
            std::error_code ec;
            fs::create_directories(parent, ec);
            if (!fs::is_directory(parent))
              fail(ErrorCode::Io, "batch",
                   "cannot create the output folder '" + parent.string() + "': " + ec.message());
          }
        }
        Output out;
        if (!w.encoded_output.empty()) {
          // encoded on the GPU (nvJPEG)
          if (cfg.deliver == Deliver::files)
            write_bytes_atomic(w.output, w.encoded_output);
          else
            out.encoded = std::move(w.encoded_output);
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
          if (cfg.deliver == Deliver::files)
            imwrite(w.output, v, cfg.write);
          else if (cfg.deliver == Deliver::encoded)
            out.encoded = imencode(v, format_from_path(w.output), cfg.write);
          else
            out.image = std::move(w.image);
        }
        if (cfg.deliver == Deliver::files) {
          // The output is in place: nothing after this may fail the file (its size is only
          // reported).
          try {
            std::error_code ec;
            const auto size = fs::file_size(w.output, ec);
            if (!ec) r.bytes_out = size;
          } catch (const std::exception&) {
          }
        } else {
          r.bytes_out = out.encoded.size();
          if (cfg.on_output) cfg.on_output(r, std::move(out));
        }
      } catch (const std::exception& e) {
        failed(r, "write", e, w.input);
      }
      w.image = Image();
      std::vector<unsigned char>().swap(w.encoded_output);
      r.write_ms = ms_since(t0);
      finish(r, item->start);
    }
  };
  auto encoder = [&] {
    for (;;) {
      try {
        return encode_files();
      } catch (const std::exception& e) {
        engine_failure(e);
      }
    }
  };

  std::thread late_maker;
  if (cfg.late) {
    // Registers the workers the factory made (under late_shared->m, before `closing`).
    std::function<void(std::vector<std::unique_ptr<Worker>>&)> join_late =
        [&](std::vector<std::unique_ptr<Worker>>& made) {
          std::lock_guard<std::mutex> lock(state_mutex);
          if (decoded.finished()) return;  // nothing left to do: destroyed by the maker
          alive += static_cast<int>(made.size());
          late_pending += static_cast<int>(made.size());  // each until its set-up is done
          for (auto& w : made) {
            late_threads.emplace_back([&worker_loop, wp = w.get()] { worker_loop(*wp, true); });
            late_workers.push_back(std::move(w));
          }
          made.clear();
        };
    // None joined: with no other worker, the fallback takes the files (as when all are lost).
    std::function<void()> none_joined = [&] {
      bool none = false;
      {
        std::lock_guard<std::mutex> lock(state_mutex);
        none = alive == 0;
        if (none) alive = 1;
      }
      if (none) retire();
    };
    late_maker = std::thread([shared = late_shared, make = cfg.late, join_late, none_joined,
                              &report, &event, &late_pending, what = cfg.late_what,
                              nice = cfg.late_nice,
                              wait_verdict = cfg.late_wait_verdict && cfg.late_setup_guess_s > 0] {
      if (nice > 0) (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice);
      {
        std::lock_guard<std::mutex> lock(shared->tid_m);
        shared->maker_tid = ::gettid();
      }
      // Cleared on every way out: a verdict after this thread ends must not renice another.
      struct ClearTid {
        LateShared& s;
        ~ClearTid() {
          std::lock_guard<std::mutex> lock(s.tid_m);
          s.maker_tid = 0;
        }
      } clear_tid{*shared};
      std::vector<std::unique_ptr<Worker>> made;
      std::string why;
      // EngineConfig::late_wait_verdict: no set-up before the decision (or kLateDecideS + 0.02 s
      // without a CPU file's rate), none after a "never".
      while (wait_verdict && shared->decision.load() == 0 &&
             std::chrono::duration<double>(Clock::now() - shared->run_start).count() <
                 kLateDecideS + 0.02)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      if (!(wait_verdict && shared->decision.load() == 2)) {
        try {
          made = make();  // empty: none for this run (the factory says why, if it should)
        } catch (const std::exception& e) {
          why = e.what();
        }
      }
      // EngineConfig::late_setup_guess_s: the workers made before the decision wait for it (the
      // first CPU file to finish from kLateDecideS on makes it). With no CPU file done they join
      // 20 ms past kLateDecideS, or once the CPU workers are surely busy past the time they help
      // (no_rate_join_s: files that take long, in few waves, may still finish first); their
      // set-up then starts up to 0.17 s into the run instead of when the CUDA runtime is up
      // (0.09-0.18 s). With a rate, at most 0.2 s past kLateDecideS (a file finishes every few
      // ms; the bound is for a machine too loaded to run the workers).
      for (;;) {
        if (shared->decision.load() != 0) break;
        const double t = std::chrono::duration<double>(Clock::now() - shared->run_start).count();
        if (shared->cpu_rate.load() ? t >= kLateDecideS + 0.2
                                    : t >= std::max(kLateDecideS + 0.02, shared->no_rate_join_s))
          break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      int undecided = 0;
      if (shared->decision.compare_exchange_strong(undecided, 1)) shared->to_join_nice();
      {
        std::lock_guard<std::mutex> lock(shared->m);
        if (!shared->closing) {
          if (shared->decision.load() == 2) {
            why = shared->skip_note;
            made.clear();
          }
          if (!why.empty()) {
            report.late_note = why;
            event("no " + what + " joined: " + why);
          }
          if (made.empty())
            none_joined();
          else
            join_late(made);
          --late_pending;  // the factory's own count
        }
        shared->factory_done = true;
      }
      shared->cv.notify_all();
      made.clear();  // those not registered (the run had ended)
    });
  }

  // The threads. One that cannot be started (out of memory, no more threads) is done without:
  // the run goes on with the others; with no encoder or no worker at all it starts no file and
  // every file fails with the reason (a thread that throws would end the process).
  std::vector<std::thread> decoders, worker_threads, encoders;
  auto start = [&](std::vector<std::thread>& v, auto&& fn) {
    try {
      v.reserve(v.size() + 1);
      v.emplace_back(fn);
      return true;
    } catch (const std::exception& e) {
      engine_failure(e);
      return false;
    }
  };
  for (int i = 0; i < ne; ++i) start(encoders, encoder);
  if (encoders.empty()) {
    start_failed.store(true);
    stop.store(true);
  }
  for (auto& w : workers)
    if (w->is_gpu()) {
      ++gpu_workers;
      if (w->decodes_jpeg()) ++gpu_jpeg;
    }
  for (auto& w : workers)
    if (!start(worker_threads, [&worker_loop, wp = w.get()] { worker_loop(*wp, false); })) {
      std::lock_guard<std::mutex> lock(state_mutex);
      --alive;
      if (w->is_gpu()) {
        --gpu_workers;
        if (w->decodes_jpeg()) --gpu_jpeg;
      }
    }
  if (worker_threads.empty() && !cfg.late && !start_failed.load()) {
    alive = 1;
    retire(false);  // no worker at all: the fallback (or NoWorker) from the start
  }
  if (!start_failed.load())
    for (int i = 0; i < nd; ++i) start(decoders, decoder);
  if (decoders.empty()) stop.store(true);  // none could start: every file fails below

  for (auto& t : decoders) t.join();
  decoded.close();
  for (auto& t : worker_threads) t.join();
  {
    std::unique_lock<std::mutex> lock(late_shared->m);
    // Only late workers: the files wait for them, so the run waits until the factory has
    // registered them (or found none: the fallback then took the files). Before, a run whose
    // decoders finished before the factory returned ended with every file unreported ("the
    // engine failed"; BatchSchedule.GpuSetUpInTheBackgroundFindsEveryJpegCheckedAndEncoded
    // failed 2 times in 60 on a loaded 2-core machine).
    if (worker_threads.empty() && cfg.late && !start_failed.load())
      late_shared->cv.wait(lock, [&] { return late_shared->factory_done; });
    late_shared->closing = true;  // from here the maker registers nothing
  }
  // Workers started late or by a retiring worker (which may in turn start others): join until
  // none.
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

  // Every file without its on_done yet: those never started (stopped early) are cancelled, in
  // order; when the run could not start its threads, or a file was lost by a failure outside its
  // own handling, it fails with the reason.
  const bool none_started = decoders.empty() || start_failed.load();
  const std::size_t started_n = std::min(next.load(), todo.size());
  for (std::size_t k = 0; k < todo.size(); ++k) {
    if (reported[todo[k]]) continue;
    Result r;
    r.index = todo[k];
    if (k < started_n || none_started) {
      r.status = Status::failed;
      r.stage = k < started_n ? "process" : "read";
      try {
        r.error = "batch: " + jobs[todo[k]].input + ": the engine failed (" +
                  (first_error.empty() ? std::string("unknown error") : first_error) +
                  "); the file was not written";
      } catch (const std::exception&) {
        r.error = "out of memory";
      }
    } else {
      r.status = Status::cancelled;
    }
    finish(r, Clock::now());
  }
  for (const auto& w : workers)
    if (std::string t = w->timing(); !t.empty()) report.timing.push_back(std::move(t));
  for (const auto& w : late_workers)
    if (std::string t = w->timing(); !t.empty()) report.timing.push_back(std::move(t));
  // The late workers go to the caller (released as it chooses, see EngineReport).
  for (auto& w : late_workers) report.late_workers.push_back(std::move(w));
  report.peak_host_queued = decoded.peak_host();
  report.peak_encoded_queued_bytes = decoded.peak_encoded_bytes();
  if (cfg.timing) {
    report.timing.push_back("engine: " + decoded.timing());
    if (host_cache) {
      const detail::HostCacheStats hs = detail::host_cache_stats();
      char buf[240];
      std::snprintf(buf, sizeof buf,
                    "engine: host image buffers: %zu reused, %zu allocated, %zu dropped; "
                    "%.0f MB kept, %.0f MB alive at most; huge pages %s",
                    hs.hits, hs.misses, hs.dropped, hs.cached_bytes / 1048576.0,
                    hs.peak_live_bytes / 1048576.0, detail::host_huge_pages() ? "on" : "off");
      report.timing.push_back(buf);
    }
    for (auto& l : engine_timing) report.timing.push_back("engine: " + l);
  }
  if (late_maker.joinable()) {
    if (cfg.detach_late)
      late_maker.detach();  // still setting up: it ends on its own (the process may end first)
    else
      late_maker.join();
  }
  return report;
}

}  // namespace texcv::batch
