// libFuzzer target: the --list file of texcv batch (tools/texcv/list_file.cpp, the parser the
// command uses) and what the command does with each entry before touching the file system: the
// lexical path operations of its planner, and the escaping of names for the terminal and the
// JSON report (tools/texcv/file_safety.cpp). The input is a list file's bytes. Checked:
// - an entry is never empty, holds no '\n', starts with neither ' ' nor '#', ends with neither
//   ' ' nor '\r', and there are no more entries than lines;
// - printable() gives valid UTF-8 without control characters (C0, DEL, C1);
// - utf8_replaced() gives valid UTF-8, and leaves valid UTF-8 unchanged;
// - base64() has the right length and decodes back to the entry.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>

#include "tests/fuzz/fuzz_common.hpp"
#include "tools/texcv/file_safety.hpp"
#include "tools/texcv/list_file.hpp"

namespace {

using texcv::fuzz::broken;
namespace fs = std::filesystem;

std::string unbase64(const std::string& s) {
  const auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (const char c : s) {
    if (c == '=') break;
    const int d = digit(c);
    if (d < 0) broken("base64: a character outside the alphabet");
    acc = (acc << 6) | static_cast<unsigned>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

void check_printable(const std::string& p) {
  if (!texcv::cli::valid_utf8(p)) broken("printable: not valid UTF-8");
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c < 0x20 || c == 0x7F) broken("printable: a C0 control or DEL left in");
    // C1 controls U+0080..U+009F are C2 80..C2 9F in UTF-8.
    if (c == 0xC2 && i + 1 < p.size() && static_cast<unsigned char>(p[i + 1]) <= 0x9F)
      broken("printable: a C1 control left in");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream in(text);
  const fs::path root("/data/in");
  std::size_t lines = 1, entries = 0;
  for (const char c : text) lines += c == '\n';

  std::string e;
  while (texcv::cli::next_list_entry(in, e)) {
    if (++entries > lines) broken("next_list_entry: more entries than lines");
    if (e.empty() || e.find('\n') != std::string::npos || e.front() == ' ' || e.front() == '#' ||
        e.back() == ' ' || e.back() == '\r')
      broken("next_list_entry: an entry that is not trimmed");

    // The planner's lexical steps (tools/texcv/batch.cpp, make_plan).
    const fs::path given(e);
    const fs::path joined = given.is_relative() ? root / given : given;
    const fs::path name = joined.filename();
    const fs::path normal = (joined.parent_path() / name).lexically_normal();
    (void)normal.lexically_relative(root).generic_string();

    check_printable(texcv::cli::printable(e));
    const std::string r = texcv::cli::utf8_replaced(e);
    if (!texcv::cli::valid_utf8(r)) broken("utf8_replaced: not valid UTF-8");
    if (texcv::cli::valid_utf8(e) && r != e) broken("utf8_replaced changed valid UTF-8");
    const std::string b = texcv::cli::base64(e);
    if (b.size() != (e.size() + 2) / 3 * 4) broken("base64: length");
    if (unbase64(b) != e) broken("base64: does not decode back");
  }
  if (!e.empty()) broken("next_list_entry: false with an entry");
  return 0;
}
