// texcv run: parse and check the pipeline, resolve inputs and outputs, then process the files
// one by one (a later version hands folders to the batch engine in src/pipeline).
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "texcv/batch.hpp"
#include "texcv/error.hpp"
#include "texcv/image.hpp"
#include "texcv/io.hpp"
#include "texcv/registry.hpp"
#include "texcv/runtime.hpp"
#include "tools/texcv/commands.hpp"
#include "tools/texcv/file_safety.hpp"

namespace fs = std::filesystem;

namespace texcv::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Control characters in names are escaped (file_safety.hpp), never printed raw.
void say(const std::string& msg) {
  std::cerr << "texcv: " << printable(msg) << "\n";
}

// ".png", ".jpg" or ".tif" for a --format value.
std::string extension_of_format(const std::string& f) {
  if (f == "jpg" || f == "jpeg") return ".jpg";
  if (f == "tif" || f == "tiff") return ".tif";
  std::string ext(".");
  ext += f;
  return ext;
}

bool is_image_file(const fs::path& p) {
  try {
    format_from_path(p.string());
    return true;
  } catch (const Error&) {
    return false;
  }
}

// True when a and b name the same file (existing or not): by identity (device and inode, so
// through symlinks, hard links and bind mounts) when both exist, else by resolved path.
bool same_file(const fs::path& a, const fs::path& b) {
  const FileId ia = file_id(a.string()), ib = file_id(b.string());
  if (ia && ib) return ia == ib;
  std::error_code ec;
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

struct Job {
  fs::path input;
  fs::path output;
};

std::string size_text(const ImageView& v) {
  return std::to_string(v.width) + "x" + std::to_string(v.height) + "x" +
         std::to_string(v.channels) + " " + to_string(v.type);
}

// Reads, runs every step on the chosen device, writes. Throws on any failure. The input is
// opened once (ImageFile: a FIFO or a device is refused from stat, before it is opened), checked
// against --max-bytes from the open file, and decoded from that file with the decoder enforcing
// --max-pixels, as texcv batch does.
std::string process(const Job& job, const std::vector<PipelineStep>& steps, bool on_gpu,
                    const WriteOptions& wopt, const LimitOptions& limits) {
  const std::string in = job.input.string();
  const auto check_bytes = [&](std::uint64_t n) {
    if (limits.max_bytes > 0 && n > limits.max_bytes)
      throw Error(ErrorCode::Io, "file too large (--max-bytes); got " + std::to_string(n) +
                                     " bytes, expected at most " +
                                     std::to_string(limits.max_bytes));
  };
  // The byte cap from stat, before the file is opened, then on the open file.
  struct stat st {};
  if (::stat(in.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    check_bytes(static_cast<std::uint64_t>(st.st_size));
  ImageFile file(in);
  check_bytes(file.size());
  // Pipeline bounds: every step's output size from the header, before any pixel is allocated,
  // under the same pixel cap (an input over the cap itself is refused by the decoder below, with
  // the input's message).
  const ImageInfo info = file.info();
  if (limits.max_pixels == 0 || info.pixels() <= limits.max_pixels)
    check_pipeline_size(steps, info.width, info.height, limits.max_pixels);
  ReadOptions ro;
  ro.max_pixels = limits.max_pixels;
  Image img = file.read(ro);
  const std::string before = size_text(img.view());
  if (on_gpu) img = img.clone(Location::device);
  for (const auto& s : steps) {
    const std::string step = "step " + std::to_string(s.index) + " (" + s.name + ")";
    try {
      img = apply(s.name, img.view(), s.params);
    } catch (const Error& e) {
      throw Error(e.code(), step + ": " + e.what());
    } catch (const std::bad_alloc&) {
      throw Error(ErrorCode::OutOfMemory, step + ": out of memory on a " + size_text(img.view()) +
                                              " input (an allocation failed: std::bad_alloc)");
    } catch (const std::exception& e) {
      throw Error(ErrorCode::Internal, step + ": " + e.what());
    }
  }
  if (on_gpu) img = img.clone(Location::host);
  imwrite(job.output.string(), img.view(), wopt);
  return before + " -> " + size_text(img.view());
}

}  // namespace

int run_command(const RunOptions& opt) {
  // 1. The pipeline, before any file is touched.
  std::vector<PipelineStep> steps;
  if (!parse_pipeline_checked(opt.pipeline, steps, "texcv", "rotate:angle=30;resize:scale=0.5"))
    return kExitUsage;

  // 2. Output options, format and device.
  WriteOptions wopt;  // --quality, --png-compression, --tiff-compression, --tiff-level
  if (!write_options_from(opt, wopt, "texcv")) return kExitUsage;
  const BuildInfo build = build_info();
  if (!opt.format.empty()) {
    const std::string want =
        opt.format == "jpg" ? "jpeg" : (opt.format == "tif" ? "tiff" : opt.format);
    if (std::find(build.formats.begin(), build.formats.end(), want) == build.formats.end()) {
      say("--format " + opt.format + ": this build cannot write " + want +
          " files; expected one of " + (build.formats.empty() ? std::string("none") : [&] {
            std::string s;
            for (const auto& f : build.formats) s += (s.empty() ? "" : ", ") + f;
            return s;
          }()));
      return kExitUsage;
    }
  }
  bool on_gpu = false;
  if (opt.device == "cuda" || opt.device == "auto") {
    bool available = false;
    try {
      available = cuda_available();
    } catch (const std::exception&) {
      available = false;
    }
    if (opt.device == "cuda" && !available) {
      say(std::string("--device cuda: no usable GPU; ") +
          (build.cuda_compiled ? "the CUDA runtime sees no GPU on this machine"
                               : "this build has no CUDA backend") +
          " (use --device cpu or auto)");
      return kExitUsage;
    }
    on_gpu = available;
  }

  // 3. Inputs and outputs.
  const fs::path in(opt.input);
  fs::path out(opt.output);
  std::error_code ec;
  if (!fs::exists(in, ec)) {
    say("input '" + opt.input + "' does not exist");
    return kExitUsage;
  }
  std::vector<Job> jobs;
  std::size_t skipped = 0;
  if (fs::is_directory(in, ec)) {
    if (fs::exists(out, ec) && !fs::is_directory(out, ec)) {
      say("output '" + opt.output + "' is a file, but the input '" + opt.input +
          "' is a folder; expected an output folder");
      return kExitUsage;
    }
    if (same_file(in, out)) {
      say("output folder '" + opt.output + "' is the input folder; refusing to write over inputs");
      return kExitUsage;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(in, ec)) {
      if (!entry.is_regular_file(ec)) continue;
      if (is_image_file(entry.path())) {
        files.push_back(entry.path());
      } else {
        ++skipped;
      }
    }
    if (ec) {
      say("cannot list input folder '" + opt.input + "': " + ec.message());
      return kExitUsage;
    }
    if (files.empty()) {
      say("input folder '" + opt.input + "' has no image files (.png, .jpg, .jpeg, .tif, .tiff)");
      return kExitUsage;
    }
    std::sort(files.begin(), files.end());
    fs::create_directories(out, ec);
    if (ec) {
      say("cannot create output folder '" + opt.output + "': " + ec.message());
      return kExitUsage;
    }
    for (const auto& f : files) {
      fs::path o = out / f.filename();
      if (!opt.format.empty()) o.replace_extension(extension_of_format(opt.format));
      jobs.push_back({f, o});
    }
  } else {
    const bool to_folder =
        fs::is_directory(out, ec) || (!opt.output.empty() && (opt.output.back() == '/'));
    if (to_folder) {
      fs::create_directories(out, ec);
      out /= in.filename();
      if (!opt.format.empty()) out.replace_extension(extension_of_format(opt.format));
    } else {
      if (!is_image_file(out)) {
        say("output '" + opt.output +
            "' has no image extension; expected .png, .jpg, .jpeg, .tif or .tiff");
        return kExitUsage;
      }
      if (!opt.format.empty() &&
          format_from_path(out.string()) !=
              format_from_path(
                  fs::path("x").replace_extension(extension_of_format(opt.format)).string())) {
        say("--format " + opt.format + " does not match the output name '" + opt.output + "'");
        return kExitUsage;
      }
      const fs::path parent = out.parent_path();
      if (!parent.empty() && !fs::is_directory(parent, ec)) {
        say("output folder '" + parent.string() + "' does not exist");
        return kExitUsage;
      }
    }
    if (same_file(in, out)) {
      say("output '" + out.string() + "' is the input file; refusing to overwrite it");
      return kExitUsage;
    }
    jobs.push_back({in, out});
  }
  if (skipped > 0 && !opt.quiet)
    say("skipping " + std::to_string(skipped) + " file(s) without an image extension in '" +
        opt.input + "'");

  FileIdSet input_ids;
  for (const auto& j : jobs)
    if (const FileId id = file_id(j.input.string())) input_ids.insert(id);

  // 4. The files, one by one: a failure is reported and the others continue.
  const auto t0 = Clock::now();
  std::size_t ok = 0, failed = 0;
  std::set<fs::path> written;
  const std::string total = std::to_string(jobs.size());
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const Job& job = jobs[k];
    const auto t1 = Clock::now();
    try {
      const fs::path key = fs::weakly_canonical(job.output, ec);
      if (!written.insert(key).second)
        throw Error(ErrorCode::InvalidArgument,
                    "output '" + job.output.string() +
                        "' was already written by another input of this run");
      if (!opt.overwrite && fs::exists(job.output, ec))
        throw Error(ErrorCode::Io,
                    "output '" + job.output.string() + "' exists (use --overwrite to replace it)");
      // No output lands on an input, whatever links lead there (as texcv batch).
      if (const FileId id = file_id(job.output.string()); id && input_ids.count(id))
        throw Error(ErrorCode::InvalidArgument,
                    "output '" + job.output.string() +
                        "' is one of the inputs (the same file on disk, through a link or a "
                        "mount); refusing to overwrite it");
      const std::string sizes = process(job, steps, on_gpu, wopt, opt);
      ++ok;
      if (!opt.quiet) {
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f ms", ms);
        std::cerr << "texcv: [" << (k + 1) << "/" << total << "] " << printable(job.input.string())
                  << " (" << sizes << ") -> " << printable(job.output.string()) << " (" << buf
                  << ")\n";
      }
    } catch (const std::bad_alloc&) {
      ++failed;
      say(job.input.string() +
          ": out of memory while reading or writing the file (an allocation failed: "
          "std::bad_alloc); no output was written");
    } catch (const std::exception& e) {
      ++failed;
      say(job.input.string() + ": " + e.what());
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!opt.quiet || failed > 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%zu ok, %zu failed, %.2f s on %s", ok, failed, seconds,
                  on_gpu ? "cuda" : "cpu");
    say(buf);
  }
  return failed > 0 ? kExitFailed : kExitOk;
}

}  // namespace texcv::cli
