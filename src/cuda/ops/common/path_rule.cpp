#include "src/cuda/ops/common/path_rule.hpp"

#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda::ops {

const char* to_string(GeomOp op) noexcept {
  switch (op) {
    case GeomOp::resize:
      return "resize";
    case GeomOp::warp:
      return "warp";
    case GeomOp::remap:
      return "remap";
    case GeomOp::flip:
      return "flip";
    case GeomOp::stencil:
      return "stencil";
  }
  return "?";
}

Path choose_path(GeomOp op, Interp interp, ElemType type, int channels, Precision precision,
                 Border border, bool bindable) {
  // Measured on the H200 (docs/performance.md, "path=auto rule").
  // Pure data movement and area averaging: plain loads and wide stores.
  if (op == GeomOp::flip || interp == Interp::area) return Path::global;
  // No texture format for 3 channels; an unbindable view would need a copy first.
  if (channels == 3 || !bindable) return Path::global;
  // Hardware bilinear when the caller accepts 8-bit weights and the border has a hardware mode.
  if (precision == Precision::fast && interp == Interp::linear && border != Border::reflect101)
    return Path::texture_filter;
  // Software sampling. Gathers along a rotated or warped line (warps, remap) of 4-channel u8
  // pixels run 10-20 % faster through point-sampled textures (the texture cache's 2-D locality
  // beats 4-byte scattered loads); so do 1-channel u8 nearest warps. Everything else, f32 and
  // resize (whose row reads are coalesced) above all, is faster with plain loads.
  if (type == ElemType::u8 && (op == GeomOp::warp || op == GeomOp::remap)) {
    if (channels == 4) return Path::texture;
    if (op == GeomOp::warp && interp == Interp::nearest) return Path::texture;
  }
  return Path::global;
}

Path choose_stencil_path(StencilKind kind, ElemType type, int channels, bool register_kernel,
                         bool tile_fits) {
  (void)type;
  (void)channels;
  // Measured on the H200 (docs/performance.md, "path=auto rule for the filters", commit
  // 41d46a1): the register kernels (global path) beat the shared tile wherever they apply: 2-D
  // 3x3 / 5x5 (f32 3x3 0.165 against 0.559 ms, u8 0.154 against 0.966), and separable kernels of
  // 3 to 17 equal centred taps (box 5x5 f32 0.202 against 0.633, gaussian sigma 2 f32 (17 taps)
  // 0.966 against 1.168, u8 (13 taps) 0.876 against 1.860, sobel f32 0.165 against 0.509). Other
  // sizes and anchors run faster from the shared tile than through the generic strip kernels.
  // 13 and 17 centred taps of 4-channel u8/u16 run their own shared-tile kernel on the global
  // path (sep_tile4_kernel; before it the two-pass texture path won there: u8x4 gaussian sigma
  // 2, 13 taps, texture 2.21 ms, register 3.08, shared 3.25, e498ae2).
  (void)kind;
  if (register_kernel) return Path::global;
  if (tile_fits) return Path::shared;
  return Path::global;
}

Path resolved_path(GeomOp op, const ImageView& src, const detail::SamplingDesc& s) {
  if (op == GeomOp::flip) return Path::global;
  if (s.path != Path::automatic) return s.path;
  const bool bindable = src.location == Location::device && can_bind_pitch2d(src);
  return choose_path(op, s.interp, src.type, src.channels, s.precision, s.border, bindable);
}

void check_explicit_path(const char* op, const detail::SamplingDesc& s, int channels) {
  if (s.path != Path::texture && s.path != Path::texture_filter) return;
  const std::string path = to_string(s.path);
  if (channels == 3)
    fail(ErrorCode::Unsupported, op,
         "path " + path +
             " needs a texture, and CUDA has no texture format for 3-channel images; use "
             "path global (or automatic), or convert the image to 4 channels",
         "3 channels", "1 or 4 channels");
  if (s.path != Path::texture_filter) return;
  if (s.interp != Interp::linear)
    fail(ErrorCode::Unsupported, op,
         "path texture_filter is hardware bilinear filtering and only does linear "
         "interpolation; use path texture or global for this interpolation",
         std::string("interp ") + to_string(s.interp), "interp linear");
  if (s.border == Border::reflect101)
    fail(ErrorCode::Unsupported, op,
         "path texture_filter has no hardware address mode for border reflect101; use path "
         "texture or global, or border reflect",
         "border reflect101", "constant, replicate, reflect or wrap");
  if (s.precision == Precision::exact)
    fail(ErrorCode::InvalidArgument, op,
         "path texture_filter uses hardware weights with 8 fractional bits, which precision "
         "exact forbids; use precision fast, or path global or texture",
         "precision exact", "precision fast");
}

}  // namespace texcv::cuda::ops
