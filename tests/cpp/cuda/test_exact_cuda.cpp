// Issue 16, "Exact at every size", on the CUDA backend: resize, warp_affine, warp_perspective,
// rotate and remap on device images with precision exact, through Path::global (plain loads),
// Path::texture (point-sampled textures, software weights) and Path::automatic, against the
// float64 reference of tests/cpp/common/resample_ref.hpp and against the CPU backend's result on
// the same input. The cases are those of tests/cpp/cpu/test_exact_reference.cpp (thin images up
// to 65,535 px, sampling at coordinates up to ~70,000), plus:
// - 16-row images for the staged warp kernel (warp_kernels.cuh's warp_staged_kernel, taken for
//   u8 1- and 4-channel affine cubic warps on the global path with 16-byte aligned data and
//   pitch): with the 3-row images no thread's 4x4 taps fit the image, so every thread would fall
//   back to plain loads; with 16 rows the inner threads sample from shared memory;
// - tall images of 64,997 rows for the texture path: Pitch2D textures are limited to
//   maxTexture2DLinear rows (65,000 on the H100 / H200), so a 65,535-row source cannot bind. There
//   the explicit texture path must refuse with Error(Unsupported), which is checked instead;
// - 3- and 4-channel images (3 channels: the texture path must refuse, Unsupported).
//
// Bounds, for every path:
// - against the reference: |gpu - reference| <= 1 level for u8/u16, 1e-5 absolute for f32 (data
//   in [0, 1]), as the CPU tests (resample_ref.hpp's expect_exact);
// - against the CPU backend: within the same bound; nearest identical.
// Every device output is poisoned (test::poison) before the run and checked for leftover poison
// (NaN for f32; for u8/u16 the 0xA5 pattern where the CPU result is not that value); then the
// output is filled with another pattern (0x5A bytes) and the operation run again: both results
// must be bit-identical, so every element was written (and the kernel is deterministic).
//
// Set TEXCV_EXACT_VERBOSE=1 to print the measured errors of every combination and path.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/resample_ref.hpp"
#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include "src/core/backends.hpp"
#include "src/cuda/ops/common/path_rule.hpp"
#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv {
namespace {

using namespace test::ref;

// The explicit exact paths and automatic (run with precision exact too; automatic precision
// resolves to exact for every type, and choose_path only tells fast apart).
constexpr Path kPaths[] = {Path::global, Path::texture, Path::automatic};

// Tall images whose source still binds as a texture (see the file comment).
constexpr int kTallTexture = 64997;

enum class Kind { resize, warp_affine, warp_perspective, rotate, remap };

// Runs the operation on src into dst with precision exact and the given path (the CPU backend
// ignores the path).
using RunFn = std::function<void(const ImageView& src, const ImageView& dst, Path path)>;

// What a combination is, for the path the CUDA backend resolves and for the staged kernel.
struct Combo {
  Kind kind;
  Interp interp;
  Border border;
  std::array<double, 4> border_value;
};

// Fills every byte of a device view's rows with `byte` (through a host image and texcv::copy).
void fill_bytes(const ImageView& v, unsigned char byte) {
  Image h(v.width, v.height, v.channels, v.type);
  for (int y = 0; y < h.height(); ++y)
    std::memset(h.view().row<unsigned char>(y), byte, h.view().row_bytes());
  texcv::copy(h.view(), v);
}

// Elements of got that still hold test::poison's pattern (u8 0xA5, u16 0xA5A5, f32 NaN) where that
// value is not within tol of the CPU result: u8/u16 poison is a valid value, so a poison-valued
// element the CPU agrees with is not counted (the second run of check_paths covers it).
long leftover_poison(const ImageView& got, const ImageView& cpu, double tol) {
  long n = 0;
  for (int y = 0; y < got.height; ++y)
    for (int x = 0; x < got.width; ++x)
      for (int c = 0; c < got.channels; ++c)
        if (test::is_poison(got, x, y, c) &&
            !(std::fabs(test::at(got, x, y, c) - test::at(cpu, x, y, c)) <= tol))
          ++n;
  return n;
}

// |gpu - cpu| <= tol everywhere (NaN counts as infinitely far).
void expect_close_to_cpu(const std::string& what, const ImageView& got, const ImageView& cpu,
                         double tol) {
  double worst = 0.0, worst_got = 0.0, worst_cpu = 0.0;
  int wx = 0, wy = 0, wc = 0;
  long over = 0;
  for (int y = 0; y < got.height; ++y)
    for (int x = 0; x < got.width; ++x)
      for (int c = 0; c < got.channels; ++c) {
        const double g = test::at(got, x, y, c), w = test::at(cpu, x, y, c);
        const double e = std::isnan(g) || std::isnan(w) ? std::numeric_limits<double>::infinity()
                                                        : std::fabs(g - w);
        if (e > tol) ++over;
        if (e > worst) {
          worst = e;
          worst_got = g;
          worst_cpu = w;
          wx = x;
          wy = y;
          wc = c;
        }
      }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "max |gpu - cpu| %.6g (bound %g) at (%d, %d, c%d): gpu %.9g, cpu %.9g; %ld "
                "elements over the bound",
                worst, tol, wx, wy, wc, worst_got, worst_cpu, over);
  if (verbose())
    std::printf("[ vs cpu   ] %s %s: %s\n", worst <= tol ? "ok  " : "FAIL", what.c_str(), buf);
  EXPECT_LE(worst, tol) << what << ": " << buf;
}

// Both host images hold the same bytes in every row.
void expect_same_bits(const std::string& what, const ImageView& a, const ImageView& b) {
  long rows = 0;
  for (int y = 0; y < a.height; ++y)
    if (std::memcmp(a.row<const unsigned char>(y), b.row<const unsigned char>(y), a.row_bytes()) !=
        0)
      ++rows;
  EXPECT_EQ(rows, 0) << what
                     << ": the second run (output filled with 0x5A bytes first) differs from the "
                        "first (output poisoned) in this many rows: an element left unwritten, "
                        "or a nondeterministic kernel";
}

// Expects run to throw Error(Unsupported) (explicit texture path on a source that cannot be a
// texture).
void expect_unsupported(const std::string& what, const std::string& reason, const RunFn& run,
                        const ImageView& src, int dw, int dh) {
  Image dst(dw, dh, src.channels, src.type, Location::device);
  try {
    run(src, dst, Path::texture);
    ADD_FAILURE() << what << ": expected Error(Unsupported) (" << reason << "), got a result";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported) << what << ": " << e.what();
    if (verbose()) std::printf("[ refused  ] %s: %s\n", what.c_str(), e.what());
  }
}

// Counts the runs that went through the staged warp kernel (StagedCubic checks it is reached).
int g_staged_runs = 0;

// One combination on every path: the CPU result once, then for each path the GPU result (output
// poisoned) against the reference and the CPU, and a second run (output refilled) against the
// first.
void check_paths(const std::string& what, const Combo& k, const Image& src, int dw, int dh,
                 const RefOut& want, const RunFn& run) {
  const ElemType t = src.view().type;
  const int ch = src.view().channels;
  Image cpu(dw, dh, ch, t);
  test::poison(cpu);
  if (!runs(what + " (cpu)", [&] { run(src, cpu, Path::automatic); })) return;
  const double tol = k.interp == Interp::nearest ? 0.0 : tolerance(t);

  const Image dsrc = src.clone(Location::device);  // a whole pitched allocation
  // The explicit texture path refuses (Error Unsupported) 3 channels and a source beyond the
  // device's texture limits (even its scratch copy cannot bind); other unbindable views would be
  // copied to a bindable scratch buffer and run.
  std::string why = "3 channels have no texture format";
  bool texture_refused = ch == 3;
  bool aligned16 = false;
#if defined(TEXCV_HAS_CUDA)
  if (!texture_refused && !cuda::can_bind_pitch2d(dsrc.view(), &why))
    texture_refused = why.find("maxTexture2DLinear") != std::string::npos;
  aligned16 = (reinterpret_cast<std::uintptr_t>(dsrc.view().data) & 15) == 0 &&
              (dsrc.view().pitch & 15) == 0;
#endif

  for (Path path : kPaths) {
    std::string label = what + " path " + to_string(path);
    if (path == Path::texture && texture_refused) {
      expect_unsupported(label, why, run, dsrc, dw, dh);
      continue;
    }
    Path resolved = path;
#if defined(TEXCV_HAS_CUDA)
    detail::SamplingDesc sd;
    sd.interp = k.interp;
    sd.border = k.border;
    for (int c = 0; c < 4; ++c) sd.border_value[c] = static_cast<float>(k.border_value[c]);
    sd.precision = Precision::exact;
    sd.path = path;
    const cuda::ops::GeomOp gop = k.kind == Kind::resize  ? cuda::ops::GeomOp::resize
                                  : k.kind == Kind::remap ? cuda::ops::GeomOp::remap
                                                          : cuda::ops::GeomOp::warp;
    resolved = cuda::ops::resolved_path(gop, dsrc.view(), sd);
#endif
    if (path == Path::automatic) label += std::string(" (-> ") + to_string(resolved) + ")";
    // warp_kernels.cuh's launch_warp: u8, 1 or 4 channels, affine cubic, plain loads, aligned.
    const bool staged = (k.kind == Kind::warp_affine || k.kind == Kind::rotate) &&
                        k.interp == Interp::cubic && t == ElemType::u8 && ch != 3 &&
                        resolved == Path::global && aligned16;
    if (staged) {
      label += " (staged kernel)";
      ++g_staged_runs;
    }
    SCOPED_TRACE(label);
    const Image dst(dw, dh, ch, t, Location::device);
    test::poison(dst);
    if (!runs(label, [&] { run(dsrc, dst, path); })) continue;
    const Image got = test::to_host(dst);
    EXPECT_EQ(leftover_poison(got, cpu, tol), 0) << label << ": elements left as poison";
    expect_exact(label, got, want);
    expect_close_to_cpu(label, got, cpu, tol);
    fill_bytes(dst, 0x5A);
    if (!runs(label + " (second run)", [&] { run(dsrc, dst, path); })) continue;
    expect_same_bits(label, test::to_host(dst), got);
  }
}

// ================================ resize ================================

void check_resize(const char* form, const Pair& s, ResizeParams p, int channels,
                  const std::vector<ElemType>& types, const std::vector<Border>& borders) {
  for (ElemType t : types) {
    const Image src = source(s.sw, s.sh, channels, t);
    const RefImage rs = to_ref(src);
    for (Border b : borders) {
      p.border = b;
      p.border_value = border_values(t);
      p.precision = Precision::exact;
      const std::string what = resize_label(form, s, p, t, channels);
      check_paths(what, {Kind::resize, p.interp, b, p.border_value}, src, s.dw, s.dh,
                  ref_resize(rs, s.dw, s.dh, p),
                  [&](const ImageView& in, const ImageView& out, Path path) {
                    ResizeParams q = p;
                    q.path = path;
                    resize(in, out, q);
                  });
    }
  }
}

TEST(ExactCudaResize, Nearest) {
  TEXCV_REQUIRE_GPU();
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::nearest;
    check_resize("size", s, p, 1, kAllTypes, {Border::replicate});
  }
}

TEST(ExactCudaResize, Linear) {
  TEXCV_REQUIRE_GPU();
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::linear;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

TEST(ExactCudaResize, Cubic) {
  TEXCV_REQUIRE_GPU();
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::cubic;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

TEST(ExactCudaResize, Area) {
  TEXCV_REQUIRE_GPU();
  for (const Pair& s : kResizePairs) {
    ResizeParams p;
    p.interp = Interp::area;
    check_resize("size", s, p, 1, kAllTypes, kAllBorders);
  }
}

// The factor form, the cases of ExactResize.FactorForm.
TEST(ExactCudaResize, FactorForm) {
  TEXCV_REQUIRE_GPU();
  struct F {
    int sw, sh;
    double fx, fy;
  };
  const F cases[] = {
      {16411, 2, 0.7317, 1.5},       {16411, 4, 0.7317, 0.5}, {65535, 3, 0.732429, 0},
      {65535, 2, 1.0 / 128.25, 0.5}, {300, 2, 218.45, 1.0},   {4099, 2, 4.0037, 1.5},
      {3, 16411, 0.5, 0.7317},
  };
  for (const F& f : cases) {
    const Rect r = resized_size(f.sw, f.sh, f.fx, f.fy > 0 ? f.fy : 1.0);
    const Pair s{f.sw, f.sh, r.width, f.fy > 0 ? r.height : f.sh};
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
      ResizeParams p;
      p.interp = ip;
      p.fx = f.fx;
      p.fy = f.fy;
      check_resize("factor", s, p, 1, kAllTypes,
                   ip == Interp::nearest
                       ? std::vector<Border>{Border::replicate}
                       : std::vector<Border>{Border::replicate, Border::constant, Border::reflect});
    }
  }
}

// align_corners, the cases of ExactResize.AlignCorners.
TEST(ExactCudaResize, AlignCorners) {
  TEXCV_REQUIRE_GPU();
  const Pair pairs[] = {{257, 3, 181, 2},     {16411, 2, 12007, 3}, {4099, 2, 16411, 2},
                        {65535, 3, 47999, 2}, {300, 2, 65535, 2},   {2, 65535, 3, 47999}};
  for (const Pair& s : pairs)
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic}) {
      ResizeParams p;
      p.interp = ip;
      p.align_corners = true;
      check_resize("size", s, p, 1, kAllTypes,
                   ip == Interp::cubic ? kAllBorders : std::vector<Border>{Border::replicate});
    }
}

// 3 channels (the texture path refuses them) and 4 channels (vector loads, 4-channel textures).
TEST(ExactCudaResize, ThreeAndFourChannels) {
  TEXCV_REQUIRE_GPU();
  for (int ch : {3, 4})
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
      ResizeParams p;
      p.interp = ip;
      check_resize("size", {16411, 2, 12007, 2}, p, ch, kAllTypes, {Border::replicate});
      check_resize("size", {4099, 2, 16411, 3}, p, ch, kAllTypes, {Border::constant});
    }
}

// Sources of 64,997 rows, which still bind as textures: large y coordinates on the texture path
// (kResizePairs' 65,535-row source is refused there).
TEST(ExactCudaResize, TallUnderTheTextureLimit) {
  TEXCV_REQUIRE_GPU();
  for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic, Interp::area}) {
    ResizeParams p;
    p.interp = ip;
    check_resize("size", {3, kTallTexture, 2, 47999}, p, 1, kAllTypes,
                 ip == Interp::nearest ? std::vector<Border>{Border::replicate} : kAllBorders);
    p.align_corners = ip != Interp::area;
    if (p.align_corners)
      check_resize("size", {2, kTallTexture, 3, 47999}, p, 1, kAllTypes, {Border::replicate});
  }
}

// ================================ warps ================================

std::string warp_label(const std::string& name, Interp ip, ElemType t, int channels, Border b,
                       int sw, int sh, int dw, int dh, bool inverse_map) {
  return name + " " + to_string(ip) + " " + to_string(t) + "x" + std::to_string(channels) +
         " border " + to_string(b) + " " + size_str(sw, sh) + " -> " + size_str(dw, dh) +
         (inverse_map ? " inverse_map" : " forward");
}

void check_warp_affine(const std::string& name, int sw, int sh, int dw, int dh,
                       const std::array<double, 6>& m, bool inverse_map, Interp ip, int channels,
                       const std::vector<ElemType>& types, const std::vector<Border>& borders) {
  for (ElemType t : types) {
    const Image src = source(sw, sh, channels, t);
    const RefImage rs = to_ref(src);
    for (Border b : borders) {
      Sampling sm;
      sm.interp = ip;
      sm.border = b;
      sm.border_value = border_values(t);
      sm.precision = Precision::exact;
      check_paths(warp_label(name, ip, t, channels, b, sw, sh, dw, dh, inverse_map),
                  {Kind::warp_affine, ip, b, sm.border_value}, src, dw, dh,
                  ref_warp_affine(rs, dw, dh, m, inverse_map, sm),
                  [&](const ImageView& in, const ImageView& out, Path path) {
                    Sampling s = sm;
                    s.path = path;
                    warp_affine(in, out, m, inverse_map, s);
                  });
    }
  }
}

// The cases of ExactWarpAffine (thin images of kWidths, both map directions, a tall 65,535-row
// image), plus a tall image under the texture limit.
void warp_affine_all(Interp ip) {
  for (int w : kWidths) {
    check_warp_affine("warp_affine", w, kRows, w, kRows, affine_inverse_map(w), true, ip, 1,
                      kAllTypes, kAllBorders);
    check_warp_affine("warp_affine", w, kRows, w, kRows, affine_forward_map(w), false, ip, 1,
                      kAllTypes, kAllBorders);
  }
  for (int h : {65535, kTallTexture}) {
    check_warp_affine("warp_affine tall", kRows, h, kRows, h,
                      {0.91, 1.5 / h, -0.27, 0.013, 1.37, -0.3 * h + 0.123}, true, ip, 1, kAllTypes,
                      kAllBorders);
    check_warp_affine("warp_affine tall", kRows, h, kRows, h,
                      {1.099, -1.1 / h, 0.31, -0.0104, 0.73, 0.25 * h + 0.4567}, false, ip, 1,
                      kAllTypes, kAllBorders);
  }
}

TEST(ExactCudaWarpAffine, Nearest) {
  TEXCV_REQUIRE_GPU();
  warp_affine_all(Interp::nearest);
}
TEST(ExactCudaWarpAffine, Linear) {
  TEXCV_REQUIRE_GPU();
  warp_affine_all(Interp::linear);
}
TEST(ExactCudaWarpAffine, Cubic) {
  TEXCV_REQUIRE_GPU();
  warp_affine_all(Interp::cubic);
}

// u8 cubic affine warps of 16-row images: the staged shared-memory kernel on the global and
// automatic paths (1 channel; 4 channels on global), with every border; the texture path runs the
// same cases through plain texture loads.
TEST(ExactCudaWarpAffine, StagedCubic) {
  TEXCV_REQUIRE_GPU();
  g_staged_runs = 0;
  constexpr int kStagedRows = 16;
  for (int w : {4099, 65535}) {
    check_warp_affine("warp_affine staged", w, kStagedRows, w, kStagedRows, affine_inverse_map(w),
                      true, Interp::cubic, 1, {ElemType::u8}, kAllBorders);
    check_warp_affine("warp_affine staged", w, kStagedRows, w, kStagedRows, affine_forward_map(w),
                      false, Interp::cubic, 1, {ElemType::u8}, kAllBorders);
  }
  check_warp_affine("warp_affine staged", 16411, kStagedRows, 16411, kStagedRows,
                    affine_inverse_map(16411), true, Interp::cubic, 4, {ElemType::u8}, kAllBorders);
#if defined(TEXCV_HAS_CUDA)
  EXPECT_GT(g_staged_runs, 0) << "no combination met the staged kernel's conditions";
#endif
}

TEST(ExactCudaWarpAffine, ThreeAndFourChannels) {
  TEXCV_REQUIRE_GPU();
  const int w = 65535;
  for (int ch : {3, 4})
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      check_warp_affine("warp_affine", w, 2, w, 2, affine_inverse_map(w), true, ip, ch, kAllTypes,
                        {Border::constant, Border::reflect101});
}

// The cases of ExactWarpPerspective.MildPerspective.
TEST(ExactCudaWarpPerspective, MildPerspective) {
  TEXCV_REQUIRE_GPU();
  for (int w : kWidths) {
    const std::array<double, 9> inv = {
        1.37, 0.013, -0.3 * w + 0.123, 1.5 / w, 0.91, -0.27, 0.05 / w, 0.0, 1.0};
    const std::array<double, 9> fwd = {
        0.73, -0.0104, 0.1 * w + 0.4567, -1.1 / w, 1.099, 0.31, -0.04 / w, 0.001, 1.0};
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (bool inverse_map : {true, false})
        for (ElemType t : kTypes) {
          const Image src = source(w, kRows, 1, t);
          const RefImage rs = to_ref(src);
          const auto& m = inverse_map ? inv : fwd;
          for (Border b : kBorders) {
            Sampling sm;
            sm.interp = ip;
            sm.border = b;
            sm.border_value = border_values(t);
            sm.precision = Precision::exact;
            check_paths(
                warp_label("warp_perspective", ip, t, 1, b, w, kRows, w, kRows, inverse_map),
                {Kind::warp_perspective, ip, b, sm.border_value}, src, w, kRows,
                ref_warp_perspective(rs, w, kRows, m, inverse_map, sm),
                [&](const ImageView& in, const ImageView& out, Path path) {
                  Sampling s = sm;
                  s.path = path;
                  warp_perspective(in, out, m, inverse_map, s);
                });
          }
        }
  }
}

// The cases of ExactRotate.SmallAngle, plus a 16-row image (u8 cubic only: the staged kernel) and
// a tall image under the texture limit.
TEST(ExactCudaRotate, SmallAngle) {
  TEXCV_REQUIRE_GPU();
  struct R {
    int w, h;
    double deg;
    bool staged_only = false;  // u8 cubic only
  };
  const R cases[] = {{257, 4, 0.75},
                     {4099, 4, 0.047},
                     {16411, 4, 0.0119},
                     {65535, 4, 0.0031},
                     {65535, 2, -0.0017},
                     {4, 65535, 0.0031},
                     {65535, 16, 0.0031, true},
                     {4, kTallTexture, 0.0031}};
  for (const R& c : cases)
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (ElemType t : kTypes) {
        if (c.staged_only && (ip != Interp::cubic || t != ElemType::u8)) continue;
        const Image src = source(c.w, c.h, 1, t);
        const RefImage rs = to_ref(src);
        const std::array<double, 6> m = ref_rotation_matrix(c.w, c.h, c.w, c.h, c.deg);
        for (Border b : kBorders) {
          Sampling sm;
          sm.interp = ip;
          sm.border = b;
          sm.border_value = border_values(t);
          sm.precision = Precision::exact;
          char deg[32];
          std::snprintf(deg, sizeof deg, "%g deg", c.deg);
          const std::string what = std::string("rotate ") + deg + " " + to_string(ip) + " " +
                                   to_string(t) + " border " + to_string(b) + " " +
                                   size_str(c.w, c.h);
          check_paths(what, {Kind::rotate, ip, b, sm.border_value}, src, c.w, c.h,
                      ref_warp_affine(rs, c.w, c.h, m, false, sm),
                      [&](const ImageView& in, const ImageView& out, Path path) {
                        Sampling s = sm;
                        s.path = path;
                        rotate(in, out, c.deg, s);
                      });
        }
      }
}

// The cases of ExactRemap.FloatMaps (the maps uploaded next to the device source), plus a tall
// image under the texture limit.
TEST(ExactCudaRemap, FloatMaps) {
  TEXCV_REQUIRE_GPU();
  struct M {
    int w, h;
  };
  const M cases[] = {{257, 3}, {4099, 3}, {65535, 2}, {3, 65535}, {3, kTallTexture}};
  for (const M& c : cases) {
    const bool tall = c.h > c.w;
    Image mx(c.w, c.h, 1, ElemType::f32), my(c.w, c.h, 1, ElemType::f32);
    const int n = tall ? c.h : c.w;  // the long side
    for (int y = 0; y < c.h; ++y)
      for (int x = 0; x < c.w; ++x) {
        const double along = tall ? y : x, across = tall ? x : y;
        const double a = 1.37 * along + 0.013 * across - 0.3 * n + 0.123 + 0.2 * std::sin(along);
        const double b = 0.91 * across + 1.5 * along / n - 0.27;
        mx.view().row<float>(y)[x] = static_cast<float>(tall ? b : a);
        my.view().row<float>(y)[x] = static_cast<float>(tall ? a : b);
      }
    const Image dmx = mx.clone(Location::device), dmy = my.clone(Location::device);
    for (Interp ip : {Interp::nearest, Interp::linear, Interp::cubic})
      for (ElemType t : kTypes) {
        const Image src = source(c.w, c.h, 1, t);
        const RefImage rs = to_ref(src);
        for (Border b : kBorders) {
          Sampling sm;
          sm.interp = ip;
          sm.border = b;
          sm.border_value = border_values(t);
          sm.precision = Precision::exact;
          const std::string what = std::string("remap ") + to_string(ip) + " " + to_string(t) +
                                   " border " + to_string(b) + " " + size_str(c.w, c.h);
          check_paths(
              what, {Kind::remap, ip, b, sm.border_value}, src, c.w, c.h, ref_remap(rs, mx, my, sm),
              [&](const ImageView& in, const ImageView& out, Path path) {
                Sampling s = sm;
                s.path = path;
                const bool dev = in.location == Location::device;
                remap(in, out, dev ? dmx.view() : mx.view(), dev ? dmy.view() : my.view(), s);
              });
        }
      }
  }
}

}  // namespace
}  // namespace texcv
