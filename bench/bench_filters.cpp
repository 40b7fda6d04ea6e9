// bench_filters: times texcv's filters, morphology and colour / intensity operations on the GPU
// through the public API on device images, for every linear filter on every access path
// (FilterBorder::path: global, shared, texture, automatic), next to NVIDIA NPP (same process,
// same buffers) and a device-to-device copy of the same image (the memory floor).
//
// Method: bench/harness.hpp (CUDA events, warm-up, median of --reps, buffers rotated so that
// >= 256 MB is touched between two uses of one buffer, copy floor in the same process). Bytes
// counted: the input read once plus the output written once (a 3x3 filter's nine taps count as
// one read: %copy says how close an op comes to pure data movement).
//
// Configurations (8192x8192 each; --quick: 2048x2048): f32x1 and u8x1 run every filter (u8x1
// also convert u8 -> f32, equalize_hist and clahe), u8x4 a reduced set, u8x3 the colour
// conversions (RGB -> gray, RGB -> YUV BT.601) plus convolve 3x3 and gamma.
//
// texcv ops (defaults unless said): convolve 3x3 (the sharpen kernel [0 -1 0; -1 5 -1; 0 -1 0])
// and 5x5 (binomial [1 4 6 4 1]^2 / 256), gaussian_blur sigma 2 (ksize derived by texcv:
// 17x17 f32, 13x13 u8), box_filter 5x5, sobel dx=1 ksize 3, sharpen, unsharp_mask (sigma 1),
// median_blur 3x3 and 5x5, bilateral_filter d=5 (sigma_color 25 u8 / 0.1 f32, sigma_space 2),
// erode 3x3 rect, dilate 5x5 ellipse, cvt_color rgb2gray and rgb2yuv_bt601, gamma 2.2,
// threshold binary, convert u8 -> f32 * 1/255, normalize minmax, equalize_hist, clahe. The
// linear filters and bilateral run on every path (explicit paths the library does not have yet
// give "n/a" rows with its message); the others run once (path "-"). Ops not on the CUDA backend
// yet give "n/a" rows (Unsupported), never a crash.
//
// NPP peers (13.x, _Ctx): nppiFilterBorder (replicate; u8: integer kernel + divisor) and, as an
// extra row (path "noborder"), nppiFilter on the interior (NPP's no-border functions read
// outside their ROI); nppiFilterGaussBorder with NPP's fixed 13x13 mask (its own sigma: timed,
// not compared); nppiFilterBoxBorder; nppiFilterSobelVertBorder (the x derivative);
// nppiFilterSharpenBorder (NPP's own kernel: not compared); nppiFilterMedian on the interior
// with its scratch buffer; nppiFilterBilateralGaussBorder; nppiErode3x3Border, nppiDilateBorder
// with the ellipse mask; nppiRGBToGray; nppiRGBToYCbCr (limited range: not compared);
// nppiLUTPalette with texcv's gamma table; nppiThreshold_LTValGTVal; nppiScale_8u32f (and
// nppiConvert_8u32f without the scale, not compared). No single NPP call does unsharp_mask,
// normalize, equalize_hist or clahe: those rows say so. Every NPP border is replicate; texcv
// runs with its defaults (reflect101 for the linear filters), so the sampled comparison leaves
// out a margin of the kernel radius (at least 4 pixels) at the edges.
//
// path=auto's choice is printed from the CUDA backend's rule (choose_stencil_path in
// src/cuda/ops/common/path_rule.hpp, assuming the shared tile fits; see filter_auto_choice).
//
// Usage: bench_filters [--quick] [--filter S[,S...]] [--config NAME[,NAME...]] [--out FILE.json]
//                      [--csv FILE.csv] [--reps N] [--warmup N] [--budget SECONDS] [--no-npp]
//                      [--list] [--selftest]
// --selftest writes made-up rows (no GPU needed) to check the writers and bench/summarize.py.
// Exit codes: 0 done (rows may carry errors), 1 bad arguments or setup failure, 2 no GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "texcv/color.hpp"
#include "texcv/error.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"
#include "texcv/morphology.hpp"

#if defined(TEXCV_BENCH_HAS_NPP)
#include <nppcore.h>
#include <nppdefs.h>
#include <nppi_color_conversion.h>
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#include <nppi_morphological_operations.h>
#include <nppi_threshold_and_compare_operations.h>
#endif

// Which path path=automatic takes for a linear filter, when the CUDA backend exposes its rule
// (choose_stencil_path in src/cuda/ops/common/path_rule.hpp).
#if __has_include("src/cuda/ops/common/path_rule.hpp") && \
                  __has_include("src/cuda/ops/filter/filter_launch.hpp")
#include "src/cuda/ops/common/path_rule.hpp"
#include "src/cuda/ops/filter/filter_launch.hpp"
#define TEXCV_BENCH_HAS_FILTER_RULE 1
#endif

namespace {

using namespace texcv_bench;
using texcv::ElemType;
using texcv::ImageView;
using texcv::Path;

std::vector<Config> all_configs(bool quick) {
  const int n = quick ? 2048 : 8192;
  return {{"f32x1", n, n, 1, ElemType::f32, true},
          {"u8x1", n, n, 1, ElemType::u8, true},
          {"u8x4", n, n, 4, ElemType::u8, false},
          {"u8x3", n, n, 3, ElemType::u8, false}};
}

// One op variant: how texcv runs it (with a path when has_paths) and its peers.
struct OpSpec {
  std::string op, params;
  bool has_paths = false;
  int kernel_w = 1, kernel_h = 1;  // for the comparison margin and the path rule
  int out_channels = 0;            // 0: the input's
  std::optional<ElemType> out_type;
  std::function<void(const ImageView&, const ImageView&, Path, cudaStream_t)> texcv;
  std::vector<Peer> peers;
  std::string no_peer;  // why there is no peer ("" : the default note)
};

// What path=automatic picks for this op: the backend's rule for 2-D kernels (convolve,
// sharpen) or separable pairs (gaussian_blur, box_filter, sobel, unsharp_mask's blur), with the
// benchmark's centred anchors, assuming the shared-memory tile fits (it does for these kernels
// of at most 17x17 on the H200); "" for ops outside the rule (bilateral_filter).
std::string filter_auto_choice(const OpSpec& spec, const ImageView& src) {
#if defined(TEXCV_BENCH_HAS_FILTER_RULE)
  using texcv::cuda::ops::StencilKind;
  namespace ops = texcv::cuda::ops;
  StencilKind kind;
  bool reg = false;
  const int kw = spec.kernel_w, kh = spec.kernel_h;
  if (spec.op == "convolve" || spec.op == "sharpen") {
    kind = StencilKind::filter_2d;
    reg = ops::filter_2d_vec_applies(kw, kh, kw / 2, kh / 2);
  } else if (spec.op == "gaussian_blur" || spec.op == "box_filter" || spec.op == "sobel" ||
             spec.op == "unsharp_mask") {
    kind = StencilKind::separable;
    reg = ops::sep_vec_applies(kw, kh, kw / 2, kh / 2, src.type, spec.out_type.value_or(src.type));
  } else {
    return "";
  }
  try {
    return path_name(ops::choose_stencil_path(kind, src.type, src.channels, reg, true));
  } catch (const std::exception& e) {
    return std::string("? (") + shorten(e.what(), 30) + ")";
  }
#else
  (void)spec;
  (void)src;
  return "";
#endif
}

// texcv's derived Gaussian size (include/texcv/filters.hpp): round(sigma * 4 * 2 + 1) | 1, with
// sigma * 3 for u8.
int gaussian_size(double sigma, ElemType t) {
  return static_cast<int>(std::lround(sigma * (t == ElemType::u8 ? 3 : 4) * 2 + 1)) | 1;
}

const std::vector<float> kSharpen3 = {0, -1, 0, -1, 5, -1, 0, -1, 0};

std::vector<int> binomial5i() {
  const int b[5] = {1, 4, 6, 4, 1};
  std::vector<int> k(25);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) k[static_cast<std::size_t>(y * 5 + x)] = b[y] * b[x];
  return k;
}

#if defined(TEXCV_BENCH_HAS_NPP)
const std::vector<int> kSharpen3i = {0, -1, 0, -1, 5, -1, 0, -1, 0};

// texcv's u8 gamma table: 255 * (i / 255)^gamma rounded half to even.
std::vector<std::uint8_t> gamma_table(double g) {
  std::vector<std::uint8_t> t(256);
  for (int i = 0; i < 256; ++i)
    t[static_cast<std::size_t>(i)] =
        static_cast<std::uint8_t>(std::nearbyint(255.0 * std::pow(i / 255.0, g)));
  return t;
}

template <typename T>
const T* cptr(const ImageView& v) {
  return static_cast<const T*>(v.data);
}
template <typename T>
T* mptr(const ImageView& v) {
  return static_cast<T*>(v.data);
}
#define NPP_RUN(fn, ...) npp_warn_note(npp_check(fn(__VA_ARGS__), #fn))
constexpr NppiPoint kOrigin{0, 0};
constexpr NppiBorderType kReplicate = NPP_BORDER_REPLICATE;

// The interior of a view, `r` pixels in from every edge (NPP's no-border functions read r
// pixels around their ROI).
ImageView interior(const ImageView& v, int r) {
  return v.roi({r, r, v.width - 2 * r, v.height - 2 * r});
}

// NPP peers for the configuration's type and channels; empty when NPP has no such function.
struct NppPeers {
  NppStreamContext ctx;
  ElemType t;
  int c;
  bool f32() const { return t == ElemType::f32 && c == 1; }
  bool u8(int ch) const { return t == ElemType::u8 && c == ch; }

  // nppiFilterBorder (replicate) and nppiFilter on the interior, with the kernel of side k:
  // float coefficients for f32, integers and a divisor for u8.
  std::vector<Peer> convolve(int k, const std::vector<float>& kf, const std::vector<int>& ki,
                             int divisor) const {
    std::vector<Peer> out;
    if (!f32() && !u8(1) && !u8(3) && !u8(4)) return out;
    const NppiSize ks{k, k};
    const NppiPoint anchor{k / 2, k / 2};
    const int r = k / 2;
    auto x = ctx;
    Peer border, plain;
    border.name = "nppiFilterBorder replicate";
    plain.name = "nppiFilter (interior, no border)";
    plain.path = "noborder";
    if (f32()) {
      // NPP applies the kernel reversed (a convolution): the kernels here are symmetric.
      auto dk = device_upload(kf.data(), kf.size() * sizeof(float));
      border.run = [dk, ks, anchor, x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp32f>(b), nstep(b), nsize(b), static_cast<const Npp32f*>(dk.get()),
                       ks, anchor, kReplicate, x);
      };
      plain.run = [dk, ks, anchor, r, x](const ImageView& a, const ImageView& b, cudaStream_t) {
        const ImageView ai = interior(a, r), bi = interior(b, r);
        return NPP_RUN(nppiFilter_32f_C1R_Ctx, cptr<Npp32f>(ai), nstep(ai), mptr<Npp32f>(bi),
                       nstep(bi), nsize(bi), static_cast<const Npp32f*>(dk.get()), ks, anchor, x);
      };
    } else {
      auto dk = device_upload(ki.data(), ki.size() * sizeof(int));
      const int ch = c;
      border.run = [dk, ks, anchor, divisor, ch, x](const ImageView& a, const ImageView& b,
                                                    cudaStream_t) {
        const auto* kp = static_cast<const Npp32s*>(dk.get());
        if (ch == 1)
          return NPP_RUN(nppiFilterBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                         mptr<Npp8u>(b), nstep(b), nsize(b), kp, ks, anchor, divisor, kReplicate,
                         x);
        if (ch == 3)
          return NPP_RUN(nppiFilterBorder_8u_C3R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                         mptr<Npp8u>(b), nstep(b), nsize(b), kp, ks, anchor, divisor, kReplicate,
                         x);
        return NPP_RUN(nppiFilterBorder_8u_C4R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp8u>(b), nstep(b), nsize(b), kp, ks, anchor, divisor, kReplicate, x);
      };
      plain.run = [dk, ks, anchor, divisor, ch, r, x](const ImageView& a, const ImageView& b,
                                                      cudaStream_t) {
        const auto* kp = static_cast<const Npp32s*>(dk.get());
        const ImageView ai = interior(a, r), bi = interior(b, r);
        if (ch == 1)
          return NPP_RUN(nppiFilter_8u_C1R_Ctx, cptr<Npp8u>(ai), nstep(ai), mptr<Npp8u>(bi),
                         nstep(bi), nsize(bi), kp, ks, anchor, divisor, x);
        if (ch == 3)
          return NPP_RUN(nppiFilter_8u_C3R_Ctx, cptr<Npp8u>(ai), nstep(ai), mptr<Npp8u>(bi),
                         nstep(bi), nsize(bi), kp, ks, anchor, divisor, x);
        return NPP_RUN(nppiFilter_8u_C4R_Ctx, cptr<Npp8u>(ai), nstep(ai), mptr<Npp8u>(bi),
                       nstep(bi), nsize(bi), kp, ks, anchor, divisor, x);
      };
    }
    out.push_back(std::move(border));
    out.push_back(std::move(plain));
    return out;
  }

  std::vector<Peer> gauss13() const {
    Peer p;
    p.name = "nppiFilterGaussBorder 13x13 replicate";
    p.comparable = false;
    p.caveat = "NPP's fixed 13x13 mask and sigma, not texcv's kernel: not compared";
    auto x = ctx;
    const int ch = c;
    if (f32()) {
      p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterGaussBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp32f>(b), nstep(b), nsize(b), NPP_MASK_SIZE_13_X_13,
                       kReplicate, x);
      };
    } else if (u8(1) || u8(3) || u8(4)) {
      p.run = [x, ch](const ImageView& a, const ImageView& b, cudaStream_t) {
        if (ch == 1)
          return NPP_RUN(nppiFilterGaussBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a),
                         kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), NPP_MASK_SIZE_13_X_13,
                         kReplicate, x);
        if (ch == 3)
          return NPP_RUN(nppiFilterGaussBorder_8u_C3R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a),
                         kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), NPP_MASK_SIZE_13_X_13,
                         kReplicate, x);
        return NPP_RUN(nppiFilterGaussBorder_8u_C4R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), NPP_MASK_SIZE_13_X_13,
                       kReplicate, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  std::vector<Peer> box(int k) const {
    Peer p;
    p.name = "nppiFilterBoxBorder replicate";
    const NppiSize ks{k, k};
    const NppiPoint anchor{k / 2, k / 2};
    auto x = ctx;
    const int ch = c;
    if (f32()) {
      p.run = [ks, anchor, x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterBoxBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp32f>(b), nstep(b), nsize(b), ks, anchor, kReplicate, x);
      };
    } else if (u8(1) || u8(4)) {
      p.run = [ks, anchor, x, ch](const ImageView& a, const ImageView& b, cudaStream_t) {
        if (ch == 1)
          return NPP_RUN(nppiFilterBoxBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a),
                         kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), ks, anchor, kReplicate, x);
        return NPP_RUN(nppiFilterBoxBorder_8u_C4R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp8u>(b), nstep(b), nsize(b), ks, anchor, kReplicate, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  std::vector<Peer> sobel_dx() const {
    Peer p;
    p.name = "nppiFilterSobelVertBorder replicate";
    auto x = ctx;
    if (f32()) {
      p.caveat = "NPP's sign convention may be the opposite";
      p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterSobelVertBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp32f>(b), nstep(b), nsize(b), kReplicate, x);
      };
    } else if (u8(1)) {
      p.comparable = false;
      p.caveat = "NPP's 8u output convention differs from a saturated dx: not compared";
      p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterSobelVertBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), kReplicate, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  std::vector<Peer> sharpen() const {
    Peer p;
    p.name = "nppiFilterSharpenBorder replicate";
    p.comparable = false;
    p.caveat = "NPP's own sharpen kernel: not compared";
    auto x = ctx;
    if (f32()) {
      p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterSharpenBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp32f>(b), nstep(b), nsize(b), kReplicate, x);
      };
    } else if (u8(1)) {
      p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterSharpenBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a),
                       kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), kReplicate, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  // nppiFilterMedian on the interior (NPP's median has no border), scratch buffer sized once.
  std::vector<Peer> median(int k, int w, int h) const {
    if (!f32() && !u8(1) && !u8(4)) return {};
    const int r = k / 2;
    const NppiSize ks{k, k}, roi{w - 2 * r, h - 2 * r};
    const NppiPoint anchor{r, r};
    Npp32u size = 0;
    if (f32())
      npp_check(nppiFilterMedianGetBufferSize_32f_C1R_Ctx(roi, ks, &size, ctx),
                "nppiFilterMedianGetBufferSize");
    else if (c == 1)
      npp_check(nppiFilterMedianGetBufferSize_8u_C1R_Ctx(roi, ks, &size, ctx),
                "nppiFilterMedianGetBufferSize");
    else
      npp_check(nppiFilterMedianGetBufferSize_8u_C4R_Ctx(roi, ks, &size, ctx),
                "nppiFilterMedianGetBufferSize");
    auto buf = device_alloc(size);
    Peer p;
    p.name = "nppiFilterMedian (interior, no border)";
    auto x = ctx;
    const int ch = c;
    const bool f = f32();
    p.run = [buf, ks, anchor, r, x, ch, f](const ImageView& a, const ImageView& b, cudaStream_t) {
      const ImageView ai = interior(a, r), bi = interior(b, r);
      auto* sb = static_cast<Npp8u*>(buf.get());
      if (f)
        return NPP_RUN(nppiFilterMedian_32f_C1R_Ctx, cptr<Npp32f>(ai), nstep(ai), mptr<Npp32f>(bi),
                       nstep(bi), nsize(bi), ks, anchor, sb, x);
      if (ch == 1)
        return NPP_RUN(nppiFilterMedian_8u_C1R_Ctx, cptr<Npp8u>(ai), nstep(ai), mptr<Npp8u>(bi),
                       nstep(bi), nsize(bi), ks, anchor, sb, x);
      return NPP_RUN(nppiFilterMedian_8u_C4R_Ctx, cptr<Npp8u>(ai), nstep(ai), mptr<Npp8u>(bi),
                     nstep(bi), nsize(bi), ks, anchor, sb, x);
    };
    return {p};
  }

  std::vector<Peer> bilateral(int radius, double sigma_color, double sigma_space) const {
    Peer p;
    p.name = "nppiFilterBilateralGaussBorder replicate";
    p.caveat = "NPP's weights, not OpenCV's";
    auto x = ctx;
    const Npp32f vs = static_cast<Npp32f>(sigma_color * sigma_color);
    const Npp32f ps = static_cast<Npp32f>(sigma_space * sigma_space);
    if (f32()) {
      p.run = [x, radius, vs, ps](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterBilateralGaussBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a),
                       nsize(a), kOrigin, mptr<Npp32f>(b), nstep(b), nsize(b), radius, 1, vs, ps,
                       kReplicate, x);
      };
    } else if (u8(1)) {
      p.run = [x, radius, vs, ps](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiFilterBilateralGaussBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a),
                       nsize(a), kOrigin, mptr<Npp8u>(b), nstep(b), nsize(b), radius, 1, vs, ps,
                       kReplicate, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  std::vector<Peer> erode3() const {
    Peer p;
    p.name = "nppiErode3x3Border replicate";
    auto x = ctx;
    const int ch = c;
    if (f32()) {
      p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiErode3x3Border_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp32f>(b), nstep(b), nsize(b), kReplicate, x);
      };
    } else if (u8(1) || u8(4)) {
      p.run = [x, ch](const ImageView& a, const ImageView& b, cudaStream_t) {
        if (ch == 1)
          return NPP_RUN(nppiErode3x3Border_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                         mptr<Npp8u>(b), nstep(b), nsize(b), kReplicate, x);
        return NPP_RUN(nppiErode3x3Border_8u_C4R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp8u>(b), nstep(b), nsize(b), kReplicate, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  std::vector<Peer> dilate(const texcv::StructuringElement& se) const {
    if (!f32() && !u8(1) && !u8(4)) return {};
    auto mask = device_upload(se.values.data(), se.values.size());
    const NppiSize ks{se.width, se.height};
    const NppiPoint anchor{se.width / 2, se.height / 2};
    Peer p;
    p.name = "nppiDilateBorder replicate";
    auto x = ctx;
    const int ch = c;
    const bool f = f32();
    p.run = [mask, ks, anchor, x, ch, f](const ImageView& a, const ImageView& b, cudaStream_t) {
      const auto* m = static_cast<const Npp8u*>(mask.get());
      if (f)
        return NPP_RUN(nppiDilateBorder_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp32f>(b), nstep(b), nsize(b), m, ks, anchor, kReplicate, x);
      if (ch == 1)
        return NPP_RUN(nppiDilateBorder_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                       mptr<Npp8u>(b), nstep(b), nsize(b), m, ks, anchor, kReplicate, x);
      return NPP_RUN(nppiDilateBorder_8u_C4R_Ctx, cptr<Npp8u>(a), nstep(a), nsize(a), kOrigin,
                     mptr<Npp8u>(b), nstep(b), nsize(b), m, ks, anchor, kReplicate, x);
    };
    return {p};
  }

  // nppiLUTPalette with texcv's u8 gamma table (one table per channel for 3 and 4 channels).
  std::vector<Peer> gamma(double g) const {
    if (!u8(1) && !u8(3) && !u8(4)) return {};
    const std::vector<std::uint8_t> table = gamma_table(g);
    auto dt = device_upload(table.data(), table.size());
    Peer p;
    p.name = "nppiLUTPalette (texcv's table)";
    auto x = ctx;
    const int ch = c;
    p.run = [dt, x, ch](const ImageView& a, const ImageView& b, cudaStream_t) {
      const auto* t = static_cast<const Npp8u*>(dt.get());
      const Npp8u* tables[4] = {t, t, t, t};
      if (ch == 1)
        return NPP_RUN(nppiLUTPalette_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp8u>(b),
                       nstep(b), nsize(a), t, 8, x);
      if (ch == 3)
        return NPP_RUN(nppiLUTPalette_8u_C3R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp8u>(b),
                       nstep(b), nsize(a), tables, 8, x);
      return NPP_RUN(nppiLUTPalette_8u_C4R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp8u>(b), nstep(b),
                     nsize(a), tables, 8, x);
    };
    return {p};
  }

  // threshold binary: below thresh + 1 (u8) or just above thresh (f32) -> 0, above -> maxval.
  std::vector<Peer> threshold(double thresh, double maxval) const {
    Peer p;
    p.name = "nppiThreshold_LTValGTVal";
    auto x = ctx;
    if (f32()) {
      const Npp32f t = static_cast<Npp32f>(thresh);
      const Npp32f lt = std::nextafter(t, 2 * t + 1), mv = static_cast<Npp32f>(maxval);
      p.run = [x, t, lt, mv](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiThreshold_LTValGTVal_32f_C1R_Ctx, cptr<Npp32f>(a), nstep(a),
                       mptr<Npp32f>(b), nstep(b), nsize(a), lt, 0.0f, t, mv, x);
      };
    } else if (u8(1)) {
      const Npp8u t = static_cast<Npp8u>(thresh), mv = static_cast<Npp8u>(maxval);
      p.run = [x, t, mv](const ImageView& a, const ImageView& b, cudaStream_t) {
        return NPP_RUN(nppiThreshold_LTValGTVal_8u_C1R_Ctx, cptr<Npp8u>(a), nstep(a),
                       mptr<Npp8u>(b), nstep(b), nsize(a), static_cast<Npp8u>(t + 1), Npp8u{0}, t,
                       mv, x);
      };
    } else {
      return {};
    }
    return {p};
  }

  std::vector<Peer> convert_u8_f32() const {
    if (!u8(1)) return {};
    auto x = ctx;
    Peer scale, plain;
    scale.name = "nppiScale_8u32f [0, 1]";
    scale.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
      return NPP_RUN(nppiScale_8u32f_C1R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp32f>(b), nstep(b),
                     nsize(a), 0.0f, 1.0f, x);
    };
    plain.name = "nppiConvert_8u32f";
    plain.path = "noscale";
    plain.comparable = false;
    plain.caveat = "no scale: not compared";
    plain.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
      return NPP_RUN(nppiConvert_8u32f_C1R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp32f>(b), nstep(b),
                     nsize(a), x);
    };
    return {scale, plain};
  }

  std::vector<Peer> rgb2gray() const {
    if (!u8(3)) return {};
    Peer p;
    p.name = "nppiRGBToGray";
    auto x = ctx;
    p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
      return NPP_RUN(nppiRGBToGray_8u_C3C1R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp8u>(b), nstep(b),
                     nsize(a), x);
    };
    return {p};
  }

  std::vector<Peer> rgb2yuv() const {
    if (!u8(3)) return {};
    Peer p;
    p.name = "nppiRGBToYCbCr";
    p.comparable = false;
    p.caveat = "BT.601 limited range (texcv: full range): not compared";
    auto x = ctx;
    p.run = [x](const ImageView& a, const ImageView& b, cudaStream_t) {
      return NPP_RUN(nppiRGBToYCbCr_8u_C3R_Ctx, cptr<Npp8u>(a), nstep(a), mptr<Npp8u>(b), nstep(b),
                     nsize(a), x);
    };
    return {p};
  }
};
#endif

struct Runner : RunnerBase {
  void run_config(const Config& cfg);
  std::vector<OpSpec> make_specs(const Config& cfg);
};

std::vector<OpSpec> Runner::make_specs(const Config& cfg) {
  const ElemType t = cfg.type;
  const int c = cfg.channels;
  const bool f32 = t == ElemType::f32;
  const bool full = cfg.full_ops;  // f32x1, u8x1
  const bool four = c == 4;        // u8x4: the reduced set
  const bool rgb = c == 3;         // u8x3: colour + convolve 3x3 + gamma
  const double vmax = f32 ? 1.0 : 255.0;
  auto vs = [](cudaStream_t s) { return static_cast<void*>(s); };
  auto fb = [](Path p) {
    texcv::FilterBorder b;
    b.path = p;
    return b;
  };
#if defined(TEXCV_BENCH_HAS_NPP)
  std::optional<NppPeers> np;
  if (npp) np = NppPeers{npp_ctx, t, c};
  // Builds a peer list, or records why it could not be built (the row says so).
  std::string peer_error;
  auto peers = [&](const std::function<std::vector<Peer>(const NppPeers&)>& f) {
    if (!np) return std::vector<Peer>{};
    try {
      return f(*np);
    } catch (const std::exception& e) {
      peer_error = std::string("NPP setup failed: ") + e.what();
      return std::vector<Peer>{};
    }
  };
#endif
  std::vector<OpSpec> specs;
  auto add = [&](OpSpec s) {
#if defined(TEXCV_BENCH_HAS_NPP)
    if (s.peers.empty() && !peer_error.empty() && s.no_peer.empty()) s.no_peer = peer_error;
    peer_error.clear();
#endif
    specs.push_back(std::move(s));
  };

  // Linear filters, on every path.
  {
    OpSpec s;
    s.op = "convolve";
    s.params = "3x3 sharpen kernel";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = 3;
    s.texcv = [vs, fb](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::ConvolveParams cp;
      cp.border = fb(p);
      texcv::convolve(a, b, texcv::Kernel{3, 3, kSharpen3}, cp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.convolve(3, kSharpen3, kSharpen3i, 1); });
#endif
    add(std::move(s));
  }
  if (full || four) {
    OpSpec s;
    s.op = "convolve";
    s.params = "5x5 binomial";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = 5;
    const std::vector<int> ki = binomial5i();
    std::vector<float> kf(ki.size());
    for (std::size_t i = 0; i < ki.size(); ++i) kf[i] = static_cast<float>(ki[i]) / 256.0f;
    s.texcv = [vs, fb, kf](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::ConvolveParams cp;
      cp.border = fb(p);
      texcv::convolve(a, b, texcv::Kernel{5, 5, kf}, cp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([&](const NppPeers& n) { return n.convolve(5, kf, ki, 256); });
#endif
    add(std::move(s));
  }
  if (!rgb) {
    const int k = gaussian_size(2.0, t);
    OpSpec s;
    s.op = "gaussian_blur";
    s.params = "sigma 2 (" + std::to_string(k) + "x" + std::to_string(k) + ")";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = k;
    s.texcv = [vs, fb](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::GaussianParams gp;
      gp.sigma_x = 2.0;
      gp.border = fb(p);
      texcv::gaussian_blur(a, b, gp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.gauss13(); });
#endif
    add(std::move(s));
  }
  if (!rgb) {
    OpSpec s;
    s.op = "box_filter";
    s.params = "5x5 normalized";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = 5;
    s.texcv = [vs, fb](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::BoxParams bp;
      bp.ksize_x = bp.ksize_y = 5;
      bp.border = fb(p);
      texcv::box_filter(a, b, bp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.box(5); });
#endif
    add(std::move(s));
  }
  if (full) {
    OpSpec s;
    s.op = "sobel";
    s.params = "dx=1 3x3";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = 3;
    s.texcv = [vs, fb](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::SobelParams sp;
      sp.border = fb(p);
      texcv::sobel(a, b, sp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.sobel_dx(); });
#endif
    add(std::move(s));
  }
  if (full) {
    OpSpec s;
    s.op = "sharpen";
    s.params = "strength 1";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = 3;
    s.texcv = [vs, fb](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::sharpen(a, b, 1.0, fb(p), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.sharpen(); });
#endif
    add(std::move(s));
  }
  if (full) {
    OpSpec s;
    s.op = "unsharp_mask";
    s.params = "sigma 1 amount 1";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = gaussian_size(1.0, t);
    s.texcv = [vs, fb](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::UnsharpParams up;
      up.border = fb(p);
      texcv::unsharp_mask(a, b, up, vs(st));
    };
    s.no_peer = "no single NPP call (blur, subtract, scale)";
    add(std::move(s));
  }

  // Non-linear filters and morphology.
  for (int k : {3, 5}) {
    if (rgb || (four && k == 5)) continue;
    OpSpec s;
    s.op = "median_blur";
    s.params = std::to_string(k) + "x" + std::to_string(k);
    s.kernel_w = s.kernel_h = k;
    s.texcv = [vs, k](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::median_blur(a, b, k, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    const int w = cfg.width, h = cfg.height;
    s.peers = peers([k, w, h](const NppPeers& n) { return n.median(k, w, h); });
#endif
    add(std::move(s));
  }
  if (full) {
    const double sc = f32 ? 0.1 : 25.0, ss = 2.0;
    OpSpec s;
    s.op = "bilateral_filter";
    s.params = std::string("d=5 sc=") + (f32 ? "0.1" : "25") + " ss=2";
    s.has_paths = true;
    s.kernel_w = s.kernel_h = 5;
    s.texcv = [vs, fb, sc, ss](const ImageView& a, const ImageView& b, Path p, cudaStream_t st) {
      texcv::BilateralParams bp;
      bp.d = 5;
      bp.sigma_color = sc;
      bp.sigma_space = ss;
      bp.border = fb(p);
      texcv::bilateral_filter(a, b, bp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([sc, ss](const NppPeers& n) { return n.bilateral(2, sc, ss); });
#endif
    add(std::move(s));
  }
  if (!rgb) {
    OpSpec s;
    s.op = "erode";
    s.params = "3x3 rect";
    s.kernel_w = s.kernel_h = 3;
    s.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::erode(a, b, texcv::MorphParams{}, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.erode3(); });
#endif
    add(std::move(s));
  }
  if (!rgb) {
    OpSpec s;
    s.op = "dilate";
    s.params = "5x5 ellipse";
    s.kernel_w = s.kernel_h = 5;
    s.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::MorphParams mp;
      mp.shape = texcv::MorphShape::ellipse;
      mp.ksize_x = mp.ksize_y = 5;
      texcv::dilate(a, b, mp, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) {
      return n.dilate(texcv::structuring_element(texcv::MorphShape::ellipse, 5, 5));
    });
#endif
    add(std::move(s));
  }

  // Colour and intensity.
  if (rgb) {
    OpSpec s;
    s.op = "cvt_color";
    s.params = "rgb2gray";
    s.out_channels = 1;
    s.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::cvt_color(a, b, texcv::ColorCode::rgb2gray, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.rgb2gray(); });
#endif
    add(std::move(s));
    OpSpec y;
    y.op = "cvt_color";
    y.params = "rgb2yuv_bt601";
    y.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::cvt_color(a, b, texcv::ColorCode::rgb2yuv_bt601, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    y.peers = peers([](const NppPeers& n) { return n.rgb2yuv(); });
#endif
    add(std::move(y));
  }
  {
    OpSpec s;
    s.op = "gamma";
    s.params = "2.2";
    s.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::gamma(a, b, 2.2, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.gamma(2.2); });
#endif
    if (f32) s.no_peer = "no NPP power function for f32 (only fixed-gamma colour functions)";
    add(std::move(s));
  }
  if (!rgb) {
    const double th = f32 ? 0.5 : 127.0;
    OpSpec s;
    s.op = "threshold";
    s.params = std::string("binary ") + (f32 ? "0.5" : "127");
    s.texcv = [vs, th, vmax](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::threshold(a, b, th, vmax, texcv::ThresholdType::binary, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([th, vmax](const NppPeers& n) { return n.threshold(th, vmax); });
#endif
    if (four) s.no_peer = "NPP's 4-channel threshold leaves alpha (AC4R): not the same op";
    add(std::move(s));
  }
  if (full && !f32) {
    OpSpec s;
    s.op = "convert";
    s.params = "u8->f32 x1/255";
    s.out_type = ElemType::f32;
    s.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::convert(a, b, 1.0 / 255.0, 0.0, vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    s.peers = peers([](const NppPeers& n) { return n.convert_u8_f32(); });
#endif
    add(std::move(s));
  }
  if (full) {
    OpSpec s;
    s.op = "normalize";
    s.params = std::string("minmax 0..") + (f32 ? "1" : "255");
    s.texcv = [vs, vmax](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::NormalizeParams np;
      np.alpha = 0.0;
      np.beta = vmax;
      texcv::normalize(a, b, np, vs(st));
    };
    s.no_peer = "no single NPP call (MinMax, a host round trip, then a scale)";
    add(std::move(s));
  }
  if (full && !f32) {
    OpSpec s;
    s.op = "equalize_hist";
    s.params = "u8";
    s.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::equalize_hist(a, b, vs(st));
    };
    s.no_peer = "no single NPP call (HistogramEven, a cumulative LUT, then LUT)";
    add(std::move(s));
    OpSpec cl;
    cl.op = "clahe";
    cl.params = "clip 40 tiles 8x8";
    cl.texcv = [vs](const ImageView& a, const ImageView& b, Path, cudaStream_t st) {
      texcv::clahe(a, b, texcv::ClaheParams{}, vs(st));
    };
    cl.no_peer = "NPP has no CLAHE";
    add(std::move(cl));
  }
  return specs;
}

void Runner::run_config(const Config& cfg) {
  const std::string size = std::to_string(cfg.width) + "x" + std::to_string(cfg.height);
  std::printf("\n== %s: %s %s x%d (%.0f MB per image)\n", cfg.name.c_str(), size.c_str(),
              tname(cfg.type), cfg.channels,
              static_cast<double>(cfg.width) * cfg.height * cfg.channels * esize(cfg.type) / 1e6);
  std::fflush(stdout);

  const Row base = base_row(cfg);
  if (context_lost) {
    setup_failed(base, "CUDA context lost earlier: " + lost_reason);
    return;
  }
  ImageSet in;
  double in_bytes = 0;
  if (!make_inputs(base, cfg.width, cfg.height, cfg.channels, cfg.type,
                   4321u + static_cast<std::uint32_t>(cfg.channels * 7 + cfg.width), in, in_bytes))
    return;
  const double copy_gbps = time_copy_floor(base, in, in_bytes);

  std::vector<OpSpec> specs;
  try {
    specs = make_specs(cfg);
  } catch (const std::exception& e) {
    setup_failed(base, std::string("op list: ") + e.what());
    return;
  }
  const std::vector<Path> all_paths = {Path::global, Path::shared, Path::texture, Path::automatic};
  for (OpSpec& spec : specs) {
    if (!wanted(spec.op, spec.params)) continue;
    const int oc = spec.out_channels ? spec.out_channels : cfg.channels;
    const ElemType ot = spec.out_type.value_or(cfg.type);
    Row opbase = base;
    opbase.op = spec.op;
    opbase.params = spec.params;
    opbase.dst_width = cfg.width;
    opbase.dst_height = cfg.height;
    const double out_bytes = static_cast<double>(cfg.width) * cfg.height * oc * esize(ot);
    opbase.bytes = in_bytes + out_bytes;

    ImageSet out;
    if (!make_outputs(opbase, cfg.width, cfg.height, oc, ot, out_bytes, out)) continue;

    std::vector<Variant> variants;
    for (Path p : spec.has_paths ? all_paths : std::vector<Path>{Path::automatic}) {
      Variant v;
      v.path = spec.has_paths ? path_name(p) : "-";
      if (p == Path::automatic && spec.has_paths) v.auto_choice = filter_auto_choice(spec, in[0]);
      v.run = [&spec, p](const ImageView& a, const ImageView& b, cudaStream_t st) {
        spec.texcv(a, b, p, st);
      };
      variants.push_back(std::move(v));
    }
    std::string no_peer = spec.no_peer;
    if (no_peer.empty())
      no_peer = npp ? "no NPP function for this type" : "NPP not available in this build/run";
    const int margin = std::max(4, std::max(spec.kernel_w, spec.kernel_h) / 2 + 1);
    run_variants(opbase, in, out, variants, spec.peers, copy_gbps, no_peer, margin);
  }
  clear_textures();
}

// The summary's texcv columns: path, header.
const std::vector<std::pair<std::string, std::string>> kSummaryPaths = {
    {"global", "global"}, {"shared", "shared"}, {"texture", "texture"}};

// Made-up rows through the writers and the summary (no GPU needed).
void selftest(Runner& run, const std::vector<Config>& configs) {
  run.meta.strings.push_back({"gpu", "selftest \"quoted\" \\ name"});
  run.meta.strings.push_back({"suite", "filters"});
  run.meta.numbers.push_back({"reps", run.opt.reps});
  const char* paths[] = {"global", "shared", "texture", "auto"};
  struct Fake {
    const char* op;
    const char* params;
    bool paths;
    double ms;
  };
  const Fake fakes[] = {{"convolve", "3x3 sharpen kernel", true, 0.12},
                        {"gaussian_blur", "sigma 2 (17x17)", true, 0.3},
                        {"median_blur", "3x3", false, 0.2},
                        {"cvt_color", "rgb2gray", false, 0.07},
                        {"gamma", "2.2", false, 0.05}};
  for (const Config& c : configs) {
    Row copy = RunnerBase::base_row(c);
    copy.op = "copy";
    copy.params = "floor d2d";
    copy.impl = "cuda";
    copy.status = "ok";
    copy.median_ms = c.type == ElemType::f32 ? 0.142 : 0.036;
    copy.gbps = 3790;
    copy.pct_copy = 100;
    run.rows.push_back(copy);
    for (const Fake& f : fakes) {
      if ((std::string(f.op) == "cvt_color") != (c.channels == 3)) continue;
      const int n = f.paths ? 4 : 1;
      for (int k = 0; k < n; ++k) {
        Row r = copy;
        r.op = f.op;
        r.params = f.params;
        r.impl = "texcv";
        r.path = f.paths ? paths[k] : "-";
        r.median_ms = f.ms * (1 + 0.1 * k);
        r.pct_copy = 100.0 * copy.median_ms / r.median_ms;
        if (k == 3) r.auto_choice = "shared";
        if (k == 2) {
          r.status = "n/a";
          r.note = "path texture is not implemented for this op; got texture, expected global";
        }
        if (std::string(f.op) == "median_blur" && c.type == ElemType::f32) {
          r.status = "n/a";
          r.note = "the CUDA backend does not implement this operation yet; got a device image";
        }
        run.rows.push_back(r);
      }
      Row n0 = copy;
      n0.op = f.op;
      n0.params = f.params;
      n0.impl = "npp";
      n0.median_ms = f.ms * 1.5;
      n0.diff_mean = 0.25;
      n0.diff_max = 1;
      n0.diff_vs = "texcv global";
      n0.note = "nppiFilterBorder replicate, max diff 1 vs texcv global";
      run.rows.push_back(n0);
      if (f.paths) {
        Row n1 = n0;
        n1.path = "noborder";
        n1.median_ms = f.ms * 1.3;
        n1.note = "nppiFilter (interior, no border)";
        run.rows.push_back(n1);
      }
    }
  }
  for (const Row& r : run.rows) print_row(r);
  write_json(run.opt.out, run.meta, run.rows);
  write_csv(run.opt.csv, run.rows);
  print_summary(run.rows, kSummaryPaths);
}

}  // namespace

int main(int argc, char** argv) {
  set_program("bench_filters");
  Runner run;
  try {
    run.opt = parse_args(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_filters: %s\n", e.what());
    usage(stderr);
    return 1;
  }
  const std::vector<Config> configs = select_configs(all_configs(run.opt.quick), run.opt);
  if (run.opt.list) {
    print_configs(configs);
    return 0;
  }
  if (run.opt.selftest) {
    selftest(run, configs);
    return 0;
  }
  if (configs.empty()) {
    std::fprintf(stderr, "bench_filters: no configuration matches --config\n");
    return 1;
  }
  if (const int rc = run.setup(
#if defined(TEXCV_BENCH_HAS_FILTER_RULE)
          "exposed"
#else
          "not exposed (auto's choice not printed)"
#endif
          ,
#if defined(TEXCV_BENCH_HAS_NPP)
          true
#else
          false
#endif
          ))
    return rc;
  run.meta.strings.push_back({"suite", "filters"});

  print_header();
  for (const Config& cfg : configs) {
    try {
      run.run_config(cfg);
    } catch (const std::exception& e) {  // should not happen: rows catch their own errors
      std::printf("   config %s aborted: %s\n", cfg.name.c_str(), e.what());
      cudaGetLastError();
    }
  }
  run.finish(kSummaryPaths);
  return 0;
}
