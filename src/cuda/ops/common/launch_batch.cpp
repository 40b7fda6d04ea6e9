#include "src/cuda/ops/common/launch_batch.hpp"

#include "src/core/backends.hpp"

#include <cstring>

namespace texcv::cuda::ops {

namespace {
thread_local LaunchBatch* t_active = nullptr;
}  // namespace

LaunchBatch::LaunchBatch(cudaStream_t stream) noexcept : stream_(stream), outer_(t_active) {
  t_active = this;
}

LaunchBatch::~LaunchBatch() {
  t_active = outer_;
}

LaunchBatch* active_launch_batch(cudaStream_t stream) noexcept {
  return t_active != nullptr && t_active->stream_ == stream ? t_active : nullptr;
}

LaunchAtOnce::LaunchAtOnce() noexcept : saved_(t_active) {
  t_active = nullptr;
}

LaunchAtOnce::~LaunchAtOnce() {
  t_active = saved_;
}

void LaunchBatch::add(FlushFn fn, std::size_t entry_bytes, const void* entry, dim3 block,
                      std::size_t smem) {
  Group* g = nullptr;
  for (Group& x : groups_)
    if (x.fn == fn && x.block.x == block.x && x.block.y == block.y && x.block.z == block.z &&
        x.smem == smem) {
      g = &x;
      break;
    }
  if (g == nullptr) {
    groups_.push_back(Group{fn, entry_bytes, block, smem, {}, 0});
    g = &groups_.back();
  }
  const std::size_t at = g->bytes.size();
  g->bytes.resize(at + entry_bytes);
  std::memcpy(g->bytes.data() + at, entry, entry_bytes);
  g->n += 1;
  recorded_ += 1;
}

void LaunchBatch::flush() {
  std::vector<Group> groups;
  groups.swap(groups_);
  for (const Group& g : groups) launches_ += g.fn(g.bytes.data(), g.n, g.block, g.smem, stream_);
}

}  // namespace texcv::cuda::ops

namespace texcv::cuda {

bool batchable_op(std::string_view name) {
  static constexpr std::string_view kOps[] = {
      "resize",    "warp_affine",     "warp_perspective", "flip",          "cvt_color",  "convert",
      "threshold", "gamma",           "convolve",         "gaussian_blur", "box_filter", "sobel",
      "scharr",    "separable_filter"};
  for (std::string_view o : kOps)
    if (name == o) return true;
  return false;
}

void run_batched(void* stream, const std::function<void()>& calls) {
  ops::LaunchBatch batch(static_cast<cudaStream_t>(stream));
  calls();
  batch.flush();
}

}  // namespace texcv::cuda
