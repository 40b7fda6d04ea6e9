// Image types: ImageView (non-owning) and Image (owning), host or device memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace texcv {

enum class ElemType : std::uint8_t { u8, u16, f32 };
enum class Location : std::uint8_t { host, device };

std::size_t elem_size(ElemType t) noexcept;
const char* to_string(ElemType t) noexcept;
const char* to_string(Location l) noexcept;
// "u8", "u16", "f32" (to_string's names); anything else throws Error(InvalidArgument) listing them.
ElemType parse_elem_type(std::string_view s);

// A rectangle in pixels: x, y of the top-left pixel, width, height.
struct Rect {
  int x = 0, y = 0, width = 0, height = 0;
};

// A non-owning view: pointer, size, channels (1, 3 or 4, interleaved), element type and the row
// pitch in bytes (>= width * channels * elem_size). Sub-images share the parent's pitch.
struct ImageView {
  void* data = nullptr;
  int width = 0;
  int height = 0;
  int channels = 1;
  ElemType type = ElemType::u8;
  std::size_t pitch = 0;
  Location location = Location::host;

  std::size_t pixel_bytes() const noexcept {
    return elem_size(type) * static_cast<std::size_t>(channels);
  }
  std::size_t row_bytes() const noexcept { return pixel_bytes() * static_cast<std::size_t>(width); }
  bool empty() const noexcept { return data == nullptr || width <= 0 || height <= 0; }
  template <typename T>
  T* row(int y) const noexcept {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(data) +
                                pitch * static_cast<std::size_t>(y));
  }
  // The sub-image r of this view (same pitch). Throws Error if r is not inside the view.
  ImageView roi(const Rect& r) const;
  // A string such as "640x480x3 u8 host (pitch 1920)" for messages.
  std::string describe() const;
};

// Throws Error(InvalidArgument) naming op if v is empty, has a bad channel count or a pitch
// smaller than a row.
void validate_view(const ImageView& v, const char* op, const char* which);

// An owning image in host memory or in pitched device memory (the current CUDA device).
// Move-only. Device images need the CUDA backend (Error NotCompiled otherwise).
class Image {
 public:
  Image() = default;
  Image(int width, int height, int channels, ElemType type, Location location = Location::host);
  Image(Image&&) noexcept = default;
  Image& operator=(Image&&) noexcept = default;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  ~Image() = default;

  const ImageView& view() const noexcept { return view_; }
  operator const ImageView&() const noexcept { return view_; }
  int width() const noexcept { return view_.width; }
  int height() const noexcept { return view_.height; }
  int channels() const noexcept { return view_.channels; }
  ElemType type() const noexcept { return view_.type; }
  Location location() const noexcept { return view_.location; }
  std::size_t pitch() const noexcept { return view_.pitch; }
  void* data() const noexcept { return view_.data; }
  bool empty() const noexcept { return view_.empty(); }

  // An image over memory allocated elsewhere (a pool's buffer, another library's array): the
  // view as given (validated as any view; its location says host or device), kept alive by
  // `owner`, which the image releases when it is destroyed (the owner's deleter decides what
  // happens to the memory). A null owner is rejected.
  static Image adopt(const ImageView& view, std::shared_ptr<void> owner);

  // A deep copy in the given location (host <-> device transfers go through CUDA).
  Image clone(Location location) const;
  Image clone() const { return clone(view_.location); }

 private:
  std::shared_ptr<void> storage_;
  ImageView view_{};
};

// Copies src into dst (same size, channels and type); any pair of locations.
// Device copies are queued on stream (a cudaStream_t, nullptr for the default stream) and
// synchronized before returning when either side is host memory.
void copy(const ImageView& src, const ImageView& dst, void* stream = nullptr);

}  // namespace texcv
