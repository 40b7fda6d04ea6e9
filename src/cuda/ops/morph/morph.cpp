// The morphology engine on the CUDA backend (erode, dilate, morphology): its passes
// (src/core/morph_desc.hpp), on the caller's stream.
// A rectangle (every element bit set: the rect shape, and the enlarged rectangle of iterations) is
// separable for min/max: a row pass into a stream-ordered temporary of the element type, then a
// column pass (one pass alone when the rectangle is one row or one column wide); for 1-channel f32
// up to 15x15 both passes run fused in one kernel (8 output rows a thread), which measured faster.
// Other elements (ellipse, cross) run as one run of ones per element row in a single kernel, but
// for u8 and f32 one-channel 3x3 and 5x5 centred ellipses and crosses, which run on the
// rectangles' sliding-window kernels. The kernels are in morph_kernels.cuh.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "src/core/morph_desc.hpp"
#include "src/cuda/ops/common/host_common.hpp"
#include "src/cuda/ops/common/source_access.hpp"
#include "src/cuda/ops/morph/morph_launch.hpp"
#include "src/cuda/ops/morph/morph_tuning.hpp"
#include "src/cuda/runtime/runtime.hpp"
#include "texcv/error.hpp"

namespace texcv::cuda {

namespace {

ops::MorphSrc morph_src(const ImageView& v) {
  return ops::MorphSrc{static_cast<const unsigned char*>(v.data), v.pitch, v.width, v.height};
}

// The constant border's values in T: the given value, or the one that never wins (the type's
// largest for erode, lowest for dilate), as the CPU backend.
template <typename T>
void border_values(const detail::MorphDesc& d, float* bv) {
  for (int c = 0; c < 4; ++c)
    bv[c] = d.never_wins ? static_cast<float>(d.dilate ? std::numeric_limits<T>::lowest()
                                                       : std::numeric_limits<T>::max())
                         : d.value[c];
}

// Largest rectangle side of the fused single-kernel path.
constexpr int kFusedRectMax = ops::tuning::Morph::kFusedRectMax;  // morph_tuning.hpp

std::size_t pitch_for(std::size_t row_bytes) {
  return (row_bytes + 255) / 256 * 256;
}

void* alloc_async(const char* op, std::size_t bytes, cudaStream_t st) {
  void* p = nullptr;
  TEXCV_CUDA_CHECK(op, cudaMallocAsync(&p, bytes, st));
  return p;
}

}  // namespace

MorphScratch::MorphScratch(const char* op, const ImageView& like, void* stream)
    : stream_(stream), op_(op) {
  view_ = like;
  view_.pitch = pitch_for(like.row_bytes());
  view_.location = Location::device;
  view_.data = alloc_async(op, view_.pitch * static_cast<std::size_t>(like.height),
                           static_cast<cudaStream_t>(stream));
}

MorphScratch::~MorphScratch() {
  if (view_.data)
    record_release_error(cudaFreeAsync(view_.data, static_cast<cudaStream_t>(stream_)));
}

void MorphScratch::release() {
  void* p = view_.data;
  view_.data = nullptr;
  if (p) TEXCV_CUDA_CHECK(op_, cudaFreeAsync(p, static_cast<cudaStream_t>(stream_)));
}

std::shared_ptr<MorphScratch> make_morph_scratch(const char* op, const ImageView& like,
                                                 void* stream) {
  return std::make_shared<MorphScratch>(op, like, stream);
}

void morph(const ImageView& src, const ImageView& dst, const detail::MorphDesc& d, void* stream) {
  const char* op = d.op;
  ops::check_device_view(op, src, "src");
  ops::check_device_view(op, dst, "dst");
  const auto st = static_cast<cudaStream_t>(stream);
  const ops::MorphSrc s = morph_src(src);
  const ops::DstArgs o = ops::dst_args(dst);
  const int ch = src.channels;
  bool full = true;
  for (const std::uint8_t v : d.mask) full = full && v != 0;

  if (full) {
    ops::MorphAxisArgs ax, ay;
    ax.n = d.kw;
    ax.anchor = d.ax;
    ay.n = d.kh;
    ay.anchor = d.ay;
    ax.border = ay.border = d.border;
    ops::by_type(op, src.type, [&]<typename T>() {
      border_values<T>(d, ax.bv);
      border_values<T>(d, ay.bv);
      // u8, one channel: both passes in one kernel on 32-bit words (8192^2 3x3 erode on an
      // H100: 0.209 ms against 0.331 for the two passes, docs/performance.md). One fused kernel
      // of single elements for 1-channel f32 up to 15x15 (H100, 3x3: 0.266 ms; 1.08 for the two
      // passes on the H200), and for u8x4 on one 32-bit word a pixel (min/max per byte) where the
      // rows are on 4-byte steps (H100, 3x3: 0.320 ms against 0.901 for the two passes). With
      // byte loads, fusing u8x4 was slower (5x5: 2.72 against 1.75).
      const auto words = [](const ImageView& v) {
        return reinterpret_cast<std::uintptr_t>(v.data) % 4 == 0 && v.pitch % 4 == 0;
      };
      if (std::is_same_v<T, std::uint8_t> && ch == 4 && d.kw <= kFusedRectMax &&
          d.kh <= kFusedRectMax && d.kh > 1 && words(src) && words(dst)) {
        ops::launch_morph_rect<ops::U8x4Word>(s, o, 1, d.dilate, ax, ay, st);
      } else if (std::is_same_v<T, std::uint8_t> && ch == 1 &&
                 d.kw <= ops::tuning::Morph::kRectU8MaxTaps && s.pitch % 4 == 0) {
        ops::launch_morph_rect_u8(s, o, d.dilate, ax, ay, st);
      } else if (std::is_same_v<T, float> && ch == 1 && d.kw <= kFusedRectMax &&
                 d.kh <= kFusedRectMax && d.kh > 1) {
        ops::launch_morph_rect<T>(s, o, ch, d.dilate, ax, ay, st);
      } else if (d.kh == 1) {
        ops::launch_morph_rows<T>(s, o, ch, d.dilate, ax, st);
      } else if (d.kw == 1) {
        ops::launch_morph_cols<T>(s, o, ch, d.dilate, ay, st);
      } else {
        MorphScratch tmp(op, src, stream);
        const ImageView& t = tmp.view();
        ops::launch_morph_rows<T>(s, ops::dst_args(t), ch, d.dilate, ax, st);
        ops::launch_morph_cols<T>(morph_src(t), o, ch, d.dilate, ay, st);
        tmp.release();
      }
    });
    return;
  }

  // A general element: one run of ones per row (what rect, ellipse and cross give).
  if (d.kw > kMaxMorphKernel || d.kh > kMaxMorphKernel)
    fail(ErrorCode::Internal, op, "a non-rectangular element is larger than the CUDA kernel takes",
         std::to_string(d.kw) + "x" + std::to_string(d.kh),
         "at most " + std::to_string(kMaxMorphKernel) + " a side");
  ops::MorphMaskArgs m;
  m.kw = d.kw;
  m.kh = d.kh;
  m.ax = d.ax;
  m.ay = d.ay;
  m.border = d.border;
  for (int j = 0; j < d.kh; ++j) {
    const std::uint8_t* r = d.mask.data() + static_cast<std::size_t>(j) * d.kw;
    int i = 0;
    while (i < d.kw && !r[i]) ++i;
    int e = i;
    while (e < d.kw && r[e]) ++e;
    for (int k = e; k < d.kw; ++k)
      if (r[k])
        fail(ErrorCode::Internal, op, "an element row has more than one run of ones",
             "row " + std::to_string(j), "rect, ellipse or cross elements");
    m.start[j] = static_cast<std::uint8_t>(i);
    m.end[j] = static_cast<std::uint8_t>(e);
  }
  // u8 and f32, one channel, 3x3 and 5x5 whose rows are whole or only the centre column
  // (centred ellipses and crosses): the rectangles' sliding-window kernels where they have one
  // for them (ops::slide_element_fits).
  if ((src.type == ElemType::u8 || src.type == ElemType::f32) && ch == 1 && d.kw == d.kh &&
      (d.kw == 3 || d.kw == 5)) {
    unsigned full_rows = 0;
    bool rows_fit = true;
    for (int j = 0; j < d.kh; ++j) {
      if (m.start[j] == 0 && m.end[j] == d.kw)
        full_rows |= 1u << j;
      else
        rows_fit = rows_fit && m.start[j] == d.kw / 2 && m.end[j] == d.kw / 2 + 1;
    }
    if (rows_fit && ops::slide_element_fits(d.kw, full_rows)) {
      ops::MorphAxisArgs ax, ay;
      ax.n = ay.n = d.kw;
      ax.anchor = d.ax;
      ay.anchor = d.ay;
      ax.border = ay.border = d.border;
      const bool u8 = src.type == ElemType::u8;
      if (u8) {
        border_values<std::uint8_t>(d, ax.bv);
        border_values<std::uint8_t>(d, ay.bv);
      } else {
        border_values<float>(d, ax.bv);
        border_values<float>(d, ay.bv);
      }
      if (u8 ? ops::launch_morph_u8_slide(s, o, d.dilate, ax, ay, full_rows, st)
             : ops::launch_morph_f32_slide(s, o, d.dilate, ax, ay, full_rows, st))
        return;
    }
  }
  ops::by_type(op, src.type, [&]<typename T>() {
    border_values<T>(d, m.bv);
    ops::launch_morph_mask<T>(s, o, ch, d.dilate, m, st);
  });
}

void morph_subtract(const ImageView& a, const ImageView& b, const ImageView& dst, void* stream) {
  constexpr const char* kOp = "morphology";
  ops::check_device_view(kOp, a, "src");
  ops::check_device_view(kOp, b, "src");
  ops::check_device_view(kOp, dst, "dst");
  // Rows as a.width * channels elements.
  const int n = a.width * a.channels;
  ops::MorphSrc sa = morph_src(a), sb = morph_src(b);
  sa.width = sb.width = n;
  ops::DstArgs o = ops::dst_args(dst);
  o.width = n;
  ops::by_type(kOp, a.type, [&]<typename T>() {
    ops::launch_morph_subtract<T>(sa, sb, o, static_cast<cudaStream_t>(stream));
  });
}

namespace ops {

int u8_slide_rows() {
  static const int rows = [] {
    const char* k = std::getenv("TEXCV_MORPH_U8_KERNEL");
    if (k != nullptr && std::strcmp(k, "split") == 0) return 0;
    const char* v = std::getenv("TEXCV_MORPH_U8_ROWS");
    const int n = v != nullptr ? std::atoi(v) : 0;
    return n == 8 || n == 16 || n == 32 ? n : tuning::Morph::kRectU8SlideRows;
  }();
  return rows;
}

bool fused_f32_forced() {
  static const bool fused = [] {
    const char* v = std::getenv("TEXCV_MORPH_F32_KERNEL");
    return v != nullptr && std::strcmp(v, "fused") == 0;
  }();
  return fused;
}

}  // namespace ops

}  // namespace texcv::cuda
