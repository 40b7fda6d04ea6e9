// The types the geometric operations share (texcv/geometry.hpp): interpolation, border mode,
// precision and CUDA read path with their names, and the sampling of warp_affine,
// warp_perspective, rotate and remap. The filters and morphology use Border and Path too.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace texcv {

enum class Interp : std::uint8_t { nearest, linear, cubic, area };
enum class Border : std::uint8_t { constant, replicate, reflect, reflect101, wrap };
// exact: source positions in double, float32 software interpolation: within 1 level (u8/u16)
// and 1e-5 (f32 in [0, 1]) of a float64 evaluation at every size up to 65,535 px (the CUDA
// backend then matches the CPU backend within 1 level for u8/u16 and 1e-5 relative for f32). fast:
// hardware texture filtering where it pays (weights with 8 fractional bits: error up to (step along
// x + step along y) / 256, so up to 2 levels for u8 at the steepest edges). automatic: exact for
// every element type.
enum class Precision : std::uint8_t { automatic, exact, fast };
// How the CUDA backend reads the source. automatic: chosen by the measured rule in
// docs/performance.md. global: plain loads. texture: texture object, point sampling with
// software weights. texture_filter: texture object with hardware linear filtering. shared: the
// stencil filters only (docs/ops/filters.md): a tile of the source staged in shared memory.
// The CPU backend ignores it.
enum class Path : std::uint8_t { automatic, global, texture, texture_filter, shared };

const char* to_string(Interp v) noexcept;
const char* to_string(Border v) noexcept;
const char* to_string(Precision v) noexcept;
const char* to_string(Path v) noexcept;
// Parse the names above ("linear", "reflect101", "texture_filter", "auto" for automatic...).
// Throw Error(InvalidArgument) listing the accepted names.
Interp parse_interp(std::string_view s);
Border parse_border(std::string_view s);
Precision parse_precision(std::string_view s);
Path parse_path(std::string_view s);

// How a source is sampled outside and between its pixels.
struct Sampling {
  Interp interp = Interp::linear;
  Border border = Border::constant;
  std::array<double, 4> border_value{0, 0, 0, 0};  // per channel, for Border::constant
  Precision precision = Precision::automatic;
  Path path = Path::automatic;
};

}  // namespace texcv
