// Pipeline parsing with the error report shared by texcv run and texcv batch.
#include <iostream>
#include <string>
#include <vector>

#include "texcv/error.hpp"
#include "texcv/registry.hpp"
#include "tools/texcv/commands.hpp"

namespace texcv::cli {

bool parse_pipeline_checked(const std::string& text, std::vector<PipelineStep>& steps,
                            const std::string& prefix, const std::string& example) {
  steps = split_pipeline(text);
  if (steps.empty()) {
    std::cerr << prefix << ": the pipeline is empty; got \"" << text
              << "\", expected steps such as \"" << example << "\" (see texcv ops)\n";
    return false;
  }
  bool ok = true;
  for (auto& s : steps) {
    try {
      parse_step(s);
    } catch (const Error& e) {
      ok = false;
      std::cerr << prefix << ": " << describe_step(s) << ": " << e.what() << "\n";
      std::cerr << "  " << text << "\n  " << std::string(s.offset, ' ') << '^'
                << std::string(s.text.size() > 1 ? s.text.size() - 1 : 0, '~') << "\n";
    }
  }
  return ok;
}

}  // namespace texcv::cli
