// TIFF through libtiff (compiled only with TEXCV_HAS_TIFF): the first image of a file.
// Reads unsigned 8/16-bit and IEEE float 32-bit samples; gray (MinIsBlack, 1 sample), gray +
// alpha (2 samples, read as RGBA), RGB (3) and RGB + alpha (4); contiguous (chunky) samples in
// strips or tiles, with any compression libtiff decodes. Other sample formats, photometric
// interpretations (palette, MinIsWhite, CMYK, YCbCr, ...) and planar layouts are
// Error(Unsupported). Writes u8/u16/f32 gray/RGB/RGBA in strips of about 256 KiB, uncompressed
// (the default) or with one of the lossless codecs of WriteOptions::tiff_compression (with a
// horizontal or floating-point predictor, except packbits). Files and memory (imdecode,
// imencode) go through the same client I/O procedures (TiffIo below).
//
// The strips or tiles of a file are read on up to ReadOptions::threads threads, each with a
// libtiff handle of its own, with the verdicts of a sequential read ("strips and tiles in
// parallel" below).
//
// libtiff reports errors through a handler and return codes (no longjmp), so plain RAII works
// here. With libtiff >= 4.5 the handler is per file (TIFFOpenOptions); older libtiff gets a
// process-wide handler that writes into a thread-local slot.
//
// Several pages: read_info and ReadNotes::pages give TIFFNumberOfDirectories; imread reads the
// first directory.
//
// Corrupt data. libtiff's errors always fail the read ("imread: <path>: row N: <libtiff's
// text>", or "tile at (x, y): ..."): a file truncated in its strip or tile data ("Read error on
// strip N; got X bytes, expected Y"), a strip or tile offset past the end of the file, a
// compressed strip that does not decode (e.g. a strip offset moved into the middle of a deflate
// stream: "Decoding error ... incorrect header check"). libtiff cannot give those rows back, so
// allow_corrupt does not change this. Warnings:
//   - while decoding strips or tiles (TIFFReadScanline, TIFFReadTile) every warning is about the
//     data ("LZWDecode: Strip N not terminated with EOI code", PackBits "Discarding N bytes to
//     avoid buffer overrun", "Terminating PackBitsDecode due to lack of data", libjpeg's
//     warnings inside a JPEG-compressed TIFF, ...) and is corrupt data: the read fails with
//     "imread: <path>: Corrupt TIFF data: <module>: <text>" unless ReadOptions::allow_corrupt,
//     which returns the decoded image and puts the first in ReadNotes::corrupt. Exception:
//     "Old-style LZW codes, convert file" (an old but valid encoding, decoded correctly).
//   - an error while counting the directories (a broken chain of directories after the first:
//     an offset past the end, a loop) is corrupt data in the same way, reported as "Corrupt TIFF
//     data: <libtiff's error>"; pages is then the number of directories reached.
//   - while opening the file and reading the first directory they are ignored: they are about
//     tags (unknown or malformed ones, ASCII without NUL, ...) or libtiff's repairs of them
//     ("Bogus StripByteCounts field, ignoring and calculating from imagelength"); when such a
//     repaired strip is really short, reading it is an error above.
// An uncompressed strip whose offset was moved to other bytes inside the file cannot be told
// from good data by any reader: it decodes as those bytes. A tile past the end of the file (a
// truncated tiled file) fails with "tile at (x, y): read error": libtiff gives no message there.
#if defined(TEXCV_HAS_TIFF)

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <tiffio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "src/io/codec.hpp"

#if defined(TIFFLIB_VERSION) && TIFFLIB_VERSION >= 20221213
#define TEXCV_TIFF_OPEN_OPTIONS 1
#else
#include <mutex>
#endif

namespace texcv::io_detail {
namespace {

void format_tiff_message(char* out, std::size_t size, const char* module, const char* fmt,
                         va_list ap) noexcept {
  char msg[400];
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  if (module && *module)
    std::snprintf(out, size, "%s: %s", module, msg);
  else
    std::snprintf(out, size, "%s", msg);
}

// Keeps the first error message (later ones usually follow from it), and the first warning
// about the pixel data while `decoding` (see the top of the file).
struct TiffErrors {
  ErrorText first;
  bool any = false;
  bool decoding = false;  // inside TIFFReadScanline / TIFFReadTile
  ErrorText corrupt;      // "Corrupt TIFF data: <module>: <text>"
  bool has_corrupt = false;
  void add(const char* module, const char* fmt, va_list ap) noexcept {
    if (any) return;
    any = true;
    char full[512];
    format_tiff_message(full, sizeof full, module, fmt, ap);
    first.set(full);
  }
  void warn(const char* module, const char* fmt, va_list ap) noexcept {
    if (!decoding || has_corrupt) return;
    char full[480];
    format_tiff_message(full, sizeof full, module, fmt, ap);
    if (std::strstr(full, "Old-style LZW codes") != nullptr) return;
    set_corrupt(full);
  }
  void set_corrupt(const char* text) noexcept {
    char full[sizeof corrupt.text + 32];  // ErrorText::set keeps what fits
    std::snprintf(full, sizeof full, "Corrupt TIFF data: %s", text);
    corrupt.set(full);
    has_corrupt = true;
  }
  const char* text(const char* fallback) const noexcept { return any ? first.text : fallback; }
};

// ------------------------------------------------------------------ client I/O
// libtiff reads and writes every file through these procedures (TIFFClientOpen), with one
// TiffIo per handle: its own position over shared bytes, so that several handles (one per
// reading thread) can be open on one input at once. An input is the caller's bytes or an open
// file (pread, and mapped read-only for libtiff as its own TIFFFdOpen maps it: libtiff then
// takes strips from the mapping, with the messages of its mapped path); an output is a file
// (pwrite) or a byte vector.
struct TiffIo {
  int fd = -1;                                // a file, read or written at `pos`
  const unsigned char* base = nullptr;        // the input's bytes (memory, or the file mapped)
  std::vector<unsigned char>* out = nullptr;  // an output in memory
  std::uint64_t size = 0;                     // the input's size; an output's bytes so far
  std::uint64_t pos = 0;
};

tmsize_t io_read(thandle_t h, void* buf, tmsize_t n) {
  auto* io = static_cast<TiffIo*>(h);
  if (n <= 0) return 0;
  const std::uint64_t want = static_cast<std::uint64_t>(n);
  std::uint64_t got = 0;
  if (io->out || (io->base && io->fd < 0)) {
    const unsigned char* src = io->out ? io->out->data() : io->base;
    if (io->pos < io->size) got = std::min(want, io->size - io->pos);
    if (got) std::memcpy(buf, src + io->pos, static_cast<std::size_t>(got));
  } else {
    while (got < want) {
      const ssize_t r =
          ::pread(io->fd, static_cast<unsigned char*>(buf) + got,
                  static_cast<std::size_t>(want - got), static_cast<off_t>(io->pos + got));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return -1;
      if (r == 0) break;
      got += static_cast<std::uint64_t>(r);
    }
  }
  io->pos += got;
  return static_cast<tmsize_t>(got);
}

tmsize_t io_write(thandle_t h, void* buf, tmsize_t n) {
  auto* io = static_cast<TiffIo*>(h);
  if (n <= 0) return 0;
  const auto len = static_cast<std::uint64_t>(n);
  if (io->out) {
    std::vector<unsigned char>& v = *io->out;
    const auto* b = static_cast<const unsigned char*>(buf);
    try {
      if (io->pos > v.size()) v.resize(static_cast<std::size_t>(io->pos));  // a hole: zeros
      // Over what is there, then appended (one copy, no zero-filling first).
      const auto over = static_cast<std::size_t>(std::min<std::uint64_t>(len, v.size() - io->pos));
      std::memcpy(v.data() + io->pos, b, over);
      v.insert(v.end(), b + over, b + len);
    } catch (...) {
      errno = ENOMEM;
      return -1;
    }
  } else if (io->fd >= 0 && !io->base) {
    std::uint64_t done = 0;
    while (done < len) {
      const ssize_t w =
          ::pwrite(io->fd, static_cast<const unsigned char*>(buf) + done,
                   static_cast<std::size_t>(len - done), static_cast<off_t>(io->pos + done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return -1;
      done += static_cast<std::uint64_t>(w);
    }
  } else {
    errno = EBADF;  // an input
    return -1;
  }
  io->pos += len;
  io->size = std::max(io->size, io->pos);
  return n;
}

toff_t io_seek(thandle_t h, toff_t off, int whence) {
  auto* io = static_cast<TiffIo*>(h);
  // libtiff passes SEEK_CUR and SEEK_END offsets as signed values in an unsigned type.
  const auto delta = static_cast<std::int64_t>(off);
  std::int64_t to = 0;
  switch (whence) {
    case SEEK_SET:
      to = delta;
      break;
    case SEEK_CUR:
      to = static_cast<std::int64_t>(io->pos) + delta;
      break;
    case SEEK_END:
      to = static_cast<std::int64_t>(io->size) + delta;
      break;
    default:
      return static_cast<toff_t>(-1);
  }
  if (to < 0) return static_cast<toff_t>(-1);
  io->pos = static_cast<std::uint64_t>(to);
  return io->pos;
}

int io_close(thandle_t) {
  return 0;  // the caller owns the descriptor or the bytes
}

toff_t io_size(thandle_t h) {
  return static_cast<TiffIo*>(h)->size;
}

int io_map(thandle_t h, void** base, toff_t* size) {
  auto* io = static_cast<TiffIo*>(h);
  if (!io->base) return 0;
  *base = const_cast<unsigned char*>(io->base);  // mapped read-only; libtiff only reads it
  *size = io->size;
  return 1;
}

void io_unmap(thandle_t, void*, toff_t) {}  // TiffSource unmaps

// An input prepared once for all its handles: its size and its bytes (a file mapped).
class TiffSource {
 public:
  TiffSource(const TiffInput& in, const char* op, const std::string& path) {
    if (in.fd < 0) {
      io_.base = in.data;
      io_.size = in.size;
      return;
    }
    struct stat st {};
    if (::fstat(in.fd, &st) != 0)
      fail_file(ErrorCode::Io, op, path, std::string("cannot stat: ") + std::strerror(errno));
    io_.fd = in.fd;
    io_.size = static_cast<std::uint64_t>(st.st_size);
    // As libtiff maps a file it opens itself; without a mapping it reads (io_read).
    void* m = ::mmap(nullptr, static_cast<std::size_t>(io_.size), PROT_READ, MAP_SHARED, in.fd, 0);
    if (m != MAP_FAILED) {
      map_ = m;
      io_.base = static_cast<const unsigned char*>(m);
    }
  }
  ~TiffSource() {
    if (map_) ::munmap(map_, static_cast<std::size_t>(io_.size));
  }
  TiffSource(const TiffSource&) = delete;
  TiffSource& operator=(const TiffSource&) = delete;
  // A fresh position over the input, for one handle.
  TiffIo io() const noexcept { return io_; }

 private:
  TiffIo io_;
  void* map_ = nullptr;
};

#if defined(TEXCV_TIFF_OPEN_OPTIONS)
// The most libtiff allocates at once for one handle (TIFFOpenOptionsSetMaxSingleMemAlloc): its
// strip and tile buffers, offset arrays and codec state. texcv maps its inputs, so libtiff reads
// their strips and tiles in place; what it allocates itself stays far below this. A larger
// allocation fails the read with libtiff's message ("Memory allocation of N bytes is beyond the
// 268435456 byte limit defined in open options").
constexpr std::uint64_t kTiffMaxSingleAlloc = std::uint64_t{256} << 20;
int on_tiff_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  static_cast<TiffErrors*>(user)->add(module, fmt, ap);
  return 1;  // handled: libtiff does not print it
}
int on_tiff_warning(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  static_cast<TiffErrors*>(user)->warn(module, fmt, ap);
  return 1;  // handled: libtiff does not print it
}

TIFF* tiff_open(TiffIo& io, const std::string& path, const char* mode, TiffErrors& errs) {
  TIFFOpenOptions* o = TIFFOpenOptionsAlloc();
  if (!o) return nullptr;
  TIFFOpenOptionsSetMaxSingleMemAlloc(o, static_cast<tmsize_t>(kTiffMaxSingleAlloc));
  TIFFOpenOptionsSetErrorHandlerExtR(o, on_tiff_error, &errs);
  TIFFOpenOptionsSetWarningHandlerExtR(o, on_tiff_warning, &errs);
  TIFF* t = TIFFClientOpenExt(path.c_str(), mode, &io, io_read, io_write, io_seek, io_close,
                              io_size, io_map, io_unmap, o);
  TIFFOpenOptionsFree(o);
  return t;
}
struct ErrorScope {
  explicit ErrorScope(TiffErrors&) {}
};
#else
thread_local TiffErrors* t_errors = nullptr;
void on_tiff_error_global(const char* module, const char* fmt, va_list ap) {
  if (t_errors) t_errors->add(module, fmt, ap);
}
void on_tiff_warning_global(const char* module, const char* fmt, va_list ap) {
  if (t_errors) t_errors->warn(module, fmt, ap);
}
// Routes this thread's libtiff messages to `errs` while alive.
struct ErrorScope {
  explicit ErrorScope(TiffErrors& e) {
    static std::once_flag once;
    std::call_once(once, [] {
      TIFFSetErrorHandler(on_tiff_error_global);
      TIFFSetWarningHandler(on_tiff_warning_global);
    });
    t_errors = &e;
  }
  ~ErrorScope() { t_errors = nullptr; }
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;
};
TIFF* tiff_open(TiffIo& io, const std::string& path, const char* mode, TiffErrors&) {
  return TIFFClientOpen(path.c_str(), mode, &io, io_read, io_write, io_seek, io_close, io_size,
                        io_map, io_unmap);
}
#endif

// Owns a TIFF handle and its position (TiffIo) over an input or output.
class TiffFile {
 public:
  TiffFile(const TiffIo& io, const std::string& path, const char* mode, const char* op,
           TiffErrors& errs)
      : io_(io) {
    tif_ = tiff_open(io_, path, mode, errs);
    if (!tif_) fail_file(ErrorCode::Io, op, path, errs.text("libtiff cannot open the file"));
  }
  ~TiffFile() {
    if (tif_) TIFFClose(tif_);  // the descriptor or the bytes stay the caller's
  }
  TiffFile(const TiffFile&) = delete;
  TiffFile& operator=(const TiffFile&) = delete;
  TIFF* get() const noexcept { return tif_; }
  // Closes and reports whether libtiff could flush everything.
  bool flush_and_close() noexcept {
    const bool ok = TIFFFlush(tif_) != 0;
    TIFFClose(tif_);
    tif_ = nullptr;
    return ok;
  }

 private:
  TiffIo io_;
  TIFF* tif_ = nullptr;
};

struct TiffLayout {
  ImageInfo info;
  int file_spp = 1;  // samples per pixel in the file (2 for gray + alpha)
  bool tiled = false;
};

const char* photometric_name(std::uint16_t p) {
  switch (p) {
    case PHOTOMETRIC_MINISWHITE:
      return "MinIsWhite";
    case PHOTOMETRIC_MINISBLACK:
      return "MinIsBlack";
    case PHOTOMETRIC_RGB:
      return "RGB";
    case PHOTOMETRIC_PALETTE:
      return "Palette";
    case PHOTOMETRIC_MASK:
      return "Mask";
    case PHOTOMETRIC_SEPARATED:
      return "Separated (CMYK)";
    case PHOTOMETRIC_YCBCR:
      return "YCbCr";
    case PHOTOMETRIC_CIELAB:
      return "CIELab";
    default:
      return "other";
  }
}

TiffLayout tiff_layout(TIFF* tif, const char* op, const std::string& path) {
  std::uint32_t w = 0, h = 0;
  std::uint16_t spp = 1, bps = 1, sf = SAMPLEFORMAT_UINT, planar = PLANARCONFIG_CONTIG;
  std::uint16_t photometric = 0;
  if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h))
    fail_file(ErrorCode::Io, op, path, "TIFF without image width/length");
  TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
  TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bps);
  TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sf);
  TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
  if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric))
    photometric = spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;  // a common omission

  TiffLayout L;
  L.tiled = TIFFIsTiled(tif) != 0;
  L.file_spp = spp;
  L.info.format = ImageFormat::tiff;
  if (sf == SAMPLEFORMAT_UINT && bps == 8)
    L.info.type = ElemType::u8;
  else if (sf == SAMPLEFORMAT_UINT && bps == 16)
    L.info.type = ElemType::u16;
  else if (sf == SAMPLEFORMAT_IEEEFP && bps == 32)
    L.info.type = ElemType::f32;
  else {
    const char* kind = sf == SAMPLEFORMAT_UINT     ? "unsigned"
                       : sf == SAMPLEFORMAT_INT    ? "signed"
                       : sf == SAMPLEFORMAT_IEEEFP ? "float"
                                                   : "other";
    fail_file(ErrorCode::Unsupported, op, path,
              std::string("unsupported TIFF sample format; got ") + kind + " " +
                  std::to_string(bps) + "-bit, expected unsigned 8/16-bit or float 32-bit");
  }
  if (photometric == PHOTOMETRIC_MINISBLACK && spp == 1)
    L.info.channels = 1;
  else if (photometric == PHOTOMETRIC_MINISBLACK && spp == 2)
    L.info.channels = 4;  // gray + alpha, read as RGBA
  else if (photometric == PHOTOMETRIC_RGB && (spp == 3 || spp == 4))
    L.info.channels = spp;
  else {
    fail_file(ErrorCode::Unsupported, op, path,
              std::string("unsupported TIFF photometric interpretation; got ") +
                  photometric_name(photometric) + " with " + std::to_string(spp) +
                  " samples per pixel, expected MinIsBlack with 1-2 or RGB with 3-4");
  }
  if (planar != PLANARCONFIG_CONTIG && spp > 1) {
    fail_file(ErrorCode::Unsupported, op, path,
              "unsupported TIFF layout; got separate sample planes, expected contiguous samples");
  }
  if (w == 0 || h == 0 || w > static_cast<std::uint32_t>(INT_MAX) ||
      h > static_cast<std::uint32_t>(INT_MAX)) {
    fail_file(ErrorCode::Io, op, path,
              "the header gives an unusable size; got " + std::to_string(w) + "x" +
                  std::to_string(h) + ", expected 1..2147483647 per side");
  }
  L.info.width = static_cast<int>(w);
  L.info.height = static_cast<int>(h);
  return L;
}

// n pixels of gray + alpha to RGBA, for samples of E bytes (copied as bits).
template <typename E>
void gray_alpha_to_rgba(const unsigned char* src, unsigned char* dst, std::size_t n) {
  E s[2];
  E d[4];
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(s, src + i * sizeof s, sizeof s);
    d[0] = d[1] = d[2] = s[0];
    d[3] = s[1];
    std::memcpy(dst + i * sizeof d, d, sizeof d);
  }
}

// Copies n file pixels to image pixels (expanding gray + alpha).
void put_pixels(const unsigned char* src, unsigned char* dst, std::size_t n, const TiffLayout& L) {
  if (L.file_spp == L.info.channels) {
    std::memcpy(dst, src, n * static_cast<std::size_t>(L.info.channels) * elem_size(L.info.type));
    return;
  }
  switch (elem_size(L.info.type)) {
    case 1:
      gray_alpha_to_rgba<std::uint8_t>(src, dst, n);
      break;
    case 2:
      gray_alpha_to_rgba<std::uint16_t>(src, dst, n);
      break;
    default:
      gray_alpha_to_rgba<std::uint32_t>(src, dst, n);
      break;
  }
}

// After a decoding call: a warning it gave fails the read unless corrupt data is allowed.
void check_decoded(const TiffErrors& errs, bool allow_corrupt, const std::string& path) {
  if (errs.has_corrupt && !allow_corrupt)
    fail_file(ErrorCode::Io, "imread", path, errs.corrupt.text);
}

// Sets TiffErrors::decoding while alive.
struct DecodingScope {
  explicit DecodingScope(TiffErrors& e) : errs(e) { errs.decoding = true; }
  ~DecodingScope() { errs.decoding = false; }
  DecodingScope(const DecodingScope&) = delete;
  DecodingScope& operator=(const DecodingScope&) = delete;
  TiffErrors& errs;
};

// The number of directories (at least 1: the first one is open). An error while walking them
// is recorded as corrupt data (the top of the file) and does not hide later errors.
int count_pages(TIFF* tif, TiffErrors& errs) {
  const ErrorText saved = errs.first;
  const bool saved_any = errs.any;
  errs.any = false;
  const std::uint64_t n = TIFFNumberOfDirectories(tif);
  if (errs.any && !errs.has_corrupt) errs.set_corrupt(errs.first.text);
  errs.first = saved;
  errs.any = saved_any;
  return static_cast<int>(std::clamp<std::uint64_t>(n, 1, INT_MAX));
}

// ------------------------------------------------------------------ strips and tiles in parallel
// imread cuts the strips (or tiles) of the first directory into as many contiguous ranges as it
// has threads (read_threads), reads range 0 on the calling thread with the handle it opened and
// every other range on a thread of its own with a handle of its own (libtiff handles are not
// thread-safe; each TiffIo has its own position over the shared bytes), straight into the
// destination rows. Every range is read with the calls a sequential read makes (TIFFReadScanline
// from the first row of a strip, TIFFReadTile), so each strip or tile decodes identically, and
// each range records what a sequential read would have acted on: the first libtiff error it
// met, the row or tile where a call failed, the first corrupt-data warning. Merged in file
// order (merge_ranges), they give the sequential read's verdict: the first failure in file
// order, with the first error text of the whole read (libtiff's message, as errs.text gives
// it), unless a warning comes before it and corrupt data is not allowed; the first warning goes
// to ReadNotes::corrupt. A range that fails or stops tells the later ones to stop early (their
// results are never looked at). A range whose thread or handle could not be had is read on the
// calling thread afterwards.
//
// Uncompressed strips are not decoded by libtiff when it would only copy them: when the strip
// is whole in the file and libtiff's checks would pass silently (raw_strip_extent), its rows are
// read straight into the image (pread/preadv from the file, memcpy from memory), consecutive
// strips in one call. Anything else (short or missing strips, bit-reversed fill order,
// byte-swapped samples, gray + alpha) goes through libtiff, with its messages.

// What imread reads of the first directory, from the calling thread's handle.
struct ReadPlan {
  TiffLayout L;
  std::uint32_t units = 0;  // strips (each rows_per_strip rows) or tiles, in file order
  std::uint32_t rows_per_strip = 0;
  std::uint32_t tw = 0, th = 0, across = 0;  // tiles: size, tiles per row of tiles
  std::size_t file_row = 0;                  // bytes of a scanline in the file
  std::size_t tile_row = 0, tile_bytes = 0;  // tiles
  bool raw = false;                          // uncompressed strips may be copied (raw_strip_extent)
  std::uint64_t strip_size = 0;  // TIFFStripSize: libtiff's limit for a strip's byte count
};

// The tile side accepted whatever the image's size (plan_read).
constexpr std::uint64_t kMaxTileSide = 1024;

ReadPlan plan_read(TIFF* tif, const TiffLayout& L, const TiffIo& src, const std::string& path) {
  ReadPlan P;
  P.L = L;
  const auto H = static_cast<std::uint32_t>(L.info.height);
  const auto W = static_cast<std::uint32_t>(L.info.width);
  const std::size_t px = static_cast<std::size_t>(L.file_spp) * elem_size(L.info.type);
  P.file_row = static_cast<std::size_t>(L.info.width) * px;
  if (L.tiled) {
    if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &P.tw) ||
        !TIFFGetField(tif, TIFFTAG_TILELENGTH, &P.th) || P.tw == 0 || P.th == 0)
      fail_file(ErrorCode::Io, "imread", path, "tiled TIFF without a tile size");
    // A tile is refused when it is wider or taller than both the image rounded up to 16 (tiles
    // are multiples of 16, the TIFF specification) and kMaxTileSide: each reading thread
    // allocates one tile, and a 1 KB file declaring 32768x32768 tiles over a small image took
    // 3.15 GB. A writer's usual tile (128-1024) over a small image stays accepted.
    const auto round16 = [](std::uint64_t n) { return (n + 15) / 16 * 16; };
    const std::uint64_t max_tw = std::max<std::uint64_t>(round16(W), kMaxTileSide);
    const std::uint64_t max_th = std::max<std::uint64_t>(round16(H), kMaxTileSide);
    if (P.tw > max_tw || P.th > max_th)
      fail_file(ErrorCode::Io, "imread", path,
                "the TIFF's tiles are larger than its image; got " + std::to_string(P.tw) + "x" +
                    std::to_string(P.th) + " tiles for a " + std::to_string(W) + "x" +
                    std::to_string(H) + " image, expected at most " + std::to_string(max_tw) + "x" +
                    std::to_string(max_th));
    P.tile_row = static_cast<std::size_t>(P.tw) * px;
    const std::uint64_t tile_bytes = static_cast<std::uint64_t>(P.tile_row) * P.th;
    if (static_cast<std::uint64_t>(TIFFTileSize64(tif)) != tile_bytes)
      fail_file(ErrorCode::Io, "imread", path, "TIFF tile size does not match its header");
    P.tile_bytes = static_cast<std::size_t>(tile_bytes);
    P.across = W / P.tw + (W % P.tw != 0);
    const std::uint64_t down = H / P.th + (H % P.th != 0);
    P.units = static_cast<std::uint32_t>(std::min<std::uint64_t>(down * P.across, UINT32_MAX));
    return P;
  }
  if (static_cast<std::uint64_t>(TIFFScanlineSize64(tif)) != P.file_row)
    fail_file(ErrorCode::Io, "imread", path, "TIFF scanline size does not match its header");
  std::uint32_t rps = 0;
  TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rps);
  P.rows_per_strip = std::clamp<std::uint32_t>(rps, 1, H);
  // The strips TIFFReadScanline meets, whatever the StripOffsets array holds.
  P.units = H / P.rows_per_strip + (H % P.rows_per_strip != 0);
  std::uint16_t compression = COMPRESSION_NONE, fill = FILLORDER_MSB2LSB;
  TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
  TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &fill);
  // libtiff takes such strips from its mapping (src.base) and copies them as they are.
  P.raw = compression == COMPRESSION_NONE && fill == FILLORDER_MSB2LSB && src.base != nullptr &&
          L.file_spp == L.info.channels &&
          (elem_size(L.info.type) == 1 || TIFFIsByteSwapped(tif) == 0);
  P.strip_size = static_cast<std::uint64_t>(std::max<tmsize_t>(TIFFStripSize(tif), 0));
  return P;
}

// Where strip k's `rows` rows are in the input when libtiff would copy them without a word:
// TIFFFillStrip's checks on a mapped file (a byte count that is not 0, not "too large", inside
// the file) and DumpModeDecode's (enough bytes for every row). False: let libtiff read it.
bool raw_strip_extent(TIFF* tif, const ReadPlan& P, const TiffIo& src, std::uint32_t k,
                      std::uint32_t rows, std::uint64_t* offset) {
  const std::uint64_t bc = TIFFGetStrileByteCount(tif, k);
  const std::uint64_t off = TIFFGetStrileOffset(tif, k);
  const std::uint64_t need = static_cast<std::uint64_t>(rows) * P.file_row;
  if (bc == 0 || bc < need || bc > src.size || off > src.size - bc) return false;
  if (bc > (std::uint64_t{1} << 20) && P.strip_size != 0 && (bc - 4096) / 10 > P.strip_size)
    return false;  // libtiff would say "Too large strip byte count" and limit it
  *offset = off;
  return true;
}

// Reads rows [y, y + n) of the image, contiguous in the input from `offset`, into v's rows.
// False when the input came short (the caller lets libtiff read those strips).
bool copy_raw_rows(const TiffIo& src, const ReadPlan& P, const ImageView& v, int y, int n,
                   std::uint64_t offset) {
  const std::size_t row = P.file_row;
  if (src.fd < 0) {
    for (int r = 0; r < n; ++r)
      std::memcpy(v.row<unsigned char>(y + r),
                  src.base + offset + static_cast<std::uint64_t>(r) * row, row);
    return true;
  }
  // preadv into the rows (one buffer when the rows are contiguous), IOV_MAX at a time.
  constexpr int kMaxIov = 1024;
  iovec iov[kMaxIov];
  const bool contiguous = v.pitch == row;
  int done = 0;
  while (done < n) {
    int cnt = 0;
    std::size_t bytes = 0;
    if (contiguous) {
      iov[0].iov_base = v.row<unsigned char>(y + done);
      iov[0].iov_len = row * static_cast<std::size_t>(n - done);
      bytes = iov[0].iov_len;
      cnt = 1;
    } else {
      for (; cnt < kMaxIov && done + cnt < n; ++cnt) {
        iov[cnt].iov_base = v.row<unsigned char>(y + done + cnt);
        iov[cnt].iov_len = row;
        bytes += row;
      }
    }
    std::size_t got = 0;
    int first = 0;
    while (got < bytes) {
      const ssize_t r =
          ::preadv(src.fd, iov + first, cnt - first,
                   static_cast<off_t>(offset + static_cast<std::uint64_t>(done) * row + got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      got += static_cast<std::size_t>(r);
      // Skip the buffers filled; shorten a partly filled one.
      auto left = static_cast<std::size_t>(r);
      while (first < cnt && left >= iov[first].iov_len) left -= iov[first++].iov_len;
      if (first < cnt) {
        iov[first].iov_base = static_cast<unsigned char*>(iov[first].iov_base) + left;
        iov[first].iov_len -= left;
      }
    }
    done += contiguous ? n - done : cnt;
  }
  return true;
}

// What reading one range of strips or tiles on one handle gave (the top of this section).
struct RangeResult {
  bool done = false;    // false: not read (no thread or handle); the calling thread reads it
  bool failed = false;  // a libtiff call failed at `where`
  std::string where;    // "row N" or "tile at (x, y)"
  bool has_error = false;
  ErrorText error;  // the first libtiff error met in the range (also without a failure)
  bool has_warning = false;
  ErrorText warning;             // the first corrupt-data warning ("Corrupt TIFF data: ...")
  std::exception_ptr exception;  // anything else thrown (e.g. std::bad_alloc)
};

// The lowest range that failed or stopped: later ranges stop early.
void note_stop(std::atomic<std::uint32_t>& stop, std::uint32_t index) noexcept {
  std::uint32_t cur = stop.load(std::memory_order_relaxed);
  while (index < cur && !stop.compare_exchange_weak(cur, index, std::memory_order_relaxed)) {
  }
}

// Reads units [u0, u1) (range `index`) on `tif` into v. Never throws.
void read_range(TIFF* tif, TiffErrors& errs, const ReadPlan& P, const TiffIo& src,
                const ImageView& v, bool allow_corrupt, std::uint32_t u0, std::uint32_t u1,
                std::uint32_t index, std::atomic<std::uint32_t>& stop, RangeResult& r) noexcept {
  errs.any = false;  // this range's first error, and its first warning
  errs.has_corrupt = false;
  try {
    DecodingScope decoding(errs);
    const TiffLayout& L = P.L;
    // After a libtiff call: whether to go on (a sequential read stops at a warning unless
    // corrupt data is allowed).
    auto go_on = [&]() {
      if (errs.has_corrupt && !r.has_warning) {
        r.has_warning = true;
        r.warning = errs.corrupt;
        if (!allow_corrupt) return false;
      }
      return true;
    };
    auto fail_at = [&](std::string where) {
      r.failed = true;
      r.where = std::move(where);
    };
    if (L.tiled) {
      std::vector<unsigned char> tile(P.tile_bytes);
      const auto W = static_cast<std::uint32_t>(L.info.width);
      const auto H = static_cast<std::uint32_t>(L.info.height);
      const std::size_t out_px = v.pixel_bytes();
      for (std::uint32_t t = u0; t < u1; ++t) {
        if (stop.load(std::memory_order_relaxed) < index) break;
        const std::uint32_t tx = (t % P.across) * P.tw, ty = (t / P.across) * P.th;
        if (TIFFReadTile(tif, tile.data(), tx, ty, 0, 0) < 0) {
          fail_at("tile at (" + std::to_string(tx) + ", " + std::to_string(ty) + ")");
          break;
        }
        if (!go_on()) break;
        const std::uint32_t rows = std::min(P.th, H - ty);
        const std::uint32_t cols = std::min(P.tw, W - tx);
        for (std::uint32_t k = 0; k < rows; ++k) {
          unsigned char* dst = v.row<unsigned char>(static_cast<int>(ty + k)) + tx * out_px;
          put_pixels(tile.data() + k * P.tile_row, dst, cols, L);
        }
      }
    } else {
      const bool direct = L.file_spp == L.info.channels;
      std::vector<unsigned char> tmp(direct ? 0 : P.file_row);
      // Rows [ya, yb) through libtiff; false when the range stops.
      auto decode_rows = [&](int ya, int yb) {
        for (int y = ya; y < yb; ++y) {
          unsigned char* dst = v.row<unsigned char>(y);
          if (TIFFReadScanline(tif, direct ? dst : tmp.data(), static_cast<std::uint32_t>(y), 0) <
              0) {
            fail_at("row " + std::to_string(y));
            return false;
          }
          if (!go_on()) return false;
          if (!direct) put_pixels(tmp.data(), dst, static_cast<std::size_t>(L.info.width), L);
        }
        return true;
      };
      // Raw strips waiting to be copied in one go: rows [run_y, run_y + run_n) from run_off.
      int run_y = 0, run_n = 0;
      std::uint64_t run_off = 0;
      auto flush = [&]() {
        const int y = run_y, n = run_n;
        run_n = 0;
        if (n == 0 || copy_raw_rows(src, P, v, y, n, run_off)) return true;
        return decode_rows(y, y + n);  // the input came short: libtiff says what it says
      };
      const int H = L.info.height;
      const auto rps = static_cast<int>(P.rows_per_strip);
      bool ok = true;
      for (std::uint32_t k = u0; k < u1 && ok; ++k) {
        if (stop.load(std::memory_order_relaxed) < index) break;
        const int y0 = static_cast<int>(k) * rps;
        const int rows = std::min(rps, H - y0);
        std::uint64_t off = 0;
        if (P.raw && raw_strip_extent(tif, P, src, k, static_cast<std::uint32_t>(rows), &off)) {
          if (run_n > 0 && run_y + run_n == y0 &&
              run_off + static_cast<std::uint64_t>(run_n) * P.file_row == off) {
            run_n += rows;
          } else {
            ok = flush();
            run_y = y0;
            run_n = rows;
            run_off = off;
          }
          continue;
        }
        ok = flush() && decode_rows(y0, y0 + rows);
      }
      if (ok) flush();
    }
  } catch (...) {
    r.exception = std::current_exception();
  }
  if (r.failed || r.exception || (r.has_warning && !allow_corrupt)) note_stop(stop, index);
  r.has_error = errs.any;
  r.error = errs.first;
  r.done = true;
}

// How many threads read a file's `units` strips or tiles (ReadOptions::threads, texcv/io.hpp).
constexpr std::uint64_t kBytesPerThread = std::uint64_t{1} << 20;
constexpr unsigned kMaxDefaultThreads = 8;
constexpr unsigned kMaxThreads = 64;
unsigned read_threads(int requested, std::uint32_t units, std::uint64_t bytes) {
  std::uint64_t n = 1;
  if (requested > 0) {
    n = std::min<std::uint64_t>(static_cast<std::uint64_t>(requested), kMaxThreads);
  } else {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    n = std::min<std::uint64_t>(
        {hw, kMaxDefaultThreads, std::max<std::uint64_t>(1, bytes / kBytesPerThread)});
  }
  return static_cast<unsigned>(std::clamp<std::uint64_t>(n, 1, std::max<std::uint32_t>(units, 1)));
}

// A handle of a reading thread: closes it.
struct HandleCloser {
  void operator()(TIFF* t) const noexcept { TIFFClose(t); }
};

// A reading thread's range, on a handle of its own; r.done stays false when it cannot open one
// that reads the same directory.
void read_range_on_own_handle(const TiffSource& source, const std::string& path, const ReadPlan& P,
                              const ImageView& v, bool allow_corrupt, std::uint32_t u0,
                              std::uint32_t u1, std::uint32_t index,
                              std::atomic<std::uint32_t>& stop, RangeResult& r) noexcept {
  try {
    TiffErrors errs;
    ErrorScope scope(errs);
    TiffIo io = source.io();
    std::unique_ptr<TIFF, HandleCloser> tif(tiff_open(io, path, "r", errs));
    if (!tif) return;
    const bool same =
        (TIFFIsTiled(tif.get()) != 0) == P.L.tiled &&
        (P.L.tiled ? static_cast<std::uint64_t>(TIFFTileSize64(tif.get())) == P.tile_bytes
                   : static_cast<std::uint64_t>(TIFFScanlineSize64(tif.get())) == P.file_row);
    if (!same) return;
    read_range(tif.get(), errs, P, source.io(), v, allow_corrupt, u0, u1, index, stop, r);
  } catch (...) {
    r = RangeResult{};  // not done: the calling thread reads it
  }
}

// The sequential read's verdict from the ranges in file order (the top of this section): throws
// its error, or returns the first corrupt-data warning ("" when none).
std::string merge_ranges(const std::vector<RangeResult>& results, const TiffErrors& opened,
                         bool allow_corrupt, const std::string& path) {
  ErrorText first = opened.first;  // the first error of the whole read so far
  bool any = opened.any;
  std::string corrupt = opened.has_corrupt ? opened.corrupt.text : "";  // count_pages'
  for (const RangeResult& r : results) {
    if (r.exception) std::rethrow_exception(r.exception);
    if (r.has_warning) {
      if (!allow_corrupt) fail_file(ErrorCode::Io, "imread", path, r.warning.text);
      if (corrupt.empty()) corrupt = r.warning.text;
    }
    if (!any && r.has_error) {
      first = r.error;
      any = true;
    }
    if (r.failed)
      fail_file(ErrorCode::Io, "imread", path, r.where + ": " + (any ? first.text : "read error"));
  }
  return corrupt;
}

// Reads every strip or tile of the first directory into v on `threads` threads; returns the
// first corrupt-data warning ("" when none) or throws as a sequential read would.
std::string read_pixels(TIFF* tif, TiffErrors& errs, const TiffSource& source,
                        const std::string& path, const ReadPlan& P, const ImageView& v,
                        const ReadOptions& opt) {
  const unsigned n =
      read_threads(opt.threads, P.units, v.row_bytes() * static_cast<std::uint64_t>(v.height));
  const TiffErrors opened = errs;  // after opening and count_pages
  std::vector<RangeResult> results(n);
  std::atomic<std::uint32_t> stop{UINT32_MAX};
  auto range = [&](unsigned i) {
    return std::pair<std::uint32_t, std::uint32_t>(
        static_cast<std::uint32_t>(static_cast<std::uint64_t>(P.units) * i / n),
        static_cast<std::uint32_t>(static_cast<std::uint64_t>(P.units) * (i + 1) / n));
  };
  std::vector<std::thread> threads;
  threads.reserve(n - 1);
  for (unsigned i = 1; i < n; ++i) {
    const auto [u0, u1] = range(i);
    try {
      threads.emplace_back(read_range_on_own_handle, std::cref(source), std::cref(path),
                           std::cref(P), std::cref(v), opt.allow_corrupt, u0, u1, i, std::ref(stop),
                           std::ref(results[i]));
    } catch (...) {
      break;  // no thread: the calling thread reads the range after its own
    }
  }
  {
    const auto [u0, u1] = range(0);
    read_range(tif, errs, P, source.io(), v, opt.allow_corrupt, u0, u1, 0, stop, results[0]);
  }
  for (std::thread& t : threads) t.join();
  for (unsigned i = 1; i < n; ++i) {
    if (results[i].done || stop.load() < i) continue;
    const auto [u0, u1] = range(i);
    read_range(tif, errs, P, source.io(), v, opt.allow_corrupt, u0, u1, i, stop, results[i]);
  }
  return merge_ranges(results, opened, opt.allow_corrupt, path);
}

// libtiff's COMPRESSION_* code for c; -1 when the libtiff headers do not know it.
int tiff_code(TiffCompression c) noexcept {
  switch (c) {
    case TiffCompression::none:
      return COMPRESSION_NONE;
    case TiffCompression::deflate:
      return COMPRESSION_ADOBE_DEFLATE;
    case TiffCompression::zstd:
#if defined(COMPRESSION_ZSTD)
      return COMPRESSION_ZSTD;
#else
      return -1;
#endif
    case TiffCompression::lzw:
      return COMPRESSION_LZW;
    case TiffCompression::packbits:
      return COMPRESSION_PACKBITS;
    case TiffCompression::lzma:
#if defined(COMPRESSION_LZMA)
      return COMPRESSION_LZMA;
#else
      return -1;
#endif
  }
  return -1;
}

}  // namespace

ImageInfo read_tiff_info(const TiffInput& in, const std::string& path) {
  const TiffSource src(in, "read_info", path);
  TiffErrors errs;
  ErrorScope scope(errs);
  TiffFile f(src.io(), path, "r", "read_info", errs);
  ImageInfo info = tiff_layout(f.get(), "read_info", path).info;
  info.pages = count_pages(f.get(), errs);
  if (errs.has_corrupt) fail_file(ErrorCode::Io, "read_info", path, errs.corrupt.text);
  return info;
}

Image read_tiff(const TiffInput& in, const std::string& path, const ReadOptions& opt,
                ReadNotes& notes) {
  const TiffSource src(in, "imread", path);
  TiffErrors errs;
  ErrorScope scope(errs);
  TiffFile f(src.io(), path, "r", "imread", errs);
  const TiffLayout L = tiff_layout(f.get(), "imread", path);
  notes.pages = count_pages(f.get(), errs);
  check_decoded(errs, opt.allow_corrupt, path);
  check_pixel_cap("imread", path, L.info, opt.max_pixels);
  check_image_size("imread", path, L.info);
  const ReadPlan P = plan_read(f.get(), L, src.io(), path);
  Image img = allocate_image("imread", path, L.info, opt);
  notes.corrupt = read_pixels(f.get(), errs, src, path, P, img.view(), opt);
  return img;
}

std::string tiff_library_version() {
  const char* v = TIFFGetVersion();
  std::string s = v ? v : "libtiff";
  return s.substr(0, s.find('\n'));
}

bool tiff_codec_configured(TiffCompression c) noexcept {
  const int code = tiff_code(c);
  return code == COMPRESSION_NONE ||
         (code > 0 && TIFFIsCODECConfigured(static_cast<std::uint16_t>(code)) != 0);
}

void write_tiff(const TiffOutput& out, const char* op, const std::string& path,
                const ImageView& img, const WriteOptions& opt) {
  // imwrite / imencode have checked the options (the level's range, that libtiff has the codec).
  const TiffCompression comp = opt.tiff_compress ? opt.tiff_compression : TiffCompression::none;
  TiffIo io;
  io.fd = out.fd;
  io.out = out.bytes;
  if (out.bytes && comp == TiffCompression::none)
    out.bytes->reserve(img.row_bytes() * static_cast<std::size_t>(img.height) + 4096);
  TiffErrors errs;
  ErrorScope scope(errs);
  TiffFile f(io, path, "w", op, errs);
  TIFF* tif = f.get();
  const std::uint16_t bps = static_cast<std::uint16_t>(8 * elem_size(img.type));
  const std::uint16_t sf = img.type == ElemType::f32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT;
  const std::size_t row_bytes = img.row_bytes();
  const auto rows_per_strip = static_cast<std::uint32_t>(
      std::min<std::size_t>(static_cast<std::size_t>(img.height),
                            std::max<std::size_t>(1, (std::size_t{256} << 10) / row_bytes)));
  bool ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(img.width)) &&
            TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(img.height)) &&
            TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(img.channels)) &&
            TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bps) &&
            TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, sf) &&
            TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
            TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                         img.channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB) &&
            TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
  if (ok && img.channels == 4) {
    const std::uint16_t extra[1] = {EXTRASAMPLE_UNASSALPHA};
    ok = TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, extra);
  }
  if (ok) ok = TIFFSetField(tif, TIFFTAG_COMPRESSION, static_cast<std::uint16_t>(tiff_code(comp)));
  const int level = opt.tiff_level != 0 ? opt.tiff_level : tiff_levels(comp).fallback;
  if (ok && comp != TiffCompression::none && comp != TiffCompression::packbits) {
    // The predictor makes photographs about 30 % smaller under every dictionary codec.
    ok = TIFFSetField(tif, TIFFTAG_PREDICTOR,
                      img.type == ElemType::f32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL);
  }
  if (ok && comp == TiffCompression::deflate) ok = TIFFSetField(tif, TIFFTAG_ZIPQUALITY, level);
#if defined(COMPRESSION_ZSTD)
  if (ok && comp == TiffCompression::zstd) ok = TIFFSetField(tif, TIFFTAG_ZSTD_LEVEL, level);
#endif
#if defined(COMPRESSION_LZMA)
  if (ok && comp == TiffCompression::lzma) ok = TIFFSetField(tif, TIFFTAG_LZMAPRESET, level);
#endif
  if (!ok) fail_file(ErrorCode::Io, op, path, errs.text("cannot set the TIFF tags"));

  // Whole strips at a time: libtiff then compresses deflate with libdeflate when it has it (it
  // does so only for a whole strip; row by row it streams through zlib, 4x slower at level 6).
  // The codecs (and the predictor) work in place, so each strip goes through a scratch copy;
  // uncompressed strips are written as they are, straight from the image when its rows are
  // contiguous.
  const bool raw = comp == TiffCompression::none;
  const bool contiguous = img.pitch == row_bytes;
  std::vector<unsigned char> scratch(raw && contiguous ? 0 : row_bytes * rows_per_strip);
  const std::uint32_t strips = TIFFNumberOfStrips(tif);
  for (std::uint32_t k = 0; k < strips; ++k) {
    const int y0 = static_cast<int>(k * rows_per_strip);
    const int rows = std::min(static_cast<int>(rows_per_strip), img.height - y0);
    const auto bytes = static_cast<tmsize_t>(row_bytes * static_cast<std::size_t>(rows));
    void* data = nullptr;
    if (raw && contiguous) {
      // TIFFWriteRawStrip only writes the bytes out; the cast does not lead to a write.
      data = const_cast<unsigned char*>(img.row<const unsigned char>(y0));
    } else {
      for (int r = 0; r < rows; ++r)
        std::memcpy(scratch.data() + static_cast<std::size_t>(r) * row_bytes,
                    img.row<const unsigned char>(y0 + r), row_bytes);
      data = scratch.data();
    }
    const tmsize_t n =
        raw ? TIFFWriteRawStrip(tif, k, data, bytes) : TIFFWriteEncodedStrip(tif, k, data, bytes);
    if (n < 0) {
      fail_file(ErrorCode::Io, op, path,
                "strip " + std::to_string(k) + " (rows " + std::to_string(y0) + ".." +
                    std::to_string(y0 + rows - 1) + "): " + errs.text("write error"));
    }
  }
  if (!f.flush_and_close()) fail_file(ErrorCode::Io, op, path, errs.text("write error"));
}

}  // namespace texcv::io_detail

#endif  // TEXCV_HAS_TIFF
