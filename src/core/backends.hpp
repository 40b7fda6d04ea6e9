// The backend entry points. src/core validates every call (types, sizes, aliasing, parameters)
// and turns public parameters into these descriptors; the CPU backend (src/cpu) and the CUDA
// backend (src/cuda) implement them. The core calls the CUDA backend through TEXCV_CUDA
// (src/core/cuda_call.hpp): a build without CUDA throws Error(NotCompiled) there.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include "src/core/sampling.hpp"
#include "texcv/geometry.hpp"

#include "texcv/image.hpp"
#include "texcv/runtime.hpp"

namespace texcv::detail {

// Sampling after validation: precision resolved (never automatic), border values as float.
struct SamplingDesc {
  Interp interp = Interp::linear;
  Border border = Border::constant;
  float border_value[4] = {0, 0, 0, 0};
  Precision precision = Precision::exact;  // exact or fast
  Path path = Path::automatic;             // CUDA resolves automatic itself
};

struct ResizeDesc {
  SamplingDesc sampling;  // interp may be area
  bool align_corners = false;
  ResizeAxis ax{1.0, false};  // x: source coordinate of a destination column
  ResizeAxis ay{1.0, false};
  // For Interp::area, as cv::resize's scale_x = 1 / inv_scale_x and inv_scale_x: inv_scale is
  // dst / src (the size form) or fx (the factor form).
  double scale_x = 1.0, scale_y = 1.0;
  double inv_scale_x = 1.0, inv_scale_y = 1.0;
};

enum class WarpKind { affine, perspective };
struct WarpDesc {
  WarpKind kind = WarpKind::affine;
  AffineMap affine{};            // destination -> source
  PerspectiveMap perspective{};  // destination -> source
  SamplingDesc sampling;
};

}  // namespace texcv::detail

namespace texcv::cpu {
using texcv::detail::ResizeDesc;
using texcv::detail::SamplingDesc;
using texcv::detail::WarpDesc;
void resize(const ImageView& src, const ImageView& dst, const ResizeDesc& d);
void warp(const ImageView& src, const ImageView& dst, const WarpDesc& d);
void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const SamplingDesc& s);
void flip(const ImageView& src, const ImageView& dst, FlipCode code);
void copy(const ImageView& src, const ImageView& dst);  // same size/type, host to host
}  // namespace texcv::cpu

namespace texcv::cuda {
using texcv::detail::ResizeDesc;
using texcv::detail::SamplingDesc;
using texcv::detail::WarpDesc;
void resize(const ImageView& src, const ImageView& dst, const ResizeDesc& d, void* stream);
void warp(const ImageView& src, const ImageView& dst, const WarpDesc& d, void* stream);
void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const SamplingDesc& s, void* stream);
void flip(const ImageView& src, const ImageView& dst, FlipCode code, void* stream);
// Any pair of locations; synchronizes the stream when either side is on the host.
void copy(const ImageView& src, const ImageView& dst, void* stream);
// Pitched device allocation for Image (freed by the returned deleter-owning pointer).
std::shared_ptr<void> allocate_device(int width_bytes, int height, std::size_t& pitch);
bool available();
std::vector<GpuInfo> gpus();
HandleCounts live_handles();
void clear_texture_cache();
MemoryInfo device_memory_info();
std::string compiled_version();        // e.g. "13.0"
std::string compiled_architectures();  // e.g. "90"
// Whether operation `name`'s CUDA call may be recorded in a batched launch: its last launch is a
// batched kernel and it frees nothing that launch reads when it returns (launch_batch.hpp). The
// batch engine's GPU workers and texcv::Pipeline's lists batch these steps.
bool batchable_op(std::string_view name);
// Calls calls() with the launches of batchable operations on `stream` recorded, then launches
// each recorded kernel once for all its calls (launch_batch.hpp). What calls() throws propagates
// and nothing recorded is launched. A build without CUDA just calls calls().
void run_batched(void* stream, const std::function<void()>& calls);
}  // namespace texcv::cuda
