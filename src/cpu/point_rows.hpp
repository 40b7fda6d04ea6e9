// The CPU backend's per-element loops share these (gamma, convert, normalize, threshold): a
// function over every row, in parallel for large images, and a dispatch on the element type.
#pragma once

#include "src/cpu/dispatch.hpp"

namespace texcv::cpu::detail {

// Calls f(src row, dst row, elements per row) for every row, in parallel for large images.
template <typename S, typename D, class F>
void for_rows(const ImageView& src, const ImageView& dst, F&& f) {
  const int n = src.width * src.channels;
  TEXCV_OMP_PARALLEL_FOR_ROWS(src.width, src.height)
  for (int y = 0; y < src.height; ++y) f(src.row<const S>(y), dst.row<D>(y), n);
}

template <class F>
void by_type(ElemType t, const char* op, F&& f) {
  detail::dispatch(t, 1, op, [&](auto tag, auto) { f(tag); });
}

}  // namespace texcv::cpu::detail
