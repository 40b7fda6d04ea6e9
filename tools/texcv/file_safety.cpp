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

namespace {

// The length of the UTF-8 sequence at s[i] and its code point; 0 when it is not valid UTF-8
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF).
std::size_t utf8_at(const std::string& s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_at(s, i, cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string utf8_replaced(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_at(s, i, cp);
    if (n == 0) {
      o += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      o.append(s, i, n);
      i += n;
    }
  }
  return o;
}

std::string printable(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  char buf[16];
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_at(s, i, cp);
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

std::string base64(const std::string& s) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  o.reserve((s.size() + 2) / 3 * 4);
  std::size_t i = 0;
  const auto b = [&](std::size_t k) {
    return static_cast<unsigned>(static_cast<unsigned char>(s[k]));
  };
  for (; i + 3 <= s.size(); i += 3) {
    const unsigned v = (b(i) << 16) | (b(i + 1) << 8) | b(i + 2);
    for (int k = 3; k >= 0; --k) o += kDigits[(v >> (6 * k)) & 63];
  }
  if (const std::size_t rest = s.size() - i; rest > 0) {
    const unsigned v = (b(i) << 16) | (rest == 2 ? b(i + 1) << 8 : 0u);
    o += kDigits[(v >> 18) & 63];
    o += kDigits[(v >> 12) & 63];
    o += rest == 2 ? kDigits[(v >> 6) & 63] : '=';
    o += '=';
  }
  return o;
}

}  // namespace texcv::cli
