// A cache of large host image buffers for runs that make and drop many images of the same sizes
// (the batch engine: each file's decoded image, each step's result). Without it each buffer is
// fresh memory from the system: glibc serves blocks of this size with mmap, or gives freed heap
// memory back, and the kernel then zeroes every page on first touch. On the 2-core development
// machine that was a fifth of `texcv batch --device cpu`'s time on 1080p JPEGs (perf:
// clear_page_erms 11 %, page-fault handling 5 %; docs/performance.md, nineteenth session).
//
// While at least one HostCacheScope is alive, a host Image buffer of kHostCacheMinBytes or more
// that is released is kept, and the next host Image of exactly that many bytes (pitch x height)
// takes it instead of new memory. The buffers kept never make the buffers alive plus kept exceed
// the most that were alive at once since the first scope began: a new buffer of another size
// drops kept ones first (so a run's memory stays what its queues bound). When an allocation fails,
// every kept buffer is dropped and the allocation tried again. When the last scope ends, the kept
// buffers are freed. Thread-safe; process-wide.
#pragma once

#include <cstddef>
#include <string>

namespace texcv::detail {

inline constexpr std::size_t kHostCacheMinBytes = std::size_t{256} << 10;

struct HostCacheStats {
  std::size_t hits = 0;          // buffers reused, since the first scope began
  std::size_t misses = 0;        // buffers of kHostCacheMinBytes or more allocated, idem
  std::size_t dropped = 0;       // kept buffers freed to stay within the bound, idem
  std::size_t cached_bytes = 0;  // kept now
  std::size_t live_bytes = 0;    // alive now (buffers of kHostCacheMinBytes or more)
  std::size_t peak_live_bytes = 0;
};

class HostCacheScope {
 public:
  HostCacheScope();
  ~HostCacheScope();
  HostCacheScope(const HostCacheScope&) = delete;
  HostCacheScope& operator=(const HostCacheScope&) = delete;
};

HostCacheStats host_cache_stats();

// Whether large host buffers are 2 MB aligned and marked MADV_HUGEPAGE (host_cache.cpp): host
// Image buffers of 4 MB or more, and the CUDA runtime's page-locked buffers (cuda::PinnedBuffer).
// TEXCV_HOST_HUGEPAGES=0 or 1 decides when set; else huge_pages_by_default on
// /sys/bus/virtio/devices. Read once.
bool host_huge_pages() noexcept;

// Transparent huge pages' size, and `bytes` of memory aligned to it and marked MADV_HUGEPAGE
// (advice only: the kernel's THP setting decides), from the aligned nothrow operator new so that
// a program that replaces it sees these buffers too; nullptr when out of memory. Released with
// ::operator delete(p, std::align_val_t{kHugePageBytes}, std::nothrow). The host image buffers and
// cuda::PinnedBuffer's registered memory both come from here when host_huge_pages().
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
void* huge_page_new(std::size_t bytes) noexcept;

// Huge pages pay unless the machine is a VM that hands its free memory back to its host: a
// virtio balloon (among the devices under `virtio_devices`, sysfs's layout: each a folder with
// `device` "0x0005" and `features`, one '0' or '1' per bit from bit 0) with free page reporting
// (VIRTIO_BALLOON_F_REPORTING, bit 5). Such a guest reports free blocks of 2 MB and more, so a
// fresh huge page is one the host must back again as it is zeroed, where 4 KB pages come from
// memory the guest recycles: on the 2-core development machine the TIFF task took 0.98-1.26 s
// with huge pages against 0.68-0.69 s without (docs/performance.md, twenty-first and
// twenty-second sessions). Unreadable or missing folders: they pay.
bool huge_pages_by_default(const std::string& virtio_devices) noexcept;

// Every host Image buffer's alignment (its pitch is a multiple of it too).
inline constexpr std::size_t kHostImageAlign = 64;

// Image's host allocation and release (src/core/image.cpp): `bytes` as allocated, aligned to
// kHostImageAlign. host_allocate returns nullptr when the memory cannot be had.
void* host_allocate(std::size_t bytes) noexcept;
void host_release(void* p, std::size_t bytes) noexcept;

}  // namespace texcv::detail
