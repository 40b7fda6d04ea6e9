// CPU backend: cvt_color (channel swaps, gray, YUV matrices, HSV), parallel over rows. The
// per-pixel arithmetic is src/core/color_pixel.hpp, shared with the CUDA kernels.
#include <cstdint>

#include "src/core/color_desc.hpp"
#include "src/core/color_pixel.hpp"
#include "src/core/sampling.hpp"
#include "src/cpu/dispatch.hpp"
#include "src/cpu/simd.hpp"

namespace texcv::cpu {

namespace {

namespace sd = texcv::detail;

// Calls f(row index) for every row, in parallel for large images.
template <class F>
void for_rows(const ImageView& v, F&& f) {
  TEXCV_OMP_PARALLEL_FOR_ROWS(v.width, v.height)
  for (int y = 0; y < v.height; ++y) f(y);
}

// Highway's vectors per row where they apply (simd.hpp), the plain per-pixel loop otherwise.
template <typename T, int C>
void swap_rb(const ImageView& src, const ImageView& dst) {
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    if (simd::swap_rb_row(s, d, src.width, C)) return;
    for (int x = 0; x < src.width; ++x)
      sd::px_swap_rb<T, C>(s + static_cast<std::size_t>(x) * C,
                           d + static_cast<std::size_t>(x) * C);
  });
}

// Highway's vectors per row where they apply (simd.hpp), px_to_gray's loop otherwise.
template <typename T, int C>
void to_gray(const ImageView& src, const ImageView& dst, bool bgr) {
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    if (simd::to_gray_row(s, d, src.width, C, bgr)) return;
    for (int x = 0; x < src.width; ++x) {
      if (bgr)
        sd::px_to_gray<T, true>(s + static_cast<std::size_t>(x) * C, d + x);
      else
        sd::px_to_gray<T, false>(s + static_cast<std::size_t>(x) * C, d + x);
    }
  });
}

template <typename T, int C>
void from_gray(const ImageView& src, const ImageView& dst) {
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    if (simd::from_gray_row(s, d, src.width, C)) return;
    for (int x = 0; x < src.width; ++x)
      sd::px_from_gray<T, C>(s + x, d + static_cast<std::size_t>(x) * C);
  });
}

// The plain per-pixel loops over n pixels of a row: the rows the SIMD functions do not take, and
// (f32) the pixels they hand back through simd::PlainPixels. Not inlined, so that both run this
// one compiled loop.
template <typename T>
[[gnu::noinline]] void matrix_pixels(const T* s, T* d, int n, const sd::ColorMatrix& m) {
  for (int x = 0; x < n; ++x)
    sd::px_matrix<T>(s + static_cast<std::size_t>(x) * 3, d + static_cast<std::size_t>(x) * 3, m);
}
template <typename T, bool Bgr>
[[gnu::noinline]] void to_hsv_pixels(const T* s, T* d, int n) {
  for (int x = 0; x < n; ++x)
    sd::px_to_hsv<T, Bgr>(s + static_cast<std::size_t>(x) * 3, d + static_cast<std::size_t>(x) * 3);
}
template <typename T, bool Bgr>
[[gnu::noinline]] void from_hsv_pixels(const T* s, T* d, int n) {
  for (int x = 0; x < n; ++x)
    sd::px_from_hsv<T, Bgr>(s + static_cast<std::size_t>(x) * 3,
                            d + static_cast<std::size_t>(x) * 3);
}

template <typename T>
void apply_matrix(const ImageView& src, const ImageView& dst, const sd::ColorMatrix& m) {
  const simd::PlainPixels plain{[](const void* ctx, const float* s, float* d, int n) {
                                  matrix_pixels(s, d, n, *static_cast<const sd::ColorMatrix*>(ctx));
                                },
                                &m};
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    bool done;
    if constexpr (sizeof(T) == 4)
      done = simd::matrix_row(s, d, src.width, m.m, m.o, plain);
    else
      done = simd::matrix_row(s, d, src.width, m.m, m.o);
    if (!done) matrix_pixels(s, d, src.width, m);
  });
}

template <typename T, bool Bgr>
void to_hsv(const ImageView& src, const ImageView& dst) {
  const simd::PlainPixels plain{
      [](const void*, const float* s, float* d, int n) { to_hsv_pixels<float, Bgr>(s, d, n); },
      nullptr};
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    bool done;
    if constexpr (sizeof(T) == 4)
      done = simd::to_hsv_row(s, d, src.width, Bgr, plain);
    else
      done = simd::to_hsv_row(s, d, src.width, Bgr);
    if (!done) to_hsv_pixels<T, Bgr>(s, d, src.width);
  });
}

template <typename T, bool Bgr>
void from_hsv(const ImageView& src, const ImageView& dst) {
  const simd::PlainPixels plain{
      [](const void*, const float* s, float* d, int n) { from_hsv_pixels<float, Bgr>(s, d, n); },
      nullptr};
  for_rows(src, [&](int y) {
    const T* s = src.row<const T>(y);
    T* d = dst.row<T>(y);
    bool done;
    if constexpr (sizeof(T) == 4)
      done = simd::from_hsv_row(s, d, src.width, Bgr, plain);
    else
      done = simd::from_hsv_row(s, d, src.width, Bgr);
    if (!done) from_hsv_pixels<T, Bgr>(s, d, src.width);
  });
}

}  // namespace

void cvt_color(const ImageView& src, const ImageView& dst, ColorCode code) {
  detail::dispatch(src.type, 1, "cvt_color", [&](auto tag, auto) {
    using T = typename decltype(tag)::type;
    switch (code) {
      case ColorCode::rgb2bgr:
        return swap_rb<T, 3>(src, dst);
      case ColorCode::rgba2bgra:
        return swap_rb<T, 4>(src, dst);
      case ColorCode::rgb2gray:
        return to_gray<T, 3>(src, dst, false);
      case ColorCode::bgr2gray:
        return to_gray<T, 3>(src, dst, true);
      case ColorCode::rgba2gray:
        return to_gray<T, 4>(src, dst, false);
      case ColorCode::bgra2gray:
        return to_gray<T, 4>(src, dst, true);
      case ColorCode::gray2rgb:
        return from_gray<T, 3>(src, dst);
      case ColorCode::gray2rgba:
        return from_gray<T, 4>(src, dst);
      case ColorCode::rgb2yuv_bt601:
      case ColorCode::rgb2yuv_bt601_limited:
      case ColorCode::rgb2yuv_bt709:
      case ColorCode::rgb2yuv_bt709_limited:
      case ColorCode::yuv2rgb_bt601:
      case ColorCode::yuv2rgb_bt601_limited:
      case ColorCode::yuv2rgb_bt709:
      case ColorCode::yuv2rgb_bt709_limited:
        return apply_matrix<T>(src, dst, sd::yuv_matrix(code, src.type));
      case ColorCode::rgb2hsv:
        if constexpr (sizeof(T) != 2) return to_hsv<T, false>(src, dst);
        break;
      case ColorCode::bgr2hsv:
        if constexpr (sizeof(T) != 2) return to_hsv<T, true>(src, dst);
        break;
      case ColorCode::hsv2rgb:
        if constexpr (sizeof(T) != 2) return from_hsv<T, false>(src, dst);
        break;
      case ColorCode::hsv2bgr:
        if constexpr (sizeof(T) != 2) return from_hsv<T, true>(src, dst);
        break;
    }
    fail(ErrorCode::Internal, "cvt_color", "unsupported conversion reached the CPU backend",
         to_string(code), "a validated code");
  });
}

}  // namespace texcv::cpu
