// texcv ops [NAME] [--markdown]: the operations and their parameters, from the registry.
#include <cstddef>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "texcv/registry.hpp"
#include "tools/texcv/commands.hpp"

namespace texcv::cli {

namespace {

// Splits text into lines of at most `width` characters at spaces.
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word, line;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
  }
  if (!line.empty()) lines.push_back(line);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::string pad(const std::string& s, std::size_t n) {
  return s.size() >= n ? s + " " : s + std::string(n - s.size(), ' ');
}

std::string default_text(const ParamSpec& p) {
  if (p.required) return "required";
  return p.default_value.empty() ? "-" : p.default_value;
}

void print_text(std::ostream& os, const OpSpec& op) {
  os << op.name << ": " << op.summary << "\n";
  constexpr std::size_t kName = 16, kType = 8, kDefault = 12;
  constexpr std::size_t kIndent = 2 + kName + kType + kDefault;
  constexpr std::size_t kHelp = 100 - kIndent;
  for (const auto& p : op.params) {
    const auto lines = wrap(p.help + "; accepts " + p.expected(), kHelp);
    os << "  " << pad(p.name, kName) << pad(p.type, kType) << pad(default_text(p), kDefault)
       << lines[0] << "\n";
    for (std::size_t i = 1; i < lines.size(); ++i)
      os << std::string(kIndent, ' ') << lines[i] << "\n";
  }
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\";
    out += c;
  }
  return out;
}

void print_markdown(std::ostream& os, const OpSpec& op) {
  os << "### " << op.name << "\n\n" << op.summary << ".\n\n";
  os << "| parameter | type | default | accepts | description |\n";
  os << "| --- | --- | --- | --- | --- |\n";
  for (const auto& p : op.params)
    os << "| `" << p.name << "` | " << p.type << " | " << md_escape(default_text(p)) << " | "
       << md_escape(p.expected()) << " | " << md_escape(p.help) << " |\n";
  os << "\n";
}

std::string known_names() {
  std::string s;
  for (const auto& op : operations()) s += (s.empty() ? "" : ", ") + op.name;
  return s;
}

}  // namespace

std::string pipeline_syntax_help() {
  return "Pipeline syntax: steps separated by ';', each  name  or  name:key=value,key=value\n"
         "  e.g. \"rotate:angle=30;resize:scale=0.5,interp=area\". A list value separates its\n"
         "  numbers with '|' (m=1|0|10|0|1|20), since ',' separates parameters.\n"
         "remap is not a pipeline step: it needs map images, so it is C++-only (texcv::remap).\n"
         "histogram is not a pipeline step: it returns counts, not an image, so it is C++-only\n"
         "  (texcv::histogram).\n";
}

int ops_command(const std::string& name, bool markdown) {
  std::vector<const OpSpec*> selected;
  if (name.empty()) {
    for (const auto& op : operations()) selected.push_back(&op);
  } else {
    for (const auto& op : operations())
      if (op.name == name) selected.push_back(&op);
    if (selected.empty()) {
      std::cerr << "texcv: unknown operation '" << name << "'; expected one of " << known_names()
                << "\n";
      return kExitUsage;
    }
  }
  for (std::size_t i = 0; i < selected.size(); ++i) {
    if (markdown) {
      print_markdown(std::cout, *selected[i]);
    } else {
      if (i > 0) std::cout << "\n";
      print_text(std::cout, *selected[i]);
    }
  }
  if (!markdown && name.empty()) std::cout << "\n" << pipeline_syntax_help();
  return kExitOk;
}

}  // namespace texcv::cli
