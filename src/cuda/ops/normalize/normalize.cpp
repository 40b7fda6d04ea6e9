// normalize's passes on the CUDA backend, on the caller's stream: min_max and mean_std read their
// per-block partial results back and synchronize the stream; the host combines them (exact
// integers for u8/u16 sums, double sums in block order for f32). affine_channels only enqueues.
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/hist/hist_host.hpp"
#include "src/cuda/ops/normalize/normalize_launch.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

using hist::read_back;
using hist::reduce_blocks;
using hist::reduce_src;
using hist::StreamTemp;
using hist::sync;

void min_max(const ImageView& src, double& lo, double& hi, void* stream) {
  constexpr const char* kOp = "normalize";
  ops::check_device_view(kOp, src, "src");
  const auto st = static_cast<cudaStream_t>(stream);
  const int blocks = reduce_blocks(src);
  StreamTemp part(sizeof(double) * 2 * blocks, st, kOp);
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_min_max<T>(reduce_src(src), blocks, part.as<double>(), st);
  });
  const std::vector<double> p = read_back(kOp, part.as<double>(), 2 * blocks, st);
  part.release(kOp);
  sync(kOp, st);
  lo = p[0];
  hi = p[1];
  for (int b = 1; b < blocks; ++b) {
    lo = std::fmin(lo, p[2 * b]);
    hi = std::fmax(hi, p[2 * b + 1]);
  }
}

void mean_std(const ImageView& src, double mean[4], double sd[4], void* stream) {
  constexpr const char* kOp = "normalize";
  ops::check_device_view(kOp, src, "src");
  const auto st = static_cast<cudaStream_t>(stream);
  const int blocks = reduce_blocks(src);
  const std::uint64_t n = static_cast<std::uint64_t>(src.width) * src.height;
  const ops::ReduceSrc rs = reduce_src(src);
  if (src.type != ElemType::f32) {
    // Exact 64-bit sums per block, added in 128 bits: the CPU's integers, the CPU's formula.
    StreamTemp part(sizeof(unsigned long long) * 8 * blocks, st, kOp);
    if (src.type == ElemType::u8)
      ops::launch_int_sums<std::uint8_t>(rs, blocks, part.as<unsigned long long>(), st);
    else
      ops::launch_int_sums<std::uint16_t>(rs, blocks, part.as<unsigned long long>(), st);
    const std::vector<unsigned long long> p =
        read_back(kOp, part.as<unsigned long long>(), 8 * static_cast<std::size_t>(blocks), st);
    part.release(kOp);
    sync(kOp, st);
    detail::U128 sum[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
    for (int b = 0; b < blocks; ++b)
      for (int c = 0; c < 4; ++c) {
        sum[c] += p[static_cast<std::size_t>(b) * 8 + 2 * c];
        sq[c] += p[static_cast<std::size_t>(b) * 8 + 2 * c + 1];
      }
    for (int c = 0; c < 4; ++c) detail::mean_std_from_sums(n, sum[c], sq[c], mean[c], sd[c]);
    return;
  }
  // f32: the CPU's two passes (sum, then squared deviations from the mean), each a double sum per
  // thread, per block (tree) and over the blocks in order on the host: the same terms as the CPU,
  // added in another order.
  StreamTemp part(sizeof(double) * 4 * blocks, st, kOp);
  const double count = static_cast<double>(n);
  auto pass = [&](const ops::Centre& centre, double out[4]) {
    ops::launch_f32_sums(rs, blocks, centre, part.as<double>(), st);
    const std::vector<double> p =
        read_back(kOp, part.as<double>(), 4 * static_cast<std::size_t>(blocks), st);
    sync(kOp, st);
    for (int c = 0; c < 4; ++c) out[c] = 0.0;
    for (int b = 0; b < blocks; ++b)
      for (int c = 0; c < 4; ++c) out[c] += p[static_cast<std::size_t>(b) * 4 + c];
  };
  double sum[4], sq[4];
  pass(ops::Centre{}, sum);
  ops::Centre centre;
  centre.use = true;
  for (int c = 0; c < 4; ++c) centre.c[c] = mean[c] = sum[c] / count;
  pass(centre, sq);
  part.release(kOp);
  for (int c = 0; c < 4; ++c) sd[c] = std::sqrt(sq[c] / count);
}

void affine_channels(const ImageView& src, const ImageView& dst, const detail::AffineChannelDesc& d,
                     void* stream) {
  constexpr const char* kOp = "normalize";
  ops::check_device_view(kOp, src, "src");
  ops::check_device_view(kOp, dst, "dst");
  const auto st = static_cast<cudaStream_t>(stream);
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_affine_channels<T>(ops::point_src(src), ops::dst_args(dst), src.channels, d, st);
  });
}

}  // namespace texcv::cuda
