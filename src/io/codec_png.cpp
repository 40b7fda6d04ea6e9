// PNG through libpng: 8 and 16-bit; gray, gray+alpha (read as RGBA), RGB, RGBA, palette (read
// as RGB, or RGBA with a tRNS chunk); bit depths 1, 2, 4 expanded to 8; 16-bit samples in host
// byte order. Sample values are returned as stored (no gamma, sBIT or background handling).
//
// libpng reports errors by calling our error function, which records the message and longjmps
// back to the setjmp in one of the small stage functions below. Those frames hold only plain
// data; every owner (FILE, png structs, Image, row pointers) lives in the calling frame, whose
// destructors run normally when the caller then throws.
#include <png.h>

#include <csetjmp>
#include <cstring>
#include <vector>

#include "src/io/codec.hpp"

namespace texcv::io_detail {
namespace {

[[noreturn]] void on_png_error(png_structp png, png_const_charp msg) {
  static_cast<ErrorText*>(png_get_error_ptr(png))->set(msg);
  png_longjmp(png, 1);
}
void on_png_warning(png_structp, png_const_charp) {}  // warnings (e.g. bad iCCP) are not fatal

// libpng's stdio reader only says "Read Error"; this one says why.
void on_png_read(png_structp png, png_bytep data, std::size_t length) {
  auto* f = static_cast<std::FILE*>(png_get_io_ptr(png));
  if (std::fread(data, 1, length, f) == length) return;
  png_error(png, std::feof(f) ? "unexpected end of file (the file is truncated)" : "read error");
}

struct PngReader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ErrorText err;
  PngReader() = default;
  PngReader(const PngReader&) = delete;
  PngReader& operator=(const PngReader&) = delete;
  ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

struct PngWriter {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ErrorText err;
  PngWriter() = default;
  PngWriter(const PngWriter&) = delete;
  PngWriter& operator=(const PngWriter&) = delete;
  ~PngWriter() { png_destroy_write_struct(&png, info ? &info : nullptr); }
};

// Plain data filled by the header stage.
struct PngHeader {
  png_uint_32 width, height;
  int channels, bit_depth;
};

// Stage 1: reads the chunks before the image data, sets the transforms that give 1, 3 or 4
// channels of 8 or 16 bits in host order, and reports the output shape. False on error.
bool png_header_stage(png_structp png, png_infop info, std::FILE* f, PngHeader* h) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_read_fn(png, f, on_png_read);
  png_read_info(png, info);
  const int color = png_get_color_type(png, info);
  const int depth = png_get_bit_depth(png, info);
  const bool trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (trns) png_set_tRNS_to_alpha(png);
  // Gray with alpha (from the file or from tRNS) becomes RGBA: texcv has no 2-channel images.
  if ((color & PNG_COLOR_MASK_COLOR) == 0 && ((color & PNG_COLOR_MASK_ALPHA) != 0 || trns))
    png_set_gray_to_rgb(png);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (depth == 16) png_set_swap(png);  // PNG stores 16-bit samples big-endian
#endif
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  h->width = png_get_image_width(png, info);
  h->height = png_get_image_height(png, info);
  h->channels = png_get_channels(png, info);
  h->bit_depth = png_get_bit_depth(png, info);
  return true;
}

// Stage 2: decodes every row straight into the image rows.
bool png_pixels_stage(png_structp png, png_infop info, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, info);
  return true;
}

void open_reader(PngReader& r, const char* op, const std::string& path) {
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r.err, on_png_error, on_png_warning);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.png || !r.info) fail_file(ErrorCode::OutOfMemory, op, path, "cannot create libpng state");
}

ImageInfo png_info_of(PngReader& r, std::FILE* f, const char* op, const std::string& path) {
  PngHeader h{};
  if (!png_header_stage(r.png, r.info, f, &h)) fail_file(ErrorCode::Io, op, path, r.err.text);
  if (h.channels != 1 && h.channels != 3 && h.channels != 4) {
    fail_file(ErrorCode::Internal, op, path,
              "libpng gave an unexpected channel count " + std::to_string(h.channels));
  }
  if (h.bit_depth != 8 && h.bit_depth != 16) {
    fail_file(ErrorCode::Internal, op, path,
              "libpng gave an unexpected bit depth " + std::to_string(h.bit_depth));
  }
  ImageInfo info;
  // libpng limits width and height to 1,000,000 by default, so they fit in int.
  info.width = static_cast<int>(h.width);
  info.height = static_cast<int>(h.height);
  info.channels = h.channels;
  info.type = h.bit_depth == 16 ? ElemType::u16 : ElemType::u8;
  info.format = ImageFormat::png;
  return info;
}

}  // namespace

ImageInfo read_png_info(std::FILE* f, const std::string& path) {
  PngReader r;
  open_reader(r, "read_info", path);
  return png_info_of(r, f, "read_info", path);
}

Image read_png(std::FILE* f, const std::string& path, const ReadOptions&, ReadNotes&) {
  PngReader r;
  open_reader(r, "imread", path);
  const ImageInfo info = png_info_of(r, f, "imread", path);
  check_image_size("imread", path, info);
  Image img(info.width, info.height, info.channels, info.type);
  const ImageView& v = img.view();
  if (png_get_rowbytes(r.png, r.info) != v.row_bytes())
    fail_file(ErrorCode::Internal, "imread", path, "libpng row size does not match the image");
  std::vector<png_bytep> rows(static_cast<std::size_t>(info.height));
  for (int y = 0; y < info.height; ++y) rows[static_cast<std::size_t>(y)] = v.row<png_byte>(y);
  if (!png_pixels_stage(r.png, r.info, rows.data()))
    fail_file(ErrorCode::Io, "imread", path, r.err.text);
  return img;
}

namespace {

bool png_write_stage(png_structp png, png_infop info, std::FILE* f, const ImageView* img,
                     int level) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, f);
  const int color = img->channels == 1   ? PNG_COLOR_TYPE_GRAY
                    : img->channels == 3 ? PNG_COLOR_TYPE_RGB
                                         : PNG_COLOR_TYPE_RGBA;
  const int depth = img->type == ElemType::u16 ? 16 : 8;
  png_set_IHDR(png, info, static_cast<png_uint_32>(img->width),
               static_cast<png_uint_32>(img->height), depth, color, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, level);
  png_write_info(png, info);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (depth == 16) png_set_swap(png);  // libpng copies each row before swapping it
#endif
  for (int y = 0; y < img->height; ++y) png_write_row(png, img->row<const png_byte>(y));
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

void write_png(std::FILE* f, const std::string& path, const ImageView& img,
               const WriteOptions& opt) {
  PngWriter w;
  w.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w.err, on_png_error, on_png_warning);
  if (w.png) w.info = png_create_info_struct(w.png);
  if (!w.png || !w.info)
    fail_file(ErrorCode::OutOfMemory, "imwrite", path, "cannot create libpng state");
  if (!png_write_stage(w.png, w.info, f, &img, opt.png_compression))
    fail_file(ErrorCode::Io, "imwrite", path, w.err.text);
}

}  // namespace texcv::io_detail
