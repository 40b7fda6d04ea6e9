// What texcv run and texcv batch check before they write anything, so no write lands on an input,
// the --list file or the --report file: files and folders are compared by identity (device and
// inode, as the kernel sees them: through symlinks, hard links and bind mounts), not by their
// spelling. And how they print names: control characters escaped, never raw.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <unordered_set>

#include "src/batch/report.hpp"

namespace texcv::cli {

// A file or folder as the kernel knows it; false when nothing is there.
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  bool found = false;
  explicit operator bool() const noexcept { return found; }
  // Two files that exist and are the same.
  bool operator==(const FileId& o) const noexcept {
    return found && o.found && dev == o.dev && ino == o.ino;
  }
};
struct FileIdHash {
  std::size_t operator()(const FileId& id) const noexcept {
    return std::hash<unsigned long long>()(static_cast<unsigned long long>(id.ino) * 1000003ull ^
                                           static_cast<unsigned long long>(id.dev));
  }
};
using FileIdSet = std::unordered_set<FileId, FileIdHash>;

// The identity of what `path` names (symlinks followed); not found when nothing is there.
FileId file_id(const std::string& path);

// Whether `path` (which need not exist) is the folder `dir` or lies anywhere under it: the path's
// nearest existing folder and each of its parents, as the kernel resolves them, are compared by
// identity with dir. Catches a folder reached through a symlink or a bind mount.
bool inside_folder(const std::filesystem::path& path, const FileId& dir);

// `s` made safe to print on a terminal: control characters (C0, DEL and the C1 range) and bytes
// that are not UTF-8 become escapes (\n, \t, \r, \e, \xNN, \u009b); other text is unchanged.
std::string printable(const std::string& s);

// Whether s is valid UTF-8; s with its bytes that are not UTF-8 replaced by U+FFFD; base64
// (the library's, src/batch/report.hpp: the report uses them too).
using texcv::batch::detail::base64;
using texcv::batch::detail::utf8_replaced;
using texcv::batch::detail::valid_utf8;

}  // namespace texcv::cli
