// texcv batch: plan the jobs (inputs, mirrored outputs, resume, stale temporary files), then run
// them through the batch engine (batch_engine.hpp) with progress, a per-file report and a
// summary. docs/batch.md describes the behaviour.
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#include "texcv/batch.hpp"
#include "texcv/error.hpp"
#include "texcv/io.hpp"
#include "texcv/registry.hpp"
#include "texcv/runtime.hpp"
#include "tools/texcv/commands.hpp"
#include "tools/texcv/file_safety.hpp"
#include "tools/texcv/list_file.hpp"

namespace fs = std::filesystem;

namespace texcv::cli {

// The library's batch engine (texcv/batch.hpp) is what runs the files.
using BatchJob = batch::Job;
using JobResult = batch::Result;
using JobStatus = batch::Status;
using batch::to_string;

namespace {

// The largest --list file read (64 MiB: about a million paths of 60 bytes).
constexpr std::uint64_t kMaxListBytes = std::uint64_t{64} << 20;

// Reads the --list file whole into `text`; returns "" or the message of a usage error. Anything
// but a regular file (a FIFO, /dev/zero, a folder) is refused from stat, before it is opened (a
// FIFO would block, /dev/zero never ends); the open does not block either (O_NONBLOCK), and at
// most kMaxListBytes are read, whatever the file grows to meanwhile.
std::string read_list_file(const std::string& path, std::string& text) {
  const std::string head = "--list '" + path + "': ";
  const auto kind = [](mode_t m) -> std::string {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a file";
  };
  const std::string too_large = "the list file is larger than " + std::to_string(kMaxListBytes) +
                                " bytes (64 MiB); expected at most that (split the list)";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return head + "cannot read the list file: " + std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return head + "not a regular file (" + kind(st.st_mode) +
           "); expected a regular file of paths, one a line";
  if (static_cast<std::uint64_t>(st.st_size) > kMaxListBytes) return head + too_large;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return head + "cannot read the list file: " + std::strerror(errno);
  std::string why;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = head + "not a regular file; expected a regular file of paths, one a line";
  } else {
    text.clear();
    char buf[65536];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        why = head + "cannot read the list file: " + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      if (text.size() + static_cast<std::size_t>(n) > kMaxListBytes) {
        why = head + too_large;
        break;
      }
      text.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return why;
}

using Clock = std::chrono::steady_clock;

// Every line printed goes through printable(): names with control characters (ESC, newline)
// cannot clear the terminal or forge lines.
void say(const std::string& msg) {
  std::cerr << "texcv batch: " << printable(msg) << "\n";
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

// ---- Planning ---------------------------------------------------------------------------------

struct Plan {
  std::vector<BatchJob> jobs;
  std::vector<JobResult> early;   // failed or skipped before the engine (index into jobs)
  std::vector<std::size_t> todo;  // indices of jobs to run
  std::vector<fs::path> stale;    // temporary files of an interrupted run
  std::size_t ignored = 0;        // files in the folder without an image extension
  std::size_t excluded = 0;       // files under the output folder (inside the input folder)
  bool out_inside_input = false;  // the output folder is inside the input folder
  fs::path lock_dir;              // the output folder (a file output: its folder)
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

// Returns false (after saying why) on a usage error.
//
// Safety rules (docs/batch.md, "What texcv batch never does"): files and folders are compared by
// identity (file_safety.hpp), so a symlink, a hard link or a bind mount cannot make a write land
// on an input, the --list file or the --report file.
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
  const FileId out_id = file_id(opt.output);
  if ((input_is_dir || !opt.list.empty()) && out_id && !fs::is_directory(opt.output, ec)) {
    say("the output '" + opt.output + "' is a file, but the input is " +
        (opt.list.empty() ? "the folder '" + opt.input + "'" : "the list '" + opt.list + "'") +
        "; expected an output folder (new or existing)");
    return false;
  }

  // Inputs: (path as shown, path relative to the root or "" when outside it).
  struct In {
    std::string shown, rel;
  };
  std::vector<In> inputs;
  fs::path root;
  bool single_file = false;
  if (!opt.list.empty() && have_input && !input_is_dir) {
    say("with --list, -i must be the folder the listed paths are relative to; got the file '" +
        opt.input + "'");
    return false;
  }
  if (!opt.list.empty()) {
    root = absolute_normal(have_input ? fs::path(opt.input) : fs::absolute(opt.list).parent_path());
  } else if (input_is_dir) {
    root = absolute_normal(opt.input);
  }
  // The output folder against the input folder, by identity: the same folder is refused, a folder
  // inside it is allowed, its files then being no inputs (each listed as "excluded").
  const FileId root_id = root.empty() ? FileId{} : file_id(root.string());
  bool out_inside = false;
  if (root_id) {
    if (out_id == root_id) {
      say("the output folder '" + opt.output + "' is the input folder '" + root.string() +
          "' (the same folder on disk); refusing to write beside the inputs");
      return false;
    }
    out_inside = inside_folder(out_root, root_id);
  }
  // Whether a folder of the input tree is the output folder or lies under it (cached per folder).
  std::unordered_map<std::string, bool> under_out;
  auto in_output_folder = [&](const fs::path& dir) {
    if (!out_inside || !out_id) return false;
    auto [it, fresh] = under_out.emplace(dir.string(), false);
    if (fresh) it->second = inside_folder(dir, out_id);
    return it->second;
  };
  std::vector<std::string> excluded;  // inputs under the output folder, as shown

  // Relative list entries are spelled from the folder they are relative to ("in/a.png").
  const fs::path list_dir = fs::path(opt.list).parent_path();
  const std::string in_prefix = have_input         ? (fs::path(opt.input) / "").string()
                                : list_dir.empty() ? std::string()
                                                   : (list_dir / "").string();
  if (!opt.list.empty()) {
    std::string list_text;
    if (const std::string why = read_list_file(opt.list, list_text); !why.empty()) {
      say(why);
      return false;
    }
    std::istringstream lf(list_text);
    // Each entry's folder is resolved as the kernel resolves it (symlinks, then ".."), once per
    // distinct folder, before the inside-the-input check: "symdir/../x.png" is where symdir's
    // target's parent holds x.png, not root/x.png.
    std::unordered_map<std::string, fs::path> resolved_dirs;
    std::string line;
    while (next_list_entry(lf, line)) {
      const fs::path given(line);
      const fs::path joined = given.is_relative() ? root / given : given;
      const fs::path name = joined.filename();
      auto [it, fresh] = resolved_dirs.emplace(joined.parent_path().string(), fs::path());
      if (fresh) it->second = absolute_normal(joined.parent_path());
      const fs::path abs = it->second / name;
      const bool under = !name.empty() && name != "." && name != ".." && is_under(abs, root);
      const std::string shown = given.is_relative() ? in_prefix + line : line;
      if (under && in_output_folder(it->second)) {
        excluded.push_back(shown);
        continue;
      }
      inputs.push_back(
          {shown, under ? abs.lexically_relative(root).generic_string() : std::string()});
    }
  } else if (input_is_dir) {
    std::vector<In> links;  // symbolic links met in the listing, checked after it
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
      std::error_code e2;
      if (out_inside && out_id && it->is_directory(e2)) {
        if (file_id(it->path().string()) == out_id) {
          it.disable_recursion_pending();  // never read our own outputs; listed as excluded
          std::error_code e3;
          for (auto sub = fs::recursive_directory_iterator(
                   it->path(), fs::directory_options::skip_permission_denied, e3);
               !e3 && sub != fs::recursive_directory_iterator(); sub.increment(e3)) {
            std::error_code e4;
            if (sub->is_regular_file(e4) && format_of(sub->path()))
              excluded.push_back(sub->path().string());
          }
          continue;
        }
      }
      if (it->is_symlink(e2)) {  // the link's type comes from the listing; its target's not
        links.push_back({it->path().string(), rel.generic_string()});
        continue;
      }
      if (!it->is_regular_file(e2)) continue;
      if (!format_of(rel)) {
        ++plan.ignored;
        continue;
      }
      inputs.push_back({it->path().string(), rel.generic_string()});
    }
    // Links are inputs when they lead to a regular file, as the files themselves. Their targets
    // are stat'ed by several threads together: one after the other, 8,000 links took 0.04-0.08 s
    // of the H200's plan (bench/batch/run.sh's inputs are links).
    std::vector<char> regular(links.size(), 0);
    const std::size_t n_threads = std::min<std::size_t>(
        {links.size() / 256 + 1, 8, std::max(1u, std::thread::hardware_concurrency())});
    std::atomic<std::size_t> next{0};
    auto check = [&] {
      for (std::size_t i; (i = next.fetch_add(64)) < links.size();)
        for (std::size_t j = i; j < std::min(i + 64, links.size()); ++j) {
          std::error_code e3;
          regular[j] = fs::is_regular_file(links[j].shown, e3) ? 1 : 0;
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < n_threads; ++t) pool.emplace_back(check);
    check();
    for (auto& t : pool) t.join();
    for (std::size_t j = 0; j < links.size(); ++j) {
      if (!regular[j]) continue;
      if (!format_of(fs::path(links[j].rel))) {
        ++plan.ignored;
        continue;
      }
      inputs.push_back(std::move(links[j]));
    }
  } else {
    single_file = true;
    const fs::path p = absolute_normal(opt.input);
    root = p.parent_path();
    inputs.push_back({opt.input, p.filename().string()});
  }
  plan.out_inside_input = out_inside;

  // Globs, order.
  if (!opt.globs.empty()) {
    std::vector<In> kept;
    for (auto& in : inputs)
      if (in.rel.empty() || glob_match(opt.globs, in.rel)) kept.push_back(std::move(in));
    inputs.swap(kept);
  }
  std::sort(inputs.begin(), inputs.end(),
            [](const In& a, const In& b) { return a.shown < b.shown; });
  std::sort(excluded.begin(), excluded.end());
  if (inputs.empty()) {
    say("no input image files found (.png, .jpg, .jpeg, .tif, .tiff" +
        std::string(opt.globs.empty() ? "" : " matching --glob") + ") in '" +
        (opt.list.empty() ? opt.input : opt.list) + "'" +
        (excluded.empty()
             ? std::string()
             : " (" + std::to_string(excluded.size()) + " file(s) under the output folder '" +
                   opt.output + "' are outputs, not inputs)"));
    return false;
  }

  // What no output may be: an input, the list, the report. The inputs' identities are taken
  // only when some output (or the report) exists: a new file cannot be one of them.
  const FileId list_id = opt.list.empty() ? FileId{} : file_id(opt.list);
  const FileId report_id = opt.report.empty() ? FileId{} : file_id(opt.report);
  std::unordered_map<FileId, std::size_t, FileIdHash> input_ids;  // -> index into inputs
  bool input_ids_taken = false;
  auto input_with_id = [&](const FileId& id) -> const In* {
    if (!input_ids_taken) {
      input_ids_taken = true;
      for (std::size_t i = 0; i < inputs.size(); ++i)
        if (const FileId fid = file_id(inputs[i].shown)) input_ids.emplace(fid, i);
    }
    const auto it = input_ids.find(id);
    return it == input_ids.end() ? nullptr : &inputs[it->second];
  };

  // Outputs.
  const bool out_is_file = single_file && !fs::is_directory(opt.output, ec) &&
                           !opt.output.empty() && opt.output.back() != '/' &&
                           format_of(opt.output).has_value();
  plan.lock_dir = out_is_file ? out_root.parent_path() : out_root;
  const std::string out_prefix = (fs::path(opt.output) / "").string();
  const std::string out_root_prefix = (out_root / "").string();
  const std::string new_ext = out_format == "same" ? std::string() : extension_of(out_format);
  auto with_ext = [&](const std::string& rel) {
    if (new_ext.empty()) return rel;
    const std::size_t slash = rel.rfind('/');
    const std::size_t dot = rel.rfind('.');
    const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash) &&
                         dot != (slash == std::string::npos ? 0 : slash + 1);
    return (has_ext ? rel.substr(0, dot) : rel) + new_ext;
  };
  // An output folder inside the input tree (through a symlink or a mount in the output tree)
  // while the output folder itself is not: cached per folder.
  std::unordered_map<std::string, bool> dir_in_input;
  auto output_dir_in_input = [&](const std::string& out_abs) {
    if (!root_id || out_inside || single_file) return false;
    const std::string dir = fs::path(out_abs).parent_path().string();
    auto [it, fresh] = dir_in_input.emplace(dir, false);
    if (fresh) it->second = inside_folder(dir, root_id);
    return it->second;
  };
  std::unordered_map<std::string, std::size_t> claimed;  // absolute output -> job
  std::unordered_map<std::string, bool> out_dir_found;   // an output's folder -> it resolves
  std::unordered_map<FileId, std::size_t, FileIdHash> existing_outputs;  // -> job
  plan.jobs.reserve(inputs.size());
  for (auto& in : inputs) {
    BatchJob job;
    job.input = in.shown;  // a copy: input_with_id may still read in.shown
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
      } else if (auto c = claimed.find(out_abs); c != claimed.end()) {
        reject("batch: " + job.output + ": the same output as the input '" +
               plan.jobs[c->second].input + "'");
      } else if (output_dir_in_input(out_abs)) {
        reject("batch: " + job.output + ": its folder is inside the input folder '" +
               root.string() + "' (through a symlink or a mount); refusing to write there");
      }
    }
    if (!bad) {
      claimed.emplace(out_abs, plan.jobs.size());
      // Nothing can be at the output when its folder cannot be resolved (a new output tree: no
      // stat and lstat a file, which were 2 of the 3 system calls a file of the plan made).
      auto [dir_it, fresh_dir] =
          out_dir_found.emplace(fs::path(out_abs).parent_path().string(), false);
      if (fresh_dir) dir_it->second = file_id(dir_it->first).found;
      const FileId id = dir_it->second ? file_id(out_abs) : FileId{};
      const bool exists = id.found || (dir_it->second && fs::is_symlink(out_abs, ec));
      const In* same_input = id ? input_with_id(id) : nullptr;
      if (same_input) {
        // The same path, or the same file through a hard link, a symlink or a mount.
        reject("batch: " + job.output + ": the output is the input '" + same_input->shown +
               "' (the same file on disk); refusing to overwrite it");
      } else if (id == list_id) {
        reject("batch: " + job.output + ": the output is the --list file '" + opt.list +
               "'; refusing to overwrite it");
      } else if (exists && opt.resume) {
        early.status = JobStatus::skipped;
        bad = true;
      } else if (exists && !opt.overwrite) {
        reject("batch: " + job.output +
               ": the output exists (--resume skips existing outputs, --overwrite replaces them)");
      }
      if (id) existing_outputs.emplace(id, plan.jobs.size());
    }
    if (bad) {
      plan.early.push_back(std::move(early));
    } else {
      plan.todo.push_back(plan.jobs.size());
    }
    plan.jobs.push_back(std::move(job));
  }
  // The excluded files: a line each in the report (after the jobs, which keep their indices).
  for (auto& shown : excluded) {
    JobResult r;
    r.index = plan.jobs.size();
    r.status = JobStatus::excluded;
    r.note = "under the output folder '" + opt.output +
             "', which is inside the input folder: an output, not an input";
    plan.early.push_back(std::move(r));
    plan.jobs.push_back({std::move(shown), {}, std::string()});
  }
  plan.excluded = excluded.size();

  // The report: never an input, the list or a planned output (by identity when it exists, by
  // its resolved path otherwise).
  if (!opt.report.empty()) {
    const std::string rep_abs = absolute_normal(opt.report).string();
    std::string clash;
    if (report_id && fs::is_directory(opt.report, ec)) {
      clash = "is a folder; expected a file name";
    } else if (const In* same = report_id ? input_with_id(report_id) : nullptr; same) {
      clash = "is the input '" + same->shown + "'";
    } else if (report_id == list_id) {
      clash = "is the --list file '" + opt.list + "'";
    } else if (auto c = claimed.find(rep_abs); c != claimed.end()) {
      clash = "is the output of '" + plan.jobs[c->second].input + "'";
    } else if (auto e = report_id ? existing_outputs.find(report_id) : existing_outputs.end();
               e != existing_outputs.end()) {
      clash = "is the output of '" + plan.jobs[e->second].input + "' (the same file on disk)";
    }
    if (!clash.empty()) {
      say("--report " + opt.report + ": the report file " + clash +
          "; refusing to write the report over it (choose another --report path)");
      return false;
    }
  }
  std::vector<In>().swap(inputs);

  // Temporary files left by an interrupted run, for the outputs of this plan: each output folder
  // is listed once; an entry is stale when it is temp_file_prefix(a planned output's name) + 16
  // hex digits. ".<name>.tmp-" gives the name back; a shortened prefix (a name too long for it) is
  // matched against those of the plan's long names, the only prefixes computed.
  std::map<std::string, std::unordered_set<std::string>> dirs;  // folder -> shortened prefixes
  std::unordered_map<std::string, std::size_t> name_max;        // folder -> its NAME_MAX
  for (const auto& [abs, index] : claimed) {
    const fs::path p(abs);
    const std::string dir = p.parent_path().string(), name = p.filename().string();
    auto [it, fresh] = name_max.emplace(dir, 255);
    if (fresh) {
      const long m = ::pathconf(dir.c_str(), _PC_NAME_MAX);
      if (m > 0) it->second = static_cast<std::size_t>(m);
    }
    auto& shortened = dirs[dir];
    const std::string prefix = temp_file_prefix(name, it->second);
    if (prefix.size() != name.size() + 6) shortened.insert(prefix);
  }
  for (const auto& [dir, shortened] : dirs) {
    std::error_code e2;
    if (!fs::is_directory(dir, e2)) continue;
    for (const auto& entry : fs::directory_iterator(dir, e2)) {
      const std::string n = entry.path().filename().string();
      if (n.size() < 22 || n[0] != '.') continue;
      if (!std::all_of(n.end() - 16, n.end(),
                       [](unsigned char c) { return std::isxdigit(c) != 0; }))
        continue;
      const std::string prefix = n.substr(0, n.size() - 16);
      const bool plain = prefix.size() > 6 && prefix.compare(prefix.size() - 5, 5, ".tmp-") == 0 &&
                         claimed.count(dir + "/" + prefix.substr(1, prefix.size() - 6)) > 0;
      if (plain || shortened.count(prefix)) plan.stale.push_back(entry.path());
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
    std::cerr << printable(line) << "\n";
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

// One run at a time per output folder: an exclusive flock(2) on the folder itself, held until
// the process ends (the kernel releases it however the process ends, so there is no stale lock
// and no lock file in the outputs). Makes the folder first. Returns the descriptor to keep open,
// -1 when the file system cannot lock (a warning: concurrent runs are then not detected) or -2
// after saying why the run cannot go on (another run holds the lock, the folder cannot be made).
int lock_output_folder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) {
    say("cannot create the output folder '" + dir.string() + "'" +
        (ec ? ": " + ec.message() : std::string()));
    return -2;
  }
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    say("cannot open the output folder '" + dir.string() + "': " + std::strerror(errno));
    return -2;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
  const int e = errno;
  if (e == EWOULDBLOCK) {
    ::close(fd);
    say("another texcv batch is writing into the output folder '" + dir.string() +
        "' (it holds the folder's lock); wait for it to end, or choose another -o");
    return -2;
  }
  say("warning: cannot lock the output folder '" + dir.string() + "' (" + std::strerror(e) +
      "): a second run into it at the same time would not be detected");
  ::close(fd);
  return -1;
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
  // --device cuda and an explicit --devices list are checked now (the CUDA runtime starts:
  // ~0.2 s); --device auto on all GPUs is not: its CUDA workers are set up in the background
  // while CPU workers take the first files (texcv/batch.hpp).
  const bool cuda_mode = opt.device == "cuda";
  const bool probe_now = cuda_mode || (opt.device == "auto" && !devices.empty());
  bool gpu_usable = false;
  if (probe_now) {
    const auto t_cuda = Clock::now();
    try {
      gpu_usable = cuda_available();
    } catch (const std::exception&) {
      gpu_usable = false;
    }
    cuda_s = seconds_between(t_cuda, Clock::now());
    if (cuda_mode && !gpu_usable) {
      say(std::string("--device cuda: no usable GPU; ") +
          (build.cuda_compiled ? "the CUDA runtime sees no GPU on this machine"
                               : "this build has no CUDA backend") +
          (devices.empty() ? std::string()
                           : "; --devices " + opt.devices + ": " + missing_gpus(0)) +
          " (use --device cpu or auto)");
      return kExitUsage;
    }
    if (gpu_usable && !devices.empty()) {
      if (const std::string why = missing_gpus(static_cast<int>(gpus().size())); !why.empty()) {
        say("--devices " + opt.devices + ": " + why);
        return kExitUsage;
      }
    }
  }
  if (cuda_mode && devices.empty())
    for (int d = 0; d < static_cast<int>(gpus().size()); ++d) devices.push_back(d);
  // Whether CUDA workers may run: cuda; auto in a CUDA build (known only once set up, unless
  // probed above).
  const bool may_use_cuda = cuda_mode || (opt.device == "auto" && build.cuda_compiled &&
                                          batch::gpu_device_nodes() && (!probe_now || gpu_usable));
  // JPEG codec: nvJPEG needs CUDA workers and a build with nvJPEG.
  if (opt.jpeg_codec == "nvjpeg" && !(may_use_cuda && batch::nvjpeg_available())) {
    say(std::string("--jpeg-codec nvjpeg: ") +
        (!batch::nvjpeg_available() ? "this build has no nvJPEG (it needs the CUDA toolkit's "
                                      "nvjpeg.h and libnvjpeg at configure time)"
                                    : "nvJPEG runs on the CUDA workers; the device is cpu") +
        " (use --jpeg-codec auto or cpu)");
    return kExitUsage;
  }
  const bool nvjpeg = may_use_cuda && batch::nvjpeg_available() && opt.jpeg_codec != "cpu";
  const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  batch::Options bopt;
  bopt.steps = steps;
  bopt.device = opt.device == "cpu" ? batch::Device::cpu
                : cuda_mode         ? batch::Device::cuda
                : may_use_cuda      ? batch::Device::automatic
                                    : batch::Device::cpu;
  bopt.gpus = devices;
  bopt.streams = std::max(1, opt.streams);
  bopt.write = write_opt;
  bopt.read.allow_corrupt = opt.allow_corrupt;
  bopt.decode_threads = opt.decode_threads > 0 ? opt.decode_threads : hw;
  bopt.encode_threads = opt.encode_threads > 0 ? opt.encode_threads : hw;
  bopt.bit_depth = opt.bit_depth;
  bopt.max_pixels = opt.max_pixels;
  bopt.max_bytes = opt.max_bytes;
  bopt.fail_fast = opt.fail_fast;
  bopt.jpeg_codec = batch::parse_jpeg_codec(opt.jpeg_codec);
  bopt.fast_exit = true;  // the process ends after the summary
  // CPU backend workers: one per core by default, each running its operations on one thread
  // (measured on 2 cores: 200 JPEGs 2.05 -> 1.60 s, the TIFF task 1.66-2.52 -> 1.53-1.63 s against
  // one worker whose operations use every core: its OpenMP threads spin between the small
  // operations while the codec threads wait for the cores); with --workers N, cores / N threads
  // each.
  const int cpu_workers = opt.workers > 0 ? opt.workers : hw;
  bopt.cpu_workers = cpu_workers;
  bopt.cpu_threads_each = std::max(1, hw / cpu_workers);
  if (opt.queue > 0) bopt.queue = static_cast<std::size_t>(opt.queue);
  try {
    batch::check_options(bopt);  // also TEXCV_BATCH_INJECT_FAULT's syntax
  } catch (const std::exception& e) {
    say(e.what());
    return kExitUsage;
  }

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
  const std::size_t resumed = static_cast<std::size_t>(
      std::count_if(plan.early.begin(), plan.early.end(),
                    [](const JobResult& r) { return r.status == JobStatus::skipped; }));
  const std::size_t planned_files = plan.jobs.size() - plan.excluded;
  const bool auto_mode = bopt.device == batch::Device::automatic;
  const std::string device_text = cuda_mode ? "cuda" : auto_mode ? "auto" : "cpu";
  const std::size_t gpu_workers_n =
      static_cast<std::size_t>(bopt.streams) * (devices.empty() ? 1 : devices.size());
  // The hardware JPEG decoder: probed now on --device cuda (its handle, which the workers then
  // share; ~0.4 s on the H200), found by the workers' background set-up on auto, and on cuda with
  // TEXCV_BATCH_CUDA_BACKGROUND=1 (an A/B aid, src/batch/batch.cpp).
  auto is_jpeg = [&](std::size_t i) { return format_of(plan.jobs[i].input) == ImageFormat::jpeg; };
  const bool any_jpeg = std::any_of(plan.todo.begin(), plan.todo.end(), is_jpeg);
  bool jpeg_batches = nvjpeg && any_jpeg && opt.gpu_jpeg_batch > 1;
  const char* background = std::getenv("TEXCV_BATCH_CUDA_BACKGROUND");
  const bool probed = cuda_mode && !(background && std::string(background) == "1");
  if (probed && jpeg_batches && !opt.dry_run) {
    const auto t_probe = Clock::now();
    jpeg_batches = batch::gpu_jpeg_engines(devices[0]);
    probe_s = seconds_between(t_probe, Clock::now());
  }
  bopt.gpu_jpeg_batch = jpeg_batches ? opt.gpu_jpeg_batch : 1;
  std::string devices_text = device_text;
  std::string workers_text;
  if (cuda_mode) {
    devices_text += " (GPU";
    for (std::size_t i = 0; i < devices.size(); ++i)
      devices_text += (i ? "," : " ") + std::to_string(devices[i]);
    devices_text += ", " + std::to_string(bopt.streams) + " streams each)";
    workers_text = std::to_string(gpu_workers_n) + " cuda worker(s)";
  } else if (auto_mode) {
    devices_text += " (CPU workers from the start; CUDA workers, " + std::to_string(bopt.streams) +
                    " a GPU, join once set up in the background)";
    workers_text = std::to_string(cpu_workers) + " cpu worker(s) + the cuda workers";
  } else {
    workers_text = std::to_string(cpu_workers) + " cpu worker(s)";
  }
  const std::string threads_text = std::to_string(bopt.decode_threads) + " decode thread(s), " +
                                   workers_text + ", " + std::to_string(bopt.encode_threads) +
                                   " encode thread(s)";
  const std::string codec_line =
      std::string("JPEG codec: ") +
      (nvjpeg ? std::string("nvJPEG on the GPU (decode: ") +
                    (jpeg_batches ? std::string("the GPU's hardware JPEG decoder") +
                                        (probed ? "" : " when it has one") + ", up to " +
                                        std::to_string(opt.gpu_jpeg_batch) +
                                        " files a call, nvJPEG's hybrid decoder for the others"
                                  : "nvJPEG's hybrid decoder, one file a call") +
                    "; encode: nvJPEG; libjpeg-turbo for files nvJPEG cannot decode" +
                    (auto_mode ? " and on the CPU workers)" : ")")
              : std::string("libjpeg-turbo on the CPU (decode and encode)"));

  if (opt.dry_run) {
    std::cout << "texcv batch (dry run, nothing is written): " << planned_files
              << " file(s); pipeline \"" << opt.pipeline << "\"; device " << devices_text << "; "
              << threads_text << "; " << codec_line << "\n";
    std::vector<const JobResult*> early_of(plan.jobs.size(), nullptr);
    for (const auto& r : plan.early) early_of[r.index] = &r;
    for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
      const auto& j = plan.jobs[i];
      const JobResult* e = early_of[i];
      if (!e) {
        std::cout << "process " << printable(j.input) << " -> " << printable(j.output) << "\n";
      } else if (e->status == JobStatus::skipped) {
        std::cout << "skip    " << printable(j.input) << " -> " << printable(j.output)
                  << " (exists)\n";
      } else if (e->status == JobStatus::excluded) {
        std::cout << "exclude " << printable(j.input) << " (" << printable(e->note) << ")\n";
      } else {
        std::cout << "fail    " << printable(j.input) << ": " << printable(e->error) << "\n";
      }
    }
    for (const auto& s : plan.stale)
      std::cout << "remove  " << printable(s.string())
                << " (temporary file of an interrupted run)\n";
    std::cout << plan.todo.size() << " to process, " << resumed << " to skip, " << planned_failures
              << " failing, " << plan.ignored << " file(s) without an image extension ignored";
    if (plan.excluded > 0)
      std::cout << ", " << plan.excluded << " excluded (under the output folder)";
    std::cout << "\n";
    return planned_failures > 0 ? kExitFailed : kExitOk;
  }

  // 4. Set-up that can still fail as a whole: the output folder and its lock, the report file,
  // the workers.
  const int lock_fd = lock_output_folder(plan.lock_dir);
  if (lock_fd == -2) return kExitUsage;
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
  std::size_t stale_removed = 0;
  for (const auto& s : plan.stale) {
    std::error_code ec;
    if (fs::remove(s, ec)) ++stale_removed;
  }

  const bool tty = ::isatty(STDERR_FILENO) == 1;
  // Said even with --quiet: files the user may have thought inputs are not processed.
  if (plan.excluded > 0)
    say(std::to_string(plan.excluded) + " file(s) under the output folder '" + opt.output +
        "' (inside the input folder) are outputs, not inputs: excluded (listed in the report)");
  if (!opt.quiet) {
    say(std::to_string(planned_files) + " file(s): " + std::to_string(plan.todo.size()) +
        " to process, " + std::to_string(resumed) + " skipped (outputs exist), " +
        std::to_string(planned_failures) + " rejected; device " + devices_text + "; " +
        threads_text + "; " + codec_line);
    if (stale_removed > 0)
      say("removed " + std::to_string(stale_removed) +
          " temporary file(s) left by an interrupted run");
  }

  // 5. Run.
  Progress progress(plan.todo.size(), !opt.quiet, tty);
  std::size_t ok = 0, failed = 0, skipped = 0, cancelled = 0, corrupt = 0, excluded = 0,
              warnings = 0, fallbacks = 0;
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
      case JobStatus::corrupt:
        ++corrupt;
        break;
      case JobStatus::excluded:
        ++excluded;
        break;
    }
    if (!r.warning.empty()) ++warnings;
    if (r.cpu_fallback) ++fallbacks;
    sum_read += r.read_ms;
    sum_process += r.process_ms;
    sum_write += r.write_ms;
    const BatchJob& job = plan.jobs[r.index];
    if (r.status == JobStatus::failed)
      progress.message("texcv batch: FAILED " + job.input + ": " + r.error);
    else if (r.status == JobStatus::corrupt)
      progress.message("texcv batch: CORRUPT " + job.input + " (written from the data the " +
                       "decoder recovered, --allow-corrupt): " + r.error);
    else if (!r.warning.empty() && !opt.quiet)
      progress.message("texcv batch: " + job.input + ": " + r.warning);
    else if (r.cpu_fallback && !opt.quiet)
      progress.message("texcv batch: " + job.input + ": " + r.note);
    if (report.is_open() && !report_failed) {
      report << batch::report_json(job, r) << '\n';
      report.flush();
      if (!report) report_failed = true;
    }
  };
  for (const auto& r : plan.early) record(r);

  std::stop_source stop_source;
  if (opt.fail_fast && planned_failures > 0) stop_source.request_stop();
  g_interrupted = 0;
  auto old_int = std::signal(SIGINT, on_signal);
  auto old_term = std::signal(SIGTERM, on_signal);
  auto old_hup = std::signal(SIGHUP, on_signal);  // a closed terminal: as SIGTERM
  std::mutex tick_mutex;
  std::condition_variable tick_cv;
  bool engine_done = false;
  std::thread ticker([&] {
    const auto period = tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(2000);
    auto last = Clock::now();
    std::unique_lock<std::mutex> lock(tick_mutex);
    while (!engine_done) {
      tick_cv.wait_for(lock, std::chrono::milliseconds(100));
      if (g_interrupted) stop_source.request_stop();
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
  bopt.on_event = [&](const std::string& line) { progress.message("texcv batch: " + line); };
  std::size_t ran = 0;  // files the engine finished (ok or failed)
  bopt.on_result = [&](const JobResult& rr) {
    JobResult r = rr;
    r.index = plan.todo[rr.index];  // the library's index is into the files it was given
    if (r.status != JobStatus::cancelled) ++ran;
    if (!r.retried_from.empty()) ++retried;
    progress.count(r.status);
    record(r);
  };
  std::vector<BatchJob> todo_jobs;
  todo_jobs.reserve(plan.todo.size());
  for (std::size_t i : plan.todo) todo_jobs.push_back(plan.jobs[i]);
  const auto t0 = Clock::now();
  batch::Summary engine;
  auto end_ticker = [&] {
    {
      std::lock_guard<std::mutex> lock(tick_mutex);
      engine_done = true;
    }
    tick_cv.notify_all();
    ticker.join();
    progress.finish();
  };
  try {
    engine = batch::run(todo_jobs, bopt, stop_source.get_token());
  } catch (const std::exception& e) {
    // The options were checked above; what is left is the environment (a bad
    // TEXCV_BATCH_INJECT_FAULT), before any file started.
    end_ticker();
    say(e.what());
    return kExitUsage;
  }
  const double seconds = seconds_between(t0, Clock::now());
  end_ticker();
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  std::signal(SIGHUP, old_hup);
  // The workers' own account (TEXCV_BATCH_TIMING=1).
  for (const auto& t : engine.timing) say(t);

  // 6. Summary.
  char buf[320];
  std::snprintf(buf, sizeof buf, "%zu ok, %zu failed, %zu skipped (outputs exist), %zu not started",
                ok, failed, skipped, cancelled);
  std::string summary = buf;
  if (corrupt > 0)
    summary += ", " + std::to_string(corrupt) + " corrupt (written from recovered data)";
  if (excluded > 0) summary += ", " + std::to_string(excluded) + " excluded";
  if (warnings > 0) summary += ", " + std::to_string(warnings) + " with a warning";
  std::snprintf(buf, sizeof buf,
                "; %.2f s, %.1f images/s on %s (stage time summed over threads: read %.2f s, "
                "process %.2f s, write %.2f s)",
                seconds, seconds > 0 ? static_cast<double>(ran) / seconds : 0.0,
                device_text.c_str(), sum_read / 1000, sum_process / 1000, sum_write / 1000);
  summary += buf;
  if (!opt.quiet || failed > 0 || cancelled > 0 || corrupt > 0) say(summary);
  if (!opt.quiet) {
    // The fixed cost before the engine started, then when its first file was finished (on
    // --device auto the CPU workers take the first files while the CUDA workers are set up).
    const double before = seconds_between(t_entry, t0);
    std::string parts = "start-up " + fixed2(startup_s);
    if (cuda_s > 0) parts += ", CUDA runtime " + fixed2(cuda_s);
    parts += ", listing the files " + fixed2(plan_s);
    if (probe_s >= 0.005) parts += ", nvJPEG handles " + fixed2(probe_s);
    parts += ", other " + fixed2(std::max(0.0, before - cuda_s - plan_s - probe_s));
    std::string line =
        "time before the first file: " + fixed2(startup_s + before) + " s (" + parts + " s)";
    if (engine.first_file_s >= 0)
      line += "; the first file was finished " + fixed2(startup_s + before + engine.first_file_s) +
              " s after the process started";
    say(line);
    if (cuda_mode && engine.gpu_ready_s > 0)
      say("CUDA workers joined " + fixed2(engine.gpu_ready_s) +
          " s into the run (set up in the background while the first files were read)");
    if (auto_mode) {
      if (engine.gpu_ready_s >= 0)
        say("CUDA workers joined " + fixed2(engine.gpu_ready_s) + " s into the run; steps ran on " +
            std::to_string(engine.on_cuda) + " file(s) on the GPU, " +
            std::to_string(engine.on_cpu) + " on the CPU");
      else
        say("no CUDA worker joined" +
            (engine.gpu_note.empty() ? std::string(" before the last file")
                                     : ": " + engine.gpu_note) +
            "; every file ran on the CPU");
    }
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
  if (bopt.device != batch::Device::cpu) {
    // Every output and the report are written and closed. The CUDA workers were not released
    // (batch::Options::fast_exit): that took 0.24 s (one GPU) and 0.37 s (two) after 1,000 JPEGs
    // on the H200s, before each GPU's context, for nothing the user keeps. Nor is a CUDA set-up
    // still under way waited for. The driver's teardown at exit is left to a helper process
    // (batch::end_process), which also releases the output folder's lock first.
    std::cout.flush();
    std::cerr.flush();
    batch::end_process(rc);
  }
  return rc;
}

}  // namespace texcv::cli
