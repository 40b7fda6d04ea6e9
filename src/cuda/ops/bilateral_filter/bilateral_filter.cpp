// bilateral_filter on the CUDA backend, on the caller's stream. src/core built the disc; this
// builds the colour table on the host (src/core's bilateral_color_u8 / _f32, as the CPU backend),
// uploads the tables into one stream-ordered buffer and launches bilateral_filter_kernels.cuh. f32
// needs the image's range first: a reduction on the stream, then one cudaStreamSynchronize to read
// its 8 bytes back (the table depends on it, as in OpenCV).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "src/core/nonlinear_desc.hpp"
#include "src/cuda/ops/bilateral_filter/bilateral_filter_launch.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {

constexpr const char* kOp = "bilateral_filter";

// Stream-ordered device bytes, freed on the stream (release() reports a failure; the destructor,
// reached only while already failing, records it).
class StreamBytes {
 public:
  StreamBytes(std::size_t bytes, cudaStream_t st) : st_(st) {
    TEXCV_CUDA_CHECK(kOp, cudaMallocAsync(&p_, bytes, st));
  }
  StreamBytes(const StreamBytes&) = delete;
  StreamBytes& operator=(const StreamBytes&) = delete;
  ~StreamBytes() {
    if (p_) record_release_error(cudaFreeAsync(p_, st_));
  }
  unsigned char* data() const { return static_cast<unsigned char*>(p_); }
  void release() {
    void* p = p_;
    p_ = nullptr;
    TEXCV_CUDA_CHECK(kOp, cudaFreeAsync(p, st_));
  }

 private:
  void* p_ = nullptr;
  cudaStream_t st_ = nullptr;
};

float key_to_float(std::uint32_t k) {
  const std::uint32_t b = detail::key_float_bits(k);
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

}  // namespace

namespace ops::bilateral {

bool force_disc_kernel() {
  static const bool disc = [] {
    const char* v = std::getenv("TEXCV_BILATERAL_KERNEL");
    return v != nullptr && std::strcmp(v, "disc") == 0;
  }();
  return disc;
}

}  // namespace ops::bilateral

void bilateral_filter(const ImageView& src, const ImageView& dst, const detail::BilateralDesc& d,
                      void* stream) {
  ops::check_device_view(kOp, src, "src");
  ops::check_device_view(kOp, dst, "dst");
  if (src.width == 0 || src.height == 0) return;
  const auto st = static_cast<cudaStream_t>(stream);
  const ops::BilateralSrc s{static_cast<const unsigned char*>(src.data), src.pitch, src.width,
                            src.height};
  const int ch = src.channels;
  detail::BilateralColor color;
  if (src.type == ElemType::u8) {
    color = detail::bilateral_color_u8(d, ch);
  } else {
    StreamBytes range(2 * sizeof(std::uint32_t), st);
    ops::launch_finite_range(s, ch, reinterpret_cast<std::uint32_t*>(range.data()), st);
    std::uint32_t keys[2] = {0, 0};
    TEXCV_CUDA_CHECK(kOp,
                     cudaMemcpyAsync(keys, range.data(), sizeof keys, cudaMemcpyDeviceToHost, st));
    range.release();
    TEXCV_CUDA_CHECK(kOp, cudaStreamSynchronize(st));
    const bool any = keys[0] <= keys[1];
    color = detail::bilateral_color_f32(d, ch, any, any ? key_to_float(keys[0]) : 0.0f,
                                        any ? key_to_float(keys[1]) : 0.0f);
    if (color.copy) {
      TEXCV_CUDA_CHECK(kOp, cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch,
                                              src.row_bytes(), static_cast<std::size_t>(src.height),
                                              cudaMemcpyDeviceToDevice, st));
      return;
    }
  }
  // One upload: space weights, dx, dy, colour table (4-byte items each).
  const std::size_t taps = d.space.size();
  const std::size_t n = 3 * taps + color.table.size();
  std::vector<std::uint32_t> host(n);
  std::memcpy(host.data(), d.space.data(), taps * 4);
  std::memcpy(host.data() + taps, d.dx.data(), taps * 4);
  std::memcpy(host.data() + 2 * taps, d.dy.data(), taps * 4);
  std::memcpy(host.data() + 3 * taps, color.table.data(), color.table.size() * 4);
  StreamBytes tables(n * 4, st);
  // From pageable memory: the call returns once the bytes are staged, so `host` may go.
  TEXCV_CUDA_CHECK(kOp,
                   cudaMemcpyAsync(tables.data(), host.data(), n * 4, cudaMemcpyHostToDevice, st));
  ops::BilateralArgs a;
  const auto* base = reinterpret_cast<const std::uint32_t*>(tables.data());
  a.space = reinterpret_cast<const float*>(base);
  a.dx = reinterpret_cast<const int*>(base + taps);
  a.dy = reinterpret_cast<const int*>(base + 2 * taps);
  a.taps = static_cast<int>(taps);
  int radius = 0;  // the disc's extent (the tiled kernel's tile margin)
  for (std::size_t k = 0; k < taps; ++k)
    radius = std::max({radius, std::abs(d.dx[k]), std::abs(d.dy[k])});
  a.radius = radius;
  a.table = reinterpret_cast<const float*>(base + 3 * taps);
  a.table_size = static_cast<int>(color.table.size());
  a.scale = color.scale;
  a.bins = color.bins;
  a.border = d.border.border;
  for (int c = 0; c < 4; ++c) a.value[c] = d.border.value[c];
  const ops::DstArgs o = ops::dst_args(dst);
  if (src.type == ElemType::u8)
    ops::launch_bilateral<std::uint8_t>(s, o, ch, a, st);
  else
    ops::launch_bilateral<float>(s, o, ch, a, st);
  tables.release();
}

}  // namespace texcv::cuda
