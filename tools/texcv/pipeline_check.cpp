// Pipeline parsing with the error report shared by texcv run and texcv batch.
#include <iostream>
#include <string>
#include <vector>

#include "texcv/error.hpp"
#include "texcv/registry.hpp"
#include "tools/texcv/commands.hpp"
#include "tools/texcv/file_safety.hpp"

namespace texcv::cli {

bool parse_pipeline_checked(const std::string& text, std::vector<PipelineStep>& steps,
                            const std::string& prefix, const std::string& example) {
  steps = split_pipeline(text);
  if (steps.empty()) {
    std::cerr << prefix << ": the pipeline is empty; got \"" << printable(text)
              << "\", expected steps such as \"" << example << "\" (see texcv ops)\n";
    return false;
  }
  bool ok = true;
  for (auto& s : steps) {
    try {
      parse_step(s);
    } catch (const Error& e) {
      ok = false;
      // Printed escaped (a control character typed into the pipeline stays visible and harmless);
      // the caret line is measured on the escaped text.
      const std::size_t at = printable(text.substr(0, s.offset)).size();
      const std::size_t len = printable(s.text).size();
      std::cerr << prefix << ": " << printable(describe_step(s) + ": " + e.what()) << "\n";
      std::cerr << "  " << printable(text) << "\n  " << std::string(at, ' ') << '^'
                << std::string(len > 1 ? len - 1 : 0, '~') << "\n";
    }
  }
  return ok;
}

}  // namespace texcv::cli
