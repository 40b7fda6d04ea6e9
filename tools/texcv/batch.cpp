// texcv batch: plan the jobs (inputs, mirrored outputs, resume, stale temporary files), then run
// them through the batch engine (batch_engine.hpp) with progress, a per-file report and a
// summary. docs/batch.md describes the behaviour.
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "texcv/error.hpp"
#include "texcv/io.hpp"
#include "texcv/registry.hpp"
#include "texcv/runtime.hpp"
#include "tools/texcv/batch_engine.hpp"
#include "tools/texcv/commands.hpp"

namespace fs = std::filesystem;

namespace texcv::cli {

namespace {

using Clock = std::chrono::steady_clock;

void say(const std::string& msg) {
  std::cerr << "texcv batch: " << msg << "\n";
}

std::string fixed2(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Seconds since this process started (Linux: /proc/self/stat's start time, in clock ticks since
// boot, against CLOCK_BOOTTIME; 10 ms resolution), 0 where unknown: the time spent loading the
// program and its libraries before batch_command runs.
double seconds_since_process_start() {
  std::ifstream f("/proc/self/stat");
  const std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::size_t close = stat.rfind(')');  // the command name (field 2) may hold spaces
  const long ticks_per_s = ::sysconf(_SC_CLK_TCK);
  timespec now{};
  if (close == std::string::npos || ticks_per_s <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0)
    return 0;
  std::istringstream rest(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i)  // field 22: starttime
    if (!(rest >> field)) return 0;
  const double started = std::strtod(field.c_str(), nullptr) / static_cast<double>(ticks_per_s);
  const double up = static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
  return std::max(0.0, up - started);
}

// ---- Signals: the first SIGINT/SIGTERM stops starting new files; in-flight ones finish. ------

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_signal(int sig) {
  g_interrupted = 1;
  std::signal(sig, SIG_DFL);  // a second one ends the process at once
}

// ---- Pipeline ---------------------------------------------------------------------------------

// ---- Formats ----------------------------------------------------------------------------------

std::string canonical_format(const std::string& f) {
  if (f == "jpg") return "jpeg";
  if (f == "tif") return "tiff";
  return f;
}

std::string extension_of(const std::string& format) {
  if (format == "jpeg") return ".jpg";
  if (format == "tiff") return ".tif";
  return "." + format;
}

std::optional<ImageFormat> format_of(const fs::path& p) {
  try {
    return format_from_path(p.string());
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Bit depths each output format can hold.
bool depth_allowed(ImageFormat f, int depth) {
  switch (f) {
    case ImageFormat::jpeg:
      return depth == 8;
    case ImageFormat::png:
      return depth == 8 || depth == 16;
    case ImageFormat::tiff:
      return depth == 8 || depth == 16 || depth == 32;
  }
  return false;
}

// ---- JSON (the report) ------------------------------------------------------------------------

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);  // UTF-8 passes through; other bytes too
        }
    }
  }
  return o + "\"";
}

std::string json_ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string report_line(const BatchJob& job, const JobResult& r) {
  std::string s = "{\"input\":" + json_string(job.input) +
                  ",\"output\":" + json_string(job.output) + ",\"status\":\"" +
                  to_string(r.status) + "\"";
  s += ",\"error\":" + (r.error.empty() ? std::string("null") : json_string(r.error));
  s += ",\"stage\":" + (r.stage.empty() ? std::string("null") : json_string(r.stage));
  s += ",\"device\":" + (r.device.empty() ? std::string("null") : json_string(r.device));
  s += std::string(",\"cpu_fallback\":") + (r.cpu_fallback ? "true" : "false");
  if (!r.note.empty()) s += ",\"note\":" + json_string(r.note);
  if (!r.decoder.empty()) s += ",\"decoder\":" + json_string(r.decoder);
  if (!r.retried_from.empty()) {
    s += ",\"retried\":true,\"retried_from\":[";
    for (std::size_t i = 0; i < r.retried_from.size(); ++i) {
      if (i) s += ',';
      s += json_string(r.retried_from[i]);
    }
    s += "],\"retry_reason\":" + json_string(r.retry_reason);
  }
  if (r.width > 0)
    s += ",\"in\":{\"width\":" + std::to_string(r.width) +
         ",\"height\":" + std::to_string(r.height) + ",\"channels\":" + std::to_string(r.channels) +
         ",\"type\":\"" + to_string(r.type) + "\",\"bytes\":" + std::to_string(r.bytes_in) + "}";
  if (r.status == JobStatus::ok)
    s += ",\"out\":{\"width\":" + std::to_string(r.out_width) +
         ",\"height\":" + std::to_string(r.out_height) +
         ",\"channels\":" + std::to_string(r.out_channels) + ",\"type\":\"" +
         to_string(r.out_type) + "\",\"bytes\":" + std::to_string(r.bytes_out) + "}";
  s += ",\"ms\":{\"read\":" + json_ms(r.read_ms) + ",\"process\":" + json_ms(r.process_ms) +
       ",\"write\":" + json_ms(r.write_ms) + ",\"total\":" + json_ms(r.total_ms) + "}}";
  return s;
}

// ---- Planning ---------------------------------------------------------------------------------

struct Plan {
  std::vector<BatchJob> jobs;
  std::vector<JobResult> early;   // failed or skipped before the engine (index into jobs)
  std::vector<std::size_t> todo;  // indices of jobs to run
  std::vector<fs::path> stale;    // temporary files of an interrupted run
  std::size_t ignored = 0;        // files in the folder without an image extension
};

bool glob_match(const std::vector<std::string>& globs, const std::string& rel_s) {
  if (globs.empty()) return true;
  const std::size_t slash = rel_s.rfind('/');
  const std::string name = slash == std::string::npos ? rel_s : rel_s.substr(slash + 1);
  for (const auto& g : globs) {
    const std::string& subject = g.find('/') != std::string::npos ? rel_s : name;
    if (::fnmatch(g.c_str(), subject.c_str(), 0) == 0) return true;
  }
  return false;
}

// True when `p` is `root` or lies under it (both absolute and normalized).
bool is_under(const fs::path& p, const fs::path& root) {
  const fs::path rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

fs::path absolute_normal(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::weakly_canonical(fs::absolute(p), ec);
  if (ec) a = fs::absolute(p).lexically_normal();
  return a;
}

// The temporary-file names imwrite uses: ".<name>.tmp-<16 hex digits>".
bool is_temp_of(const std::string& entry, const std::string& name) {
  const std::string prefix = "." + name + ".tmp-";
  if (entry.size() != prefix.size() + 16 || entry.compare(0, prefix.size(), prefix) != 0)
    return false;
  return std::all_of(entry.begin() + static_cast<std::ptrdiff_t>(prefix.size()), entry.end(),
                     [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// Returns false (after saying why) on a usage error.
bool make_plan(const BatchOptions& opt, const std::string& out_format, Plan& plan) {
  // Memory: the plan keeps two short strings a file (input and output as the user spells them)
  // and, while planning, the absolute output paths; no fs::path per file (a path holds a list of
  // its components, about ten times the bytes of its text).
  std::error_code ec;
  const bool have_input = !opt.input.empty();
  if (!have_input && opt.list.empty()) {
    say("no input: give -i FOLDER (or FILE), or --list FILE");
    return false;
  }
  if (have_input && !fs::exists(opt.input, ec)) {
    say("input '" + opt.input + "' does not exist");
    return false;
  }
  const bool input_is_dir = have_input && fs::is_directory(opt.input, ec);
  const fs::path out_root = absolute_normal(opt.output);

  // Inputs: (path as shown, path relative to the root or "" when outside it).
  struct In {
    std::string shown, rel;
  };
  std::vector<In> inputs;
  fs::path root;
  bool single_file = false;
  // Relative list entries are spelled from the folder they are relative to ("in/a.png").
  const fs::path list_dir = fs::path(opt.list).parent_path();
  const std::string in_prefix = have_input         ? (fs::path(opt.input) / "").string()
                                : list_dir.empty() ? std::string()
                                                   : (list_dir / "").string();
  if (!opt.list.empty()) {
    std::ifstream lf(opt.list);
    if (!lf) {
      say("cannot read the list file '" + opt.list + "'");
      return false;
    }
    if (have_input && !input_is_dir) {
      say("with --list, -i must be the folder the listed paths are relative to; got the file '" +
          opt.input + "'");
      return false;
    }
    root = absolute_normal(have_input ? fs::path(opt.input) : fs::absolute(opt.list).parent_path());
    std::string line;
    while (std::getline(lf, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      std::size_t b = 0;
      while (b < line.size() && line[b] == ' ') ++b;
      line.erase(0, b);
      if (line.empty() || line[0] == '#') continue;
      const fs::path given(line);
      const fs::path abs = (given.is_relative() ? root / given : given).lexically_normal();
      const bool under = is_under(abs, root);
      inputs.push_back({given.is_relative() ? in_prefix + line : line,
                        under ? abs.lexically_relative(root).generic_string() : std::string()});
    }
  } else if (input_is_dir) {
    root = absolute_normal(opt.input);
    if (out_root == root) {
      say("the output folder '" + opt.output +
          "' is the input folder; refusing to write beside the inputs");
      return false;
    }
    const bool out_inside = is_under(out_root, root);
    auto it = fs::recursive_directory_iterator(opt.input,
                                               fs::directory_options::skip_permission_denied, ec);
    if (ec) {
      say("cannot list the input folder '" + opt.input + "': " + ec.message());
      return false;
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) {
        say("cannot list the input folder '" + opt.input + "': " + ec.message());
        return false;
      }
      const fs::path rel = it->path().lexically_relative(opt.input);
      if (out_inside && it->is_directory(ec) && (root / rel).lexically_normal() == out_root) {
        it.disable_recursion_pending();  // never read our own outputs
        continue;
      }
      std::error_code e2;
      if (!it->is_regular_file(e2)) continue;
      if (!format_of(rel)) {
        ++plan.ignored;
        continue;
      }
      inputs.push_back({it->path().string(), rel.generic_string()});
    }
  } else {
    single_file = true;
    const fs::path p = absolute_normal(opt.input);
    root = p.parent_path();
    inputs.push_back({opt.input, p.filename().string()});
  }

  // Globs, order.
  if (!opt.globs.empty()) {
    std::vector<In> kept;
    for (auto& in : inputs)
      if (in.rel.empty() || glob_match(opt.globs, in.rel)) kept.push_back(std::move(in));
    inputs.swap(kept);
  }
  std::sort(inputs.begin(), inputs.end(),
            [](const In& a, const In& b) { return a.shown < b.shown; });
  if (inputs.empty()) {
    say("no input image files found (.png, .jpg, .jpeg, .tif, .tiff" +
        std::string(opt.globs.empty() ? "" : " matching --glob") + ") in '" +
        (opt.list.empty() ? opt.input : opt.list) + "'");
    return false;
  }

  // Outputs.
  const bool out_is_file = single_file && !fs::is_directory(opt.output, ec) &&
                           !opt.output.empty() && opt.output.back() != '/' &&
                           format_of(opt.output).has_value();
  const std::string out_prefix = (fs::path(opt.output) / "").string();
  const std::string out_root_prefix = (out_root / "").string();
  const std::string root_prefix = (root / "").string();
  const std::string new_ext = out_format == "same" ? std::string() : extension_of(out_format);
  auto with_ext = [&](const std::string& rel) {
    if (new_ext.empty()) return rel;
    const std::size_t slash = rel.rfind('/');
    const std::size_t dot = rel.rfind('.');
    const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash) &&
                         dot != (slash == std::string::npos ? 0 : slash + 1);
    return (has_ext ? rel.substr(0, dot) : rel) + new_ext;
  };
  std::unordered_set<std::string> input_set;  // absolute inputs (under the root)
  for (const auto& in : inputs)
    if (!in.rel.empty()) input_set.insert(root_prefix + in.rel);
  std::unordered_map<std::string, std::size_t> claimed;  // absolute output -> job
  plan.jobs.reserve(inputs.size());
  for (auto& in : inputs) {
    BatchJob job;
    job.input = std::move(in.shown);
    JobResult early;
    early.index = plan.jobs.size();
    bool bad = false;
    auto reject = [&](const std::string& why) {
      early.status = JobStatus::failed;
      early.stage = "plan";
      early.error = why;
      bad = true;
    };
    std::string out_abs;
    if (in.rel.empty()) {
      job.output = out_prefix + fs::path(job.input).filename().string();
      reject("batch: " + job.input + ": not under the input folder '" + root.string() +
             "', so its output has no place in the mirrored tree");
    } else {
      const std::string rel_out = out_is_file ? std::string() : with_ext(in.rel);
      job.output = out_is_file ? opt.output : out_prefix + rel_out;
      out_abs = out_is_file ? out_root.string() : out_root_prefix + rel_out;
      const auto fmt_in = format_of(in.rel);
      const auto fmt_out = format_of(out_abs);
      if (!fmt_in) {
        reject("batch: " + job.input +
               ": unsupported file extension; expected .png, .jpg, .jpeg, .tif or .tiff");
      } else if (opt.bit_depth != 0 && fmt_out && !depth_allowed(*fmt_out, opt.bit_depth)) {
        reject("batch: " + job.output + ": --bit-depth " + std::to_string(opt.bit_depth) +
               " cannot be written as " + to_string(*fmt_out) +
               " (JPEG: 8; PNG: 8, 16; TIFF: 8, 16, 32)");
      } else if (input_set.count(out_abs)) {
        reject("batch: " + job.output + ": the output would overwrite an input; refusing");
      } else if (auto c = claimed.find(out_abs); c != claimed.end()) {
        reject("batch: " + job.output + ": the same output as the input '" +
               plan.jobs[c->second].input + "'");
      }
    }
    if (!bad) {
      claimed.emplace(out_abs, plan.jobs.size());
      std::error_code e2;
      const bool exists = fs::exists(out_abs, e2);
      if (exists && opt.resume) {
        early.status = JobStatus::skipped;
        bad = true;
      } else if (exists && !opt.overwrite) {
        reject("batch: " + job.output +
               ": the output exists (--resume skips existing outputs, --overwrite replaces them)");
      }
    }
    if (bad) {
      plan.early.push_back(std::move(early));
    } else {
      plan.todo.push_back(plan.jobs.size());
    }
    plan.jobs.push_back(std::move(job));
  }
  std::vector<In>().swap(inputs);
  std::unordered_set<std::string>().swap(input_set);

  // Temporary files left by an interrupted run, for the outputs of this plan: each output folder
  // is listed once.
  std::set<std::string> dirs;
  for (const auto& [abs, index] : claimed) dirs.insert(fs::path(abs).parent_path().string());
  for (const auto& dir : dirs) {
    std::error_code e2;
    if (!fs::is_directory(dir, e2)) continue;
    for (const auto& entry : fs::directory_iterator(dir, e2)) {
      const std::string n = entry.path().filename().string();
      if (n.size() < 22 || n[0] != '.') continue;
      const std::size_t pos = n.rfind(".tmp-");
      if (pos == std::string::npos || pos < 1) continue;
      const std::string target = n.substr(1, pos - 1);
      if (is_temp_of(n, target) && claimed.count((fs::path(dir) / target).string()))
        plan.stale.push_back(entry.path());
    }
  }
  return true;
}

// ---- Progress -----------------------------------------------------------------------------------

std::string duration_text(double s) {
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600,
                  static_cast<int>(s) % 3600 / 60);
  }
  return buf;
}

class Progress {
 public:
  Progress(std::size_t total, bool enabled, bool tty)
      : total_(total), enabled_(enabled), tty_(tty) {
    start_ = Clock::now();
  }
  void count(JobStatus s) { (s == JobStatus::failed ? failed_ : done_).fetch_add(1); }
  // Prints a message line (a failure), keeping the bar intact on a terminal.
  void message(const std::string& line) {
    std::lock_guard<std::mutex> lock(io_);
    if (tty_ && bar_shown_) std::cerr << "\r\033[K";
    std::cerr << line << "\n";
    if (tty_ && bar_shown_) draw_locked();
  }
  void tick() {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(io_);
    if (tty_) {
      draw_locked();
      return;
    }
    const std::size_t n = done_.load() + failed_.load();
    if (n == last_plain_) return;
    last_plain_ = n;
    std::cerr << "texcv batch: " << status_text() << "\n";
  }
  void finish() {
    if (!enabled_ || !tty_) return;
    std::lock_guard<std::mutex> lock(io_);
    if (bar_shown_) std::cerr << "\r\033[K";
    bar_shown_ = false;
  }
  bool tty() const noexcept { return tty_; }

 private:
  std::string status_text() const {
    const std::size_t done = done_.load(), failed = failed_.load(), n = done + failed;
    const double secs = std::chrono::duration<double>(Clock::now() - start_).count();
    const double rate = secs > 0 ? static_cast<double>(n) / secs : 0.0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu/%zu files (%zu failed), %.1f images/s, ", n, total_, failed,
                  rate);
    std::string s = buf;
    if (n >= total_) {
      s += "done";
    } else if (rate > 0) {
      s += "ETA " + duration_text(static_cast<double>(total_ - n) / rate);
    } else {
      s += "ETA ?";
    }
    return s;
  }
  void draw_locked() {
    const std::size_t n = done_.load() + failed_.load();
    constexpr int kWidth = 28;
    const int fill = total_ ? static_cast<int>(kWidth * n / total_) : kWidth;
    std::cerr << "\r\033[K[" << std::string(static_cast<std::size_t>(fill), '#')
              << std::string(static_cast<std::size_t>(kWidth - fill), '.') << "] " << status_text()
              << std::flush;
    bar_shown_ = true;
  }

  const std::size_t total_;
  const bool enabled_, tty_;
  Clock::time_point start_;
  std::atomic<std::size_t> done_{0}, failed_{0};
  std::mutex io_;
  bool bar_shown_ = false;
  std::size_t last_plain_ = static_cast<std::size_t>(-1);
};

std::string thread_plan(const std::string& device, std::size_t workers, int nd, int ne) {
  return std::to_string(nd) + " decode thread(s), " + std::to_string(workers) + " " + device +
         " worker(s), " + std::to_string(ne) + " encode thread(s)";
}

}  // namespace

int batch_command(const BatchOptions& opt) {
  // What the time before the first file went to (the summary's last line).
  const auto t_entry = Clock::now();
  const double startup_s = seconds_since_process_start();
  double cuda_s = 0, plan_s = 0, probe_s = 0;
  // 1. Options that do not depend on the files.
  std::vector<PipelineStep> steps;
  if (!parse_pipeline_checked(opt.pipeline, steps, "texcv batch", "resize:scale=0.5;sharpen"))
    return kExitUsage;
  if (opt.resume && opt.overwrite) {
    say("--resume and --overwrite exclude each other (resume skips existing outputs)");
    return kExitUsage;
  }
  if (opt.output.empty()) {
    say("no output: give -o FOLDER");
    return kExitUsage;
  }
  const std::string out_format = canonical_format(opt.format);
  const BuildInfo build = build_info();
  if (out_format != "same" &&
      std::find(build.formats.begin(), build.formats.end(), out_format) == build.formats.end()) {
    say("--format " + opt.format + ": this build cannot write " + out_format + " files");
    return kExitUsage;
  }
  if (opt.bit_depth != 0 && out_format != "same" &&
      !depth_allowed(format_from_path("x" + extension_of(out_format)), opt.bit_depth)) {
    say("--bit-depth " + std::to_string(opt.bit_depth) + ": " + out_format +
        " files cannot hold it; expected " +
        (out_format == "jpeg"  ? "8"
         : out_format == "png" ? "8 or 16"
                               : "8, 16 or 32"));
    return kExitUsage;
  }
  WriteOptions write_opt;  // --quality, --png-compression, --tiff-compression, --tiff-level
  if (!write_options_from(opt, write_opt, "texcv batch")) return kExitUsage;

  // 2. Device and workers. An explicit --devices list is checked for its syntax first, then
  // against the GPUs the CUDA runtime sees (CUDA_VISIBLE_DEVICES applies).
  std::vector<int> devices;
  if (opt.devices != "all") {
    std::stringstream ss(opt.devices);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
      char* end = nullptr;
      const long d = std::strtol(tok.c_str(), &end, 10);
      if (tok.empty() || *end != '\0' || d < 0 || d > 1'000'000) {
        say("--devices " + opt.devices + ": '" + tok +
            "' is not a GPU index; expected 'all' or indices such as 0,1 separated by ','");
        return kExitUsage;
      }
      if (std::find(devices.begin(), devices.end(), static_cast<int>(d)) == devices.end())
        devices.push_back(static_cast<int>(d));
    }
    if (devices.empty()) {
      say("--devices " + opt.devices + ": no GPU selected");
      return kExitUsage;
    }
  }
  // "GPU 5 does not exist: this machine has 2 GPU(s) (indices 0..1)", for the indices in
  // `devices` that are not below `count` ("" when all exist).
  auto missing_gpus = [&](int count) {
    std::string bad;
    int nbad = 0;
    for (int d : devices)
      if (d >= count) {
        bad += (nbad++ ? ", " : "") + std::to_string(d);
      }
    if (nbad == 0) return std::string();
    std::string s = (nbad == 1 ? "GPU " : "GPUs ") + bad + (nbad == 1 ? " does" : " do") +
                    " not exist: the CUDA runtime sees " + std::to_string(count) + " GPU(s)";
    if (count > 0) s += " (indices 0.." + std::to_string(count - 1) + ")";
    if (const char* vis = std::getenv("CUDA_VISIBLE_DEVICES"))
      s += std::string("; CUDA_VISIBLE_DEVICES=") + vis + " limits and renumbers them";
    return s;
  };
  bool use_cuda = false;
  if (opt.device != "cpu") {
    bool available = false;
    const auto t_cuda = Clock::now();
    try {
      available = cuda_available();
    } catch (const std::exception&) {
      available = false;
    }
    cuda_s = seconds_between(t_cuda, Clock::now());
    if (opt.device == "cuda" && !available) {
      say(std::string("--device cuda: no usable GPU; ") +
          (build.cuda_compiled ? "the CUDA runtime sees no GPU on this machine"
                               : "this build has no CUDA backend") +
          (devices.empty() ? std::string()
                           : "; --devices " + opt.devices + ": " + missing_gpus(0)) +
          " (use --device cpu or auto)");
      return kExitUsage;
    }
    use_cuda = available;
  }
  if (use_cuda) {
    const int count = static_cast<int>(gpus().size());
    if (opt.devices == "all") {
      for (int d = 0; d < count; ++d) devices.push_back(d);
    } else if (const std::string why = missing_gpus(count); !why.empty()) {
      say("--devices " + opt.devices + ": " + why);
      return kExitUsage;
    }
  }
  // Fault injection (a testing aid, docs/batch.md).
  std::vector<InjectedFault> faults;
  try {
    faults = injected_faults_from_env();
  } catch (const std::exception& e) {
    say(e.what());
    return kExitUsage;
  }
  // JPEG codec: nvJPEG needs CUDA workers and a build with nvJPEG.
  if (opt.jpeg_codec == "nvjpeg" && !(use_cuda && nvjpeg_compiled())) {
    say(std::string("--jpeg-codec nvjpeg: ") +
        (!nvjpeg_compiled() ? "this build has no nvJPEG (it needs the CUDA toolkit's nvjpeg.h "
                              "and libnvjpeg at configure time)"
                            : "nvJPEG runs on the CUDA workers; the device is cpu") +
        " (use --jpeg-codec auto or cpu)");
    return kExitUsage;
  }
  const bool nvjpeg = use_cuda && nvjpeg_compiled() && opt.jpeg_codec != "cpu";
  const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  EngineConfig cfg;
  cfg.steps = steps;
  cfg.write = write_opt;
  cfg.decode_threads = opt.decode_threads > 0 ? opt.decode_threads : hw;
  cfg.encode_threads = opt.encode_threads > 0 ? opt.encode_threads : hw;
  cfg.bit_depth = opt.bit_depth;
  cfg.max_pixels = opt.max_pixels;
  cfg.max_bytes = opt.max_bytes;
  cfg.fail_fast = opt.fail_fast;
  cfg.gpu_jpeg_decode = nvjpeg;
  cfg.gpu_jpeg_encode = nvjpeg;
  cfg.faults = faults;

  // 3. The plan.
  Plan plan;
  const auto t_plan = Clock::now();
  try {
    if (!make_plan(opt, out_format, plan)) return kExitUsage;
  } catch (const std::exception& e) {
    say(e.what());
    return kExitUsage;
  }
  plan_s = seconds_between(t_plan, Clock::now());
  const std::size_t planned_failures = static_cast<std::size_t>(
      std::count_if(plan.early.begin(), plan.early.end(),
                    [](const JobResult& r) { return r.status == JobStatus::failed; }));
  const std::size_t resumed = plan.early.size() - planned_failures;
  const std::string device_text = use_cuda ? "cuda" : "cpu";
  // CPU backend workers: one per core by default, each running its operations on one thread
  // (measured on 2 cores: 200 JPEGs 2.05 -> 1.60 s, the TIFF task 1.66-2.52 -> 1.53-1.63 s against
  // one worker whose operations use every core: its OpenMP threads spin between the small
  // operations while the codec threads wait for the cores); with --workers N, cores / N threads
  // each.
  const int cpu_workers = opt.workers > 0 ? opt.workers : hw;
  const int cpu_threads_each = std::max(1, hw / cpu_workers);
  const std::size_t nworkers =
      use_cuda ? devices.size() * static_cast<std::size_t>(std::max(1, opt.streams))
               : static_cast<std::size_t>(cpu_workers);
  // Batched GPU decoding needs the files of a batch waiting in the queue (each is its encoded
  // bytes until a worker decodes it): room for two batches a worker, at most 512 files, when
  // every input is a JPEG (other files wait decoded: a TIFF of 5000^2 holds 75 MB). The probe
  // makes GPU 0's nvJPEG hardware handle, which its workers then share: only done when there are
  // JPEG files to decode.
  auto is_jpeg = [&](std::size_t i) { return format_of(plan.jobs[i].input) == ImageFormat::jpeg; };
  const bool any_jpeg = std::any_of(plan.todo.begin(), plan.todo.end(), is_jpeg);
  const bool all_jpeg = any_jpeg && std::all_of(plan.todo.begin(), plan.todo.end(), is_jpeg);
  const auto t_probe = Clock::now();
  const bool jpeg_batches =
      nvjpeg && any_jpeg && opt.gpu_jpeg_batch > 1 && nvjpeg_hardware_decoder(devices[0]);
  probe_s = seconds_between(t_probe, Clock::now());
  const std::size_t batch_queue =
      std::min<std::size_t>(512, 2 * nworkers * static_cast<std::size_t>(opt.gpu_jpeg_batch));
  cfg.queue_capacity =
      opt.queue > 0
          ? static_cast<std::size_t>(opt.queue)
          : std::max<std::size_t>(4, jpeg_batches && all_jpeg ? batch_queue : 2 * nworkers);
  std::string devices_text = device_text;
  if (use_cuda) {
    devices_text += " (GPU";
    for (std::size_t i = 0; i < devices.size(); ++i)
      devices_text += (i ? "," : " ") + std::to_string(devices[i]);
    devices_text += ", " + std::to_string(std::max(1, opt.streams)) + " streams each)";
  }
  const std::string codec_line =
      std::string("JPEG codec: ") +
      (nvjpeg ? std::string("nvJPEG on the GPU (decode: ") +
                    (jpeg_batches ? "the GPU's hardware JPEG decoder, up to " +
                                        std::to_string(opt.gpu_jpeg_batch) +
                                        " files a call, nvJPEG's hybrid decoder for the others"
                                  : "nvJPEG's hybrid decoder, one file a call") +
                    "; encode: nvJPEG; libjpeg-turbo for files nvJPEG cannot decode)"
              : std::string("libjpeg-turbo on the CPU (decode and encode)"));

  if (opt.dry_run) {
    std::cout << "texcv batch (dry run, nothing is written): " << plan.jobs.size()
              << " file(s); pipeline \"" << opt.pipeline << "\"; device " << devices_text << "; "
              << thread_plan(device_text, nworkers, cfg.decode_threads, cfg.encode_threads) << "; "
              << codec_line << "\n";
    std::vector<const JobResult*> early_of(plan.jobs.size(), nullptr);
    for (const auto& r : plan.early) early_of[r.index] = &r;
    for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
      const auto& j = plan.jobs[i];
      const JobResult* e = early_of[i];
      if (!e) {
        std::cout << "process " << j.input << " -> " << j.output << "\n";
      } else if (e->status == JobStatus::skipped) {
        std::cout << "skip    " << j.input << " -> " << j.output << " (exists)\n";
      } else {
        std::cout << "fail    " << j.input << ": " << e->error << "\n";
      }
    }
    for (const auto& s : plan.stale)
      std::cout << "remove  " << s.string() << " (temporary file of an interrupted run)\n";
    std::cout << plan.todo.size() << " to process, " << resumed << " to skip, " << planned_failures
              << " failing, " << plan.ignored << " file(s) without an image extension ignored\n";
    return planned_failures > 0 ? kExitFailed : kExitOk;
  }

  // 4. Set-up that can still fail as a whole: the report file, the workers, the output folder.
  std::ofstream report;
  if (!opt.report.empty()) {
    // Its folder is made as the output folder is (a report beside a new output tree).
    const fs::path parent = fs::path(opt.report).parent_path();
    std::error_code mkdir_err;
    if (!parent.empty()) fs::create_directories(parent, mkdir_err);
    report.open(opt.report, std::ios::out | std::ios::trunc);
    if (!report) {
      say("cannot write the report file '" + opt.report + "'" +
          (mkdir_err ? " (" + mkdir_err.message() + ")" : ""));
      return kExitUsage;
    }
  }
  std::vector<std::unique_ptr<Worker>> workers;
  try {
    if (use_cuda) {
      workers = make_cuda_workers(cfg.steps, devices, opt.streams, nvjpeg,
                                  jpeg_batches ? opt.gpu_jpeg_batch : 1);
    } else {
      for (std::size_t i = 0; i < nworkers; ++i)
        workers.push_back(make_cpu_worker(cfg.steps, static_cast<int>(i), cpu_threads_each));
    }
  } catch (const std::exception& e) {
    say(e.what());
    return kExitUsage;
  }
  std::size_t stale_removed = 0;
  for (const auto& s : plan.stale) {
    std::error_code ec;
    if (fs::remove(s, ec)) ++stale_removed;
  }

  const bool tty = ::isatty(STDERR_FILENO) == 1;
  if (!opt.quiet) {
    say(std::to_string(plan.jobs.size()) + " file(s): " + std::to_string(plan.todo.size()) +
        " to process, " + std::to_string(resumed) + " skipped (outputs exist), " +
        std::to_string(planned_failures) + " rejected; device " + devices_text + "; " +
        thread_plan(device_text, nworkers, cfg.decode_threads, cfg.encode_threads) + "; " +
        codec_line);
    if (stale_removed > 0)
      say("removed " + std::to_string(stale_removed) +
          " temporary file(s) left by an interrupted run");
  }

  // 5. Run.
  Progress progress(plan.todo.size(), !opt.quiet, tty);
  std::size_t ok = 0, failed = 0, skipped = 0, cancelled = 0, fallbacks = 0;
  double sum_read = 0, sum_process = 0, sum_write = 0;
  bool report_failed = false;
  auto record = [&](const JobResult& r) {
    switch (r.status) {
      case JobStatus::ok:
        ++ok;
        break;
      case JobStatus::failed:
        ++failed;
        break;
      case JobStatus::skipped:
        ++skipped;
        break;
      case JobStatus::cancelled:
        ++cancelled;
        break;
    }
    if (r.cpu_fallback) ++fallbacks;
    sum_read += r.read_ms;
    sum_process += r.process_ms;
    sum_write += r.write_ms;
    const BatchJob& job = plan.jobs[r.index];
    if (r.status == JobStatus::failed)
      progress.message("texcv batch: FAILED " + job.input + ": " + r.error);
    else if (r.cpu_fallback && !opt.quiet)
      progress.message("texcv batch: " + job.input + ": " + r.note);
    if (report.is_open() && !report_failed) {
      report << report_line(job, r) << '\n';
      report.flush();
      if (!report) report_failed = true;
    }
  };
  for (const auto& r : plan.early) record(r);

  std::atomic<bool> stop{opt.fail_fast && planned_failures > 0};
  g_interrupted = 0;
  auto old_int = std::signal(SIGINT, on_signal);
  auto old_term = std::signal(SIGTERM, on_signal);
  std::mutex tick_mutex;
  std::condition_variable tick_cv;
  bool engine_done = false;
  std::thread ticker([&] {
    const auto period = tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(2000);
    auto last = Clock::now();
    std::unique_lock<std::mutex> lock(tick_mutex);
    while (!engine_done) {
      tick_cv.wait_for(lock, std::chrono::milliseconds(100));
      if (g_interrupted) stop.store(true);
      if (!engine_done && Clock::now() - last >= period) {
        last = Clock::now();
        lock.unlock();
        progress.tick();
        lock.lock();
      }
    }
  });
  // Worker loss: a lost device is shown when it happens (as failures are, even with --quiet);
  // once every worker is lost the files left run on CPU backend workers (--workers of them).
  std::size_t retried = 0;
  cfg.on_event = [&](const std::string& line) { progress.message("texcv batch: " + line); };
  const int fallback_count = cpu_workers;
  const int first_slot = use_cuda ? 0 : static_cast<int>(nworkers);
  cfg.fallback = [&] {
    std::vector<std::unique_ptr<Worker>> v;
    for (int i = 0; i < fallback_count; ++i)
      v.push_back(make_cpu_worker(cfg.steps, first_slot + i, cpu_threads_each));
    return v;
  };
  std::size_t ran = 0;  // files the engine finished (ok or failed)
  const auto t0 = Clock::now();
  const EngineReport engine = run_engine(
      plan.jobs, plan.todo, cfg, workers,
      [&](const JobResult& r) {
        if (r.status != JobStatus::cancelled) ++ran;
        if (!r.retried_from.empty()) ++retried;
        progress.count(r.status);
        record(r);
      },
      stop);
  const double seconds = seconds_between(t0, Clock::now());
  {
    std::lock_guard<std::mutex> lock(tick_mutex);
    engine_done = true;
  }
  tick_cv.notify_all();
  ticker.join();
  progress.finish();
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  // The workers' own account (TEXCV_BATCH_TIMING=1), then the CPU workers are released (the
  // CUDA workers at the end, below).
  for (const auto& w : workers)
    if (const std::string t = w->timing(); !t.empty()) say(t);
  if (!use_cuda) workers.clear();

  // 6. Summary.
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "%zu ok, %zu failed, %zu skipped (outputs exist), %zu not started; %.2f s, "
                "%.1f images/s on %s (stage time summed over threads: read %.2f s, process %.2f "
                "s, write %.2f s)",
                ok, failed, skipped, cancelled, seconds,
                seconds > 0 ? static_cast<double>(ran) / seconds : 0.0, device_text.c_str(),
                sum_read / 1000, sum_process / 1000, sum_write / 1000);
  if (!opt.quiet || failed > 0 || cancelled > 0) say(buf);
  if (!opt.quiet) {
    // The fixed cost a short run pays (the GPU workers' own set-up, streams, buffers and nvJPEG
    // states, happens on their first files and is part of the time above).
    const double before = seconds_between(t_entry, t0);
    std::string parts = "start-up " + fixed2(startup_s);
    if (opt.device != "cpu") parts += ", CUDA runtime " + fixed2(cuda_s);
    parts += ", listing the files " + fixed2(plan_s);
    if (probe_s >= 0.005) parts += ", nvJPEG hardware decoder " + fixed2(probe_s);
    parts += ", other " + fixed2(std::max(0.0, before - cuda_s - plan_s - probe_s));
    say("time before the first file: " + fixed2(startup_s + before) + " s (" + parts + " s)");
  }
  if (fallbacks > 0)
    say(std::to_string(fallbacks) + " file(s) fell back from CUDA to the CPU backend");
  for (const auto& l : engine.lost) say("device lost: " + l);
  if (!engine.lost.empty())
    say(std::to_string(retried) + " file(s) in flight on a lost device were retried on another " +
        "worker (their report lines say \"retried\":true)");
  if (engine.all_lost)
    say(engine.fallback_workers > 0
            ? "every " + device_text + " worker was lost: the files left ran on " +
                  std::to_string(engine.fallback_workers) + " CPU backend worker(s)"
            : "every worker was lost: the files left failed");
  if (g_interrupted) say("interrupted: the files not started are listed as cancelled");
  if (opt.fail_fast && failed > 0 && cancelled > 0)
    say("stopped at the first failure (--fail-fast)");
  int rc = (failed > 0 || cancelled > 0) ? kExitFailed : kExitOk;
  if (report.is_open()) {
    report.close();
    if (!report) report_failed = true;
  }
  if (report_failed) {
    say("writing the report file '" + opt.report + "' failed");
    rc = kExitFailed;
  }
  if (use_cuda) {
    // Every output and the report are written and closed. Releasing the CUDA workers (streams,
    // buffers, nvJPEG states and handles) took 0.24 s (one GPU) and 0.37 s (two) after 1,000
    // JPEGs on the H200s, before each GPU's context, for nothing the user keeps: the process ends
    // here (the run's tail after the last file went from ~0.47 to ~0.27 s on one GPU), and the
    // driver releases the GPUs as at any exit. TEXCV_BATCH_TIMING=1 times the workers' release.
    if (const char* t = std::getenv("TEXCV_BATCH_TIMING"); t && *t && std::string(t) != "0") {
      const auto t_release = Clock::now();
      workers.clear();
      std::string msg = "timing: releasing the CUDA workers took ";
      msg += fixed2(seconds_between(t_release, Clock::now()));
      msg += " s";
      say(msg);
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(rc);
  }
  return rc;
}

}  // namespace texcv::cli
