// Image files: PNG (8/16-bit), JPEG (8-bit, libjpeg-turbo), TIFF (8/16-bit and float; when built
// with libtiff). Channels 1, 3 or 4 (RGB order; gray+alpha files are read as RGBA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
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

// The default pixel cap of texcv run and texcv batch (--max-pixels) and of texcv::batch::Options:
// an image whose header claims more pixels (width x height) fails before anything is allocated.
// 256 megapixels: a 16000x16000 image, 768 MB decoded as RGB u8.
inline constexpr std::uint64_t kDefaultMaxPixels = 256'000'000;
// The default byte cap of texcv run and texcv batch (--max-bytes): larger input files fail before
// they are read.
inline constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t{2} << 30;
// A JPEG with more scans than this fails ("more than 100 scans"): every scan of a progressive
// file goes over the whole image again, so thousands of repeated scans in a small file cost
// minutes (6,000 scans over 8000x8000 pixels, 820 KB: 34 s). Encoders write about 10 (libjpeg's
// and mozjpeg's progressive scripts: 6 for gray, 10 for colour); 100 is GDAL's default limit
// (libjpeg-turbo's fuzz targets allow 500, on images of at most 1 megapixel). On the 2-core
// development machine 100 scans over 8000x8000 pixels take about 1 s.
inline constexpr int kMaxJpegScans = 100;

struct ImageInfo {
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
  ImageFormat format = ImageFormat::png;
  // The number of images in the file: a TIFF's directories (TIFFNumberOfDirectories), 1 for PNG
  // and JPEG. imread reads the first.
  int pages = 1;

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
// It does not look at the image data; damage in what it does read (e.g. a truncated header, a
// bad PNG header CRC) fails it as imread's default would. ImageInfo::pages counts a TIFF's pages.
ImageInfo read_info(const std::string& path);

// Reads a whole image into host memory. Throws Error(Io) with the path and the reason
// (Error(Unsupported) as read_info does).
// Corrupt data is an error: a decoder's warning that the data is damaged (libjpeg-turbo's
// "Corrupt JPEG data: ...", "Premature end of JPEG file"; libpng's about the image data;
// libtiff's while decoding strips or tiles) fails it with Error(Io) "imread: <path>: Corrupt
// <FORMAT> data: <the decoder's text>"; src/io/codec_*.cpp list which warnings count. A TIFF's
// first page is read. Same as imread(path, ReadOptions{}, nullptr).
Image imread(const std::string& path);

struct ReadOptions {
  // true: corrupt-data warnings do not fail the read; the image is what the decoder recovered
  // (libjpeg-turbo pads and repeats as djpeg does). Errors the decoder cannot recover from (a
  // truncated PNG or TIFF, a zlib stream that cannot be inflated, a bad TIFF strip) still throw.
  bool allow_corrupt = false;
  // TIFF: how many threads read a file's strips or tiles, each with a libtiff handle of its own
  // (the calling thread is one of them). 0, the default: min(hardware threads, 8, the strips or
  // tiles, one thread per MiB of decoded image), so small files stay on the calling thread;
  // 1: the calling thread only (for a batch engine that already decodes one file per core);
  // n > 1: min(n, 64, the strips or tiles). The image, the errors and the corrupt-data verdict
  // are the same for every value. PNG and JPEG decode on the calling thread whatever it says.
  // Negative: Error(InvalidArgument). A 5000x5000 RGB u8 TIFF on a 2-core machine (medians,
  // bench/io_tiff_read.cpp): uncompressed 63 ms with 1 thread, 35 ms with the default (2),
  // 24 ms into a buffer already faulted in (allocate); deflate 330 / 202 ms; zstd 166 / 105 ms.
  int threads = 0;
  // Where the decoded image goes; empty: a new host image. Otherwise called once, after the
  // header is read and checked (the kMaxImageBytes limit), with the decoded size, channels and
  // type; the codec (PNG, JPEG, TIFF) then decodes straight into the image it returns, with no
  // intermediate copy of the whole image, and imread returns that image. It may be the caller's
  // memory (Image::adopt over a pool's pinned buffer), with any pitch >= a row. It must be a host
  // image of exactly that width, height, channels and type, else Error(InvalidArgument) naming
  // what it returned and what was expected; what it throws goes through imread unchanged. When
  // the read fails after it was called, the image it gave is released (its rows may be partly
  // written).
  // (Initialized, so that ReadOptions{.allow_corrupt = true} draws no
  // -Wmissing-field-initializers.)
  std::function<Image(int width, int height, int channels, ElemType type)> allocate = {};
  // The pixel cap, enforced by the decoder itself on the size it is about to decode (libpng's
  // user limits and the IHDR, the dimensions libjpeg-turbo reports after jpeg_read_header, the
  // TIFF directory read), before the image is allocated: more than max_pixels pixels (width x
  // height) fails with Error(Io) "imread: <path>: the image is WxH pixels, more than the pixel
  // cap (--max-pixels); got P pixels, expected at most max_pixels". 0: no cap beyond
  // kMaxImageBytes. texcv run and texcv batch set it to --max-pixels (kDefaultMaxPixels).
  std::uint64_t max_pixels = 0;
};

struct ReadNotes {
  // The decoder's first corrupt-data warning, as the error imread throws without allow_corrupt
  // gives it after "<path>: " (e.g. "Corrupt JPEG data: bad Huffman code"); "" when none.
  std::string corrupt;
  // The number of images in the file: TIFF directories; 1 for PNG and JPEG.
  int pages = 1;
};

// imread with options; `notes` (optional) is reset, then filled when the read succeeds.
Image imread(const std::string& path, const ReadOptions& opt, ReadNotes* notes = nullptr);

// The in-memory form of read_info and imread, for encoded images held in memory (a batch's
// inputs read in one go, a network buffer): the format comes from the data's signature (PNG
// 89 50 4E 47 0D 0A 1A 0A, JPEG FF D8 FF, TIFF "II*\0" or "MM\0*", BigTIFF too), never from
// `name`, which only names the data in messages: they read as read_info's and imread's on a file
// of those bytes named `name` ("read_info: <name>: ...", "imread: <name>: ..."; without the name
// when it is ""). The verdicts are imread's on such a file: the same image, the same errors for
// damaged, truncated or unsupported data, the same corrupt-data warnings (allow_corrupt,
// ReadNotes::corrupt), ReadNotes::pages and ImageInfo::pages; ReadOptions::threads and allocate as
// for imread. Empty data, or data without one of those signatures: Error(Io) naming the signatures
// expected; data null with size > 0: Error(InvalidArgument). The codecs read the caller's bytes in
// place (fmemopen; libtiff maps them), so the data must stay unchanged until the call returns.
ImageInfo read_info(const unsigned char* data, std::size_t size, const std::string& name);
Image imdecode(const unsigned char* data, std::size_t size, const std::string& name,
               const ReadOptions& opt = {}, ReadNotes* notes = nullptr);

// Checks a JPEG file held in memory as imread would decode it, so the verdict is the same as
// imread's on that file: throws what imread would throw for it (same message,
// "imread: <path>: ...", with `path` in it; `path` only names the data, its extension is not looked
// at); returns the corrupt-data warning ("" when none) when opt.allow_corrupt. Two steps: a
// sequential Huffman file is first walked code by code after libjpeg-turbo has read its header
// and set the decode up (src/io/codec_jpeg_scan.hpp; no coefficients, no inverse DCT), which
// settles a sound file; any other file, or anything that walk cannot vouch for, goes through
// libjpeg-turbo's entropy decoder (every Huffman symbol decoded in imread's order; a sound file in
// one pass at 1/8 scale, anything else again through jpeg_read_coefficients for the message).
// On 1920x1080 quality 90 JPEGs (2-core development machine, AMD EPYC) a sound file takes
// 1.5 ms where libjpeg-turbo's pass took 2.8 ms and a full decode 5.3 ms (docs/performance.md).
// TEXCV_JPEG_SCAN=0 in the environment skips the first step (an A/B aid).
std::string check_jpeg(const unsigned char* data, std::size_t size, const std::string& path,
                       const ReadOptions& opt = {});

// An image file opened once, so that its header and its pixels come from the same open file: a
// file replaced under the same name between the check of its header and its decode (another
// process renaming a large image over a small one) cannot be decoded in place of the one checked.
// texcv batch reads every input file this way.
class ImageFile {
 public:
  // Looks at `path` with stat before opening it: anything but a regular file (a FIFO, a device
  // such as /dev/zero, a socket, a folder) is Error(Io) "<op>: <path>: not a regular file (a
  // FIFO); expected a regular image file" and is never opened (opening a FIFO blocks until a
  // writer comes). Then opens it without blocking (O_NONBLOCK: a file swapped for a FIFO in
  // between cannot block either) and checks the open file again (fstat): a regular file, not
  // empty, with the signature of its extension's format (format_from_path). Errors name the
  // path: "<op>: <path>: <reason>" (op: "read_info").
  explicit ImageFile(const std::string& path);
  ~ImageFile();
  ImageFile(ImageFile&& other) noexcept;
  ImageFile& operator=(ImageFile&& other) noexcept;
  ImageFile(const ImageFile&) = delete;
  ImageFile& operator=(const ImageFile&) = delete;

  const std::string& path() const noexcept { return path_; }
  ImageFormat format() const noexcept { return format_; }
  // The open file's size (fstat after opening).
  std::uint64_t size() const noexcept { return size_; }
  // read_info(path) and imread(path, opt, notes) on the open file (same messages and verdicts).
  ImageInfo info();
  Image read(const ReadOptions& opt = {}, ReadNotes* notes = nullptr);
  // The open file's bytes, all of them (Error(Io) when it changed size while being read).
  std::vector<unsigned char> bytes();

 private:
  std::string path_;
  ImageFormat format_ = ImageFormat::png;
  std::uint64_t size_ = 0;
  std::FILE* file_ = nullptr;
};

// How TIFF outputs are compressed; every choice is lossless (the pixels read back identical).
// none is the default, as libvips's: on a 5000x5000 RGB u8 photograph (2-core machine,
// docs/performance.md, "TIFF output") none writes in 33 ms, zstd level 1 in 130 ms at 52 % of
// the size, deflate level 6 in 1.4 s at 53 %: a compressed default would cost more than the
// processing of a typical pipeline. Pick zstd for smaller files
// at little cost; deflate, lzw and packbits for readers without zstd (libtiff < 4.0.10, some
// older tools); lzma for the smallest files, slowly.
enum class TiffCompression : std::uint8_t { none, deflate, zstd, lzw, packbits, lzma };
const char* to_string(TiffCompression c) noexcept;
// "none", "deflate" (also "zip"), "zstd", "lzw", "packbits", "lzma". Throws
// Error(InvalidArgument) naming the accepted values for anything else.
TiffCompression parse_tiff_compression(std::string_view s);
// Every value of TiffCompression, in declaration order.
std::vector<TiffCompression> all_tiff_compressions();
// The TIFF compressions this build can write: those the linked libtiff has codecs for (none
// always; empty in a build without libtiff). imwrite with another one throws Unsupported.
std::vector<TiffCompression> supported_tiff_compressions();

struct WriteOptions {
  int jpeg_quality = 95;    // 1..100
  int png_compression = 6;  // 0..9 (zlib level)
  TiffCompression tiff_compression = TiffCompression::none;
  // The codec's level; 0: texcv's default for it. deflate 1..9 (default 6, as zlib), zstd
  // 1..22 (default 1: measured as fast as it is small, docs/performance.md), lzma 1..9 (default
  // 6); none, lzw and packbits have no level (anything but 0 is InvalidArgument).
  int tiff_level = 0;
  // Deprecated (kept for existing callers): false writes uncompressed TIFF whatever
  // tiff_compression says; true (the default) leaves tiff_compression in charge. (It used to
  // choose between deflate, then the default, and none.)
  bool tiff_compress = true;
};

// Writes a host image. The format comes from the extension. JPEG takes u8 with 1 or 3 channels
// (no alpha: 4 channels throw Unsupported); PNG u8/u16; TIFF u8/u16/f32. Throws
// Error(Unsupported) for a type the format cannot hold, Error(InvalidArgument) for a bad view or
// option, and Error(Io) when the file cannot be written (message names the path and the reason).
// Writes to a temporary file beside the target and renames it into place, so a failure never
// leaves a half-written file or the temporary behind.
void imwrite(const std::string& path, const ImageView& img, const WriteOptions& opt = {});

// Encodes a host image in memory: the bytes imwrite would write to a file of format fmt with the
// same options (byte for byte; same encoder, same settings). Same checks and errors as imwrite
// with the op "imencode" and no path (Error(Unsupported) for a type or channel count the format
// cannot hold, Error(InvalidArgument) for a bad view or option, e.g. "imencode: jpeg_quality
// out of range; got 0, expected 1..100"; Error(Unsupported) for TIFF in a build without libtiff).
std::vector<unsigned char> imencode(const ImageView& img, ImageFormat fmt,
                                    const WriteOptions& opt = {});

// The temporary files imwrite (and texcv batch) write before renaming them into place, beside
// the target `name` (a file name, no folder): temp_file_prefix(name) + 16 random hex digits.
// The prefix is ".<name>.tmp-", or, when that name would not fit in name_max bytes (the file
// system's limit, 255 on most), ".<the name's first bytes>~<8 hex digits of a hash of the whole
// name>.tmp-", so a temporary name fits whatever name the file system accepts.
std::string temp_file_prefix(const std::string& name, std::size_t name_max = 255);
// Creates such a temporary file for `target` exclusively (mode 0666 minus the umask) and
// returns its descriptor; tmp_path receives its path. Throws Error(Io) naming target and the
// reason (the folder is missing or not writable...).
int create_temp_file(const std::string& target, std::string& tmp_path);

// Checks the options imwrite would use for a file of format fmt, without an image: the ranges
// (jpeg_quality, png_compression, tiff_level for its codec) and, for TIFF, that the linked
// libtiff has the codec. Throws as imwrite would (InvalidArgument, Unsupported), with the op
// "check_write_options".
void check_write_options(ImageFormat fmt, const WriteOptions& opt);

// Which formats this build can read and write ("png", "jpeg", "tiff").
std::vector<std::string> supported_formats();

}  // namespace texcv
