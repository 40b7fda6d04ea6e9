// clahe (include/texcv/ops/clahe.hpp): its validation and routing to the CPU or CUDA
// backend, and its spec (the registry entry: the pipeline step, the Python functions, texcv ops).
#include "texcv/ops/clahe.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "src/core/color_common.hpp"

namespace texcv {

using namespace color_common;  // NOLINT: what the color ops share

void clahe(const ImageView& src, const ImageView& dst, const ClaheParams& p, void* stream) {
  const char* op = "clahe";
  check_views(op, src, dst);
  if (src.type == ElemType::f32)
    fail(ErrorCode::Unsupported, op, "source element type is not supported", "f32", "u8 or u16");
  if (src.channels != 1)
    fail(ErrorCode::Unsupported, op, "source channel count is not supported",
         std::to_string(src.channels), "1");
  check_same_type(op, src, dst);
  check_same_channels(op, src, dst);
  if (!(p.clip_limit >= 0.0) || !std::isfinite(p.clip_limit))
    fail(ErrorCode::InvalidArgument, op, "clip limit must be finite and >= 0", num(p.clip_limit),
         ">= 0");
  if (p.tiles_x < 1 || p.tiles_y < 1 || p.tiles_x > src.width || p.tiles_y > src.height)
    fail(ErrorCode::InvalidArgument, op,
         "tile grid must be at least 1x1 and at most the image size",
         size_str(p.tiles_x, p.tiles_y), "1x1 .. " + size_str(src.width, src.height));
  if (src.location == Location::device)
    return TEXCV_CUDA("clahe", cuda::clahe(src, dst, p.clip_limit, p.tiles_x, p.tiles_y, stream));
  cpu::clahe(src, dst, p.clip_limit, p.tiles_x, p.tiles_y);
}

namespace reg {

void declare_clahe(std::vector<OpEntry>& ops) {
  OpEntry e;
  e.spec.name = "clahe";
  e.spec.summary =
      "contrast-limited adaptive histogram equalization, as cv::createCLAHE (u8 or u16, "
      "1 channel)";
  auto& ps = e.spec.params;
  ps.push_back(p_float("clip_limit", "40", "contrast limit; 0: no clipping", 0));
  ps.push_back(p_int("tiles_x", "8", 1, "tiles across (at most the image width)"));
  ps.push_back(p_int("tiles_y", "8", 1, "tiles down (at most the image height)"));
  e.size = same_size;
  e.run = [](const Args& a, const ImageView& src, const ImageView& dst, void* stream) {
    ClaheParams p;
    p.clip_limit = a.f("clip_limit");
    p.tiles_x = a.i("tiles_x");
    p.tiles_y = a.i("tiles_y");
    clahe(src, dst, p, stream);
  };
  e.spec.doc =
      "Contrast-limited adaptive histogram equalization, as\n"
      "cv2.createCLAHE(clip_limit, (tiles_x, tiles_y)).apply (u8/u16, 1 channel); 1 level.";
  declare_python(e.spec, {"clip_limit", "tiles_x", "tiles_y"});
  ops.push_back(std::move(e));
}

}  // namespace reg
}  // namespace texcv
