// bench_geometry: times the geometric operations on the GPU through texcv's public API, for every
// op x element type x channels x access path, next to NVIDIA NPP (same inputs, same sizes, same
// run) and a device-to-device copy of the same image (the memory floor).
//
// Method (docs/performance.md): CUDA events around each call on one non-blocking stream, a
// warm-up, the median of --reps calls; the calls rotate over several input and output buffers
// so that at least ~256 MB is touched between two uses of one buffer (the H200's L2 is 60 MB).
// Bytes counted: each input read once plus each output written once (remap adds its two float
// maps, crop reads only the cropped rectangle). GB/s = bytes / median; %copy = GB/s over the
// copy's GB/s (read + write) measured in the same process on the same buffers.
//
// Usage: bench_geometry [--quick] [--filter S[,S...]] [--config NAME[,NAME...]] [--out FILE.json]
//                       [--csv FILE.csv] [--reps N] [--warmup N] [--budget SECONDS] [--no-npp]
//                       [--list] [--selftest]
// --selftest writes made-up rows (no GPU needed) to check the writers and bench/summarize.py.
// The timer, buffers, checks, writers and summary are bench/harness.hpp's (shared with
// bench_filters); this file holds the geometric ops, their NPP peers and the self-test rows.
// Exit codes: 0 done (rows may carry errors), 1 bad arguments or setup failure, 2 no GPU.
#include <cuda_runtime.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "texcv/error.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"
#include "texcv/runtime.hpp"

#if defined(TEXCV_BENCH_HAS_NPP)
#include <nppcore.h>
#include <nppdefs.h>
#include <nppi_geometry_transforms.h>
#endif

// Which path path=automatic takes, when the CUDA backend exposes its rule.
#if __has_include("src/cuda/ops/common/path_rule.hpp")
#include "src/cuda/ops/common/path_rule.hpp"
#define TEXCV_BENCH_HAS_PATH_RULE 1
#endif

namespace {

using namespace texcv_bench;
using texcv::ElemType;
using texcv::ImageView;
using texcv::Interp;
using texcv::Path;
using texcv::Precision;

std::vector<Config> all_configs(bool quick) {
  if (quick) {
    return {{"f32x1", 2048, 2048, 1, ElemType::f32, true},
            {"u8x1", 4096, 4096, 1, ElemType::u8, true},
            {"u8x4", 1024, 1024, 4, ElemType::u8, true},
            {"u16x1", 2048, 2048, 1, ElemType::u16, false},
            {"u8x3", 1024, 1024, 3, ElemType::u8, false},
            {"f32x3", 1024, 1024, 3, ElemType::f32, false}};
  }
  return {{"f32x1", 8192, 8192, 1, ElemType::f32, true},
          {"u8x1", 16384, 16384, 1, ElemType::u8, true},
          {"u8x4", 4096, 4096, 4, ElemType::u8, true},
          {"u16x1", 8192, 8192, 1, ElemType::u16, false},
          {"u8x3", 4096, 4096, 3, ElemType::u8, false},
          {"f32x3", 4096, 4096, 3, ElemType::f32, false}};
}

// ---------------------------------------------------------------------------------------------
// NPP

#if defined(TEXCV_BENCH_HAS_NPP)
using NppWarpAffine = NppStatus (*)(const void*, NppiSize, int, NppiRect, void*, int, NppiRect,
                                    const double[2][3], int, NppStreamContext);
using NppWarpPersp = NppStatus (*)(const void*, NppiSize, int, NppiRect, void*, int, NppiRect,
                                   const double[3][3], int, NppStreamContext);
using NppResize = NppStatus (*)(const void*, int, NppiSize, NppiRect, void*, int, NppiSize,
                                NppiRect, int, NppStreamContext);
using NppRemap = NppStatus (*)(const void*, NppiSize, int, NppiRect, const Npp32f*, int,
                               const Npp32f*, int, void*, int, NppiSize, int, NppStreamContext);
using NppMirror = NppStatus (*)(const void*, int, void*, int, NppiSize, NppiAxis, NppStreamContext);

struct NppTable {
  NppWarpAffine warp_affine = nullptr;
  NppWarpPersp warp_perspective = nullptr;
  NppResize resize = nullptr;
  NppRemap remap = nullptr;
  NppMirror mirror = nullptr;
};

#define TEXCV_NPP_TABLE(SUF, T, CH)                                                                \
  NppTable {                                                                                       \
    [](const void* s, NppiSize ss, int st, NppiRect sr, void* d, int dt, NppiRect dr,              \
       const double c[2][3], int in, NppStreamContext x) {                                         \
      return nppiWarpAffine_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), ss, st, sr,             \
                                                 static_cast<T*>(d), dt, dr, c, in, x);            \
    },                                                                                             \
        [](const void* s, NppiSize ss, int st, NppiRect sr, void* d, int dt, NppiRect dr,          \
           const double c[3][3], int in, NppStreamContext x) {                                     \
          return nppiWarpPerspective_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), ss, st, sr,    \
                                                          static_cast<T*>(d), dt, dr, c, in, x);   \
        },                                                                                         \
        [](const void* s, int st, NppiSize ss, NppiRect sr, void* d, int dt, NppiSize ds,          \
           NppiRect dr, int in, NppStreamContext x) {                                              \
          return nppiResize_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), st, ss, sr,             \
                                                 static_cast<T*>(d), dt, ds, dr, in, x);           \
        },                                                                                         \
        [](const void* s, NppiSize ss, int st, NppiRect sr, const Npp32f* mx, int mxs,             \
           const Npp32f* my, int mys, void* d, int dt, NppiSize ds, int in, NppStreamContext x) {  \
          return nppiRemap_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), ss, st, sr, mx, mxs, my, \
                                                mys, static_cast<T*>(d), dt, ds, in, x);           \
        },                                                                                         \
        [](const void* s, int st, void* d, int dt, NppiSize roi, NppiAxis ax,                      \
           NppStreamContext x) {                                                                   \
          return nppiMirror_##SUF##_C##CH##R_Ctx(static_cast<const T*>(s), st, static_cast<T*>(d), \
                                                 dt, roi, ax, x);                                  \
        },                                                                                         \
  }

std::optional<NppTable> npp_table(ElemType t, int c) {
  switch (t) {
    case ElemType::u8:
      if (c == 1) return TEXCV_NPP_TABLE(8u, Npp8u, 1);
      if (c == 3) return TEXCV_NPP_TABLE(8u, Npp8u, 3);
      if (c == 4) return TEXCV_NPP_TABLE(8u, Npp8u, 4);
      break;
    case ElemType::u16:
      if (c == 1) return TEXCV_NPP_TABLE(16u, Npp16u, 1);
      if (c == 3) return TEXCV_NPP_TABLE(16u, Npp16u, 3);
      if (c == 4) return TEXCV_NPP_TABLE(16u, Npp16u, 4);
      break;
    case ElemType::f32:
      if (c == 1) return TEXCV_NPP_TABLE(32f, Npp32f, 1);
      if (c == 3) return TEXCV_NPP_TABLE(32f, Npp32f, 3);
      if (c == 4) return TEXCV_NPP_TABLE(32f, Npp32f, 4);
      break;
  }
  return std::nullopt;
}

#endif

// ---------------------------------------------------------------------------------------------
// Operation descriptions

// One op variant: how texcv runs it (with a path) and how the peer runs it.
struct OpSpec {
  std::string op, params;
  bool has_paths = true;
  Interp interp = Interp::linear;
  int dst_w = 0, dst_h = 0;
  double extra_bytes = 0;   // bytes read besides src (remap's maps)
  bool crop_bytes = false;  // reads only the output's size from src
  std::function<void(const ImageView&, const ImageView&, Path, Precision, cudaStream_t)> texcv;
  std::string peer_name;  // "" when there is none
  // Enqueues the peer; returns a note (NPP warning) or "".
  std::function<std::string(const ImageView&, const ImageView&, cudaStream_t)> peer;
  // Fill value for the peer's output before the accuracy check (NPP leaves pixels whose source
  // lies outside untouched; texcv writes the constant border 0 there).
  int peer_prefill = 0;
};

std::array<double, 6> invert_affine(const std::array<double, 6>& m) {
  const double det = m[0] * m[4] - m[1] * m[3];
  const double a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det;
  return {a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])};
}

// Which path the automatic rule picks for this call, when the CUDA backend exposes it
// (src/cuda/ops/common/path_rule.hpp). Precision automatic is fast for u8 and exact otherwise
// (include/texcv/geometry.hpp); warps sample with border constant, resize with replicate.
std::string auto_choice(const OpSpec& spec, const ImageView& src) {
#if defined(TEXCV_BENCH_HAS_PATH_RULE)
  using texcv::cuda::ops::GeomOp;
  try {
    GeomOp op = GeomOp::warp;
    if (spec.op == "resize") op = GeomOp::resize;
    if (spec.op == "remap") op = GeomOp::remap;
    if (spec.op == "flip") op = GeomOp::flip;
    texcv::detail::SamplingDesc s;
    s.interp = spec.interp;
    s.border = spec.op == "resize" ? texcv::Border::replicate : texcv::Border::constant;
    s.precision = Precision::exact;  // what Precision::automatic resolves to (src/core)
    s.path = Path::automatic;
    return path_name(texcv::cuda::ops::resolved_path(op, src, s));
  } catch (const std::exception& e) {
    return std::string("? (") + shorten(e.what(), 30) + ")";
  }
#else
  (void)spec;
  (void)src;
  return "";
#endif
}

// ---------------------------------------------------------------------------------------------
// The run

struct Runner : RunnerBase {
  void run_config(const Config& cfg);
};

std::vector<OpSpec> make_specs(const Config& cfg, const ImageView& src0,
                               std::shared_ptr<ImageSet> maps
#if defined(TEXCV_BENCH_HAS_NPP)
                               ,
                               const std::optional<NppTable>& npp, const NppStreamContext& ctx
#endif
) {
  const int w = cfg.width, h = cfg.height;
  std::vector<OpSpec> specs;
  (void)src0;

  auto sampling = [](Interp in, Path p, Precision pr) {
    texcv::Sampling s;
    s.interp = in;
    s.path = p;
    s.precision = pr;
    return s;
  };
  auto vs = [](cudaStream_t s) { return static_cast<void*>(s); };

#if defined(TEXCV_BENCH_HAS_NPP)
  auto npp_interp = [](Interp in) {
    switch (in) {
      case Interp::nearest:
        return static_cast<int>(NPPI_INTER_NN);
      case Interp::linear:
        return static_cast<int>(NPPI_INTER_LINEAR);
      case Interp::cubic:
        return static_cast<int>(NPPI_INTER_CUBIC);
      case Interp::area:
        return static_cast<int>(NPPI_INTER_SUPER);
    }
    return static_cast<int>(NPPI_INTER_LINEAR);
  };
  auto warn_note = [](NppStatus st) {
    return st > 0 ? "NPP warning " + std::to_string(st) : std::string();
  };
#endif

  // rotate 30 degrees about the centre, same size.
  [[maybe_unused]] const std::array<double, 6> rot = texcv::rotation_matrix(w, h, w, h, 30.0);
  for (Interp in : {Interp::linear, Interp::nearest, Interp::cubic}) {
    if (!cfg.full_ops && in != Interp::linear) continue;
    OpSpec s;
    s.op = "rotate";
    s.params = std::string("30deg ") + texcv::to_string(in);
    s.interp = in;
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [in, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                 cudaStream_t st) {
      texcv::rotate(a, b, 30.0, sampling(in, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiWarpAffine";
      s.peer = [in, rot, npp, ctx, npp_interp, warn_note](const ImageView& a, const ImageView& b,
                                                          cudaStream_t) {
        const double c[2][3] = {{rot[0], rot[1], rot[2]}, {rot[3], rot[4], rot[5]}};
        return warn_note(npp_check(npp->warp_affine(a.data, nsize(a), nstep(a), nrect(a), b.data,
                                                    nstep(b), nrect(b), c, npp_interp(in), ctx),
                                   "nppiWarpAffine"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // A general affine map (scale, shear, translation), linear.
  {
    const std::array<double, 6> m = {0.95, 0.15, -0.05 * w, -0.10, 0.90, 0.10 * h};
    OpSpec s;
    s.op = "warp_affine";
    s.params = "general linear";
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [m, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                cudaStream_t st) {
      texcv::warp_affine(a, b, m, false, sampling(Interp::linear, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiWarpAffine";
      s.peer = [m, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        const double c[2][3] = {{m[0], m[1], m[2]}, {m[3], m[4], m[5]}};
        return warn_note(npp_check(npp->warp_affine(a.data, nsize(a), nstep(a), nrect(a), b.data,
                                                    nstep(b), nrect(b), c, NPPI_INTER_LINEAR, ctx),
                                   "nppiWarpAffine"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // A mild perspective (the denominator stays within [1, 1.15]), linear.
  if (cfg.full_ops) {
    const std::array<double, 9> m = {1.0,      0.05,     0.02 * w, 0.03, 0.98,
                                     0.01 * h, 0.10 / w, 0.05 / h, 1.0};
    OpSpec s;
    s.op = "warp_perspective";
    s.params = "mild linear";
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [m, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                cudaStream_t st) {
      texcv::warp_perspective(a, b, m, false, sampling(Interp::linear, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiWarpPerspective";
      s.peer = [m, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        const double c[3][3] = {{m[0], m[1], m[2]}, {m[3], m[4], m[5]}, {m[6], m[7], m[8]}};
        return warn_note(
            npp_check(npp->warp_perspective(a.data, nsize(a), nstep(a), nrect(a), b.data, nstep(b),
                                            nrect(b), c, NPPI_INTER_LINEAR, ctx),
                      "nppiWarpPerspective"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // resize to 0.5 (four interpolations) and to 2.0 (linear).
  struct ResizeCase {
    double scale;
    Interp interp;
  };
  std::vector<ResizeCase> rcases = {{0.5, Interp::linear}};
  if (cfg.full_ops) {
    rcases.push_back({0.5, Interp::nearest});
    rcases.push_back({0.5, Interp::cubic});
    rcases.push_back({0.5, Interp::area});
  }
  rcases.push_back({2.0, Interp::linear});
  for (const ResizeCase& rc : rcases) {
    OpSpec s;
    s.op = "resize";
    s.params = std::string(rc.scale < 1 ? "0.5 " : "2.0 ") + texcv::to_string(rc.interp);
    s.interp = rc.interp;
    s.dst_w = static_cast<int>(w * rc.scale);
    s.dst_h = static_cast<int>(h * rc.scale);
    const Interp in = rc.interp;
    s.texcv = [in](const ImageView& a, const ImageView& b, Path p, Precision pr, cudaStream_t st) {
      texcv::ResizeParams rp;
      rp.interp = in;
      rp.path = p;
      rp.precision = pr;
      texcv::resize(a, b, rp, static_cast<void*>(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = in == Interp::area ? "nppiResize SUPER" : "nppiResize";
      s.peer = [in, npp, ctx, npp_interp, warn_note](const ImageView& a, const ImageView& b,
                                                     cudaStream_t) {
        return warn_note(npp_check(npp->resize(a.data, nstep(a), nsize(a), nrect(a), b.data,
                                               nstep(b), nsize(b), nrect(b), npp_interp(in), ctx),
                                   "nppiResize"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // remap with maps equal to the 30 degree rotation, linear.
  {
    OpSpec s;
    s.op = "remap";
    s.params = "rot30 maps linear";
    s.dst_w = w;
    s.dst_h = h;
    s.extra_bytes = 2.0 * 4.0 * w * h;
    s.texcv = [maps, sampling, vs](const ImageView& a, const ImageView& b, Path p, Precision pr,
                                   cudaStream_t st) {
      if (!maps || maps->size() < 2) throw BenchError("remap maps were not created");
      texcv::remap(a, b, (*maps)[0], (*maps)[1], sampling(Interp::linear, p, pr), vs(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      s.peer_name = "nppiRemap";
      s.peer = [maps, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        if (!maps || maps->size() < 2) throw BenchError("remap maps were not created");
        const ImageView& mx = (*maps)[0];
        const ImageView& my = (*maps)[1];
        return warn_note(npp_check(
            npp->remap(a.data, nsize(a), nstep(a), nrect(a), static_cast<const Npp32f*>(mx.data),
                       nstep(mx), static_cast<const Npp32f*>(my.data), nstep(my), b.data, nstep(b),
                       nsize(b), NPPI_INTER_LINEAR, ctx),
            "nppiRemap"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // flip: horizontal (left-right) and vertical (top-bottom).
  for (texcv::FlipCode code : {texcv::FlipCode::horizontal, texcv::FlipCode::vertical}) {
    if (!cfg.full_ops && code != texcv::FlipCode::horizontal) continue;
    OpSpec s;
    s.op = "flip";
    s.params = texcv::to_string(code);
    s.has_paths = false;
    s.interp = Interp::nearest;
    s.dst_w = w;
    s.dst_h = h;
    s.texcv = [code](const ImageView& a, const ImageView& b, Path, Precision, cudaStream_t st) {
      texcv::flip(a, b, code, static_cast<void*>(st));
    };
#if defined(TEXCV_BENCH_HAS_NPP)
    if (npp) {
      // NPP names the axis of reflection: a left-right mirror flips about the vertical axis.
      const NppiAxis axis =
          code == texcv::FlipCode::horizontal ? NPP_VERTICAL_AXIS : NPP_HORIZONTAL_AXIS;
      s.peer_name = "nppiMirror";
      s.peer = [axis, npp, ctx, warn_note](const ImageView& a, const ImageView& b, cudaStream_t) {
        return warn_note(npp_check(
            npp->mirror(a.data, nstep(a), b.data, nstep(b), nsize(a), axis, ctx), "nppiMirror"));
      };
    }
#endif
    specs.push_back(std::move(s));
  }

  // crop: the centre half (a copy of a w/2 x h/2 rectangle).
  if (cfg.full_ops) {
    const texcv::Rect r{w / 4, h / 4, w / 2, h / 2};
    OpSpec s;
    s.op = "crop";
    s.params = "centre half";
    s.has_paths = false;
    s.interp = Interp::nearest;
    s.dst_w = r.width;
    s.dst_h = r.height;
    s.crop_bytes = true;
    s.texcv = [r](const ImageView& a, const ImageView& b, Path, Precision, cudaStream_t st) {
      texcv::crop(a, b, r, static_cast<void*>(st));
    };
    s.peer_name = "cudaMemcpy2DAsync";
    s.peer = [r](const ImageView& a, const ImageView& b, cudaStream_t st) {
      const unsigned char* p = static_cast<const unsigned char*>(a.data) +
                               a.pitch * static_cast<std::size_t>(r.y) +
                               a.pixel_bytes() * static_cast<std::size_t>(r.x);
      BENCH_CUDA(cudaMemcpy2DAsync(b.data, b.pitch, p, a.pitch, b.row_bytes(),
                                   static_cast<std::size_t>(b.height), cudaMemcpyDeviceToDevice,
                                   st));
      return std::string();
    };
    specs.push_back(std::move(s));
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

  // Inputs: random smooth content on the host, copied to every input buffer through texcv.
  ImageSet in;
  double in_bytes = 0;
  if (!make_inputs(base, cfg.width, cfg.height, cfg.channels, cfg.type,
                   1234u + static_cast<std::uint32_t>(cfg.channels * 7 + cfg.width), in, in_bytes))
    return;
  // cudaMemcpy2DAsync for reference, then the copy floor (a 16-byte-per-thread copy kernel).
  const double copy_gbps = time_copy_floor(base, in, in_bytes);

  // remap's maps (a rotation by 30 degrees), only when remap is wanted.
  auto maps = std::make_shared<ImageSet>();
  {
    OpSpec probe;
    probe.op = "remap";
    probe.params = "rot30 maps linear";
    if (wanted(probe.op, probe.params) && !context_lost) {
      try {
        HostBuffer mx(cfg.width, cfg.height, 1, ElemType::f32);
        HostBuffer my(cfg.width, cfg.height, 1, ElemType::f32);
        const auto inv = invert_affine(
            texcv::rotation_matrix(cfg.width, cfg.height, cfg.width, cfg.height, 30.0));
        for (int y = 0; y < cfg.height; ++y) {
          float* px = mx.view.row<float>(y);
          float* py = my.view.row<float>(y);
          for (int x = 0; x < cfg.width; ++x) {
            px[x] = static_cast<float>(inv[0] * x + inv[1] * y + inv[2]);
            py[x] = static_cast<float>(inv[3] * x + inv[4] * y + inv[5]);
          }
        }
        *maps = make_set(cfg.width, cfg.height, 1, ElemType::f32, 2);
        texcv::copy(mx.view, maps->images[0].view(), static_cast<void*>(stream));
        texcv::copy(my.view, maps->images[1].view(), static_cast<void*>(stream));
        BENCH_CUDA(cudaStreamSynchronize(stream));
      } catch (const std::exception& e) {
        std::printf("   (remap maps could not be made: %s)\n", e.what());
        maps->images.clear();
      }
    }
  }

#if defined(TEXCV_BENCH_HAS_NPP)
  std::optional<NppTable> table;
  if (npp) table = npp_table(cfg.type, cfg.channels);
  std::vector<OpSpec> specs = make_specs(cfg, in[0], maps, table, npp_ctx);
#else
  std::vector<OpSpec> specs = make_specs(cfg, in[0], maps);
#endif

  for (OpSpec& spec : specs) {
    if (!wanted(spec.op, spec.params)) continue;
    Row opbase = base;
    opbase.op = spec.op;
    opbase.params = spec.params;
    opbase.dst_width = spec.dst_w;
    opbase.dst_height = spec.dst_h;
    const double out_bytes =
        static_cast<double>(spec.dst_w) * spec.dst_h * cfg.channels * esize(cfg.type);
    opbase.bytes = (spec.crop_bytes ? out_bytes : in_bytes) + out_bytes + spec.extra_bytes;

    ImageSet out;
    if (!make_outputs(opbase, spec.dst_w, spec.dst_h, cfg.channels, cfg.type, out_bytes, out))
      continue;

    // texcv on every path (the first that runs is the reference of the others), then the peer.
    const std::vector<Path> paths =
        spec.has_paths
            ? std::vector<Path>{Path::global, Path::texture, Path::texture_filter, Path::automatic}
            : std::vector<Path>{Path::automatic};
    std::vector<Variant> variants;
    for (Path p : paths) {
      Variant v;
      v.path = spec.has_paths ? path_name(p) : "-";
      // Hardware filtering is the `fast` precision; the other paths keep the default.
      const Precision pr = p == Path::texture_filter ? Precision::fast : Precision::automatic;
      if (p == Path::automatic && spec.has_paths) v.auto_choice = auto_choice(spec, in[0]);
      v.run = [&spec, p, pr](const ImageView& a, const ImageView& b, cudaStream_t st) {
        spec.texcv(a, b, p, pr, st);
      };
      variants.push_back(std::move(v));
    }
    std::vector<Peer> peers;
    if (spec.peer) {
      Peer pe;
      pe.name = spec.peer_name;
      pe.impl = spec.peer_name.rfind("npp", 0) == 0 ? "npp" : "cuda";
      pe.run = spec.peer;
      pe.prefill = spec.peer_prefill;
      peers.push_back(std::move(pe));
    }
    run_variants(opbase, in, out, variants, peers, copy_gbps,
                 npp ? "no NPP function for this type" : "NPP not available in this build/run");
  }
  // Drop the cached texture objects while their buffers still exist (they are freed next).
  clear_textures();
}

// The summary's texcv columns: path, header.
const std::vector<std::pair<std::string, std::string>> kSummaryPaths = {
    {"global", "global"}, {"texture", "texture"}, {"texture_filter", "tex_filt"}};

}  // namespace

int main(int argc, char** argv) {
  set_program("bench_geometry");
  Runner run;
  try {
    run.opt = parse_args(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_geometry: %s\n", e.what());
    usage(stderr);
    return 1;
  }
  const std::vector<Config> configs = select_configs(all_configs(run.opt.quick), run.opt);
  if (run.opt.list) {
    print_configs(configs);
    return 0;
  }

  if (run.opt.selftest) {
    run.meta.strings.push_back({"gpu", "selftest \"quoted\" \\ name"});
    run.meta.numbers.push_back({"reps", run.opt.reps});
    const char* paths[] = {"global", "texture", "texture_filter", "auto"};
    for (const Config& c : configs) {
      Row copy;
      copy.config = c.name;
      copy.op = "copy";
      copy.params = "floor d2d";
      copy.impl = "cuda";
      copy.type = tname(c.type);
      copy.channels = c.channels;
      copy.width = c.width;
      copy.height = c.height;
      copy.status = "ok";
      copy.median_ms = 0.131;
      copy.gbps = 4100;
      copy.pct_copy = 100;
      run.rows.push_back(copy);
      for (int k = 0; k < 4; ++k) {
        Row r = copy;
        r.op = "rotate";
        r.params = "30deg linear";
        r.impl = "texcv";
        r.path = paths[k];
        r.median_ms = 0.2 + 0.01 * k;
        r.pct_copy = 60;
        if (k == 3) r.auto_choice = "texture_filter";
        if (k == 1 && c.channels == 3) {
          r.status = "n/a";
          r.note = "path texture needs a texture; got 3 channels, expected 1 or 4 channels";
        }
        run.rows.push_back(r);
      }
      Row n = copy;
      n.op = "rotate";
      n.params = "30deg linear";
      n.impl = "npp";
      n.median_ms = 0.3;
      n.diff_mean = 0.25;
      n.diff_max = 2;
      n.diff_vs = "texcv global";
      n.note = "nppiWarpAffine, max diff 2 vs texcv global";
      run.rows.push_back(n);
    }
    for (const Row& r : run.rows) print_row(r);
    write_json(run.opt.out, run.meta, run.rows);
    write_csv(run.opt.csv, run.rows);
    print_summary(run.rows, kSummaryPaths);
    return 0;
  }
  if (configs.empty()) {
    std::fprintf(stderr, "bench_geometry: no configuration matches --config\n");
    return 1;
  }
  if (const int rc = run.setup(
#if defined(TEXCV_BENCH_HAS_PATH_RULE)
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
