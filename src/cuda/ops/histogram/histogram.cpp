// histogram on the CUDA backend (also Otsu's threshold's and equalize_hist's counts), on the
// caller's stream: the counts are read back and the stream synchronized.
#include <cstdint>
#include <vector>

#include "src/core/color_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/hist/hist_host.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

using hist::read_back;
using hist::reduce_blocks;
using hist::reduce_src;
using hist::StreamTemp;
using hist::sync;

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

}  // namespace texcv::cuda
