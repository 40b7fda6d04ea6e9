// The subcommands of the texcv command. main.cpp declares the options with CLI11 and calls
// these; each returns the process exit code.
#pragma once

#include <string>

namespace texcv::cli {

// Exit codes of the texcv command.
constexpr int kExitOk = 0;      // every file processed
constexpr int kExitFailed = 1;  // some files failed (reported on stderr), the others written
constexpr int kExitUsage = 2;   // usage or set-up error: bad options or pipeline, missing input...

struct RunOptions {
  std::string input;
  std::string output;
  std::string pipeline;
  std::string device = "auto";  // cpu, cuda, auto
  std::string format;           // "" (keep), png, jpg, jpeg, tif, tiff
  int quality = 95;             // JPEG quality
  bool overwrite = false;
  bool quiet = false;
};

int run_command(const RunOptions& opt);
// Lists the operations (all, or the one called name) from the registry, as text or markdown.
int ops_command(const std::string& name, bool markdown);
int info_command();

// The footer of `texcv ops`: the pipeline syntax and what is not a pipeline step.
std::string pipeline_syntax_help();

}  // namespace texcv::cli
