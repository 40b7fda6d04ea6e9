// Calls from the core into the CUDA backend, one definition for a build with it and one without:
// no stub per operation. TEXCV_CUDA("gamma", cuda::gamma(src, dst, g, stream)) is that call in a
// build with the CUDA backend, and in one without it throws Error(NotCompiled) naming the op
// ("gamma: this build has no CUDA backend; ..."); the call's arguments are then only named in an
// unevaluated operand, so nothing of the CUDA backend is linked and no argument is reported
// unused. Its value has the call's type in both builds:
//
//   if (src.location == Location::device) return TEXCV_CUDA("gamma", cuda::gamma(...));
//   const auto h = TEXCV_CUDA(op, cuda::histogram(op, src, 256, 0.0, 256.0, stream));
//
// TEXCV_CUDA_OR(none, expr): a query's answer: expr, or `none` without the CUDA backend
// (cuda_available() is false, gpus() is empty).
#pragma once

#include <type_traits>

#include "texcv/error.hpp"

namespace texcv::detail {

// Throws Error(NotCompiled) for op: "<op>: this build has no CUDA backend; rebuild with
// -DTEXCV_CUDA=ON (nvcc required) to use device images". The return type only lets the call
// stand where a value of type T is expected.
template <typename T>
[[noreturn]] T cuda_not_compiled(const char* op) {
  fail(ErrorCode::NotCompiled, op,
       "this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use device "
       "images");
}

}  // namespace texcv::detail

#if defined(TEXCV_HAS_CUDA)
#define TEXCV_CUDA(op, ...) (__VA_ARGS__)
#define TEXCV_CUDA_OR(none, ...) (__VA_ARGS__)
#else
#define TEXCV_CUDA(op, ...)                                              \
  (static_cast<void>(sizeof(std::add_pointer_t<decltype(__VA_ARGS__)>)), \
   ::texcv::detail::cuda_not_compiled<decltype(__VA_ARGS__)>(op))
#define TEXCV_CUDA_OR(none, ...) \
  (static_cast<void>(sizeof(std::add_pointer_t<decltype(__VA_ARGS__)>)), (none))
#endif
