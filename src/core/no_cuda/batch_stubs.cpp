// The batch engine's CUDA workers in a build without CUDA (src/cuda/batch/cuda_worker.cpp in a
// CUDA build).
#include "src/batch/engine.hpp"
#include "texcv/error.hpp"

namespace texcv::batch {

bool nvjpeg_compiled() {
  return false;
}

std::function<Image(int, int, int, ElemType)> pinned_input_allocator() {
  return {};
}

bool nvjpeg_hardware_decoder(int) {
  return false;
}

std::vector<std::unique_ptr<Worker>> make_cuda_workers(const std::vector<PipelineStep>&,
                                                       const std::vector<int>&, int, bool, int) {
  fail(ErrorCode::NotCompiled, "batch",
       "this build has no CUDA backend; use the cpu device (or rebuild with -DTEXCV_CUDA=ON)");
}

}  // namespace texcv::batch
