// JPEG through libjpeg(-turbo): reads 8-bit gray (1 channel) and YCbCr/RGB (3 channels, RGB);
// CMYK/YCCK files are Error(Unsupported). Decoding uses the library defaults (integer slow DCT,
// fancy upsampling), as OpenCV's imread does. Writes u8 gray or RGB with the library's default
// settings (4:2:0 chroma subsampling for RGB) at the requested quality.
//
// libjpeg reports errors by calling error_exit, which we replace: it formats the message and
// longjmps back to the setjmp in one of the small stage functions below, whose frames hold only
// plain data. A premature end of file is only a warning to libjpeg (it pads the image with
// gray); texcv treats it as an error, so a truncated file never decodes "successfully".
// jpeglib.h needs size_t and FILE declared before it.
#include <csetjmp>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include <jpeglib.h>
// jerror.h after jpeglib.h (it needs its types)
#include <jerror.h>

#include "src/io/codec.hpp"

namespace texcv::io_detail {
namespace {

struct JpegErr {
  jpeg_error_mgr mgr;  // first member: libjpeg passes &mgr, we cast back
  std::jmp_buf jump;
  ErrorText text;
};

[[noreturn]] void on_jpeg_error(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<JpegErr*>(cinfo->err);
  char buf[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buf);
  e->text.set(buf);
  std::longjmp(e->jump, 1);
}

void on_jpeg_message(j_common_ptr cinfo, int level) {
  // level -1: a warning about corrupt data. A truncated file is an error for texcv; other
  // warnings (e.g. extraneous bytes before a marker) leave a usable image and are ignored.
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) on_jpeg_error(cinfo);
}

void init_err(JpegErr& e) {
  jpeg_std_error(&e.mgr);
  e.mgr.error_exit = on_jpeg_error;
  e.mgr.emit_message = on_jpeg_message;
}

struct JpegReader {
  jpeg_decompress_struct cinfo{};
  JpegErr err{};
  bool created = false;
  JpegReader() = default;
  JpegReader(const JpegReader&) = delete;
  JpegReader& operator=(const JpegReader&) = delete;
  ~JpegReader() {
    if (created) jpeg_destroy_decompress(&cinfo);
  }
};

struct JpegWriter {
  jpeg_compress_struct cinfo{};
  JpegErr err{};
  bool created = false;
  JpegWriter() = default;
  JpegWriter(const JpegWriter&) = delete;
  JpegWriter& operator=(const JpegWriter&) = delete;
  ~JpegWriter() {
    if (created) jpeg_destroy_compress(&cinfo);
  }
};

// Stage 1: creates the decompressor and reads the header. `created` tells the owner to destroy.
bool jpeg_header_stage(jpeg_decompress_struct* cinfo, JpegErr* err, bool* created, std::FILE* f) {
  cinfo->err = &err->mgr;
  if (setjmp(err->jump)) return false;
  jpeg_create_decompress(cinfo);
  *created = true;
  jpeg_stdio_src(cinfo, f);
  jpeg_read_header(cinfo, TRUE);
  return true;
}

// Stage 2: decodes every row straight into the image rows.
bool jpeg_pixels_stage(jpeg_decompress_struct* cinfo, JpegErr* err, const ImageView* img) {
  if (setjmp(err->jump)) return false;
  cinfo->out_color_space = img->channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(cinfo);
  if (cinfo->output_width != static_cast<JDIMENSION>(img->width) ||
      cinfo->output_height != static_cast<JDIMENSION>(img->height) ||
      cinfo->output_components != img->channels) {
    err->text.set("libjpeg output shape does not match the header");
    return false;
  }
  while (cinfo->output_scanline < cinfo->output_height) {
    JSAMPROW row = img->row<JSAMPLE>(static_cast<int>(cinfo->output_scanline));
    jpeg_read_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_decompress(cinfo);
  return true;
}

ImageInfo jpeg_info_of(JpegReader& r, std::FILE* f, const char* op, const std::string& path) {
  init_err(r.err);
  if (!jpeg_header_stage(&r.cinfo, &r.err, &r.created, f))
    fail_file(ErrorCode::Io, op, path, r.err.text.text);
  ImageInfo info;
  info.width = static_cast<int>(r.cinfo.image_width);  // at most 65500
  info.height = static_cast<int>(r.cinfo.image_height);
  info.type = ElemType::u8;
  info.format = ImageFormat::jpeg;
  switch (r.cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
      info.channels = 1;
      break;
    case JCS_YCbCr:
    case JCS_RGB:
      info.channels = 3;
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      fail_file(ErrorCode::Unsupported, op, path,
                "CMYK/YCCK JPEG files are not supported; got " +
                    std::to_string(r.cinfo.num_components) +
                    " CMYK components, expected gray or RGB (YCbCr)");
    default:
      fail_file(ErrorCode::Unsupported, op, path,
                "unknown JPEG color space with " + std::to_string(r.cinfo.num_components) +
                    " components; expected gray or RGB (YCbCr)");
  }
  return info;
}

}  // namespace

ImageInfo read_jpeg_info(std::FILE* f, const std::string& path) {
  JpegReader r;
  return jpeg_info_of(r, f, "read_info", path);
}

Image read_jpeg(std::FILE* f, const std::string& path) {
  JpegReader r;
  const ImageInfo info = jpeg_info_of(r, f, "imread", path);
  check_image_size("imread", path, info);
  Image img(info.width, info.height, info.channels, info.type);
  if (!jpeg_pixels_stage(&r.cinfo, &r.err, &img.view()))
    fail_file(ErrorCode::Io, "imread", path, r.err.text.text);
  return img;
}

namespace {

bool jpeg_write_stage(jpeg_compress_struct* cinfo, JpegErr* err, bool* created, std::FILE* f,
                      const ImageView* img, int quality) {
  cinfo->err = &err->mgr;
  if (setjmp(err->jump)) return false;
  jpeg_create_compress(cinfo);
  *created = true;
  jpeg_stdio_dest(cinfo, f);
  cinfo->image_width = static_cast<JDIMENSION>(img->width);
  cinfo->image_height = static_cast<JDIMENSION>(img->height);
  cinfo->input_components = img->channels;
  cinfo->in_color_space = img->channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(cinfo);
  jpeg_set_quality(cinfo, quality, TRUE);
  jpeg_start_compress(cinfo, TRUE);
  while (cinfo->next_scanline < cinfo->image_height) {
    // libjpeg does not write through the row pointers it is given.
    JSAMPROW row = img->row<JSAMPLE>(static_cast<int>(cinfo->next_scanline));
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  return true;
}

}  // namespace

void write_jpeg(std::FILE* f, const std::string& path, const ImageView& img,
                const WriteOptions& opt) {
  if (img.width > JPEG_MAX_DIMENSION || img.height > JPEG_MAX_DIMENSION) {
    fail(ErrorCode::Unsupported, "imwrite", path + ": image too large for JPEG",
         std::to_string(img.width) + "x" + std::to_string(img.height),
         "at most " + std::to_string(JPEG_MAX_DIMENSION) + " pixels per side");
  }
  JpegWriter w;
  init_err(w.err);
  if (!jpeg_write_stage(&w.cinfo, &w.err, &w.created, f, &img, opt.jpeg_quality))
    fail_file(ErrorCode::Io, "imwrite", path, w.err.text.text);
}

}  // namespace texcv::io_detail
