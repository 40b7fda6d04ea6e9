// The CUDA backend of a build without CUDA: every operation throws Error(NotCompiled); the
// queries report no GPU.
#include <string>

#include "src/core/backends.hpp"
#include "src/core/no_cuda/not_compiled.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

void resize(const ImageView&, const ImageView&, const ResizeDesc&, void*) {
  not_compiled("resize");
}
void warp(const ImageView&, const ImageView&, const WarpDesc& d, void*) {
  not_compiled(d.kind == detail::WarpKind::affine ? "warp_affine" : "warp_perspective");
}
void remap(const ImageView&, const ImageView&, const ImageView&, const ImageView&,
           const SamplingDesc&, void*) {
  not_compiled("remap");
}
void flip(const ImageView&, const ImageView&, FlipCode, void*) {
  not_compiled("flip");
}
void copy(const ImageView&, const ImageView&, void*) {
  not_compiled("copy");
}
std::shared_ptr<void> allocate_device(int, int, std::size_t&) {
  not_compiled("Image");
}
std::shared_ptr<void> allocate_pinned(std::size_t) {
  not_compiled("allocate_pinned");
}
bool available() {
  return false;
}
std::vector<GpuInfo> gpus() {
  return {};
}
HandleCounts live_handles() {
  return {};
}
void clear_texture_cache() {}
MemoryInfo device_memory_info() {
  return {};
}
std::string compiled_version() {
  return "";
}
bool batchable_op(std::string_view) {
  return false;
}

void run_batched(void*, const std::function<void()>& calls) {
  calls();
}

std::string compiled_architectures() {
  return "";
}

}  // namespace texcv::cuda
