// clahe on the CUDA backend, on the caller's stream: per-tile histograms, tables and the blend,
// with stream-ordered temporaries.
#include <cstddef>
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/cuda/ops/clahe/clahe_launch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/hist/hist_host.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

using hist::read_back;
using hist::reduce_blocks;
using hist::reduce_src;
using hist::StreamTemp;
using hist::sync;

void clahe(const ImageView& src, const ImageView& dst, double clip_limit, int tiles_x, int tiles_y,
           void* stream) {
  constexpr const char* kOp = "clahe";
  ops::check_device_view(kOp, src, "src");
  ops::check_device_view(kOp, dst, "dst");
  const auto st = static_cast<cudaStream_t>(stream);
  auto run = [&]<typename T>() {
    constexpr int kBins = sizeof(T) == 1 ? 256 : 65536;
    const detail::ClaheGeometry g =
        detail::clahe_geometry(src.width, src.height, clip_limit, tiles_x, tiles_y, kBins);
    ops::ClaheArgs a;
    a.width = src.width;
    a.height = src.height;
    a.tiles_x = tiles_x;
    a.tiles_y = tiles_y;
    a.tw = g.tw;
    a.th = g.th;
    a.tile_total = g.tile_total;
    a.clip = g.clip;
    a.lut_scale = g.lut_scale;
    a.inv_tw = g.inv_tw;
    a.inv_th = g.inv_th;
    const std::size_t cells = static_cast<std::size_t>(tiles_x) * tiles_y * kBins;
    StreamTemp hist(cells * sizeof(int), st, kOp);
    StreamTemp luts(cells * sizeof(T), st, kOp);
    TEXCV_CUDA_CHECK(kOp, cudaMemsetAsync(hist.as<void>(), 0, cells * sizeof(int), st));
    ops::launch_clahe_hist<T>(reduce_src(src), a, hist.as<int>(), st);
    ops::launch_clahe_lut<T>(a, hist.as<int>(), luts.as<T>(), st);
    ops::launch_clahe_apply<T>(ops::point_src(src), ops::dst_args(dst), a, luts.as<T>(), st);
    hist.release(kOp);
    luts.release(kOp);
  };
  if (src.type == ElemType::u16)
    run.template operator()<std::uint16_t>();
  else
    run.template operator()<std::uint8_t>();
}

}  // namespace texcv::cuda
