// Morphology kernels for u8 images, the u8 one-channel rectangle kernels on 32-bit words, and the
// fused rectangle kernel on u8x4 pixel words.
#include "src/cuda/ops/morph/morph_kernels.cuh"

namespace texcv::cuda::ops {

TEXCV_INSTANTIATE_MORPH(std::uint8_t)
template void launch_morph_rect<U8x4Word>(const MorphSrc&, const DstArgs&, int, bool,
                                          const MorphAxisArgs&, const MorphAxisArgs&, cudaStream_t);

bool launch_morph_u8_slide(const MorphSrc& s, const DstArgs& d, bool max, const MorphAxisArgs& ax,
                           const MorphAxisArgs& ay, unsigned full_rows, cudaStream_t st) {
  const int rows = u8_slide_rows();
  const int k = ax.n;
  if (rows == 0 || k != ay.n || !slide_element_fits(k, full_rows) || s.pitch % 16 != 0)
    return false;
  const auto addr = reinterpret_cast<std::uintptr_t>(s.data);
  // s0: the first tap's byte in its 16-byte word; the kernel takes first taps within 4 bytes of
  // a chunk (every anchor of a source whose rows start at 16-byte steps).
  const int s0 = static_cast<int>((addr + 16u * 16u - static_cast<unsigned>(ax.anchor)) & 15u);
  const int r = s0 <= 3 ? s0 : s0 >= 12 ? s0 - 16 : 99;
  if (r == 99) return false;
  const dim3 b(kBlockX, kBlockY);
  auto go = [&]<int K, int RS, bool LW, unsigned Full>() {
    const dim3 g = grid_for(d.width, (d.height + RS - 1) / RS, 16);
    if (max)
      morph_rect_u8_slide_kernel<true, K, K, RS, LW, Full><<<g, b, 0, st>>>(s, d, ax, ay, r);
    else
      morph_rect_u8_slide_kernel<false, K, K, RS, LW, Full><<<g, b, 0, st>>>(s, d, ax, ay, r);
  };
  // Rectangles at the rows a thread u8_slide_rows() gives; the other elements at the tuning's.
  auto by_rows = [&]<int K, bool LW>() {
    static_assert(kRectU8SlideRows == 8 || kRectU8SlideRows == 16 || kRectU8SlideRows == 32,
                  "the rows u8_slide_rows() gives");
    constexpr unsigned kAll = (1u << K) - 1u;
    if (full_rows != kAll) {
      if constexpr (K == 3)
        go.template operator()<K, kRectU8SlideRows, LW, 0b010u>();
      else if (full_rows == 0b01110u)
        go.template operator()<K, kRectU8SlideRows, LW, 0b01110u>();
      else
        go.template operator()<K, kRectU8SlideRows, LW, 0b00100u>();
    } else if (rows == 16) {
      go.template operator()<K, 16, LW, kAll>();
    } else if (rows == 32) {
      go.template operator()<K, 32, LW, kAll>();
    } else {
      go.template operator()<K, 8, LW, kAll>();
    }
  };
  if (k == 3)
    r < 0 ? by_rows.template operator()<3, true>() : by_rows.template operator()<3, false>();
  else
    r < 0 ? by_rows.template operator()<5, true>() : by_rows.template operator()<5, false>();
  TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
  return true;
}

void launch_morph_rect_u8(const MorphSrc& s, const DstArgs& d, bool max, const MorphAxisArgs& ax,
                          const MorphAxisArgs& ay, cudaStream_t st) {
  if (ax.n > kRectU8MaxTaps || s.pitch % 4 != 0)
    fail(ErrorCode::Internal, morph_op(max),
         "the u8 rectangle kernel got a rectangle or layout it does not take",
         std::to_string(ax.n) + " taps, pitch " + std::to_string(s.pitch),
         "at most " + std::to_string(kRectU8MaxTaps) + " taps and a pitch of 4-byte steps");
  if (ay.n <= 5 && launch_morph_u8_slide(s, d, max, ax, ay, (1u << ay.n) - 1u, st)) return;
  const auto addr = reinterpret_cast<std::uintptr_t>(s.data);
  if (s.pitch % 16 == 0) {
    // 16 pixels a thread from 16-byte loads; s0: the first tap's byte in its 16-byte word.
    const int s0 = static_cast<int>((addr + 16u * 16u - static_cast<unsigned>(ax.anchor)) & 15u);
    const dim3 g = grid_for(d.width, (d.height + kRectU8Rows - 1) / kRectU8Rows, 16);
    const dim3 b(kBlockX, kBlockY);
    auto go = [&]<int SW>() {
      with_fixed_size(ax.n, ay.n, [&]<int KX, int KY>() {
        if constexpr (KX != 0) {
          // 3x3 and 5x5: the split form's three-way picks.
          if (max)
            morph_rect_u8_split_kernel<true, SW, KX, KY><<<g, b, 0, st>>>(s, d, ax, ay, s0);
          else
            morph_rect_u8_split_kernel<false, SW, KX, KY><<<g, b, 0, st>>>(s, d, ax, ay, s0);
        } else if (max) {
          morph_rect_u8x16_kernel<true, SW, KX, KY><<<g, b, 0, st>>>(s, d, ax, ay, s0);
        } else {
          morph_rect_u8x16_kernel<false, SW, KX, KY><<<g, b, 0, st>>>(s, d, ax, ay, s0);
        }
      });
    };
    switch (s0 >> 2) {
      case 0:
        go.template operator()<0>();
        break;
      case 1:
        go.template operator()<1>();
        break;
      case 2:
        go.template operator()<2>();
        break;
      default:
        go.template operator()<3>();
        break;
    }
  } else {
    const int mis = static_cast<int>(addr & 3);
    const dim3 g = grid_for(d.width, (d.height + kRectU8Rows - 1) / kRectU8Rows, 4);
    if (max)
      morph_rect_u8_kernel<true><<<g, dim3(kBlockX, kBlockY), 0, st>>>(s, d, ax, ay, mis);
    else
      morph_rect_u8_kernel<false><<<g, dim3(kBlockX, kBlockY), 0, st>>>(s, d, ax, ay, mis);
  }
  TEXCV_CUDA_CHECK_LAUNCH(morph_op(max));
}

}  // namespace texcv::cuda::ops
