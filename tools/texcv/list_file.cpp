// The --list file's entries (list_file.hpp).
#include "tools/texcv/list_file.hpp"

namespace texcv::cli {

bool next_list_entry(std::istream& in, std::string& entry) {
  while (std::getline(in, entry)) {
    while (!entry.empty() && (entry.back() == '\r' || entry.back() == ' ')) entry.pop_back();
    std::size_t b = 0;
    while (b < entry.size() && entry[b] == ' ') ++b;
    entry.erase(0, b);
    if (!entry.empty() && entry[0] != '#') return true;
  }
  entry.clear();
  return false;
}

}  // namespace texcv::cli
