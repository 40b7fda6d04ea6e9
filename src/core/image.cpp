// ImageView helpers, view validation, the owning Image and texcv::copy.
#include "texcv/image.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "src/core/backends.hpp"
#include "src/core/cuda_call.hpp"
#include "src/core/host_cache.hpp"
#include "texcv/error.hpp"

namespace texcv {

std::size_t elem_size(ElemType t) noexcept {
  switch (t) {
    case ElemType::u8:
      return 1;
    case ElemType::u16:
      return 2;
    case ElemType::f32:
      return 4;
  }
  return 0;
}

const char* to_string(ElemType t) noexcept {
  switch (t) {
    case ElemType::u8:
      return "u8";
    case ElemType::u16:
      return "u16";
    case ElemType::f32:
      return "f32";
  }
  return "unknown";
}

ElemType parse_elem_type(std::string_view s) {
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    if (s == to_string(t)) return t;
  std::string got;
  got.append("'").append(s).append("'");
  fail(ErrorCode::InvalidArgument, "element type", "unknown name", got, "one of u8, u16, f32");
}

const char* to_string(Location l) noexcept {
  switch (l) {
    case Location::host:
      return "host";
    case Location::device:
      return "device";
  }
  return "unknown";
}

namespace {

std::string rect_str(const Rect& r) {
  std::string s("(");
  s.append(std::to_string(r.x)).append(", ").append(std::to_string(r.y)).append(") ");
  s.append(std::to_string(r.width)).append("x").append(std::to_string(r.height));
  return s;
}

bool valid_type(ElemType t) {
  return elem_size(t) != 0;
}

// Throws when the byte extent of a width x height x channels image would not fit in ptrdiff_t.
void check_extent(std::string_view op, std::string_view which, int width, int height, int channels,
                  ElemType type) {
  std::size_t row = 0, total = 0;
  const auto w = static_cast<std::size_t>(width);
  const auto h = static_cast<std::size_t>(height);
  const auto c = static_cast<std::size_t>(channels);
  constexpr auto kMax = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  if (__builtin_mul_overflow(w, c * elem_size(type), &row) ||
      __builtin_mul_overflow(row, h, &total) || total > kMax / 2) {
    fail(ErrorCode::InvalidArgument, op, std::string(which) + " size overflows",
         std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(channels) +
             " " + to_string(type),
         "width * height * channels * element size < 2^62");
  }
}

}  // namespace

ImageView ImageView::roi(const Rect& r) const {
  if (r.width <= 0 || r.height <= 0 || r.x < 0 || r.y < 0 || r.x > width - r.width ||
      r.y > height - r.height) {
    fail(ErrorCode::InvalidArgument, "roi", "rectangle is not inside the view", rect_str(r),
         std::string("a non-empty rectangle inside ")
             .append(std::to_string(width))
             .append("x")
             .append(std::to_string(height)));
  }
  ImageView v = *this;
  v.data = static_cast<unsigned char*>(data) + pitch * static_cast<std::size_t>(r.y) +
           pixel_bytes() * static_cast<std::size_t>(r.x);
  v.width = r.width;
  v.height = r.height;
  return v;
}

std::string ImageView::describe() const {
  return std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(channels) +
         " " + to_string(type) + " " + to_string(location) + " (pitch " + std::to_string(pitch) +
         ")";
}

void validate_view(const ImageView& v, const char* op, const char* which) {
  const std::string w(which);
  if (v.width <= 0)
    fail(ErrorCode::InvalidArgument, op, w + " width must be positive", std::to_string(v.width),
         "> 0");
  if (v.height <= 0)
    fail(ErrorCode::InvalidArgument, op, w + " height must be positive", std::to_string(v.height),
         "> 0");
  if (v.channels != 1 && v.channels != 3 && v.channels != 4)
    fail(ErrorCode::InvalidArgument, op, w + " channel count is not supported",
         std::to_string(v.channels), "1, 3 or 4");
  if (!valid_type(v.type))
    fail(ErrorCode::InvalidArgument, op, w + " element type is not supported",
         std::to_string(static_cast<int>(v.type)), "u8, u16 or f32");
  if (v.location != Location::host && v.location != Location::device)
    fail(ErrorCode::InvalidArgument, op, w + " location is not valid",
         std::to_string(static_cast<int>(v.location)), "host or device");
  if (v.data == nullptr)
    fail(ErrorCode::InvalidArgument, op, w + " has no data", "a null pointer", "a valid pointer");
  check_extent(op, w, v.width, v.height, v.channels, v.type);
  if (v.pitch < v.row_bytes())
    fail(ErrorCode::InvalidArgument, op, w + " pitch is smaller than a row",
         std::to_string(v.pitch),
         std::string(">= ").append(std::to_string(v.row_bytes())).append(" bytes"));
  std::size_t extent = 0;
  if (__builtin_mul_overflow(v.pitch, static_cast<std::size_t>(v.height), &extent))
    fail(ErrorCode::InvalidArgument, op, w + " pitch * height overflows", std::to_string(v.pitch),
         "a pitch whose product with the height fits in memory");
}

Image::Image(int width, int height, int channels, ElemType type, Location location) {
  ImageView v;
  v.width = width;
  v.height = height;
  v.channels = channels;
  v.type = type;
  v.location = location;
  v.data = reinterpret_cast<void*>(std::uintptr_t{64});  // placeholder so validation looks at sizes
  v.pitch = v.row_bytes();
  validate_view(v, "Image", "image");
  constexpr std::size_t kAlign = detail::kHostImageAlign;
  if (location == Location::host) {
    const std::size_t pitch = (v.row_bytes() + kAlign - 1) / kAlign * kAlign;
    const std::size_t bytes = pitch * static_cast<std::size_t>(height);
    // Through operator new (aligned, nothrow), so that a program that replaces it (the tests'
    // failing-allocation injector) sees image buffers too; large buffers through the batch
    // engine's cache of them while it runs (src/core/host_cache.hpp).
    void* p = detail::host_allocate(bytes);
    if (p == nullptr)
      fail(ErrorCode::OutOfMemory, "Image", "host allocation failed",
           std::to_string(bytes) + " bytes", "available memory");
    // (When the control block cannot be allocated, shared_ptr calls the deleter and throws.)
    storage_ = std::shared_ptr<void>(p, [bytes](void* q) { detail::host_release(q, bytes); });
    v.pitch = pitch;
  } else {
    if (v.row_bytes() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      fail(ErrorCode::InvalidArgument, "Image", "device row is too wide",
           std::to_string(v.row_bytes()) + " bytes", "< 2^31 bytes");
    std::size_t pitch = 0;
    storage_ =
        TEXCV_CUDA("Image", cuda::allocate_device(static_cast<int>(v.row_bytes()), height, pitch));
    v.pitch = pitch;
  }
  v.data = storage_.get();
  view_ = v;
}

Image Image::adopt(const ImageView& view, std::shared_ptr<void> owner) {
  validate_view(view, "Image::adopt", "view");
  if (!owner)
    fail(ErrorCode::InvalidArgument, "Image::adopt", "no owner for the view's memory", "null",
         "a shared_ptr that keeps the memory alive");
  Image img;
  img.storage_ = std::move(owner);
  img.view_ = view;
  return img;
}

Image Image::clone(Location location) const {
  if (empty()) return Image();
  Image out(view_.width, view_.height, view_.channels, view_.type, location);
  copy(view_, out.view_);
  return out;
}

void copy(const ImageView& src, const ImageView& dst, void* stream) {
  validate_view(src, "copy", "source");
  validate_view(dst, "copy", "destination");
  if (src.width != dst.width || src.height != dst.height)
    fail(ErrorCode::InvalidArgument, "copy", "destination size differs from the source",
         std::to_string(dst.width) + "x" + std::to_string(dst.height),
         std::to_string(src.width) + "x" + std::to_string(src.height));
  if (src.channels != dst.channels)
    fail(ErrorCode::InvalidArgument, "copy", "destination channel count differs from the source",
         std::to_string(dst.channels), std::to_string(src.channels));
  if (src.type != dst.type)
    fail(ErrorCode::InvalidArgument, "copy", "destination element type differs from the source",
         to_string(dst.type), to_string(src.type));
  if (src.location == Location::host && dst.location == Location::host) {
    cpu::copy(src, dst);
  } else {
    TEXCV_CUDA("copy", cuda::copy(src, dst, stream));
  }
}

}  // namespace texcv
