// The reductions, histograms and clahe on the CUDA backend, on the caller's stream. min_max,
// mean_std and histogram read their (per-block partial) results back into host memory and
// synchronize the stream; the host then combines the partials: exact integers for u8/u16 sums
// and for every count, double sums in block order for f32. affine_channels, apply_lut_u8 and
// clahe only enqueue work. Temporaries are stream-ordered (cudaMallocAsync / cudaFreeAsync on the
// caller's stream).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/core/color_stats.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/hist/hist_launch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {

// Stream-ordered device memory for one call, freed on the stream (the destructor covers the
// error paths; release() reports a failing free).
class StreamTemp {
 public:
  StreamTemp(std::size_t bytes, cudaStream_t st, const char* op) : st_(st) {
    TEXCV_CUDA_CHECK(op, cudaMallocAsync(&p_, bytes, st));
  }
  StreamTemp(const StreamTemp&) = delete;
  StreamTemp& operator=(const StreamTemp&) = delete;
  ~StreamTemp() {
    if (p_) record_release_error(cudaFreeAsync(p_, st_));
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(p_);
  }
  void release(const char* op) {
    void* p = p_;
    p_ = nullptr;
    TEXCV_CUDA_CHECK(op, cudaFreeAsync(p, st_));
  }

 private:
  void* p_ = nullptr;
  cudaStream_t st_ = nullptr;
};

ops::ReduceSrc reduce_src(const ImageView& v) {
  return ops::ReduceSrc{static_cast<const unsigned char*>(v.data), v.pitch, v.width, v.height,
                        v.channels};
}

// Blocks of a reduction: about 8192 elements each, at most one per row and 1024 in all.
int reduce_blocks(const ImageView& v) {
  const long long elems = static_cast<long long>(v.width) * v.height * v.channels;
  const long long want = (elems + 8191) / 8192;
  const long long cap = std::min<long long>(v.height, 1024);
  return static_cast<int>(std::clamp<long long>(want, 1, cap));
}

// Copies n values of T from device memory back to the host and waits for the stream.
template <typename T>
std::vector<T> read_back(const char* op, const T* dev, std::size_t n, cudaStream_t st) {
  std::vector<T> h(n);
  TEXCV_CUDA_CHECK(op, cudaMemcpyAsync(h.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost, st));
  return h;
}

void sync(const char* op, cudaStream_t st) {
  TEXCV_CUDA_CHECK(op, cudaStreamSynchronize(st));
}

}  // namespace

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

std::vector<std::vector<std::uint64_t>> histogram(const char* kOp, const ImageView& src, int bins,
                                                  double lo, double hi, void* stream) {
  ops::check_device_view(kOp, src, "src");
  const auto st = static_cast<cudaStream_t>(stream);
  const int C = src.channels;
  const int blocks = reduce_blocks(src);
  ops::HistArgs h;
  h.bins = bins;
  h.a = bins / (hi - lo);  // the CPU's constants
  h.b = -lo * h.a;
  // Shared-memory counters when they fit in the default 48 KiB and no block can count more than
  // 2^32 - 1 elements.
  const long long rows_per_block = (src.height + blocks - 1) / blocks;
  const long long block_elems = rows_per_block * src.width * C;
  h.shared = static_cast<long long>(C) * bins * 4 <= 48 * 1024 && block_elems <= 0xffffffffLL;
  const std::size_t total = static_cast<std::size_t>(C) * static_cast<std::size_t>(bins);
  StreamTemp counts(total * sizeof(unsigned long long), st, kOp);
  TEXCV_CUDA_CHECK(kOp,
                   cudaMemsetAsync(counts.as<void>(), 0, total * sizeof(unsigned long long), st));
  ops::by_type(kOp, src.type, [&]<typename T>() {
    ops::launch_histogram<T>(kOp, reduce_src(src), blocks, h, counts.as<unsigned long long>(), st);
  });
  const std::vector<unsigned long long> p =
      read_back(kOp, counts.as<unsigned long long>(), total, st);
  counts.release(kOp);
  sync(kOp, st);
  std::vector<std::vector<std::uint64_t>> out(C);
  for (int c = 0; c < C; ++c)
    out[c].assign(p.begin() + static_cast<std::ptrdiff_t>(c) * bins,
                  p.begin() + static_cast<std::ptrdiff_t>(c + 1) * bins);
  return out;
}

void apply_lut_u8(const char* op, const ImageView& src, const ImageView& dst,
                  const std::uint8_t lut[256], void* stream) {
  ops::check_device_view(op, src, "src");
  ops::check_device_view(op, dst, "dst");
  ops::Lut8 l;
  for (int i = 0; i < 256; ++i) l.v[i] = lut[i];
  ops::launch_lut_u8(op, ops::point_src(src), ops::dst_args(dst), l,
                     static_cast<cudaStream_t>(stream));
}

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
