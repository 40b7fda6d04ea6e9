// The error every CUDA entry point throws in a build without the CUDA backend.
#pragma once

#include "texcv/error.hpp"

namespace texcv::cuda {

[[noreturn]] inline void not_compiled(const char* op) {
  fail(ErrorCode::NotCompiled, op,
       "this build has no CUDA backend; rebuild with -DTEXCV_CUDA=ON (nvcc required) to use device "
       "images");
}

}  // namespace texcv::cuda
