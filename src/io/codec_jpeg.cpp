// JPEG through libjpeg(-turbo): reads 8-bit gray (1 channel) and YCbCr/RGB (3 channels, RGB);
// CMYK/YCCK files are Error(Unsupported). Decoding uses the library defaults (integer slow DCT,
// fancy upsampling), as OpenCV's imread does. Writes u8 gray or RGB with the library's default
// settings (4:2:0 chroma subsampling for RGB) at the requested quality.
//
// libjpeg reports errors by calling error_exit, which we replace: it formats the message and
// longjmps back to the setjmp in one of the small stage functions below, whose frames hold only
// plain data.
//
// Corrupt data. libjpeg only warns (emit_message level -1) about damaged data and carries on,
// padding or repeating what it cannot decode, as djpeg does (djpeg then exits with status 2);
// texcv treats those warnings as errors, so a damaged file never decodes "successfully":
// imread throws Error(Io) "imread: <path>: Corrupt JPEG data: <libjpeg's text>" (libjpeg's text
// is prefixed with "Corrupt JPEG data: " where it lacks it), unless ReadOptions::allow_corrupt,
// when the first one goes to ReadNotes::corrupt and the recovered image is returned. Level -1
// warnings that fail:
//   JWRN_HIT_MARKER       premature end of data segment (the entropy data stops early)
//   JWRN_HUFF_BAD_CODE    bad Huffman code
//   JWRN_ARITH_BAD_CODE   bad arithmetic code
//   JWRN_EXTRANEOUS_DATA  N extraneous bytes before a marker (damaged or misplaced data)
//   JWRN_MUST_RESYNC      found marker 0xNN instead of RSTn (a restart marker lost)
//   JWRN_JPEG_EOF         premature end of JPEG file (truncated; libjpeg inserts a fake EOI)
//   JWRN_BOGUS_PROGRESSION  inconsistent progression sequence (a progressive file's scans do not
//                         fit together, so coefficients are refined wrongly)
//   and any level -1 warning not named below (unknown ones count as damage).
// Level -1 warnings that are ignored, being about metadata or not about the file:
//   JWRN_ADOBE_XFORM      unknown Adobe color transform code (libjpeg assumes YCbCr/YCCK)
//   JWRN_JFIF_MAJOR       unknown JFIF revision number
//   JWRN_NOT_SEQUENTIAL   invalid SOS parameters for sequential JPEG (libjpeg: "some baseline
//                         files out there with all zeroes in these bytes"; they decode fine)
//   JWRN_BOGUS_ICC        bad ICC marker (only jpeg_read_icc_profile reports it; texcv never
//                         reads the profile)
//   JWRN_TOO_MUCH_DATA    the application read too many scanlines (cannot happen here)
// Levels >= 0 are traces (JTRC_*) and are ignored. read_info reads the header with the default
// (a damaged header fails it). The data reaches libjpeg through JpegSourceMgr below, a few
// hundred bytes at a time, which keeps libjpeg-turbo's Huffman decoder on its checked path (its
// fast path decodes a bad code as 0 without a word, so that damage went unseen wherever the
// buffer happened to be full). check_jpeg runs the same header code on the same source and then
// decodes the same entropy data in the same order as the full decode, so it meets the same first
// warning: a quick pass at 1/8 scale for sound files, then jpeg_read_coefficients for the others
// (check_jpeg_data). Before those, jpeg_sound_by_scan lets libjpeg-turbo read the header and set
// the decode up, then walks the entropy data with codec_jpeg_scan.cpp, which can only say
// "sound" (where libjpeg-turbo meets no damage warning) or "unsure" (the passes above decide).
// jpeglib.h needs size_t and FILE declared before it.
#include <csetjmp>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <jpeglib.h>
// jerror.h after jpeglib.h (it needs its types)
#include <jerror.h>

#include "src/io/codec.hpp"
#include "src/io/codec_jpeg_scan.hpp"

namespace texcv::io_detail {
namespace {

struct JpegErr {
  jpeg_error_mgr mgr;  // first member: libjpeg passes &mgr, we cast back
  std::jmp_buf jump;
  ErrorText text;              // what stopped the decoder
  ErrorText corrupt;           // the first corrupt-data warning, when allowed
  bool allow_corrupt = false;  // ReadOptions::allow_corrupt
  bool has_corrupt = false;    // `corrupt` is set
};

// Stops a decode at scan kMaxJpegScans + 1 (texcv/io.hpp), as djpeg's -maxscans and
// libjpeg-turbo's fuzz targets do: libjpeg calls the progress monitor between the rows of every
// pass over the input, with input_scan_number the scan being read. A progressive file of 6,000
// repeated scans over 8000x8000 pixels (820 KB) took 34 s to decode; the limit stops it after
// kMaxJpegScans scans (the same in imread, read's header stage never reaches a scan, and
// check_jpeg).
struct JpegProgress {
  jpeg_progress_mgr pub;  // first member: libjpeg passes &pub through cinfo->progress
  JpegErr* err = nullptr;
};

void on_jpeg_progress(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) return;
  const int scan = reinterpret_cast<j_decompress_ptr>(cinfo)->input_scan_number;
  if (scan <= kMaxJpegScans) return;
  JpegErr* e = reinterpret_cast<JpegProgress*>(cinfo->progress)->err;
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "the file has more than %d scans (a progressive JPEG normally has about 10); got "
                "scan %d, expected at most %d",
                kMaxJpegScans, scan, kMaxJpegScans);
  e->text.set(buf);
  std::longjmp(e->jump, 1);  // inside a stage function, as an error would
}

[[noreturn]] void on_jpeg_error(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<JpegErr*>(cinfo->err);
  char buf[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buf);
  e->text.set(buf);
  std::longjmp(e->jump, 1);
}

// Whether a level -1 warning says the data is damaged (the lists at the top of the file).
bool is_damage_warning(int code) noexcept {
  switch (code) {
    case JWRN_ADOBE_XFORM:
    case JWRN_JFIF_MAJOR:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_TOO_MUCH_DATA:
#if defined(LIBJPEG_TURBO_VERSION)
    case JWRN_BOGUS_ICC:
#endif
      return false;
    default:
      return true;
  }
}

void on_jpeg_message(j_common_ptr cinfo, int level) {
  if (level >= 0) return;  // traces
  cinfo->err->num_warnings++;
  if (!is_damage_warning(cinfo->err->msg_code)) return;
  auto* e = reinterpret_cast<JpegErr*>(cinfo->err);
  if (!e->allow_corrupt || !e->has_corrupt) {
    char buf[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buf);
    static constexpr char kPrefix[] = "Corrupt JPEG data";
    char full[JMSG_LENGTH_MAX + sizeof kPrefix + 2];
    if (std::strncmp(buf, kPrefix, sizeof kPrefix - 1) == 0)
      std::snprintf(full, sizeof full, "%s", buf);
    else
      std::snprintf(full, sizeof full, "%s: %s", kPrefix, buf);
    if (!e->allow_corrupt) {
      e->text.set(full);
      std::longjmp(e->jump, 1);
    }
    e->corrupt.set(full);
    e->has_corrupt = true;
  }
}

void init_err(JpegErr& e, bool allow_corrupt = false) {
  jpeg_std_error(&e.mgr);
  e.mgr.error_exit = on_jpeg_error;
  e.mgr.emit_message = on_jpeg_message;
  e.allow_corrupt = allow_corrupt;
}

// The data source of every decode (imread, read_info, check_jpeg): the file's bytes, or the
// caller's, handed to libjpeg at most kFeed bytes at a time. libjpeg-turbo's Huffman decoder
// takes an unchecked fast path while at least 512 bytes per block of an MCU are buffered
// (jdhuff.c, decode_mcu: BUFSIZE * blocks_in_MCU), where an invalid code silently decodes as 0;
// only its other path warns "Corrupt JPEG data: bad Huffman code". Feeding fewer bytes than that
// keeps it on the checked path always, so a bad code is found wherever it is, and the verdict
// does not depend on where the buffer boundaries fall: imread (from a file) and check_jpeg (from
// memory) meet the same first warning. At the end of the data it does what libjpeg's own
// sources do: a warning (JWRN_JPEG_EOF) and a fake EOI marker; no data at all is
// JERR_INPUT_EMPTY.
constexpr std::size_t kFeed = DCTSIZE2 * 8 - 1;  // 511: below jdhuff.c's BUFSIZE
constexpr std::size_t kFileChunk = kFeed * 16;   // bytes read from a file at a time (8 KiB)

// Plain data: libjpeg calls the functions below with &pub.
struct JpegSourceMgr {
  jpeg_source_mgr pub;                  // first member: libjpeg passes &pub, we cast back
  std::FILE* file = nullptr;            // null: all the data is in [data, data + size)
  const unsigned char* data = nullptr;  // the bytes not yet fed (a file: its read buffer)
  std::size_t size = 0;
  unsigned char* chunk = nullptr;  // a file's read buffer, kFileChunk bytes
  bool started = false;            // some data was fed
  JOCTET eoi[2] = {0xFF, JPEG_EOI};
};

void source_init(j_decompress_ptr) {}
void source_term(j_decompress_ptr) {}

boolean source_fill(j_decompress_ptr cinfo) {
  auto* s = reinterpret_cast<JpegSourceMgr*>(cinfo->src);
  if (s->size == 0 && s->file) {
    s->size = std::fread(s->chunk, 1, kFileChunk, s->file);
    s->data = s->chunk;
    if (s->size == 0 && std::ferror(s->file)) ERREXIT(cinfo, JERR_FILE_READ);
  }
  if (s->size == 0) {
    if (!s->started) ERREXIT(cinfo, JERR_INPUT_EMPTY);
    WARNMS(cinfo, JWRN_JPEG_EOF);  // may not return (on_jpeg_message)
    s->pub.next_input_byte = s->eoi;
    s->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  const std::size_t n = s->size < kFeed ? s->size : kFeed;
  s->pub.next_input_byte = s->data;
  s->pub.bytes_in_buffer = n;
  s->data += n;
  s->size -= n;
  s->started = true;
  return TRUE;
}

void source_skip(j_decompress_ptr cinfo, long num_bytes) {
  if (num_bytes <= 0) return;
  jpeg_source_mgr* src = cinfo->src;
  auto left = static_cast<std::size_t>(num_bytes);
  while (left > src->bytes_in_buffer) {
    left -= src->bytes_in_buffer;
    source_fill(cinfo);
  }
  src->next_input_byte += left;
  src->bytes_in_buffer -= left;
}

struct JpegReader {
  jpeg_decompress_struct cinfo{};
  JpegErr err{};
  JpegSourceMgr src{};
  JpegProgress progress{};
  std::vector<unsigned char> chunk;  // a file's read buffer
  bool created = false;
  // Reads from an open file, or from memory.
  explicit JpegReader(std::FILE* f) : chunk(kFileChunk) {
    src.file = f;
    src.chunk = chunk.data();
  }
  JpegReader(const unsigned char* data, std::size_t size) {
    src.data = data;
    src.size = size;
  }
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
bool jpeg_header_stage(jpeg_decompress_struct* cinfo, JpegErr* err, bool* created,
                       JpegSourceMgr* src, JpegProgress* progress) {
  cinfo->err = &err->mgr;
  if (setjmp(err->jump)) return false;
  jpeg_create_decompress(cinfo);
  *created = true;
  progress->pub.progress_monitor = on_jpeg_progress;
  progress->err = err;
  cinfo->progress = &progress->pub;
  src->pub.init_source = source_init;
  src->pub.fill_input_buffer = source_fill;
  src->pub.skip_input_data = source_skip;
  src->pub.resync_to_restart = jpeg_resync_to_restart;
  src->pub.term_source = source_term;
  src->pub.bytes_in_buffer = 0;
  src->pub.next_input_byte = nullptr;
  cinfo->src = &src->pub;
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

// The output check_jpeg's passes ask for: 1/8 scale, luma only, no fancy upsampling (the least
// work after the entropy decoding, which is the same at any scale).
void set_quick_output(jpeg_decompress_struct* cinfo) {
  cinfo->scale_num = 1;
  cinfo->scale_denom = 8;
  if (cinfo->jpeg_color_space == JCS_YCbCr || cinfo->jpeg_color_space == JCS_GRAYSCALE)
    cinfo->out_color_space = JCS_GRAYSCALE;
  cinfo->do_fancy_upsampling = FALSE;
}

// check_jpeg's quick pass: decodes the whole file at 1/8 scale, row by row into one row of the
// library's own memory, up to EOI. The entropy decoder reads every Huffman symbol of every block
// of every component in the same order as the full decode and jpeg_read_coefficients
// (libjpeg-turbo only skips storing the coefficients it does not need: the AC ones of a 1/8
// image, the chroma blocks of a gray output), on the same source, so it meets the same warnings;
// the inverse DCT is 1x1, only the luma is output, unsmoothed, and nothing the size of the image
// is allocated or written (jpeg_read_coefficients fills whole-image coefficient arrays: 6 MB for
// a 1080p 4:2:0 file). Returns false at the first error or damage warning (allow_corrupt off in
// `err`).
bool jpeg_scan_stage(jpeg_decompress_struct* cinfo, JpegErr* err) {
  if (setjmp(err->jump)) return false;
  set_quick_output(cinfo);
  jpeg_start_decompress(cinfo);
  const JDIMENSION row = cinfo->output_width * static_cast<JDIMENSION>(cinfo->output_components);
  JSAMPARRAY buf =
      (*cinfo->mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(cinfo), JPOOL_IMAGE, row, 1);
  while (cinfo->output_scanline < cinfo->output_height) jpeg_read_scanlines(cinfo, buf, 1);
  jpeg_finish_decompress(cinfo);
  return true;
}

// check_jpeg's fast stage: libjpeg-turbo reads the header and sets the decode up as the quick
// pass does (jpeg_start_decompress at 1/8 scale, gray: its checks of the tables, the sampling
// and the MCU size; on a file of one sequential scan it reads no entropy data), and the scan's
// layout and Huffman tables are copied out for scan_jpeg_entropy. False for what that does not
// handle (progressive, arithmetic, 12-bit, lossless, a scan without every component, which
// jpeg_start_decompress would read whole) and for any error or damage warning.
bool jpeg_layout_stage(jpeg_decompress_struct* cinfo, JpegErr* err, JpegScanLayout* layout) {
  if (setjmp(err->jump)) return false;
  if (cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8 ||
      cinfo->comps_in_scan != cinfo->num_components || cinfo->Ss != 0 ||
      cinfo->Se != DCTSIZE2 - 1 || cinfo->Ah != 0 || cinfo->Al != 0)
    return false;
  set_quick_output(cinfo);
  jpeg_start_decompress(cinfo);
  if (cinfo->blocks_in_MCU < 1 || cinfo->blocks_in_MCU > JpegScanLayout::kMaxBlocks) return false;
  layout->blocks_in_mcu = cinfo->blocks_in_MCU;
  layout->mcus = static_cast<std::uint64_t>(cinfo->MCUs_per_row) * cinfo->MCU_rows_in_scan;
  layout->restart_interval = cinfo->restart_interval;
  for (int t = 0; t < 4; ++t) {
    for (int k = 0; k < 2; ++k) {
      const JHUFF_TBL* h = k ? cinfo->ac_huff_tbl_ptrs[t] : cinfo->dc_huff_tbl_ptrs[t];
      JpegHuffSpec& spec = k ? layout->ac[t] : layout->dc[t];
      if (!h) continue;
      std::memcpy(spec.bits, h->bits, sizeof spec.bits);
      std::memcpy(spec.vals, h->huffval, sizeof spec.vals);
    }
  }
  for (int b = 0; b < cinfo->blocks_in_MCU; ++b) {
    const jpeg_component_info* c = cinfo->cur_comp_info[cinfo->MCU_membership[b]];
    if (c->dc_tbl_no < 0 || c->dc_tbl_no > 3 || c->ac_tbl_no < 0 || c->ac_tbl_no > 3 ||
        !cinfo->dc_huff_tbl_ptrs[c->dc_tbl_no] || !cinfo->ac_huff_tbl_ptrs[c->ac_tbl_no])
      return false;
    layout->dc_table[b] = c->dc_tbl_no;
    layout->ac_table[b] = c->ac_tbl_no;
  }
  return true;
}

// Whether a component's sampling factors do not divide the largest ones (e.g. 3x1 beside 2x1):
// libjpeg-turbo's upsampler refuses those at jpeg_start_decompress ("Fractional sampling not
// implemented yet"), before reading any entropy data, which jpeg_read_coefficients never does.
bool fractional_sampling(const jpeg_decompress_struct& c) {
  for (int i = 0; i < c.num_components; ++i) {
    const jpeg_component_info& k = c.comp_info[i];
    if (k.h_samp_factor <= 0 || k.v_samp_factor <= 0 || c.max_h_samp_factor % k.h_samp_factor ||
        c.max_v_samp_factor % k.v_samp_factor)
      return true;
  }
  return false;
}

// check_jpeg's stage for such files: imread's jpeg_start_decompress (the same output colour
// space), for its verdict and message; nothing is decoded after it.
bool jpeg_start_stage(jpeg_decompress_struct* cinfo, JpegErr* err, int channels) {
  if (setjmp(err->jump)) return false;
  cinfo->out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(cinfo);
  jpeg_abort_decompress(cinfo);
  return true;
}

// Stage 2 of check_jpeg: decodes the entropy data into coefficients (no IDCT, no color
// conversion) up to EOI, as the full decode reads it.
bool jpeg_coefficients_stage(jpeg_decompress_struct* cinfo, JpegErr* err) {
  if (setjmp(err->jump)) return false;
  jpeg_read_coefficients(cinfo);
  jpeg_finish_decompress(cinfo);
  return true;
}

ImageInfo jpeg_info_of(JpegReader& r, bool allow_corrupt, const char* op, const std::string& path) {
  init_err(r.err, allow_corrupt);
  if (!jpeg_header_stage(&r.cinfo, &r.err, &r.created, &r.src, &r.progress))
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
  JpegReader r(f);
  return jpeg_info_of(r, false, "read_info", path);
}

Image read_jpeg(std::FILE* f, const std::string& path, const ReadOptions& opt, ReadNotes& notes) {
  JpegReader r(f);
  const ImageInfo info = jpeg_info_of(r, opt.allow_corrupt, "imread", path);
  check_pixel_cap("imread", path, info, opt.max_pixels);
  check_image_size("imread", path, info);
  Image img = allocate_image("imread", path, info, opt);
  if (!jpeg_pixels_stage(&r.cinfo, &r.err, &img.view()))
    fail_file(ErrorCode::Io, "imread", path, r.err.text.text);
  if (r.err.has_corrupt) notes.corrupt = r.err.corrupt.text;
  return img;
}

bool jpeg_sound_by_scan(const unsigned char* data, std::size_t size, const std::string& path,
                        const ReadOptions& opt) {
  JpegReader r(data, size);
  JpegScanLayout layout;
  try {
    const ImageInfo info = jpeg_info_of(r, false, "imread", path);
    check_pixel_cap("imread", path, info, opt.max_pixels);
    check_image_size("imread", path, info);
    if (fractional_sampling(r.cinfo) || !jpeg_layout_stage(&r.cinfo, &r.err, &layout)) return false;
  } catch (const Error&) {
    return false;
  }
  // Where libjpeg stopped reading: the first byte after the SOS segment (the source hands out
  // the caller's bytes in place; next_input_byte elsewhere means its fake EOI, the data ended).
  const unsigned char* at = r.src.data - r.src.pub.bytes_in_buffer;
  if (r.src.pub.bytes_in_buffer && r.src.pub.next_input_byte != at) return false;
  return scan_jpeg_entropy(layout, at, r.src.data + r.src.size) == JpegScanVerdict::sound;
}

std::string check_jpeg_data(const unsigned char* data, std::size_t size, const std::string& path,
                            const ReadOptions& opt) {
  // First the fast verdict (codec_jpeg_scan.hpp): it says "sound" only of files libjpeg-turbo
  // decodes without an error or a damage warning, and costs a fraction of libjpeg-turbo's checked
  // entropy decode. Every other file goes on to libjpeg-turbo below. TEXCV_JPEG_SCAN=0 skips it
  // (an A/B aid for benchmarks: the verdict is the same either way).
  static const bool scan_on = [] {
    const char* v = std::getenv("TEXCV_JPEG_SCAN");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  if (scan_on && jpeg_sound_by_scan(data, size, path, opt)) return std::string();
  // The quick pass settles the common case, a sound file (no error, no damage warning), in
  // 86-87 % of jpeg_read_coefficients' time (1080p files, docs/performance.md). Anything else (an
  // error, a warning, a header the caller must hear about) is settled by the full pass below, which
  // gives imread's message and, with allow_corrupt, its first warning: both passes decode the same
  // symbols in the same order, so a file the quick pass finds sound is sound for the full one.
  {
    JpegReader quick(data, size);
    bool sound = false, fractional = false;
    try {
      const ImageInfo info = jpeg_info_of(quick, false, "imread", path);
      check_pixel_cap("imread", path, info, opt.max_pixels);
      check_image_size("imread", path, info);
      fractional = fractional_sampling(quick.cinfo);
      sound = !fractional && jpeg_scan_stage(&quick.cinfo, &quick.err);
    } catch (const Error&) {
      sound = false;
    }
    if (sound) return std::string();
    if (fractional) {  // imread's verdict at its jpeg_start_decompress, before any data
      JpegReader start(data, size);
      const ImageInfo info = jpeg_info_of(start, opt.allow_corrupt, "imread", path);
      if (!jpeg_start_stage(&start.cinfo, &start.err, info.channels))
        fail_file(ErrorCode::Io, "imread", path, start.err.text.text);
    }
  }
  JpegReader r(data, size);
  const ImageInfo info = jpeg_info_of(r, opt.allow_corrupt, "imread", path);
  check_pixel_cap("imread", path, info, opt.max_pixels);
  check_image_size("imread", path, info);
  if (!jpeg_coefficients_stage(&r.cinfo, &r.err))
    fail_file(ErrorCode::Io, "imread", path, r.err.text.text);
  return r.err.has_corrupt ? std::string(r.err.corrupt.text) : std::string();
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

void write_jpeg(std::FILE* f, const char* op, const std::string& path, const ImageView& img,
                const WriteOptions& opt) {
  if (img.width > JPEG_MAX_DIMENSION || img.height > JPEG_MAX_DIMENSION) {
    fail(ErrorCode::Unsupported, op, at_path(path, "image too large for JPEG"),
         std::to_string(img.width) + "x" + std::to_string(img.height),
         "at most " + std::to_string(JPEG_MAX_DIMENSION) + " pixels per side");
  }
  JpegWriter w;
  init_err(w.err);
  if (!jpeg_write_stage(&w.cinfo, &w.err, &w.created, f, &img, opt.jpeg_quality))
    fail_file(ErrorCode::Io, op, path, w.err.text.text);
}

}  // namespace texcv::io_detail
