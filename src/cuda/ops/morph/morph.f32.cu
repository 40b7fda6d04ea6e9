// Morphology kernels for f32 images.
#include "src/cuda/ops/morph/morph_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_MORPH(float)

bool launch_morph_f32_slide(const MorphSrc& s, const DstArgs& d, bool max, const MorphAxisArgs& ax,
                            const MorphAxisArgs& ay, unsigned full_rows, cudaStream_t st) {
  const int k = ax.n;
  const auto addr = reinterpret_cast<std::uintptr_t>(s.data);
  if (k != ay.n || !slide_element_fits(k, full_rows) || ax.anchor != k / 2 || ay.anchor != k / 2 ||
      addr % 16 != 0 || s.pitch % 16 != 0 || fused_f32_forced())
    return false;
  constexpr int RS = tuning::Morph::kRectF32SlideRows;
  const dim3 g = grid_for(d.width, (d.height + RS - 1) / RS, 4);
  const dim3 b(kBlockX, kBlockY);
  auto go = [&]<int K, unsigned Full>() {
    if (max)
      morph_rect_f32_slide_kernel<true, K, RS, Full><<<g, b, 0, st>>>(s, d, ax, ay);
    else
      morph_rect_f32_slide_kernel<false, K, RS, Full><<<g, b, 0, st>>>(s, d, ax, ay);
  };
  if (k == 3) {
    full_rows == 0b111u ? go.template operator()<3, 0b111u>() : go.template operator()<3, 0b010u>();
  } else if (full_rows == 0b11111u) {
    go.template operator()<5, 0b11111u>();
  } else if (full_rows == 0b01110u) {
    go.template operator()<5, 0b01110u>();
  } else {
    go.template operator()<5, 0b00100u>();
  }
  TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
  return true;
}

}  // namespace texcv::cuda::ops
