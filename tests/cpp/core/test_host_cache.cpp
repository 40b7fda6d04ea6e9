// The cache of large host image buffers (src/core/host_cache.hpp) that the batch engine turns on
// for a run: what it reuses, what it keeps, and that it never keeps more than the most that was
// alive at once.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "common/test_support.hpp"
#include "src/core/host_cache.hpp"
#include "texcv/image.hpp"

namespace {

using texcv::ElemType;
using texcv::Image;
namespace detail = texcv::detail;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A 1-channel u8 image of `mib` MiB exactly (1024-byte rows, already 64-byte aligned).
Image mib_image(int mib) {
  return Image(1024, 1024 * mib, 1, ElemType::u8);
}

TEST(HostCache, OutsideAScopeNothingIsKept) {
  {
    Image a = mib_image(1);
    std::memset(a.data(), 7, kMiB);
  }
  const detail::HostCacheStats s = detail::host_cache_stats();
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.live_bytes, 0u);
}

TEST(HostCache, AReleasedBufferGoesToTheNextImageOfTheSameSize) {
  detail::HostCacheScope scope;
  Image a = mib_image(1);
  void* const first = a.data();
  std::memset(first, 7, kMiB);
  a = Image();
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, kMiB);
  Image b = mib_image(1);
  EXPECT_EQ(b.data(), first);
  // Any shape with the same bytes (pitch x height) takes it: 512 RGB pixels (1536 bytes, pitch
  // 1536) x 682 rows is not 1 MiB, 256 x 1024 RGBA u8 is.
  b = Image();
  Image c(256, 1024, 4, ElemType::u8);
  EXPECT_EQ(c.data(), first);
  const detail::HostCacheStats s = detail::host_cache_stats();
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.live_bytes, kMiB);
}

TEST(HostCache, SmallImagesAreNeverKept) {
  detail::HostCacheScope scope;
  {
    Image small(256, 255, 4, ElemType::u8);  // 255 KiB: under kHostCacheMinBytes
    ASSERT_LT(small.pitch() * 255, detail::kHostCacheMinBytes);
  }
  const detail::HostCacheStats s = detail::host_cache_stats();
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.misses, 0u);
}

TEST(HostCache, KeptBuffersNeverTakeTheRunPastItsPeak) {
  detail::HostCacheScope scope;
  { Image a = mib_image(1), b = mib_image(1), c = mib_image(1); }
  detail::HostCacheStats s = detail::host_cache_stats();
  EXPECT_EQ(s.cached_bytes, 3 * kMiB);
  EXPECT_EQ(s.peak_live_bytes, 3 * kMiB);
  // A 2 MiB image fits none of them: two are dropped first, so alive + kept stays 3 MiB.
  Image d = mib_image(2);
  s = detail::host_cache_stats();
  EXPECT_EQ(s.dropped, 2u);
  EXPECT_EQ(s.cached_bytes, kMiB);
  EXPECT_EQ(s.live_bytes, 2 * kMiB);
  EXPECT_EQ(s.peak_live_bytes, 3 * kMiB);
  // A second 2 MiB image raises the peak to 4 MiB, all alive: the 1 MiB buffer goes too.
  Image e = mib_image(2);
  s = detail::host_cache_stats();
  EXPECT_EQ(s.dropped, 3u);
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.peak_live_bytes, 4 * kMiB);
  // Released, both are kept (alive + kept stays 4 MiB) and a 2 MiB image takes one.
  d = Image();
  e = Image();
  Image f = mib_image(2);
  s = detail::host_cache_stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.cached_bytes, 2 * kMiB);
}

TEST(HostCache, TheLastScopesEndFreesWhatIsKept) {
  std::optional<detail::HostCacheScope> outer(std::in_place);
  {
    detail::HostCacheScope inner;
    Image a = mib_image(1);
  }
  // The inner scope ended, the outer one still runs: the buffer stays.
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, kMiB);
  Image alive = mib_image(1);  // takes it
  EXPECT_EQ(detail::host_cache_stats().hits, 1u);
  Image other = mib_image(2);
  other = Image();
  EXPECT_EQ(detail::host_cache_stats().cached_bytes, 2 * kMiB);
  outer.reset();
  detail::HostCacheStats s = detail::host_cache_stats();
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.live_bytes, kMiB);
  // An image alive when the scope ended is freed, not kept, when it is released.
  void* const p = alive.data();
  alive = Image();
  s = detail::host_cache_stats();
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.live_bytes, 0u);
  (void)p;
}

// The flags of the mapping that holds address p, from /proc/self/smaps ("" when none holds it).
std::string vm_flags_at(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2) {
      inside = a >= lo && a < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// Buffers of 4 MB or more start on a 2 MB boundary and are advised for transparent huge pages
// (MADV_HUGEPAGE: smaps shows "hg"), so that a kernel that allows them backs each 2 MB with
// one page (the TIFF task on the GPU machine: 0.50-0.55 s against 0.78-0.98 s); smaller ones
// are not.
TEST(HostCache, LargeBuffersAreAdvisedForHugePages) {
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "this kernel has no transparent huge pages (no "
                    "/sys/kernel/mm/transparent_hugepage/enabled): the advice cannot be given";
  // On or off by TEXCV_HOST_HUGEPAGES, else by this machine (huge_pages_by_default): either way
  // a large buffer is advised exactly when they are on.
  const bool on = detail::host_huge_pages();
  std::cout << "[ info ] huge pages " << (on ? "on" : "off") << " on this machine\n";
  Image big = mib_image(8);
  const std::string flags = vm_flags_at(big.data());
  ASSERT_FALSE(flags.empty()) << "no mapping holds the buffer";
  if (on) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % (2 * kMiB), 0u);
    EXPECT_NE((flags + " ").find(" hg "), std::string::npos) << flags;
  } else {
    EXPECT_EQ((flags + " ").find(" hg "), std::string::npos) << flags;
  }
  Image small = mib_image(1);  // below 4 MB: the heap's own alignment, no advice
  EXPECT_EQ((vm_flags_at(small.data()) + " ").find(" hg "), std::string::npos);
}

// huge_pages_by_default on fake sysfs trees: a virtio balloon with free page reporting (feature
// bit 5) turns them off; one without it, other virtio devices with bit 5 set, or no such folder
// leave them on.
TEST(HostCache, HugePagesAreOffOnlyWhereABalloonReportsFreePages) {
  texcv::test::TempDir tmp("texcv_virtio_");
  const std::filesystem::path root = tmp.path();
  auto device = [&](const std::string& dir, const std::string& id, const std::string& features) {
    std::filesystem::create_directories(root / dir / "devices" / "virtio0");
    std::ofstream(root / dir / "devices" / "virtio0" / "device") << id << "\n";
    std::ofstream(root / dir / "devices" / "virtio0" / "features") << features << "\n";
    std::filesystem::create_directories(root / dir / "devices" / "virtio1");
    std::ofstream(root / dir / "devices" / "virtio1" / "device") << "0x0002\n";
    std::ofstream(root / dir / "devices" / "virtio1" / "features")
        << "0010001001100100000000000000010010000000\n";
    return (root / dir / "devices").string();
  };
  // The development machine's balloon: stats, deflate on OOM, free page reporting.
  EXPECT_FALSE(detail::huge_pages_by_default(
      device("reporting", "0x0005", "0110010100000000000000000000000010000000")));
  EXPECT_TRUE(detail::huge_pages_by_default(
      device("no_reporting", "0x0005", "0110000100000000000000000000000010000000")));
  EXPECT_TRUE(detail::huge_pages_by_default(
      device("not_a_balloon", "0x0001", "1100010110111011000000000000010010000000")));
  EXPECT_TRUE(detail::huge_pages_by_default(device("short", "0x0005", "01100")));
  EXPECT_TRUE(detail::huge_pages_by_default((root / "missing").string()));
}

}  // namespace
