// What erode, dilate and morphology share (src/core/morph_common.hpp): the rule of their
// parameters, the structuring element as cv::getStructuringElement, borders and iterations resolved
// as cv::erode / cv::dilate / cv::morphologyEx, and the one-element passes
// (src/core/morph_desc.hpp) on the CPU backend for host views and on the CUDA backend for device
// views (on the caller's stream, with stream-ordered device temporaries). The destination is
// written only by the last pass, so a failure before it leaves the destination untouched. Each op's
// entry point and spec sit in src/core/ops/<op>.cpp.
#include "src/core/morph_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "src/core/cuda_call.hpp"
#include "src/core/morph_desc.hpp"
#include "src/core/param_checks.hpp"
#include "src/core/view_checks.hpp"
#include "texcv/error.hpp"

namespace texcv {

namespace {

constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;
constexpr int kMaxIterations = 1000;

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string odd_range() {
  return "an odd size 1 to " + std::to_string(kMaxMorphKernel);
}

void check_size(const char* op, const detail::ParamName& name, int k) {
  const std::string got = name.got(std::to_string(k));
  if (k < 1) fail(kInvalid, op, name.subject() + " must be positive", got, odd_range());
  if (k % 2 == 0) fail(kInvalid, op, name.subject() + " must be odd", got, odd_range());
  if (k > kMaxMorphKernel) fail(kInvalid, op, name.subject() + " is too large", got, odd_range());
}

void check_shape(const char* op, MorphShape s) {
  if (static_cast<unsigned>(s) > static_cast<unsigned>(MorphShape::cross))
    fail(kInvalid, op, "shape is not valid", std::to_string(static_cast<int>(s)),
         "rect, ellipse or cross");
}

// Anchor -1 is the centre; otherwise inside the element.
void resolve_anchor(const char* op, detail::Naming n, int ax, int ay, int kw, int kh, int& rx,
                    int& ry) {
  rx = ax == -1 ? kw / 2 : ax;
  ry = ay == -1 ? kh / 2 : ay;
  if (rx < 0 || rx >= kw || ry < 0 || ry >= kh)
    fail(kInvalid, op, "anchor is outside the structuring element", detail::anchor_got(n, ax, ay),
         "inside " + detail::size_str(kw, kh) + " (or -1 for the centre)");
}

// cv::getStructuringElement after validation (anchor resolved).
StructuringElement make_element(MorphShape shape, int w, int h, int ax, int ay) {
  StructuringElement e{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h, 0)};
  if (w == 1 && h == 1) shape = MorphShape::rect;
  const int r = h / 2, c = w / 2;
  const double inv_r2 = r ? 1.0 / (static_cast<double>(r) * r) : 0.0;
  for (int i = 0; i < h; ++i) {
    int j1 = 0, j2 = 0;
    if (shape == MorphShape::rect || (shape == MorphShape::cross && i == ay)) {
      j2 = w;
    } else if (shape == MorphShape::cross) {
      j1 = ax;
      j2 = ax + 1;
    } else {
      const int dy = i - r;
      if (std::abs(dy) <= r) {
        const int dx = static_cast<int>(std::lrint(c * std::sqrt((r * r - dy * dy) * inv_r2)));
        j1 = std::max(c - dx, 0);
        j2 = std::min(c + dx + 1, w);
      }
    }
    for (int j = j1; j < j2; ++j) e.values[static_cast<std::size_t>(i) * w + j] = 1;
  }
  return e;
}

// One axis of a full rectangle of k pixels with the anchor at a, over an image len pixels long:
// shrinks it to a rectangle that gives every output pixel the same minimum or maximum, as the
// set of source values each output pixel's window reaches is the same.
// - constant and replicate: every position outside the image gives what the first one outside
//   gives (the border value or the edge pixel), so a window reaching more than len pixels to one
//   side of a pixel of the image reaches nothing more than one reaching len: each side is cut to
//   len.
// - reflect, reflect101 and wrap repeat the image with a period (2 len, 2 len - 2, len): a window
//   of a whole period or more reaches every pixel of the row (or column), as any window of a
//   period does; it is cut to the smallest odd length of at least a period, centred.
void shrink_rect_axis(int& k, int& a, int len, Border b) {
  if (b == Border::constant || b == Border::replicate) {
    const int before = std::min(a, len), after = std::min(k - 1 - a, len);
    k = before + after + 1;
    a = before;
    return;
  }
  const int period = b == Border::reflect ? 2 * len
                     : b == Border::wrap  ? len
                                          : std::max(1, 2 * len - 2);
  if (k >= period) {
    k = std::min(k, period | 1);  // k is odd: at least period + 1 when the period is even
    a = k / 2;
  }
}

// A validated single-element pass plus its iteration count.
struct Plan {
  detail::MorphDesc d;  // d.dilate set per pass
  int iterations = 1;
};

Plan plan(const char* op, const ImageView& src, const ImageView& dst, const MorphParams& p) {
  detail::check_pair(op, src, dst, true);
  detail::check_same_size(op, src, dst);
  auto [ax, ay] = detail::check_morph(op, detail::Naming::api, p);
  Plan pl;
  detail::MorphDesc& d = pl.d;
  d.op = op;
  d.border = p.border.border;
  d.never_wins = !p.border.value.has_value();
  if (p.border.value) {
    for (int c = 0; c < 4; ++c) {
      const double v = (*p.border.value)[c];
      if (!std::isfinite(v))
        fail(kInvalid, op, "border value must be finite", num(v), "a finite number");
      d.value[c] = detail::border_value_for(src.type, v);
    }
  }
  StructuringElement e = make_element(p.shape, p.ksize_x, p.ksize_y, ax, ay);
  pl.iterations = p.iterations;
  const bool full = std::all_of(e.values.begin(), e.values.end(), [](auto v) { return v != 0; });
  if (full) {
    // As OpenCV: a full element repeated n times is one rectangle (k - 1) * n + 1 wide (255 and
    // 1000 iterations: 254,001 a side). Only the part of it that can reach other pixels is kept
    // (shrink_rect_axis): at most about twice the image a side, so the mask and the backends'
    // padded rows stay within a few times the image (a 64x48 erode with ksize 255 and 100
    // iterations took 3.2 GB before, 1000 iterations failed allocating a 64 GB mask).
    const int n = pl.iterations;
    int kw = (e.width - 1) * n + 1, kh = (e.height - 1) * n + 1;
    ax *= n;
    ay *= n;
    shrink_rect_axis(kw, ax, src.width, d.border);
    shrink_rect_axis(kh, ay, src.height, d.border);
    e.width = kw;
    e.height = kh;
    e.values.assign(static_cast<std::size_t>(e.width) * e.height, 1);
    pl.iterations = 1;
  }
  d.kw = e.width;
  d.kh = e.height;
  d.ax = ax;
  d.ay = ay;
  d.mask = std::move(e.values);
  return pl;
}

// Where the passes run: the CPU backend for host views, the CUDA backend (on stream) for device
// views; temporaries of the source's shape in the same memory.
struct Exec {
  bool device = false;
  const char* op = "";
  void* stream = nullptr;

  void morph(const ImageView& src, const ImageView& dst, const detail::MorphDesc& d) const {
    if (device)
      TEXCV_CUDA(d.op, cuda::morph(src, dst, d, stream));
    else
      cpu::morph(src, dst, d);
  }
  void subtract(const ImageView& a, const ImageView& b, const ImageView& dst) const {
    if (device)
      TEXCV_CUDA("morphology", cuda::morph_subtract(a, b, dst, stream));
    else
      cpu::morph_subtract(a, b, dst);
  }
};

// A temporary image like `like`: a host Image, or a stream-ordered device scratch image.
class Temp {
 public:
  Temp(const Exec& ex, const ImageView& like) {
    if (ex.device) {
      dev_ = TEXCV_CUDA(ex.op, cuda::make_morph_scratch(ex.op, like, ex.stream));
      view_ = dev_->view();
    } else {
      host_ = Image(like.width, like.height, like.channels, like.type);
      view_ = host_.view();
    }
  }
  const ImageView& view() const noexcept { return view_; }
  // Frees a device temporary on the stream, reporting a failure.
  void release() {
    if (dev_) TEXCV_CUDA("morphology", dev_->release());
  }

 private:
  Image host_;
  std::shared_ptr<cuda::MorphScratch> dev_;
  ImageView view_{};
};

// erode or dilate `iterations` times from src into dst (temporaries in between).
void pass(const Exec& ex, const ImageView& src, const ImageView& dst, Plan pl, bool dilate) {
  pl.d.dilate = dilate;
  if (pl.iterations == 1) {
    ex.morph(src, dst, pl.d);
    return;
  }
  std::optional<Temp> ta, tb;
  ta.emplace(ex, src);
  if (pl.iterations > 2) tb.emplace(ex, src);
  ImageView a = ta->view(), b = tb ? tb->view() : ImageView{};
  ex.morph(src, a, pl.d);
  for (int i = 1; i < pl.iterations - 1; ++i) {
    ex.morph(a, b, pl.d);
    std::swap(a, b);
  }
  ex.morph(a, dst, pl.d);
  ta->release();
  if (tb) tb->release();
}

Exec exec_for(const char* op, const ImageView& src, void* stream) {
  return Exec{src.location == Location::device, op, stream};
}

}  // namespace

std::pair<int, int> detail::check_morph(const char* op, Naming n, const MorphParams& p) {
  check_shape(op, p.shape);
  check_size(op, ParamName{n == Naming::api ? "ksize_x" : "ksize", n}, p.ksize_x);
  check_size(op, ParamName{"ksize_y", n}, p.ksize_y);
  int ax = 0, ay = 0;
  resolve_anchor(op, n, p.anchor_x, p.anchor_y, p.ksize_x, p.ksize_y, ax, ay);
  const ParamName iterations{"iterations", n};
  if (p.iterations < 1 || p.iterations > kMaxIterations)
    fail(kInvalid, op, iterations.subject() + " is out of range",
         iterations.got(std::to_string(p.iterations)), "1 to " + std::to_string(kMaxIterations));
  if (static_cast<unsigned>(p.border.border) > static_cast<unsigned>(Border::wrap))
    fail(kInvalid, op, "border mode is not valid",
         std::to_string(static_cast<int>(p.border.border)),
         "constant, replicate, reflect, reflect101 or wrap");
  return {ax, ay};
}

const char* to_string(MorphShape s) noexcept {
  switch (s) {
    case MorphShape::rect:
      return "rect";
    case MorphShape::ellipse:
      return "ellipse";
    case MorphShape::cross:
      return "cross";
  }
  return "?";
}

const char* to_string(MorphOp op) noexcept {
  switch (op) {
    case MorphOp::erode:
      return "erode";
    case MorphOp::dilate:
      return "dilate";
    case MorphOp::open:
      return "open";
    case MorphOp::close:
      return "close";
    case MorphOp::gradient:
      return "gradient";
    case MorphOp::tophat:
      return "tophat";
    case MorphOp::blackhat:
      return "blackhat";
  }
  return "?";
}

namespace {

// "\"name\"" (built by appends: GCC 12 warns, wrongly, of overlapping copies in "\"" + s + "\"").
std::string quoted(std::string_view s) {
  std::string q;
  q.append("\"").append(s).append("\"");
  return q;
}

}  // namespace

MorphShape parse_morph_shape(std::string_view s) {
  for (MorphShape v : {MorphShape::rect, MorphShape::ellipse, MorphShape::cross})
    if (s == to_string(v)) return v;
  fail(kInvalid, "shape", "unknown structuring element shape", quoted(s), "rect, ellipse or cross");
}

MorphOp parse_morph_op(std::string_view s) {
  for (MorphOp v : {MorphOp::erode, MorphOp::dilate, MorphOp::open, MorphOp::close,
                    MorphOp::gradient, MorphOp::tophat, MorphOp::blackhat})
    if (s == to_string(v)) return v;
  fail(kInvalid, "morphology", "unknown operation", quoted(s),
       "erode, dilate, open, close, gradient, tophat or blackhat");
}

StructuringElement structuring_element(MorphShape shape, int width, int height, int anchor_x,
                                       int anchor_y) {
  const char* op = "structuring_element";
  check_shape(op, shape);
  check_size(op, detail::ParamName{"width"}, width);
  check_size(op, detail::ParamName{"height"}, height);
  int ax = 0, ay = 0;
  resolve_anchor(op, detail::Naming::api, anchor_x, anchor_y, width, height, ax, ay);
  return make_element(shape, width, height, ax, ay);
}

void morph_common::run(const char* name, MorphOp op, const ImageView& src, const ImageView& dst,
                       const MorphParams& p, void* stream) {
  const Plan pl = plan(name, src, dst, p);
  const Exec ex = exec_for(name, src, stream);
  if (op == MorphOp::erode || op == MorphOp::dilate) {
    pass(ex, src, dst, pl, op == MorphOp::dilate);
    return;
  }
  // Every composition writes dst only in its last step.
  Temp t(ex, src);
  std::optional<Temp> u;
  switch (op) {
    case MorphOp::open:
      pass(ex, src, t.view(), pl, false);
      pass(ex, t.view(), dst, pl, true);
      break;
    case MorphOp::close:
      pass(ex, src, t.view(), pl, true);
      pass(ex, t.view(), dst, pl, false);
      break;
    case MorphOp::gradient:
      u.emplace(ex, src);
      pass(ex, src, t.view(), pl, false);
      pass(ex, src, u->view(), pl, true);
      ex.subtract(u->view(), t.view(), dst);
      break;
    case MorphOp::tophat:
      u.emplace(ex, src);
      pass(ex, src, t.view(), pl, false);
      pass(ex, t.view(), u->view(), pl, true);
      ex.subtract(src, u->view(), dst);
      break;
    case MorphOp::blackhat:
      u.emplace(ex, src);
      pass(ex, src, t.view(), pl, true);
      pass(ex, t.view(), u->view(), pl, false);
      ex.subtract(u->view(), src, dst);
      break;
    default:
      break;
  }
  t.release();
  if (u) u->release();
}

}  // namespace texcv
