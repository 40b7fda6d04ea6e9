// The host image buffer cache (src/core/host_cache.hpp).
#include "src/core/host_cache.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace texcv::detail {

namespace {

// Buffers of kHugeMinBytes or more are aligned to 2 MB and marked MADV_HUGEPAGE, so that the
// kernel backs them with transparent huge pages where it allows them (THP "madvise" or
// "always"): 512 times fewer page faults on first touch. On the H100 machine (THP and defrag
// "madvise") the TIFF task's 32 files took 0.50-0.55 s on --device cpu against 0.78-0.98 s
// without, 1.9-2.1 s of system time against 3.8-5.7 (docs/performance.md, twenty-first
// session). TEXCV_HOST_HUGEPAGES=0 turns it off (read once): on the 2-core development machine,
// a VM whose host backs each new 2 MB page as it is zeroed, the task was slower with them.
constexpr std::size_t kHugeMinBytes = std::size_t{4} << 20;
bool huge_pages(std::size_t bytes) noexcept {
  return host_huge_pages() && bytes >= kHugeMinBytes;
}

// Buffers come from the aligned nothrow operator new, so that a program that replaces it (the
// tests' failing-allocation injector) sees image buffers too.
void* raw_new(std::size_t bytes) noexcept {
  if (huge_pages(bytes)) return huge_page_new(bytes);
  return ::operator new (bytes, std::align_val_t{kHostImageAlign}, std::nothrow);
}
void raw_delete(void* p, std::size_t bytes) noexcept {
  ::operator delete (p, std::align_val_t{huge_pages(bytes) ? kHugePageBytes : kHostImageAlign},
                     std::nothrow);
}

}  // namespace

void* huge_page_new(std::size_t bytes) noexcept {
  void* p = ::operator new (bytes, std::align_val_t{kHugePageBytes}, std::nothrow);
  if (p) (void)::madvise(p, bytes & ~(kHugePageBytes - 1), MADV_HUGEPAGE);  // advice only
  return p;
}

bool huge_pages_by_default(const std::string& virtio_devices) noexcept {
  namespace fs = std::filesystem;
  try {
    std::error_code ec;
    fs::directory_iterator it(virtio_devices, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      auto first_word = [&](const char* name) {
        std::ifstream f(it->path() / name);
        std::string w;
        f >> w;
        return w;
      };
      // A balloon (virtio device id 5) whose feature bits (one character each, bit 0 first)
      // include VIRTIO_BALLOON_F_REPORTING (bit 5).
      const std::string features = first_word("features");
      if (first_word("device") == "0x0005" && features.size() > 5 && features[5] == '1')
        return false;
    }
  } catch (...) {
    // (out of memory reading sysfs: the default)
  }
  return true;
}

bool host_huge_pages() noexcept {
  static const bool on = [] {
    const char* v = std::getenv("TEXCV_HOST_HUGEPAGES");
    if (v && std::strcmp(v, "0") == 0) return false;
    if (v && std::strcmp(v, "1") == 0) return true;
    return huge_pages_by_default("/sys/bus/virtio/devices");
  }();
  return on;
}

namespace {

struct Cache {
  std::mutex m;
  int scopes = 0;
  std::map<std::size_t, std::vector<void*>> kept;  // by bytes
  HostCacheStats stats;

  // Frees kept buffers until cached + live <= limit (the largest sizes first). Under the lock,
  // so that nothing here allocates (host_allocate must not throw); a free is rare and short.
  void shrink_locked(std::size_t limit) noexcept {
    while (stats.cached_bytes > 0 && stats.cached_bytes + stats.live_bytes > limit) {
      auto it = std::prev(kept.end());
      void* const p = it->second.back();
      it->second.pop_back();
      const std::size_t bytes = it->first;
      stats.cached_bytes -= bytes;
      ++stats.dropped;
      if (it->second.empty()) kept.erase(it);
      raw_delete(p, bytes);
    }
  }
  void drop_all_locked() noexcept { shrink_locked(0); }
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: images may be released during static teardown
  return *c;
}

}  // namespace

HostCacheScope::HostCacheScope() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  if (c.scopes++ == 0) {
    const std::size_t live = c.stats.live_bytes;
    c.stats = HostCacheStats{};
    c.stats.live_bytes = live;
    c.stats.peak_live_bytes = live;
  }
}

HostCacheScope::~HostCacheScope() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  if (--c.scopes == 0) c.drop_all_locked();
}

HostCacheStats host_cache_stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  return c.stats;
}

void* host_allocate(std::size_t bytes) noexcept {
  if (bytes < kHostCacheMinBytes) return raw_new(bytes);
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  if (c.scopes > 0) {
    if (auto it = c.kept.find(bytes); it != c.kept.end()) {
      void* const p = it->second.back();
      it->second.pop_back();
      if (it->second.empty()) c.kept.erase(it);
      c.stats.cached_bytes -= bytes;
      c.stats.live_bytes += bytes;
      c.stats.peak_live_bytes = std::max(c.stats.peak_live_bytes, c.stats.live_bytes);
      ++c.stats.hits;
      return p;
    }
    // A new buffer: kept ones go first where alive + kept would pass the peak (the new peak
    // when this buffer raises it).
    const std::size_t peak = std::max(c.stats.peak_live_bytes, c.stats.live_bytes + bytes);
    c.shrink_locked(peak - bytes);
  }
  // (Under the lock: another thread's release cannot slip a kept buffer in between.)
  void* p = raw_new(bytes);
  if (p == nullptr && c.stats.cached_bytes > 0) {
    // Out of memory with buffers kept: drop them all and try once more.
    c.drop_all_locked();
    p = raw_new(bytes);
  }
  if (p == nullptr) return nullptr;
  c.stats.live_bytes += bytes;
  c.stats.peak_live_bytes = std::max(c.stats.peak_live_bytes, c.stats.live_bytes);
  if (c.scopes > 0) ++c.stats.misses;
  return p;
}

void host_release(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kHostCacheMinBytes) return raw_delete(p, bytes);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.m);
    c.stats.live_bytes -= std::min(c.stats.live_bytes, bytes);
    if (c.scopes > 0) {
      try {
        c.kept[bytes].push_back(p);
        c.stats.cached_bytes += bytes;
        return;
      } catch (...) {  // the map's own allocation failed: free the buffer instead
        if (auto it = c.kept.find(bytes); it != c.kept.end() && it->second.empty())
          c.kept.erase(it);
      }
    }
  }
  raw_delete(p, bytes);
}

}  // namespace texcv::detail
