// The contract between src/core/morph_common.cpp and the backends for erode/dilate
// (include/texcv/morphology.hpp): one pass of one structuring element; src/core resolves the
// element, anchor, border value and iterations and composes the compound operations.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "texcv/geometry.hpp"
#include "texcv/image.hpp"

namespace texcv::detail {

// dst(x, y) = min (erode) or max (dilate) over mask(i, j) != 0 of src(x + i - ax, y + j - ay).
// dst has src's size, channels and type. Outside the image: border; with Border::constant either
// value (already converted to the element type) or, when never_wins, the type's largest value
// for erode and lowest for dilate (f32: +-FLT_MAX, as OpenCV).
struct MorphDesc {
  bool dilate = false;
  int kw = 1, kh = 1;              // 1..kMaxMorphKernel (or the enlarged rect of iterations)
  int ax = 0, ay = 0;              // inside the element
  std::vector<std::uint8_t> mask;  // kw * kh, row-major, at least one nonzero
  Border border = Border::constant;
  bool never_wins = true;
  float value[4] = {0, 0, 0, 0};
  const char* op = "erode";  // the public operation, for the backends' error messages
};

}  // namespace texcv::detail

namespace texcv::cpu {
void morph(const ImageView& src, const ImageView& dst, const texcv::detail::MorphDesc& d);
}  // namespace texcv::cpu

namespace texcv::cpu {
// dst = a - b element-wise (saturated at 0 for u8/u16); all three of one shape.
void morph_subtract(const ImageView& a, const ImageView& b, const ImageView& dst);
}  // namespace texcv::cpu

// The CUDA backend (src/cuda/ops/morph/; without CUDA the core's call throws NotCompiled):
// the same contract on device views, queued on `stream` (a cudaStream_t, nullptr: the default
// stream); results identical to the CPU backend's.
namespace texcv::cuda {
void morph(const ImageView& src, const ImageView& dst, const texcv::detail::MorphDesc& d,
           void* stream);
void morph_subtract(const ImageView& a, const ImageView& b, const ImageView& dst, void* stream);

// A device scratch image of `like`'s size, channels and type for the intermediate passes of
// iterations and compound operations: stream-ordered memory (cudaMallocAsync on `stream`, freed
// with cudaFreeAsync on it), so work queued before the free may still use it. release() frees it
// and reports a failure; the destructor, reached only while already failing, records one.
class MorphScratch {
 public:
  MorphScratch(const char* op, const ImageView& like, void* stream);
  MorphScratch(const MorphScratch&) = delete;
  MorphScratch& operator=(const MorphScratch&) = delete;
  ~MorphScratch();
  const ImageView& view() const noexcept { return view_; }
  void release();

 private:
  ImageView view_{};
  void* stream_ = nullptr;
  const char* op_ = "";
};
// A MorphScratch owned through its own deleter (the core holds one without naming the CUDA
// backend's destructor: src/core/cuda_call.hpp).
std::shared_ptr<MorphScratch> make_morph_scratch(const char* op, const ImageView& like,
                                                 void* stream);
}  // namespace texcv::cuda
