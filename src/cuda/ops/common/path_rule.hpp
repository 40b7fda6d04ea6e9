// Which access path the CUDA geometric operations take (texcv::Path), in one place.
//
// Path::automatic resolves through choose_path(); the rule comes from GPU_FACTS.md (H200):
// hardware bilinear filtering wins on resampling (1.3x f32, 1.9x u8 over software bilinear),
// point-sampled textures lose to plain loads on multi-tap gathers, and nearest / flip are
// pure data movement (plain loads, wide stores). The rule is to be re-derived from the
// benchmarks (docs/performance.md).
#pragma once

#include <cstdint>
#include <string>

#include "src/core/backends.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv::cuda::ops {

enum class GeomOp : std::uint8_t { resize, warp, remap, flip, stencil };
const char* to_string(GeomOp op) noexcept;

// The path Path::automatic takes. bindable: the source can be bound as a Pitch2D texture
// without a copy (can_bind_pitch2d). Never returns Path::automatic.
Path choose_path(GeomOp op, Interp interp, ElemType type, int channels, Precision precision,
                 Border border, bool bindable);

// The path an operation on the device view src with sampling s takes: s.path when explicit,
// else choose_path() for this view. Benchmarks call it to report what automatic picked. Does not
// validate an explicit path (the operation does, and throws).
Path resolved_path(GeomOp op, const ImageView& src, const detail::SamplingDesc& s);

// The linear filters (src/cuda/ops/filter/): a 2-D kernel, or a separable pair.
enum class StencilKind : std::uint8_t { filter_2d, separable };

// The path Path::automatic takes for a linear filter with a kw x kh kernel (docs/performance.md,
// "path=auto rule for the filters"). register_kernel: a register-blocked kernel exists for this
// size and anchor (filter_launch.hpp: 3x3 / 5x5 centred 2-D kernels, sep_vec_applies()).
// tile_fits: the shared-memory tile of Path::shared fits the device's per-block limit. Never
// returns Path::automatic or Path::texture_filter.
Path choose_stencil_path(StencilKind kind, ElemType type, int channels, bool register_kernel,
                         bool tile_fits);

// Throws Error when the explicit path s.path cannot run op with s on a source of `channels`
// channels (3-channel textures, texture_filter with other than linear, reflect101 or exact).
void check_explicit_path(const char* op, const detail::SamplingDesc& s, int channels);

}  // namespace texcv::cuda::ops
