// Geometric operations: resize, warp_affine, warp_perspective, rotate, remap, flip, crop.
//
// Every operation reads src and writes dst; dst must already have the output size and the same
// element type and channel count as src. Both views must be in the same location: host views
// run on the CPU backend, device views on the CUDA backend (queued on `stream`, a cudaStream_t;
// nullptr is the default stream). Outputs may not overlap inputs.
//
// Supported: u8, u16, f32 x 1, 3, 4 channels; all five border modes. Semantics follow OpenCV's
// pixel-centre convention (docs/conventions.md).
#pragma once

#include <array>

#include "texcv/image.hpp"

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

// resize: two forms of mapping, as cv::resize's two forms.
// - The size form (fx = fy = 0, the default; cv::resize(src, dst, dsize)): dst pixel x samples
//   src at (x + 0.5) * src_w / dst_w - 0.5.
// - The factor form (fx, fy > 0; cv::resize(src, dst, Size(), fx, fy)): dst pixel x samples src
//   at (x + 0.5) / fx - 0.5 (Interp::area: cells of 1 / fx source pixels), and dst must have the
//   size cv::resize gives, resized_size(src_w, src_h, fx, fy) (round(size * factor), ties to
//   even). cv::resize ignores the factors when it is also given a dsize; texcv refuses a dst of
//   another size instead (Error InvalidArgument), so the factors always mean what they mean to
//   cv::resize(src, dst, Size(), fx, fy). The two differ where size * factor is not whole (odd
//   sides at 0.5: up to ~100 u8 levels). Each axis is independent: fx > 0 with fy = 0 maps x
//   by the factor and y by the size ratio. As cv::resize, a dst of the source's size is a copy
//   whatever the factors (both forms sample at the pixel centres then).
// With align_corners dst pixel x samples x * (src_w - 1) / (dst_w - 1) in both forms (the
// factors then only check dst's size). Interp::area averages the covered source pixels when
// shrinking (cv::INTER_AREA; a last cell past the edge averages the pixels that exist).
// Interp::nearest takes the pixel whose centre is nearest to (x + 0.5) * src_w / dst_w - 0.5,
// computed in 16.16 fixed point exactly as cv::INTER_NEAREST_EXACT (ties take the lower pixel;
// docs/conventions.md); like INTER_NEAREST_EXACT it uses the sizes in both forms, never the
// factors. The default border is replicate, as cv::resize.
struct ResizeParams {
  Interp interp = Interp::linear;
  bool align_corners = false;
  Border border = Border::replicate;
  std::array<double, 4> border_value{0, 0, 0, 0};
  Precision precision = Precision::automatic;
  Path path = Path::automatic;
  // The factor form: horizontal and vertical scale factors (finite, > 0); 0: that axis uses the
  // size ratio dst / src.
  double fx = 0, fy = 0;
};
void resize(const ImageView& src, const ImageView& dst, const ResizeParams& p = {},
            void* stream = nullptr);
// The output size of cv::resize(src, dst, Size(), fx, fy) for a width x height source:
// round(width * fx) x round(height * fy), ties to even (cvRound), at (0, 0). Throws Error
// (InvalidArgument) for a size < 1, a factor that is not finite and > 0, or a result below 1 or
// above INT_MAX.
Rect resized_size(int width, int height, double fx, double fy);

// warp_affine: as cv::warpAffine. m is the 2x3 matrix row-major; it maps source to
// destination coordinates unless inverse_map says it already maps destination to source.
// Interp::area is not supported.
void warp_affine(const ImageView& src, const ImageView& dst, const std::array<double, 6>& m,
                 bool inverse_map = false, const Sampling& s = {}, void* stream = nullptr);

// warp_perspective: as cv::warpPerspective with a 3x3 row-major matrix.
void warp_perspective(const ImageView& src, const ImageView& dst, const std::array<double, 9>& m,
                      bool inverse_map = false, const Sampling& s = {}, void* stream = nullptr);

// rotate: angle in degrees, counter-clockwise, about the source centre ((w-1)/2, (h-1)/2), as
// cv::getRotationMatrix2D. The source centre lands on the destination centre, so a dst of the
// source's size keeps the size, and a dst of rotated_size(..., expand=true) holds the whole image.
void rotate(const ImageView& src, const ImageView& dst, double angle_deg, const Sampling& s = {},
            void* stream = nullptr);
// The output size of rotate: the source size, or with expand the bounding box of the rotated
// image (rounded up, as OpenCV users compute it).
Rect rotated_size(int width, int height, double angle_deg, bool expand);
// The 2x3 source-to-destination matrix rotate uses.
std::array<double, 6> rotation_matrix(int src_w, int src_h, int dst_w, int dst_h, double angle_deg);

// remap: dst(x, y) = src(map_x(x, y), map_y(x, y)), as cv::remap with two float maps.
// map_x and map_y are 1-channel f32 views of dst's size in the same location as src.
void remap(const ImageView& src, const ImageView& dst, const ImageView& map_x,
           const ImageView& map_y, const Sampling& s = {}, void* stream = nullptr);

enum class FlipCode : std::uint8_t { horizontal, vertical, both };
const char* to_string(FlipCode v) noexcept;
FlipCode parse_flip(std::string_view s);
// flip: as cv::flip (horizontal mirrors left-right, vertical top-bottom). dst is src's size.
void flip(const ImageView& src, const ImageView& dst, FlipCode code, void* stream = nullptr);

// crop: copies the rectangle r of src into dst (of r's size). r must lie inside src.
// (For a view without a copy use ImageView::roi.)
void crop(const ImageView& src, const ImageView& dst, const Rect& r, void* stream = nullptr);

}  // namespace texcv
