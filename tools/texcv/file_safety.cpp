// File identity and printable names (file_safety.hpp).
#include "tools/texcv/file_safety.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <system_error>

namespace fs = std::filesystem;

namespace texcv::cli {

FileId file_id(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return FileId{st.st_dev, st.st_ino, true};
}

bool inside_folder(const fs::path& path, const FileId& dir) {
  std::error_code ec;
  // The existing part resolved as the kernel resolves it (symlinks, ".."), the rest appended.
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return false;
  for (;;) {
    if (file_id(p.string()) == dir) return true;
    const fs::path parent = p.parent_path();
    if (parent == p || parent.empty()) return false;
    p = parent;
  }
}

std::string printable(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  char buf[16];
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = texcv::batch::detail::utf8_at(s, i, cp);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i]));
      o += buf;
      ++i;
      continue;
    }
    if (cp == '\n') {
      o += "\\n";
    } else if (cp == '\t') {
      o += "\\t";
    } else if (cp == '\r') {
      o += "\\r";
    } else if (cp == 0x1B) {
      o += "\\e";
    } else if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      o += buf;
    } else if (cp >= 0x80 && cp <= 0x9F) {  // C1 controls (U+009B is a CSI on some terminals)
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      o += buf;
    } else {
      o.append(s, i, n);
    }
    i += n;
  }
  return o;
}

}  // namespace texcv::cli
