// The public morphology operations (include/texcv/morphology.hpp): validate, build the
// structuring element as cv::getStructuringElement, resolve borders and iterations as
// cv::erode / cv::dilate / cv::morphologyEx, and run one-element passes on the CPU backend
// (src/core/morph_desc.hpp). Device views raise Unsupported until the CUDA backend has them.
#include "texcv/morphology.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "src/core/morph_desc.hpp"
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

void check_size(const char* op, const char* name, int k) {
  if (k < 1)
    fail(kInvalid, op, std::string(name) + " must be positive", std::to_string(k), odd_range());
  if (k % 2 == 0)
    fail(kInvalid, op, std::string(name) + " must be odd", std::to_string(k), odd_range());
  if (k > kMaxMorphKernel)
    fail(kInvalid, op, std::string(name) + " is too large", std::to_string(k), odd_range());
}

void check_shape(const char* op, MorphShape s) {
  if (static_cast<unsigned>(s) > static_cast<unsigned>(MorphShape::cross))
    fail(kInvalid, op, "shape is not valid", std::to_string(static_cast<int>(s)),
         "rect, ellipse or cross");
}

// Anchor -1 is the centre; otherwise inside the element.
void resolve_anchor(const char* op, int ax, int ay, int kw, int kh, int& rx, int& ry) {
  rx = ax == -1 ? kw / 2 : ax;
  ry = ay == -1 ? kh / 2 : ay;
  if (rx < 0 || rx >= kw || ry < 0 || ry >= kh)
    fail(kInvalid, op, "anchor is outside the structuring element",
         std::string("(")
             .append(std::to_string(ax))
             .append(", ")
             .append(std::to_string(ay))
             .append(")"),
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

[[noreturn]] void fail_device(const char* op) {
  fail(ErrorCode::Unsupported, op, "the CUDA backend does not implement this operation yet",
       "a device image", "a host image");
}

// A validated single-element pass plus its iteration count.
struct Plan {
  detail::MorphDesc d;  // d.dilate set per pass
  int iterations = 1;
};

Plan plan(const char* op, const ImageView& src, const ImageView& dst, const MorphParams& p) {
  detail::check_pair(op, src, dst, true);
  detail::check_same_size(op, src, dst);
  check_shape(op, p.shape);
  check_size(op, "ksize_x", p.ksize_x);
  check_size(op, "ksize_y", p.ksize_y);
  int ax = 0, ay = 0;
  resolve_anchor(op, p.anchor_x, p.anchor_y, p.ksize_x, p.ksize_y, ax, ay);
  if (p.iterations < 1 || p.iterations > kMaxIterations)
    fail(kInvalid, op, "iterations is out of range", std::to_string(p.iterations),
         "1 to " + std::to_string(kMaxIterations));
  if (static_cast<unsigned>(p.border.border) > static_cast<unsigned>(Border::wrap))
    fail(kInvalid, op, "border mode is not valid",
         std::to_string(static_cast<int>(p.border.border)),
         "constant, replicate, reflect, reflect101 or wrap");
  Plan pl;
  detail::MorphDesc& d = pl.d;
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
  if (src.location != Location::host) fail_device(op);
  StructuringElement e = make_element(p.shape, p.ksize_x, p.ksize_y, ax, ay);
  pl.iterations = p.iterations;
  const bool full = std::all_of(e.values.begin(), e.values.end(), [](auto v) { return v != 0; });
  if (full && pl.iterations > 1) {
    // As OpenCV: a full element repeated n times is one rectangle (k - 1) * n + 1 wide.
    const int n = pl.iterations;
    e.width = (e.width - 1) * n + 1;
    e.height = (e.height - 1) * n + 1;
    e.values.assign(static_cast<std::size_t>(e.width) * e.height, 1);
    ax *= n;
    ay *= n;
    pl.iterations = 1;
  }
  d.kw = e.width;
  d.kh = e.height;
  d.ax = ax;
  d.ay = ay;
  d.mask = std::move(e.values);
  return pl;
}

// erode or dilate `iterations` times from src into dst (temporaries in between).
void pass(const ImageView& src, const ImageView& dst, Plan pl, bool dilate) {
  pl.d.dilate = dilate;
  if (pl.iterations == 1) {
    cpu::morph(src, dst, pl.d);
    return;
  }
  Image a(src.width, src.height, src.channels, src.type),
      b(src.width, src.height, src.channels, src.type);
  cpu::morph(src, a.view(), pl.d);
  for (int i = 1; i < pl.iterations - 1; ++i) {
    cpu::morph(a.view(), b.view(), pl.d);
    std::swap(a, b);
  }
  cpu::morph(a.view(), dst, pl.d);
}

}  // namespace

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

StructuringElement structuring_element(MorphShape shape, int width, int height, int anchor_x,
                                       int anchor_y) {
  const char* op = "structuring_element";
  check_shape(op, shape);
  check_size(op, "width", width);
  check_size(op, "height", height);
  int ax = 0, ay = 0;
  resolve_anchor(op, anchor_x, anchor_y, width, height, ax, ay);
  return make_element(shape, width, height, ax, ay);
}

void erode(const ImageView& src, const ImageView& dst, const MorphParams& p, void* /*stream*/) {
  pass(src, dst, plan("erode", src, dst, p), false);
}

void dilate(const ImageView& src, const ImageView& dst, const MorphParams& p, void* /*stream*/) {
  pass(src, dst, plan("dilate", src, dst, p), true);
}

void morphology(const ImageView& src, const ImageView& dst, MorphOp op, const MorphParams& p,
                void* /*stream*/) {
  const char* name = "morphology";
  if (static_cast<unsigned>(op) > static_cast<unsigned>(MorphOp::blackhat))
    fail(kInvalid, name, "operation is not valid", std::to_string(static_cast<int>(op)),
         "erode, dilate, open, close, gradient, tophat or blackhat");
  const Plan pl = plan(name, src, dst, p);
  if (op == MorphOp::erode || op == MorphOp::dilate) {
    pass(src, dst, pl, op == MorphOp::dilate);
    return;
  }
  Image t(src.width, src.height, src.channels, src.type);
  switch (op) {
    case MorphOp::open:
      pass(src, t.view(), pl, false);
      pass(t.view(), dst, pl, true);
      break;
    case MorphOp::close:
      pass(src, t.view(), pl, true);
      pass(t.view(), dst, pl, false);
      break;
    case MorphOp::gradient:
      pass(src, t.view(), pl, false);
      pass(src, dst, pl, true);
      cpu::morph_subtract(dst, t.view(), dst);
      break;
    case MorphOp::tophat: {
      Image u(src.width, src.height, src.channels, src.type);
      pass(src, t.view(), pl, false);
      pass(t.view(), u.view(), pl, true);
      cpu::morph_subtract(src, u.view(), dst);
      break;
    }
    case MorphOp::blackhat: {
      Image u(src.width, src.height, src.channels, src.type);
      pass(src, t.view(), pl, true);
      pass(t.view(), u.view(), pl, false);
      cpu::morph_subtract(u.view(), src, dst);
      break;
    }
    default:
      break;
  }
}

}  // namespace texcv
