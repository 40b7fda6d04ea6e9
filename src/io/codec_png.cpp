// PNG through libpng: 8 and 16-bit; gray, gray+alpha (read as RGBA), RGB, RGBA, palette (read
// as RGB, or RGBA with a tRNS chunk); bit depths 1, 2, 4 expanded to 8; 16-bit samples in host
// byte order. Sample values are returned as stored (no gamma, sBIT or background handling).
//
// libpng reports errors by calling our error function, which records the message and longjmps
// back to the setjmp in one of the small stage functions below. Those frames hold only plain
// data; every owner (FILE, png structs, Image, row pointers) lives in the calling frame, whose
// destructors run normally when the caller then throws.
//
// Corrupt data. libpng's errors always fail the read (Error(Io) "imread: <path>: <libpng's
// text>"): a file truncated anywhere, in the IDAT data too ("unexpected end of file"), a zlib
// stream that cannot be inflated while rows are still wanted, "Not enough image data". libpng
// downgrades some problems to warnings (its "benign errors", warnings by default when reading)
// and carries on; texcv treats as corrupt data, failing the read with "imread: <path>: Corrupt
// PNG data: <libpng's text>" unless ReadOptions::allow_corrupt (then the first goes to
// ReadNotes::corrupt and the decoded image is returned):
//   - every warning raised while libpng is in the image data (the current chunk is IDAT):
//     "Extra compressed data" (bytes after the end of the zlib stream), "Too much image data"
//     (the stream holds more rows than the header says), "Too many IDATs found", zlib's
//     messages met only once all rows are read, and "CRC error" (see below). A bad Adler-32 at
//     the end of the stream is usually met while the last row is still wanted: then it is
//     libpng's error "IDAT: incorrect data check", which fails whatever the options;
//   - "Read palette index exceeding num_palette" (pixels that name no palette entry);
//   - a CRC error in any critical chunk (IHDR, PLTE, IDAT, IEND). libpng's default makes these
//     errors; texcv sets PNG_CRC_WARN_USE for critical chunks so that they are reported as
//     corrupt data, like the others (allow_corrupt then uses the data as it is).
// Ignored, as before: warnings about ancillary chunks (a bad CRC in one, which libpng then
// discards, an invalid or misplaced iCCP, sRGB, gAMA, tEXt, tRNS, ...: metadata texcv does not
// use, or, for tRNS, drops consistently in read_info and imread) and the application warnings
// libpng gives about its own use. read_info reads the chunks before the first IDAT with the
// default (a bad IHDR CRC fails it).
#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "src/io/codec.hpp"

namespace texcv::io_detail {
namespace {

// What libpng's callbacks write into (png_get_error_ptr): plain data.
struct PngMessages {
  ErrorText err;                 // what stopped libpng
  ErrorText corrupt;             // the first corrupt-data warning, when allowed
  bool allow_corrupt = false;    // ReadOptions::allow_corrupt
  bool has_corrupt = false;      // `corrupt` is set
  std::uint64_t max_pixels = 0;  // ReadOptions::max_pixels (0: none)
  // The IHDR's width and height as on_png_read saw them go by (bytes 16-23 of the file), for
  // the message when libpng's user limits stop the read before it stores them.
  std::uint64_t pos = 0;
  unsigned char ihdr_size[8] = {};
  bool over_user_limit = false;  // libpng warned "Image width/height exceeds user limit in IHDR"
};

[[noreturn]] void on_png_error(png_structp png, png_const_charp msg) {
  static_cast<PngMessages*>(png_get_error_ptr(png))->err.set(msg);
  png_longjmp(png, 1);
}

constexpr png_uint_32 chunk_code(char a, char b, char c, char d) {
  return (png_uint_32{static_cast<unsigned char>(a)} << 24) |
         (png_uint_32{static_cast<unsigned char>(b)} << 16) |
         (png_uint_32{static_cast<unsigned char>(c)} << 8) | static_cast<unsigned char>(d);
}
constexpr png_uint_32 kIDAT = chunk_code('I', 'D', 'A', 'T');

// The most libpng allocates for one chunk other than the image data (text, ICC profile, EXIF...;
// png_set_chunk_malloc_max), as libpng's default build. A chunk that claims more fails the read.
constexpr png_alloc_size_t kPngChunkMax = 8'000'000;

bool ends_with(const char* s, const char* tail) noexcept {
  const std::size_t n = std::strlen(s), k = std::strlen(tail);
  return n >= k && std::strcmp(s + n - k, tail) == 0;
}

// Whether a reading warning says the image data is damaged (the list at the top of the file).
bool is_damage_warning(png_structp png, const char* msg) noexcept {
  const png_uint_32 chunk = png_get_io_chunk_type(png);
  if (chunk == kIDAT) return true;
  if (std::strstr(msg, "palette index exceeding") != nullptr) return true;
  const bool critical = chunk != 0 && (chunk & (png_uint_32{0x20} << 24)) == 0;
  return critical && ends_with(msg, "CRC error");
}

void on_png_read_warning(png_structp png, png_const_charp msg) {
  if (!msg) return;
  auto* m = static_cast<PngMessages*>(png_get_error_ptr(png));
  // libpng's check of a chunk's length against png_set_chunk_malloc_max is a "benign" error,
  // a warning when reading: libpng would then allocate the length the chunk claims (2 GB for a
  // 56-byte file) and read on. Here it stops the read.
  if (std::strstr(msg, "chunk data is too large") != nullptr) {
    char full[sizeof m->err.text];
    std::snprintf(full, sizeof full,
                  "%s: a chunk claims more than %u bytes (the limit on one PNG chunk besides the "
                  "image data); expected a smaller chunk",
                  msg, static_cast<unsigned>(kPngChunkMax));
    m->err.set(full);
    png_longjmp(png, 1);
  }
  // The IHDR over the user limits (set_pixel_cap): libpng's "Invalid IHDR data" error follows.
  if (std::strstr(msg, "exceeds user limit") != nullptr) m->over_user_limit = true;
  if (!is_damage_warning(png, msg)) return;
  if (m->allow_corrupt && m->has_corrupt) return;
  char full[sizeof m->err.text];
  std::snprintf(full, sizeof full, "Corrupt PNG data: %s", msg);
  if (!m->allow_corrupt) {
    m->err.set(full);
    png_longjmp(png, 1);  // inside a stage function, as an error would
  }
  m->corrupt.set(full);
  m->has_corrupt = true;
}

void on_png_write_warning(png_structp, png_const_charp) {}  // nothing of the file read

// libpng's stdio reader only says "Read Error"; this one says why.
void on_png_read(png_structp png, png_bytep data, std::size_t length) {
  auto* f = static_cast<std::FILE*>(png_get_io_ptr(png));
  auto* m = static_cast<PngMessages*>(png_get_error_ptr(png));
  const std::size_t got = std::fread(data, 1, length, f);
  for (std::size_t i = 0; i < got; ++i) {  // keep IHDR's width and height (file bytes 16-23)
    const std::uint64_t at = m->pos + i;
    if (at >= 24) break;
    if (at >= 16) m->ihdr_size[at - 16] = data[i];
  }
  m->pos += got;
  if (got == length) return;
  png_error(png, std::feof(f) ? "unexpected end of file (the file is truncated)" : "read error");
}

struct PngReader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  PngMessages msgs;
  PngReader() = default;
  PngReader(const PngReader&) = delete;
  PngReader& operator=(const PngReader&) = delete;
  ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

struct PngWriter {
  png_structp png = nullptr;
  png_infop info = nullptr;
  PngMessages msgs;
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

void open_reader(PngReader& r, const char* op, const std::string& path, bool allow_corrupt) {
  r.msgs.allow_corrupt = allow_corrupt;
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r.msgs, on_png_error, on_png_read_warning);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.png || !r.info) fail_file(ErrorCode::OutOfMemory, op, path, "cannot create libpng state");
  // A critical chunk's bad CRC becomes a warning, which on_png_read_warning reports as corrupt
  // data; ancillary chunks keep libpng's default (warn, discard the chunk).
  png_set_crc_action(r.png, PNG_CRC_WARN_USE, PNG_CRC_DEFAULT);
  png_set_chunk_malloc_max(r.png, kPngChunkMax);
}

// ReadOptions::max_pixels inside libpng too: neither side of an image of at most max_pixels
// pixels is longer than max_pixels (libpng's own default limit, 1,000,000 a side, stays when it
// is lower).
void set_pixel_cap(PngReader& r, std::uint64_t max_pixels) {
  r.msgs.max_pixels = max_pixels;
  if (max_pixels == 0 || max_pixels >= PNG_USER_WIDTH_MAX) return;
  const auto side = static_cast<png_uint_32>(max_pixels);
  png_set_user_limits(r.png, std::min(side, png_get_user_width_max(r.png)),
                      std::min(side, png_get_user_height_max(r.png)));
}

ImageInfo png_info_of(PngReader& r, std::FILE* f, const char* op, const std::string& path) {
  PngHeader h{};
  if (!png_header_stage(r.png, r.info, f, &h)) {
    // libpng's user limits (set_pixel_cap) stop it in the IHDR: say so with the IHDR's size.
    if (r.msgs.max_pixels > 0 && r.msgs.over_user_limit && r.msgs.pos >= 24) {
      const unsigned char* b = r.msgs.ihdr_size;
      const std::uint64_t w = (std::uint64_t{b[0]} << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
      const std::uint64_t hh = (std::uint64_t{b[4]} << 24) | (b[5] << 16) | (b[6] << 8) | b[7];
      fail_file(ErrorCode::Io, op, path, pixel_cap_message(w, hh, r.msgs.max_pixels));
    }
    fail_file(ErrorCode::Io, op, path, r.msgs.err.text);
  }
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
  open_reader(r, "read_info", path, false);
  return png_info_of(r, f, "read_info", path);
}

Image read_png(std::FILE* f, const std::string& path, const ReadOptions& opt, ReadNotes& notes) {
  PngReader r;
  open_reader(r, "imread", path, opt.allow_corrupt);
  set_pixel_cap(r, opt.max_pixels);
  const ImageInfo info = png_info_of(r, f, "imread", path);
  check_pixel_cap("imread", path, info, opt.max_pixels);
  check_image_size("imread", path, info);
  Image img = allocate_image("imread", path, info, opt);
  const ImageView& v = img.view();
  if (png_get_rowbytes(r.png, r.info) != v.row_bytes())
    fail_file(ErrorCode::Internal, "imread", path, "libpng row size does not match the image");
  std::vector<png_bytep> rows(static_cast<std::size_t>(info.height));
  for (int y = 0; y < info.height; ++y) rows[static_cast<std::size_t>(y)] = v.row<png_byte>(y);
  if (!png_pixels_stage(r.png, r.info, rows.data()))
    fail_file(ErrorCode::Io, "imread", path, r.msgs.err.text);
  if (r.msgs.has_corrupt) notes.corrupt = r.msgs.corrupt.text;
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

void write_png(std::FILE* f, const char* op, const std::string& path, const ImageView& img,
               const WriteOptions& opt) {
  PngWriter w;
  w.png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &w.msgs, on_png_error, on_png_write_warning);
  if (w.png) w.info = png_create_info_struct(w.png);
  if (!w.png || !w.info) fail_file(ErrorCode::OutOfMemory, op, path, "cannot create libpng state");
  if (!png_write_stage(w.png, w.info, f, &img, opt.png_compression))
    fail_file(ErrorCode::Io, op, path, w.msgs.err.text);
}

}  // namespace texcv::io_detail
