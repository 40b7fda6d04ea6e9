// resize on the CUDA backend: choose the access path, launch on the caller's stream.
#include <cstdlib>
#include <cstring>

#include "src/core/backends.hpp"
#include "src/cuda/ops/common/dispatch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/resize/resize_launch.hpp"
#include "src/cuda/ops/resize/resize_tuning.hpp"

namespace texcv::cuda {

bool ops::resize_half_off() {
  static const bool off = [] {
    const char* v = std::getenv("TEXCV_RESIZE_HALF");
    return v != nullptr && std::strcmp(v, "0") == 0;
  }();
  return off;
}

namespace {

// The integer in environment variable `name` when it lies in [lo, hi], else `fallback`.
int env_int(const char* name, int lo, int hi, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr) return fallback;
  const int n = std::atoi(v);
  return n >= lo && n <= hi ? n : fallback;
}

}  // namespace

int ops::resize_half_cubic_rows() {
  static const int rows = [] {
    const int n =
        env_int("TEXCV_RESIZE_HALF_CUBIC_ROWS", 4, 16, ops::tuning::Resize::kHalfCubicRows);
    return n == 4 || n == 8 || n == 16 ? n : ops::tuning::Resize::kHalfCubicRows;
  }();
  return rows;
}

int ops::resize_double_rows() {
  static const int rows =
      env_int("TEXCV_RESIZE_DOUBLE_ROWS", 1, 64, ops::tuning::Resize::kDoubleRows);
  return rows;
}

void resize(const ImageView& src, const ImageView& dst, const ResizeDesc& d, void* stream) {
  constexpr const char* kOp = "resize";
  const auto st = static_cast<cudaStream_t>(stream);
  ops::check_device_view(kOp, dst, "dst");
  ops::SourcePlan plan(kOp, ops::GeomOp::resize, src, d.sampling, st);
  ops::ResizeArgs a;
  a.s = ops::sample_args(d.sampling);
  a.ax = d.ax;
  a.ay = d.ay;
  a.scale_x = d.scale_x;
  a.scale_y = d.scale_y;
  a.inv_scale_x = d.inv_scale_x;
  a.inv_scale_y = d.inv_scale_y;
  a.area_shrink = d.scale_x >= 1.0 && d.scale_y >= 1.0;
  const ops::DstArgs da = ops::dst_args(dst);
  ops::dispatch_type_channels(kOp, src.type, src.channels, [&]<typename T, int C>() {
    ops::launch_resize<T, C>(plan.args(), da, a, st);
  });
  plan.finish();
}

}  // namespace texcv::cuda
