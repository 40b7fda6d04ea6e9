// Image files: PNG (8/16-bit), JPEG (8-bit, libjpeg-turbo), TIFF (8/16-bit and float; when built
// with libtiff). Channels 1, 3 or 4 (RGB order; gray+alpha files are read as RGBA).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "texcv/image.hpp"

namespace texcv {

enum class ImageFormat : std::uint8_t { png, jpeg, tiff };
const char* to_string(ImageFormat f) noexcept;
// The format named by a path's extension (.png, .jpg/.jpeg, .tif/.tiff; any case).
// Throws Error(Unsupported) for other extensions.
ImageFormat format_from_path(const std::string& path);

// imread refuses (Error Io) an image whose decoded size, width x height x channels x element
// size, exceeds this many bytes, whatever its header claims.
inline constexpr std::uint64_t kMaxImageBytes = std::uint64_t{1} << 31;

struct ImageInfo {
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  ImageFormat format = ImageFormat::png;

  std::uint64_t pixels() const noexcept {
    return static_cast<std::uint64_t>(width > 0 ? width : 0) *
           static_cast<std::uint64_t>(height > 0 ? height : 0);
  }
  // Decoded size in bytes (what imread allocates, without row padding).
  std::uint64_t bytes() const noexcept {
    return pixels() * static_cast<std::uint64_t>(channels > 0 ? channels : 0) * elem_size(type);
  }
};

// Reads only the header (cheap): size, channels, element type, as imread would return them.
// It does not apply the kMaxImageBytes limit (callers may apply their own, e.g. a pixel count).
// Throws Error(Io) with the path and the reason for missing, unreadable or corrupt files, and
// Error(Unsupported) for valid files of a kind texcv does not read (e.g. CMYK JPEG).
ImageInfo read_info(const std::string& path);

// Reads a whole image into host memory. Throws Error(Io) with the path and the reason
// (Error(Unsupported) as read_info does).
Image imread(const std::string& path);

struct WriteOptions {
  int jpeg_quality = 95;      // 1..100
  int png_compression = 6;    // 0..9 (zlib level)
  bool tiff_compress = true;  // deflate (lossless) when true
};

// Writes a host image. The format comes from the extension. JPEG takes u8 with 1 or 3 channels
// (no alpha: 4 channels throw Unsupported); PNG u8/u16; TIFF u8/u16/f32. Throws
// Error(Unsupported) for a type the format cannot hold, Error(InvalidArgument) for a bad view or
// option, and Error(Io) when the file cannot be written (message names the path and the reason).
// Writes to a temporary file beside the target and renames it into place, so a failure never
// leaves a half-written file or the temporary behind.
void imwrite(const std::string& path, const ImageView& img, const WriteOptions& opt = {});

// Which formats this build can read and write ("png", "jpeg", "tiff").
std::vector<std::string> supported_formats();

}  // namespace texcv
