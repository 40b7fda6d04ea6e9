// The subcommands of the texcv command. main.cpp declares the options with CLI11 and calls
// these; each returns the process exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "texcv/io.hpp"
#include "texcv/registry.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace texcv::cli {

// Splits and validates a pipeline (tools/texcv/pipeline_check.cpp). Each bad step is reported on
// stderr as "<prefix>: <step>: <error>" with the pipeline and a caret line under the step; an
// empty pipeline as "<prefix>: the pipeline is empty; ..., expected steps such as "<example>"".
// Returns whether every step is valid.
bool parse_pipeline_checked(const std::string& text, std::vector<PipelineStep>& steps,
                            const std::string& prefix, const std::string& example);

// Exit codes of the texcv command.
constexpr int kExitOk = 0;      // every file processed
constexpr int kExitFailed = 1;  // some files failed (reported on stderr), the others written
constexpr int kExitUsage = 2;   // usage or set-up error: bad options or pipeline, missing input...

// The output options of texcv run and texcv batch (tools/texcv/output_options.cpp).
struct OutputOptions {
  int quality = 95;                       // JPEG quality, 1..100
  int png_compression = 6;                // zlib level, 0..9
  std::string tiff_compression = "none";  // a texcv::TiffCompression name
  int tiff_level = 0;                     // the TIFF codec's level; 0: its default
};
// Declares --quality, --png-compression, --tiff-compression and --tiff-level on cmd.
void add_output_options(CLI::App& cmd, OutputOptions& opt);
// Fills w from opt; checks that the linked libtiff has the codec and the level fits it. On an
// error prints "<prefix>: --tiff-...: <reason>" on stderr and returns false (a usage error).
bool write_options_from(const OutputOptions& opt, WriteOptions& w, const std::string& prefix);

// The per-file caps of texcv run and texcv batch (tools/texcv/output_options.cpp), with one
// default each for both commands.
struct LimitOptions {
  std::uint64_t max_pixels = kDefaultMaxPixels;  // --max-pixels; 0: no cap
  std::uint64_t max_bytes = kDefaultMaxBytes;    // --max-bytes; 0: no cap
};
// Declares --max-pixels and --max-bytes on cmd: a whole number 0..2^64-1 each (0: no cap); a
// sign, a fraction, anything but digits, or a number past 2^64-1 is a usage error saying so.
void add_limit_options(CLI::App& cmd, LimitOptions& opt);
// "0 (no cap)" or the number with thousands separators, for messages.
std::string limit_text(std::uint64_t n);

struct RunOptions : OutputOptions, LimitOptions {
  std::string input;
  std::string output;
  std::string pipeline;
  std::string device = "auto";  // cpu, cuda, auto
  std::string format;           // "" (keep), png, jpg, jpeg, tif, tiff
  bool overwrite = false;
  bool quiet = false;
};

int run_command(const RunOptions& opt);

// texcv batch (tools/texcv/batch.cpp, docs/batch.md).
struct BatchOptions : OutputOptions, LimitOptions {
  std::string input;   // folder (recursive) or one file; the root that outputs mirror
  std::string output;  // output folder (or a file when input is a file)
  std::string pipeline;
  std::string list;                // a file of input paths, one a line
  std::vector<std::string> globs;  // keep only inputs matching one of these
  std::string format = "same";     // same, png, jpeg, jpg, tiff, tif
  int bit_depth = 0;               // 0: keep the pipeline's element type; 8, 16, 32 (float)
  std::string device = "auto";
  std::string devices = "all";
  int streams = 2;
  int gpu_jpeg_batch = 32;          // JPEG files decoded together on the GPU's hardware decoder
  std::string jpeg_codec = "auto";  // auto, cpu (libjpeg-turbo), nvjpeg (CUDA workers)
  int decode_threads = 0, encode_threads = 0, workers = 0, queue = 0;  // 0: automatic
  std::string report;
  bool resume = false, overwrite = false, dry_run = false, fail_fast = false, quiet = false;
  bool allow_corrupt = false;  // corrupt data: status "corrupt" and written, not failed
};
int batch_command(const BatchOptions& opt);
// Declares `texcv batch` and its options on app (tools/texcv/batch_options.cpp).
CLI::App* add_batch_subcommand(CLI::App& app, BatchOptions& opt);
// Lists the operations (all, or the one called name) from the registry, as text or markdown.
int ops_command(const std::string& name, bool markdown);
int info_command();

// The footer of `texcv ops`: the pipeline syntax and what is not a pipeline step.
std::string pipeline_syntax_help();

}  // namespace texcv::cli
