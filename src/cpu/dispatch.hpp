// Private helpers of the CPU backend: dispatch on (element type, channels) and row parallelism.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <type_traits>

#include "src/core/backends.hpp"
#include "texcv/error.hpp"

#if defined(TEXCV_HAS_OPENMP)
#include <omp.h>
#endif

// Parallel over rows when the work is worth waking threads for (small images run serially).
#define TEXCV_PRAGMA(x) _Pragma(#x)
// TEXCV_OMP_PARALLEL_IF + TEXCV_OMP_FOR: the same split in two, for a team whose threads set up
// their scratch memory once before sharing the loop.
#if defined(TEXCV_HAS_OPENMP)
#define TEXCV_OMP_PARALLEL_FOR_IF(work) \
  TEXCV_PRAGMA(omp parallel for schedule(static) if ((work) >= texcv::cpu::detail::kParallelWork))
#define TEXCV_OMP_PARALLEL_IF(work) \
  TEXCV_PRAGMA(omp parallel if ((work) >= texcv::cpu::detail::kParallelWork))
#define TEXCV_OMP_FOR TEXCV_PRAGMA(omp for schedule(static))
#else
#define TEXCV_OMP_PARALLEL_FOR_IF(work)
#define TEXCV_OMP_PARALLEL_IF(work)
#define TEXCV_OMP_FOR
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

// How many threads a TEXCV_OMP_PARALLEL_FOR_IF loop of `work` may run on (1 below kParallelWork
// or without OpenMP): reductions keep one partial result per thread and size them by it.
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
// count: the 9 combinations u8/u16/f32 x 1/3/4 (validated by src/core before).
template <class F>
void dispatch(ElemType type, int channels, const char* op, F&& f) {
  auto by_channels = [&](auto tag) {
    switch (channels) {
      case 1:
        return f(tag, std::integral_constant<int, 1>{});
      case 3:
        return f(tag, std::integral_constant<int, 3>{});
      case 4:
        return f(tag, std::integral_constant<int, 4>{});
      default:
        fail(ErrorCode::Internal, op, "unsupported channel count reached the CPU backend",
             std::to_string(channels), "1, 3 or 4");
    }
  };
  switch (type) {
    case ElemType::u8:
      return by_channels(TypeTag<std::uint8_t>{});
    case ElemType::u16:
      return by_channels(TypeTag<std::uint16_t>{});
    case ElemType::f32:
      return by_channels(TypeTag<float>{});
  }
  fail(ErrorCode::Internal, op, "unsupported element type reached the CPU backend",
       std::to_string(static_cast<int>(type)), "u8, u16 or f32");
}

template <typename T, int C>
texcv::detail::PitchedSource<T, C> source_of(const ImageView& v) {
  return {static_cast<const unsigned char*>(v.data), v.pitch, v.width, v.height};
}

}  // namespace texcv::cpu::detail
