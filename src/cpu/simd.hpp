// The CPU backend's loops in SIMD vectors of Google Highway, with run-time dispatch: one binary
// carries them for several instruction sets (SSE4, AVX2, AVX-512; NEON on ARM) and runs the
// widest the CPU has. Each simd_<op>.cpp is compiled once per target (foreach_target.h). Every
// function here gives the same results on every target (exact operations only), and returns
// false, writing nothing, where it does not apply (built without Highway, TEXCV_HAS_HWY unset;
// a row shorter than one vector; a case it does not cover): the caller then runs its plain loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "texcv/geometry.hpp"

namespace texcv::cpu::simd {

// median_blur's 3x3 and 5x5 windows (simd_median_blur.cpp): each vector holds one lane per output
// element. 5x5: the k * k window values of a lane sit in 25 vectors kept in registers while the
// comparator network of median_networks.hpp runs; 3x3: sorted columns. Min and max are exact
// (f32 compares the order key of texcv::detail::float_key as a signed integer: the same total
// order).
// The median of each ksize x ksize window (ksize 3 or 5) for the row elements [lo, hi): rows[j]
// is the source row of window row j (border rows already chosen), elements are flat (pixel x,
// channel c at x * channels + c), and element e's window is rows[j][e + (i - ksize / 2) *
// channels], i, j < ksize, so every index must lie inside its row. Writes out[lo, hi). Returns
// false, writing nothing, when the range is shorter than one vector or ksize is not 3 or 5.
bool median_row(int ksize, const std::uint8_t* const* rows, int channels, int lo, int hi,
                std::uint8_t* out);
bool median_row(int ksize, const std::uint16_t* const* rows, int channels, int lo, int hi,
                std::uint16_t* out);
bool median_row(int ksize, const float* const* rows, int channels, int lo, int hi, float* out);

// flip's horizontal mirror of one row (simd_flip.cpp): d[x] = s[w - 1 - x] for w pixels of
// pixel_bytes bytes (1, 2, 4 or 8: one vector lane per pixel).
bool mirror_row(const unsigned char* s, unsigned char* d, int w, std::size_t pixel_bytes);

// resize's nearest rows (simd_flip.cpp): d[x] = s[xi[x]] for w pixels of pixel_bytes bytes (1, 2
// or 4), s holding src_width pixels, with 32-bit gathers on the x86 targets that have them (AVX2,
// AVX-512). Pixels of 1 and 2 bytes are read 4 bytes at a time: a vector whose reads would pass
// the row's end is left to the plain loop. Returns how many leading pixels it wrote (0: none).
int gather_row(const unsigned char* s, int src_width, const int* xi, unsigned char* d, int w,
               std::size_t pixel_bytes);

// resize's nearest rows by byte shuffles (simd_flip.cpp): the row's leading 16-byte output blocks,
// each made from `loads` 16-byte loads at src[b], src[b] + 16, ... (1 while enlarging; up to 4,
// e.g. a 0.3x shrink of 1-byte pixels spans about 54 source bytes a block): one byte shuffle of
// each load (ctl: 16 indices a load, 0x80 for bytes another load gives), ORed. shuffle_plan
// builds it once a call from the column table xi (w pixels of pixel_bytes = 1, 2, 4, 8 or 16
// bytes; the source row holds src_width pixels), block by block from the row's start, and stops
// at the first block whose pixels lie more than 4 loads apart or whose loads would pass the row's
// end. shuffle_row writes d's planned blocks from the source row s and returns the pixels written
// (0 on a target without 16-byte shuffles, and built without Highway).
struct ShufflePlan {
  int loads = 1;
  std::vector<int> src;
  std::vector<std::uint8_t> ctl;  // [block][load][16]
};
ShufflePlan shuffle_plan(const int* xi, int w, int src_width, std::size_t pixel_bytes);
int shuffle_row(const unsigned char* s, const ShufflePlan& plan, unsigned char* d,
                std::size_t pixel_bytes);

// The separable filters' passes (simd_filter.cpp): acc[i] += kern[k] * src[k * step + i] for
// the taps k = 0 .. taps - 1 in order, zero taps skipped, i < n: the plain loop's floats (no
// fused multiply-add), each element's sum held in a register across the taps.
bool filter_taps_add(const float* src, std::size_t step, const float* kern, int taps, int n,
                     float* acc);

// convolve's output row (simd_filter.cpp): d[i] = detail::saturate(v * scale + delta) (f32: as
// is), v = 0 + kv[0] * src[0][i] + ... + kv[taps - 1] * src[taps - 1][i] in that order, i < n.
bool filter_taps_store(const float* const* src, const float* kv, int taps, int n, float scale,
                       float delta, std::uint8_t* d);
bool filter_taps_store(const float* const* src, const float* kv, int taps, int n, float scale,
                       float delta, std::uint16_t* d);
bool filter_taps_store(const float* const* src, const float* kv, int taps, int n, float scale,
                       float delta, float* d);

// The filters' output rows (simd_filter.cpp): d[i] = detail::saturate(acc[i] * scale + delta)
// (f32: as is), i < n.
bool scaled_store_row(const float* acc, int n, float scale, float delta, std::uint8_t* d);
bool scaled_store_row(const float* acc, int n, float scale, float delta, std::uint16_t* d);
bool scaled_store_row(const float* acc, int n, float scale, float delta, float* d);

// convert and normalize (simd_filter.cpp): o[i] = detail::saturate(float(s[i]) * a + b) (f32: as
// is), i < n, as color_pixel.hpp's px_convert; for the pairs of types below.
bool convert_row(const std::uint8_t* s, int n, float a, float b, std::uint8_t* o);
bool convert_row(const std::uint16_t* s, int n, float a, float b, std::uint16_t* o);
bool convert_row(const float* s, int n, float a, float b, std::uint8_t* o);
bool convert_row(const float* s, int n, float a, float b, std::uint16_t* o);
bool convert_row(const float* s, int n, float a, float b, float* o);

// unsharp_mask's combination of a row (simd_filter.cpp): o[i] = saturate(s[i] + amount * diff)
// where |diff| >= threshold (diff = s[i] - b[i], in float), else s[i]; i < n.
bool unsharp_row(const std::uint8_t* s, const std::uint8_t* b, std::uint8_t* o, int n, float amount,
                 float threshold);
bool unsharp_row(const std::uint16_t* s, const std::uint16_t* b, std::uint16_t* o, int n,
                 float amount, float threshold);
bool unsharp_row(const float* s, const float* b, float* o, int n, float amount, float threshold);

// cvt_color's rgb2gray / bgr2gray / rgba2gray / bgra2gray for one row of w pixels of `channels`
// (3 or 4) elements (simd_cvt_color.cpp): color_pixel.hpp's px_to_gray arithmetic.
bool to_gray_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels, bool bgr);
bool to_gray_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels, bool bgr);
bool to_gray_row(const float* s, float* d, int w, int channels, bool bgr);
// rgb2bgr / rgba2bgra (px_swap_rb; channels 3 or 4) and gray2rgb / gray2rgba (px_from_gray; the
// destination's channels 3 or 4) for one row of w pixels: elements moved, none computed.
bool swap_rb_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels);
bool swap_rb_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels);
bool swap_rb_row(const float* s, float* d, int w, int channels);
bool from_gray_row(const std::uint8_t* s, std::uint8_t* d, int w, int channels);
bool from_gray_row(const std::uint16_t* s, std::uint16_t* d, int w, int channels);
bool from_gray_row(const float* s, float* d, int w, int channels);

// The caller's plain per-pixel loop over n three-channel f32 pixels, to which the f32 rows below
// hand the vectors holding a value whose handling they do not reproduce lane by lane (non-finite
// values; negative zeros where fminf/fmaxf's choice between -0 and +0 would decide): run(ctx, s,
// d, n).
struct PlainPixels {
  void (*run)(const void* ctx, const float* s, float* d, int n);
  const void* ctx;
};
// The YUV codes (px_matrix; 3 channels): m[9], o[3] as ColorMatrix's, in float as px_matrix sums
// them (saturated as detail::saturate).
bool matrix_row(const std::uint8_t* s, std::uint8_t* d, int w, const float* m, const float* o);
bool matrix_row(const std::uint16_t* s, std::uint16_t* d, int w, const float* m, const float* o);
bool matrix_row(const float* s, float* d, int w, const float* m, const float* o,
                const PlainPixels& plain);
// rgb2hsv / bgr2hsv (px_to_hsv) and hsv2rgb / hsv2bgr (px_from_hsv), u8 and f32: the same float
// operations in the same order per lane (the branches as selects).
bool to_hsv_row(const std::uint8_t* s, std::uint8_t* d, int w, bool bgr);
bool to_hsv_row(const float* s, float* d, int w, bool bgr, const PlainPixels& plain);
bool from_hsv_row(const std::uint8_t* s, std::uint8_t* d, int w, bool bgr);
bool from_hsv_row(const float* s, float* d, int w, bool bgr, const PlainPixels& plain);

// resize's half-size 2x2 mean of u8/u16 rows (simd_resize.cpp): output pixel x of w (channels
// 1, 3 or 4) from pixels 2x and 2x + 1 of source rows a and b, rounded half to even.
bool half_mean_row(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* o, int w,
                   int channels);
bool half_mean_row(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* o, int w,
                   int channels);

// resize's two passes (simd_resize.cpp; resize.cpp's resize_separable). combine_rows: out[i] =
// the k (2 or 4) rows h[j][i] weighted by w[j] in order (k = 4: summed from 0), i < n, stored as
// detail::saturate (f32 as is). taps_row: for pixels [xa, xb) of one source row of `channels`
// (1, 3, 4) elements per pixel, h[x * channels + c] = the k taps srow[ix[j][x] * channels + c]
// (ix: pixel indices) weighted by wx[j][x] in order (k = 4: from 0); u8/u16 taps are read as
// 32-bit words, so that element and the 3 (u8) or 1 (u16) after it must be readable; row_n: the
// row's width in pixels (a vector may load pixels up to its end). The taps must rise with x and j
// (ix[j][x] <= ix[j'][x'] for j <= j', x <= x'), as resize's do before any border: a vector whose
// taps span fewer pixels than its lanes then loads them once and permutes lanes.
//
// TapBlocks: a shrink's taps of one channel read without gathers. Destination pixels go in groups
// of 4 (one 16-byte block of 4 floats); a group's taps come from L (1, 2 or 4) 16-byte loads of
// the source row, each serving 4 / L of its pixels, and tap k of the group is the OR of the L
// loads' byte shuffles ctl (pshufb: bytes 0x80 give 0), zero-extended to 32-bit lanes (u8, u16)
// or the float itself. plan_tap_blocks makes it once a call for [xa, xb) (taps rising with x);
// taps_row then computes the groups it covers with it (the same products in the same order) and
// the rest as before. No plan where no group fits (an enlargement keeps its lane permutations).
struct TapBlocks {
  int loads = 0;                  // L; 0: no plan
  int xa = 0;                     // the first group's first pixel
  int groups = 0;                 // groups of 4 pixels from xa
  std::vector<int> offset;        // [group][L]: each load's first element
  std::vector<std::uint8_t> ctl;  // [k][L][group][16]: the shuffle bytes
};
void plan_tap_blocks(TapBlocks& plan, int elem_bytes, int row_n, const int* const* ix, int k,
                     int xa, int xb);
bool combine_rows(const float* const* h, const float* w, int k, int n, std::uint8_t* out);
bool combine_rows(const float* const* h, const float* w, int k, int n, std::uint16_t* out);
bool combine_rows(const float* const* h, const float* w, int k, int n, float* out);
bool taps_row(const std::uint8_t* srow, int row_n, int channels, const int* const* ix,
              const float* const* wx, int k, int xa, int xb, float* h,
              const TapBlocks* plan = nullptr);
bool taps_row(const std::uint16_t* srow, int row_n, int channels, const int* const* ix,
              const float* const* wx, int k, int xa, int xb, float* h,
              const TapBlocks* plan = nullptr);
bool taps_row(const float* srow, int row_n, int channels, const int* const* ix,
              const float* const* wx, int k, int xa, int xb, float* h,
              const TapBlocks* plan = nullptr);

// The warps' bilinear sampling of a one-channel image (simd_warp.cpp): destination pixels
// [x0, x1) of row y, whose source positions m gives (affine: 2x3; perspective: 3x3, row-major,
// destination to source, as sampling.hpp's AffineMap / PerspectiveMap), sampled as
// sample_linear with border and border_value, stored as detail::saturate (f32: as is) to out[x].
struct WarpRow {
  const unsigned char* src;
  std::size_t pitch;
  int width, height;
  const double* m;
  bool perspective;
  int y, x0, x1;
  Border border;
  float border_value;
  const float* border_values = nullptr;  // per channel (warp_cubic_row)
};
bool warp_linear_row(const WarpRow& r, std::uint8_t* out);
bool warp_linear_row(const WarpRow& r, std::uint16_t* out);
bool warp_linear_row(const WarpRow& r, float* out);
// The warps' bicubic sampling of u8 images of 1, 3 or 4 channels (simd_warp.cpp): as
// warp_linear_row with sample_cubic and border_values; out[x * channels + c].
bool warp_cubic_row(const WarpRow& r, int channels, std::uint8_t* out);

// remap's bilinear sampling of a one-channel image (simd_warp.cpp): out[x] for x < n, the source
// sampled at (mx[x], my[x]) as sample_linear<float> with border and border_value, stored as
// detail::saturate (f32: as is).
struct RemapRow {
  const unsigned char* src;
  std::size_t pitch;
  int width, height;
  const float* mx;
  const float* my;
  int n;
  Border border;
  float border_value;
};
bool remap_linear_row(const RemapRow& r, std::uint8_t* out);
bool remap_linear_row(const RemapRow& r, std::uint16_t* out);
bool remap_linear_row(const RemapRow& r, float* out);

// erode/dilate (simd_morph.cpp): out[k] = pick(a[k], b[k]) for k < n, pick being min (max: the
// larger) with morph.cpp's semantics (b < a ? b : a; a NaN leaves a). out may be a.
bool pick_rows(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, int n, bool max);
bool pick_rows(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out, int n, bool max);
bool pick_rows(const float* a, const float* b, float* out, int n, bool max);

// bilateral_filter of a u8 row (simd_bilateral_filter.cpp), channels 1 or 3: out pixel x < w from
// the padded source, centre + x * channels being the pixel's own element and centre + x * channels
// + ofs[k] tap k's; the colour weight table[L1 distance], space[k], the sums in tap order and
// saturate(sum / wsum) as bilateral_filter.cpp's plain loop.
bool bilateral_row(const std::uint8_t* center, int channels, const long* ofs, const float* space,
                   int taps, const float* table, int w, std::uint8_t* out);

// gamma of f32 elements (simd_gamma.cpp): d[i] = copysign(detail::pow_rounded(|s[i]|, g), s[i]),
// i < n, g finite and > 0 (pow_rounded.hpp: |x|^g rounded to the nearest float, the same bits on
// every target). Returns false when n is shorter than one vector.
bool gamma_row(const float* s, float* d, int n, float g);

// The name of the Highway target the dispatch picks on this CPU (e.g. "AVX2"), or "none".
const char* simd_target();

// For tests: the targets compiled in that this CPU runs (empty without Highway), and
// simd_force_target(i) to make the dispatch use the i-th of them (-1: back to the best).
int simd_target_count();
const char* simd_target_name(int i);
void simd_force_target(int i);

}  // namespace texcv::cpu::simd
