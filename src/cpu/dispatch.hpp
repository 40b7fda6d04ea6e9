// Private helpers of the CPU backend: dispatch on (element type, channels) and row parallelism.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <type_traits>

#include "src/core/backends.hpp"
#include "src/core/dispatch.hpp"
#include "texcv/error.hpp"

#if defined(TEXCV_HAS_OPENMP)
#include <omp.h>
#endif

// Parallel over rows when the work is worth waking threads for (small images run serially).
// Iterations are handed out in chunks as threads free up (schedule(dynamic)), about four chunks
// a thread, not split into one equal block per thread: a static split waits for its slowest
// thread, so one thread sharing its core with anything else (the batch engine's decode threads,
// another process) held the whole call back. On 2 cores with one of them kept busy (seventh
// session, docs/performance.md): 3x3 convolution u8 13.3 -> 8.0 ms, median 3x3 6.9 -> 1.6 ms
// (OpenCV's pool, which also hands out stripes: 11.5 and 3.4 ms). One row or block at a time
// instead cost up to 2x on a quiet machine (RGB to gray 1.7 -> 3.6 ms). Every loop below has
// independent iterations.
#define TEXCV_PRAGMA(x) _Pragma(#x)
// TEXCV_OMP_PARALLEL_FOR_ROWS(width, height): a loop over `height` rows of `width` pixels.
// TEXCV_OMP_PARALLEL_FOR_N(work, n): a loop of n iterations (blocks, tiles, bands) that does
// `work` pixels in all.
// TEXCV_OMP_PARALLEL_IF(work) + TEXCV_OMP_FOR_N(n): the same in two, for a team whose threads
// set up their scratch memory once before sharing the loop.
#if defined(TEXCV_HAS_OPENMP)
#define TEXCV_OMP_PARALLEL_FOR_ROWS(width, height)                \
  TEXCV_PRAGMA(omp parallel for schedule(                                         \
      dynamic, texcv::cpu::detail::row_chunk(width, height)) if (                 \
      static_cast<long>(width) * (height) >= texcv::cpu::detail::kParallelWork))
#define TEXCV_OMP_PARALLEL_FOR_N(work, n)                                                 \
  TEXCV_PRAGMA(omp parallel for schedule(dynamic, texcv::cpu::detail::loop_chunk(n)) if ( \
      (work) >= texcv::cpu::detail::kParallelWork))
#define TEXCV_OMP_PARALLEL_IF(work) \
  TEXCV_PRAGMA(omp parallel if ((work) >= texcv::cpu::detail::kParallelWork))
#define TEXCV_OMP_FOR_N(n) \
  TEXCV_PRAGMA(omp for schedule(dynamic, texcv::cpu::detail::loop_chunk(n)))
#else
#define TEXCV_OMP_PARALLEL_FOR_ROWS(width, height)
#define TEXCV_OMP_PARALLEL_FOR_N(work, n)
#define TEXCV_OMP_PARALLEL_IF(work)
#define TEXCV_OMP_FOR_N(n)
#endif

namespace texcv::cpu::detail {

// An exception that leaves an OpenMP region ends the process (std::terminate): a failed
// allocation of a thread's scratch rows would crash a whole batch. Code inside a region runs
// through guard(), which keeps the first exception and skips the rest of the work (every thread
// still meets the region's worksharing loop); rethrow() after the region throws it on the
// calling thread.
class RegionErrors {
 public:
  // Runs f() unless an earlier call failed; false when it did not run or threw.
  template <typename F>
  bool guard(F&& f) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return false;
    try {
      f();
      return true;
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      failed_.store(true);
      return false;
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr error_;
};

// Below this many destination pixels an operation runs on the calling thread.
constexpr long kParallelWork = 32 * 1024;

// The chunks of the loops above: about kChunksPerThread a thread (n / (4 threads) iterations,
// at least 1), and for rows at least kChunkPixels pixels (one fetch-and-add per chunk).
constexpr long kChunksPerThread = 4;
constexpr long kChunkPixels = 16 * 1024;
inline int loop_chunk(long n) {
#if defined(TEXCV_HAS_OPENMP)
  const long parts = kChunksPerThread * omp_get_max_threads();
#else
  const long parts = kChunksPerThread;
#endif
  const long c = (n + parts - 1) / parts;
  return c < 1 ? 1 : static_cast<int>(c);
}
inline int row_chunk(long width, long height) {
  const long rows = width >= kChunkPixels ? 1 : kChunkPixels / (width > 0 ? width : 1);
  const int c = loop_chunk(height);
  return rows > c ? static_cast<int>(rows) : c;
}

// How many threads a TEXCV_OMP_PARALLEL_FOR_ROWS/_N loop of `work` may run on (1 below
// kParallelWork or without OpenMP): reductions keep one partial result per thread and size them by
// it.
inline int parallel_threads(long work) {
#if defined(TEXCV_HAS_OPENMP)
  return work >= kParallelWork ? omp_get_max_threads() : 1;
#else
  (void)work;
  return 1;
#endif
}

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}, std::integral_constant<int, C>{}) for the view's element type and channel
// count: the 9 combinations u8/u16/f32 x 1/3/4 (validated by src/core before), through the one
// dispatch (src/core/dispatch.hpp).
template <class F>
void dispatch(ElemType type, int channels, const char* op, F&& f) {
  texcv::detail::by_type_channels(op, type, channels, [&]<typename T, int C>() {
    f(TypeTag<T>{}, std::integral_constant<int, C>{});
  });
}

template <typename T, int C>
texcv::detail::PitchedSource<T, C> source_of(const ImageView& v) {
  return {static_cast<const unsigned char*>(v.data), v.pitch, v.width, v.height};
}

}  // namespace texcv::cpu::detail
