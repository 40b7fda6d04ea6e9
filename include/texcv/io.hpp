// Image files: PNG (8/16-bit), JPEG (8-bit, libjpeg-turbo), TIFF (8/16-bit and float; when built
// with libtiff). Channels 1, 3 or 4 (RGB order; gray+alpha files are read as RGBA).
#pragma once

#include <string>
#include <vector>

#include "texcv/image.hpp"

namespace texcv {

enum class ImageFormat : std::uint8_t { png, jpeg, tiff };
const char* to_string(ImageFormat f) noexcept;
// The format named by a path's extension (.png, .jpg/.jpeg, .tif/.tiff; any case).
// Throws Error(Unsupported) for other extensions.
ImageFormat format_from_path(const std::string& path);

struct ImageInfo {
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  ImageFormat format = ImageFormat::png;
};

// Reads only the header (cheap): size, channels, element type. Throws Error(Io) with the path
// and the reason for missing, unreadable, corrupt or unsupported files.
ImageInfo read_info(const std::string& path);

// Reads a whole image into host memory. Throws Error(Io) with the path and the reason.
Image imread(const std::string& path);

struct WriteOptions {
  int jpeg_quality = 95;     // 1..100
  int png_compression = 6;   // 0..9 (zlib level)
  bool tiff_compress = true; // deflate (lossless) when true
};

// Writes a host image. The format comes from the extension. JPEG takes u8 only; PNG u8/u16;
// TIFF u8/u16/f32. Throws Error(Unsupported) for a type the format cannot hold and Error(Io)
// when the file cannot be written. Writes to a temporary file beside the target and renames it,
// so a failure never leaves a half-written file.
void imwrite(const std::string& path, const ImageView& img, const WriteOptions& opt = {});

// Which formats this build can read and write ("png", "jpeg", "tiff").
std::vector<std::string> supported_formats();

}  // namespace texcv
