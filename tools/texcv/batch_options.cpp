// The options of `texcv batch` (the command itself is in batch.cpp).
#include <CLI/CLI.hpp>

#include <string>

#include "tools/texcv/commands.hpp"

namespace texcv::cli {

namespace {

const char* const kBatchFooter =
    R"(Inputs: -i FOLDER (recursive; files ending .png, .jpg, .jpeg, .tif, .tiff in any case), or
--list FILE (one path a line, relative to -i or to the list's folder; '#' starts a comment).
--glob keeps the inputs matching one of its patterns: a pattern with '/' is matched against the
path relative to the input folder ('*' also crosses '/'), one without against the file name.
Outputs mirror the input tree under -o; the input is never modified.

Every output is written to a temporary file beside it and renamed into place, so a final-named
file is always complete; --resume skips outputs that exist. A failing file (corrupt, truncated,
empty, unreadable, too large) is reported and the others go on; --fail-fast stops at the first.

Examples:
  texcv batch -i raw/ -o out/ -p "resize:scale=0.5;sharpen" --format jpeg --quality 90
  texcv batch -i raw/ -o out/ -p "crop:x=100,y=100,width=4800,height=4800" --glob "*.tif" --resume
  texcv batch --list todo.txt -i raw/ -o out/ -p "gaussian_blur:sigma=2" --report run.jsonl
  texcv batch -i raw/ -o out/ -p "resize:width=640" --dry-run

A GPU that fails (a sticky CUDA error) stops only its workers: the files in flight on it are
retried on the other workers (or, when no GPU is left, on --workers CPU backend workers).

Exit codes: 0 all files ok, 1 some files failed (or were not started), 2 usage or set-up error.
Documentation: docs/batch.md)";

}  // namespace

CLI::App* add_batch_subcommand(CLI::App& app, BatchOptions& opt) {
  auto* cmd = app.add_subcommand(
      "batch",
      "run a pipeline over many image files: parallel decode, CPU or GPU workers, "
      "parallel encode");
  cmd->add_option("-i,--input", opt.input,
                  "input folder (recursive) or file; with --list, the folder the list is relative "
                  "to");
  cmd->add_option("-o,--output", opt.output, "output folder (outputs mirror the input tree)")
      ->required();
  cmd->add_option("-p,--pipeline", opt.pipeline,
                  "steps such as \"resize:scale=0.5;sharpen\" (texcv ops lists them)")
      ->required();
  cmd->add_option("--list", opt.list, "a file listing the inputs, one path a line");
  cmd->add_option("--glob", opt.globs, "keep inputs matching this pattern (repeatable)");
  cmd->add_option("-f,--format", opt.format, "output format; same keeps each input's")
      ->check(CLI::IsMember({"same", "png", "jpeg", "jpg", "tiff", "tif"}))
      ->capture_default_str();
  add_output_options(*cmd, opt);  // --quality, --png-compression, --tiff-compression, --tiff-level
  cmd->add_option("--bit-depth", opt.bit_depth,
                  "convert the result to 8, 16 or 32 (float) bits per sample before writing "
                  "(scaled: 255, 65535, 1.0 = full range)")
      ->check(CLI::IsMember({8, 16, 32}));
  cmd->add_option(
         "-d,--device", opt.device,
         "cpu, cuda, or auto (CPU workers at once; CUDA workers join when a GPU is usable)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd->add_option("--devices", opt.devices,
                  "GPUs to use: all, or indices such as 0,1 (as numbered after "
                  "CUDA_VISIBLE_DEVICES)")
      ->capture_default_str();
  cmd->add_option("--streams", opt.streams, "CUDA workers (one stream each) per GPU")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  cmd->add_option("--jpeg-codec", opt.jpeg_codec,
                  "JPEG decode/encode: auto (nvJPEG on the GPU workers when built with it), cpu "
                  "(libjpeg-turbo), nvjpeg")
      ->check(CLI::IsMember({"auto", "cpu", "nvjpeg"}))
      ->capture_default_str();
  cmd->add_option("--gpu-jpeg-batch", opt.gpu_jpeg_batch,
                  "with nvJPEG: JPEG files a CUDA worker decodes together on the GPU's hardware "
                  "JPEG decoder (the files already waiting, up to this many; 1: one at a time "
                  "with nvJPEG's hybrid decoder)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--decode-threads", opt.decode_threads, "decode threads (default: cores)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--encode-threads", opt.encode_threads, "encode threads (default: cores)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--workers", opt.workers,
                  "CPU backend workers (default: one per core, each running its operations on one "
                  "thread; N workers: cores / N threads each); with --device cuda, the workers "
                  "that take over if every GPU is lost")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--queue", opt.queue, "capacity of each queue between stages, in images")
      ->check(CLI::Range(1, 4096));
  add_limit_options(*cmd, opt);  // --max-pixels, --max-bytes (as texcv run's)
  cmd->add_option("--report", opt.report, "write one JSON line per file to this file");
  cmd->add_flag("--resume", opt.resume, "skip files whose output already exists");
  cmd->add_flag("--overwrite", opt.overwrite, "replace existing outputs");
  cmd->add_flag("--dry-run", opt.dry_run, "print the plan; read and write nothing");
  cmd->add_flag("--allow-corrupt", opt.allow_corrupt,
                "write files whose data the decoder reports corrupt from what it recovered, with "
                "the status \"corrupt\" in the report (default: such files fail at the read "
                "stage)");
  cmd->add_flag("--fail-fast", opt.fail_fast, "stop starting new files after the first failure");
  cmd->add_flag("--quiet", opt.quiet, "no start line, progress or summary (failures still shown)");
  cmd->footer(kBatchFooter);
  return cmd;
}

}  // namespace texcv::cli
