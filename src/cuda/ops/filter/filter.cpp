// The linear filters on the CUDA backend (convolve, sharpen, laplacian through filter_2d;
// separable_filter, gaussian_blur, box_filter, sobel, scharr through filter_separable; unsharp_mask
// blurs through filter::separable, src/cuda/ops/unsharp_mask/), on the caller's stream, on the
// access path the caller asked for or choose_stencil_path() picks (filter_launch.hpp describes the
// paths). On the global and texture paths the separable filters run a row pass into a float
// temporary, then a column pass, as the CPU backend; on the shared path both passes run in one
// kernel. Temporaries are stream-ordered memory (cudaMallocAsync / cudaFreeAsync) allocated per
// call.
#include <cstdint>
#include <string>
#include <vector>

#include "src/core/filters_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/filter/filter_host.hpp"
#include "src/cuda/ops/filter/filter_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {

// The largest dynamic shared memory one block of the current device may use.
std::size_t max_block_smem(const char* op) {
  int dev = 0, bytes = 0;
  TEXCV_CUDA_CHECK(op, cudaGetDevice(&dev));
  TEXCV_CUDA_CHECK(op,
                   cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  // The kernels' static coefficient arrays take their share of the same memory.
  const std::size_t statics = 2 * kMaxKernel1D * sizeof(float) + 1024;
  return static_cast<std::size_t>(bytes) > statics ? static_cast<std::size_t>(bytes) - statics : 0;
}

// The source of one filter call on its resolved path (texture objects come from the cache; an
// explicit texture path on an unbindable view reads an aligned copy). tile_bytes: the shared
// path's dynamic shared memory.
ops::SourcePlan stencil_source(const char* op, ops::StencilKind kind, const ImageView& src,
                               const detail::FilterBorderDesc& b, int kw, int kh,
                               bool register_kernel, std::size_t tile_bytes, cudaStream_t st) {
  const std::size_t limit = max_block_smem(op);
  Path path = b.path;
  if (path == Path::automatic)
    path = ops::choose_stencil_path(kind, src.type, src.channels, register_kernel,
                                    tile_bytes <= limit);
  if (path == Path::shared && tile_bytes > limit)
    fail(ErrorCode::Unsupported, op,
         "path shared: the kernel's source window does not fit in one block's shared memory; use "
         "path global (or automatic)",
         std::to_string(tile_bytes) + " bytes (" + std::to_string(kw) + "x" + std::to_string(kh) +
             " kernel, " + std::to_string(src.channels) + " channels)",
         "at most " + std::to_string(limit) + " bytes");
  detail::SamplingDesc sd;
  sd.interp = Interp::nearest;
  sd.border = b.border;
  sd.path = path;
  return ops::SourcePlan(op, ops::GeomOp::stencil, src, sd, st);
}

ops::FilterBorderArgs border_args(const detail::FilterBorderDesc& b) {
  ops::FilterBorderArgs a;
  a.border = b.border;
  for (int c = 0; c < 4; ++c) a.value[c] = b.value[c];
  return a;
}

ops::Kernel1DArgs taps_1d(const std::vector<float>& k, int anchor) {
  ops::Kernel1DArgs a;
  a.n = static_cast<int>(k.size());
  a.anchor = anchor;
  for (int i = 0; i < a.n; ++i) a.k[i] = k[static_cast<std::size_t>(i)];
  return a;
}

// A u8 one-channel separable filter as the 2-D kernel of its taps' outer product, where that
// takes launch_filter_2d's dp4a kernel (box 3x3 / 5x5, sobel 3 / 5, the 3- and 5-tap binomial):
// the same bytes (dyadic_int8_taps), 2-D integer sums instead of two float passes. Only where the
// caller's path is global or automatic, and the source's rows start on 16-byte steps (the dp4a
// kernel's loads).
bool separable_as_dp4a(const ImageView& src, const detail::SepFilterDesc& desc,
                       const ops::FilterBorderArgs& b, ops::Kernel2DArgs& k) {
  const int n = static_cast<int>(desc.kx.size());
  if (src.type != ElemType::u8 || src.channels != 1 || (n != 3 && n != 5) ||
      static_cast<int>(desc.ky.size()) != n || desc.ax != n / 2 || desc.ay != n / 2)
    return false;
  if (desc.border.path != Path::automatic && desc.border.path != Path::global) return false;
  if (reinterpret_cast<std::uintptr_t>(src.data) % 16 != 0 || src.pitch % 16 != 0) return false;
  if (!ops::dyadic_int8_taps(desc.kx.data(), n) || !ops::dyadic_int8_taps(desc.ky.data(), n))
    return false;
  k.kw = k.kh = n;
  k.ax = k.ay = n / 2;
  k.scale = desc.scale;
  k.delta = desc.delta;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      k.k[j * n + i] = desc.ky[static_cast<std::size_t>(j)] * desc.kx[static_cast<std::size_t>(i)];
  ops::Dp4aTaps dt{};
  return ops::dp4a_taps(k, b, dt);
}

}  // namespace

namespace filter {

// Row pass + column pass of src into d (element type dst_type): in one kernel on the shared
// path, else through a float temporary.
void separable(const char* op, const ImageView& src, const ops::DstArgs& d, ElemType dst_type,
               const detail::SepFilterDesc& desc, cudaStream_t st) {
  const int channels = src.channels;
  if (ops::Kernel2DArgs k2; separable_as_dp4a(src, desc, border_args(desc.border), k2)) {
    detail::FilterBorderDesc global = desc.border;
    global.path = Path::global;
    ops::SourcePlan plan =
        stencil_source(op, ops::StencilKind::filter_2d, src, global, k2.kw, k2.kh, true,
                       ops::filter_2d_tile_bytes(k2.kw, k2.kh, 1, ops::filter_px(src.type, 1)), st);
    ops::launch_filter_2d<std::uint8_t>(plan.args(), d, 1, dst_type, k2, border_args(desc.border),
                                        st);
    plan.finish();
    return;
  }
  const ops::Kernel1DArgs kx = taps_1d(desc.kx, desc.ax);
  const ops::Kernel1DArgs ky = taps_1d(desc.ky, desc.ay);
  const bool vec = ops::sep_vec_applies(kx.n, ky.n, kx.anchor, ky.anchor, src.type, dst_type);
  const ops::FilterBorderArgs b = border_args(desc.border);
  ops::SourcePlan plan = stencil_source(
      op, ops::StencilKind::separable, src, desc.border, kx.n, ky.n, vec,
      ops::sep_tile_bytes(kx.n, ky.n, channels, ops::filter_px(src.type, channels)), st);
  ops::ColumnArgs ca;
  ca.border = desc.border.border;
  // The row pass of a constant row, in the CPU's order (filter_rows.hpp correlate_row).
  for (int c = 0; c < 4; ++c) {
    float acc = 0.0f;
    for (const float kv : desc.kx) {
      if (kv == 0.0f) continue;
      acc += kv * desc.border.value[c];
    }
    ca.crow[c] = acc;
  }
  ca.scale = desc.scale;
  ca.delta = desc.delta;
  if (plan.path() == Path::shared) {
    ops::by_type(op, src.type, [&]<typename T>() {
      ops::launch_sep_fused<T>(plan.args(), d, channels, dst_type, kx, ky, b, ca, st);
    });
    plan.finish();
    return;
  }
  if (plan.path() == Path::global && vec) {
    ops::by_type(op, src.type, [&]<typename T>() {
      const auto run = [&]<int NB>() {
        ops::launch_sep_vec_taps<T, NB>(plan.args(), d, channels, dst_type, kx, ky, b, ca, st);
      };
      switch (kx.n) {  // sep_vec_applies: 3, 5, 7, 9, 13 or 17
        case 3:
          return run.template operator()<3>();
        case 5:
          return run.template operator()<5>();
        case 7:
          return run.template operator()<7>();
        case 9:
          return run.template operator()<9>();
        case 13:
          return run.template operator()<13>();
        default:
          return run.template operator()<17>();
      }
    });
    plan.finish();
    return;
  }
  const std::size_t row_bytes = static_cast<std::size_t>(src.width) * channels * sizeof(float);
  PitchedTemp tmp(row_bytes, src.height, st, op);
  const ops::DstArgs t{tmp.data(), tmp.pitch(), src.width, src.height};
  ops::by_type(op, src.type,
               [&]<typename T>() { ops::launch_sep_rows<T>(plan.args(), t, channels, kx, b, st); });
  const ops::FilterSrc ts{tmp.data(), tmp.pitch(), src.width, src.height};
  ops::by_type(op, dst_type,
               [&]<typename T>() { ops::launch_sep_cols<T>(ts, d, channels, ky, ca, st); });
  tmp.release(op);
  plan.finish();
}

}  // namespace filter

void filter_2d(const char* op, const ImageView& src, const ImageView& dst,
               const detail::Filter2DDesc& d, void* stream) {
  ops::check_views(op, src, dst);
  const auto st = static_cast<cudaStream_t>(stream);
  ops::Kernel2DArgs k;
  k.kw = d.kw;
  k.kh = d.kh;
  k.ax = d.ax;
  k.ay = d.ay;
  k.scale = d.scale;
  k.delta = d.delta;
  for (int i = 0; i < d.kw * d.kh; ++i) k.k[i] = d.k[static_cast<std::size_t>(i)];
  const ops::FilterBorderArgs b = border_args(d.border);
  ops::SourcePlan plan = stencil_source(
      op, ops::StencilKind::filter_2d, src, d.border, d.kw, d.kh,
      ops::filter_2d_vec_applies(d.kw, d.kh, d.ax, d.ay),
      ops::filter_2d_tile_bytes(d.kw, d.kh, src.channels, ops::filter_px(src.type, src.channels)),
      st);
  ops::by_type(op, src.type, [&]<typename T>() {
    ops::launch_filter_2d<T>(plan.args(), ops::dst_args(dst), src.channels, dst.type, k, b, st);
  });
  plan.finish();
}

void filter_separable(const char* op, const ImageView& src, const ImageView& dst,
                      const detail::SepFilterDesc& d, void* stream) {
  ops::check_views(op, src, dst);
  filter::separable(op, src, ops::dst_args(dst), dst.type, d, static_cast<cudaStream_t>(stream));
}

}  // namespace texcv::cuda
