// The public entry points of texcv/io.hpp: format from the extension (files) or the signature
// (memory), opening and checking files, streams over memory (imdecode, imencode), the atomic
// write (temporary file beside the target, then rename), and dispatch to the codecs.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "src/io/codec.hpp"
#include "texcv/error.hpp"
#include "texcv/io.hpp"

namespace texcv {
namespace io_detail {

void fail_file(ErrorCode code, const char* op, const std::string& path, const std::string& reason) {
  fail(code, op, at_path(path, reason));
}

std::string at_path(const std::string& path, const std::string& what) {
  return path.empty() ? what : path + ": " + what;
}

void ErrorText::set(const char* msg) noexcept {
  if (!msg) msg = "(no message)";
  std::snprintf(text, sizeof text, "%s", msg);
}

void check_image_size(const char* op, const std::string& path, const ImageInfo& info) {
  if (info.width <= 0 || info.height <= 0) {
    fail_file(ErrorCode::Io, op, path,
              "the header gives an empty image; got " + std::to_string(info.width) + "x" +
                  std::to_string(info.height) + ", expected a positive width and height");
  }
  if (info.bytes() > kMaxImageBytes) {
    fail_file(ErrorCode::Io, op, path,
              "the header claims an image too large to decode (" + std::to_string(info.width) +
                  "x" + std::to_string(info.height) + "x" + std::to_string(info.channels) + " " +
                  to_string(info.type) + "); got " + std::to_string(info.bytes()) +
                  " bytes, expected at most " + std::to_string(kMaxImageBytes) + " bytes");
  }
}

// The decoded image's buffer could not be allocated: which file, and how large it was.
[[noreturn]] void fail_out_of_memory(const char* op, const std::string& path,
                                     const ImageInfo& info) {
  fail_file(ErrorCode::OutOfMemory, op, path,
            "out of memory for the decoded " + std::to_string(info.width) + "x" +
                std::to_string(info.height) + "x" + std::to_string(info.channels) + " " +
                to_string(info.type) + " image; got an allocation failure for " +
                std::to_string(info.bytes()) + " bytes, expected that much free memory");
}

std::string pixel_cap_message(std::uint64_t width, std::uint64_t height, std::uint64_t max_pixels) {
  return "the image is " + std::to_string(width) + "x" + std::to_string(height) +
         " pixels, more than the pixel cap (--max-pixels); got " + std::to_string(width * height) +
         " pixels, expected at most " + std::to_string(max_pixels);
}

void check_pixel_cap(const char* op, const std::string& path, const ImageInfo& info,
                     std::uint64_t max_pixels) {
  if (max_pixels > 0 && info.pixels() > max_pixels)
    fail_file(ErrorCode::Io, op, path,
              pixel_cap_message(static_cast<std::uint64_t>(info.width),
                                static_cast<std::uint64_t>(info.height), max_pixels));
}

Image allocate_image(const char* op, const std::string& path, const ImageInfo& info,
                     const ReadOptions& opt) {
  Image img;
  try {
    img = opt.allocate ? opt.allocate(info.width, info.height, info.channels, info.type)
                       : Image(info.width, info.height, info.channels, info.type);
  } catch (const std::bad_alloc&) {
    fail_out_of_memory(op, path, info);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::OutOfMemory) throw;
    fail_out_of_memory(op, path, info);
  }
  if (!opt.allocate) return img;
  const ImageView& v = img.view();
  const std::size_t row = static_cast<std::size_t>(info.width) *
                          static_cast<std::size_t>(info.channels) * elem_size(info.type);
  const bool ok = !img.empty() && v.location == Location::host && v.width == info.width &&
                  v.height == info.height && v.channels == info.channels && v.type == info.type &&
                  v.pitch >= row;
  if (!ok) {
    fail(ErrorCode::InvalidArgument, op,
         at_path(path, "ReadOptions::allocate returned an image the decoder cannot use"),
         img.empty() ? std::string("an empty image") : v.describe(),
         "a host image " + std::to_string(info.width) + "x" + std::to_string(info.height) + "x" +
             std::to_string(info.channels) + " " + to_string(info.type) +
             " (pitch >= " + std::to_string(row) + ")");
  }
  return img;
}

}  // namespace io_detail

namespace {

using io_detail::at_path;
using io_detail::fail_file;
using io_detail::FilePtr;

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

#if !defined(TEXCV_HAS_TIFF)
[[noreturn]] void fail_no_tiff(const char* op, const std::string& path) {
  fail_file(ErrorCode::Unsupported, op, path,
            "TIFF files are not supported: texcv was built without libtiff");
}
#endif

// What the first bytes say the file is (for clearer messages), or nullptr.
const char* sniff(const unsigned char* b, std::size_t n) {
  static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (n >= 8 && std::memcmp(b, png_sig, 8) == 0) return "png";
  if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return "jpeg";
  if (n >= 4 && ((b[0] == 'I' && b[1] == 'I' && (b[2] == 42 || b[2] == 43) && b[3] == 0) ||
                 (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && (b[3] == 42 || b[3] == 43))))
    return "tiff";
  return nullptr;
}

// Checks that the first n bytes of a file carry fmt's signature (the error names the path).
void check_signature(const char* op, const std::string& path, ImageFormat fmt,
                     const unsigned char* head, std::size_t n) {
  const char* is = sniff(head, n);
  const char* want = to_string(fmt);
  if (!is || std::strcmp(is, want) != 0) {
    std::string up = want;
    std::transform(up.begin(), up.end(), up.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    fail_file(ErrorCode::Io, op, path,
              "not a " + up + " file (bad signature" +
                  (is ? std::string("; the data looks like ") + is : std::string()) + ")");
  }
}

// What a file that is not a regular one is, for messages ("a FIFO").
const char* file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a file";
}

[[noreturn]] void fail_not_regular(const char* op, const std::string& path, mode_t m) {
  if (S_ISDIR(m)) fail_file(ErrorCode::Io, op, path, "is a directory, not an image file");
  fail_file(
      ErrorCode::Io, op, path,
      std::string("not a regular file (") + file_kind(m) + "); expected a regular image file");
}

// Opens `path` for reading and checks it is a non-empty regular file whose signature matches
// `fmt`. Errors name the path and the reason. A path that is not a regular file (stat, which
// follows symlinks) is never opened: opening a FIFO blocks until a writer comes. The open itself
// does not block either (O_NONBLOCK, cleared once the open file is known to be regular), in case
// the file is replaced by a FIFO between the stat and the open. `size` receives the open file's
// size.
FilePtr open_for_read(const char* op, const std::string& path, ImageFormat fmt,
                      std::uint64_t* size = nullptr) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    fail_file(ErrorCode::Io, op, path, std::string("cannot open: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail_not_regular(op, path, st.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    fail_file(ErrorCode::Io, op, path, std::string("cannot open: ") + std::strerror(errno));
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    fail_file(ErrorCode::Io, op, path, std::string("cannot stat: ") + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    fail_not_regular(op, path, st.st_mode);
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  FilePtr f(::fdopen(fd, "rb"));
  if (!f) {
    const int e = errno;
    ::close(fd);
    fail_file(ErrorCode::Io, op, path, std::string("cannot open: ") + std::strerror(e));
  }
  if (st.st_size == 0) fail_file(ErrorCode::Io, op, path, "empty file (0 bytes)");
  if (size) *size = static_cast<std::uint64_t>(st.st_size);

  unsigned char head[8] = {};
  const std::size_t n = std::fread(head, 1, sizeof head, f.get());
  if (std::ferror(f.get()))
    fail_file(ErrorCode::Io, op, path, std::string("read error: ") + std::strerror(errno));
  check_signature(op, path, fmt, head, n);
  std::rewind(f.get());
  return f;
}

// The signatures sniff() knows, for the messages about data that has none of them.
constexpr const char* kSignatures =
    "the signature of PNG (89 50 4E 47 0D 0A 1A 0A), JPEG (FF D8 FF) or TIFF (49 49 2A 00 or "
    "4D 4D 00 2A; BigTIFF 49 49 2B 00 or 4D 4D 00 2B)";

// The format of encoded data in memory, from its signature (what open_for_read checks of a file).
// Errors: "<op>: <name>: ..." as for a file; data null with size > 0 is the caller's mistake.
ImageFormat format_of_data(const char* op, const char* api, const std::string& name,
                           const unsigned char* data, std::size_t size) {
  if (size == 0)
    fail_file(ErrorCode::Io, op, name,
              std::string("empty data (0 bytes); expected an encoded image starting with ") +
                  kSignatures);
  if (!data)
    fail(ErrorCode::InvalidArgument, api, at_path(name, "data is null"),
         "nullptr with " + std::to_string(size) + " bytes", "the address of the encoded bytes");
  const std::size_t n = std::min<std::size_t>(size, 8);
  const char* is = sniff(data, n);
  if (!is) {
    std::string head;
    for (std::size_t i = 0; i < n; ++i) {
      char hex[4];
      std::snprintf(hex, sizeof hex, i ? " %02X" : "%02X", data[i]);
      head += hex;
    }
    fail_file(ErrorCode::Io, op, name,
              "not a PNG, JPEG or TIFF image; got data starting with " + head + " (" +
                  std::to_string(size) + " bytes), expected " + kSignatures);
  }
  if (std::strcmp(is, "png") == 0) return ImageFormat::png;
  if (std::strcmp(is, "jpeg") == 0) return ImageFormat::jpeg;
  return ImageFormat::tiff;
}

// A stdio stream over the caller's bytes (read-only), for the FILE* codecs.
FilePtr open_memory(const char* op, const std::string& name, const unsigned char* data,
                    std::size_t size) {
  // fmemopen does not write through a buffer opened for reading.
  FilePtr f(::fmemopen(const_cast<unsigned char*>(data), size, "rb"));
  if (!f) fail_file(ErrorCode::Io, op, name, std::string("fmemopen: ") + std::strerror(errno));
  return f;
}

// A write-only stdio stream that appends to `out` (imencode's PNG and JPEG).
ssize_t append_to_vector(void* cookie, const char* buf, std::size_t n) {
  auto* out = static_cast<std::vector<unsigned char>*>(cookie);
  try {
    out->insert(out->end(), buf, buf + n);
  } catch (...) {
    errno = ENOMEM;
    return -1;
  }
  return static_cast<ssize_t>(n);
}
FilePtr open_vector_stream(std::vector<unsigned char>& out) {
  cookie_io_functions_t io{};
  io.write = append_to_vector;
  FilePtr f(::fopencookie(&out, "wb", io));
  if (!f)
    fail(ErrorCode::OutOfMemory, "imencode",
         std::string("cannot open a stream into memory: ") + std::strerror(errno));
  return f;
}

// ReadOptions checked before the file is opened (for every format, so that a bad option fails
// the same way for every file).
void check_read_options(const char* op, const std::string& name, const ReadOptions& opt) {
  if (opt.threads < 0)
    fail(ErrorCode::InvalidArgument, op, at_path(name, "ReadOptions::threads is negative"),
         std::to_string(opt.threads), "0 (the default) or a number of threads");
}

// imwrite and imencode take valid host views only.
void check_host_view(const char* op, const ImageView& img) {
  validate_view(img, op, "img");
  if (img.location != Location::host)
    fail(ErrorCode::InvalidArgument, op, "the image must be in host memory",
         to_string(img.location), "host (copy device images to the host first)");
}

// The temporary file of an atomic write: removed unless committed.
struct TempFile {
  std::string path;
  bool committed = false;
  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (!path.empty() && !committed) ::unlink(path.c_str());
  }
};

std::uint64_t random_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 rng = [] {
    std::random_device rd;
    return std::mt19937_64((static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^
                           static_cast<std::uint64_t>(::getpid()));
  }();
  return rng() ^ counter.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

std::string temp_file_prefix(const std::string& name, std::size_t name_max) {
  constexpr std::size_t kSuffix = 5 + 16;  // ".tmp-" and 16 hex digits
  // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "." + string + "...".
  std::string prefix(".");
  if (1 + name.size() + kSuffix <= name_max) {
    prefix += name;
    prefix += ".tmp-";
    return prefix;
  }
  // ".<first bytes>~<8 hex>.tmp-": the hash (FNV-1a, of the whole name) keeps two long names
  // with the same beginning apart; the cut backs off to the start of a UTF-8 sequence.
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  std::size_t keep = name_max > 1 + 9 + kSuffix ? name_max - (1 + 9 + kSuffix) : 0;
  keep = std::min(keep, name.size());
  while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
  char hash[16];
  std::snprintf(hash, sizeof hash, "~%08llx",
                static_cast<unsigned long long>((h ^ (h >> 32)) & 0xFFFFFFFFull));
  prefix.append(name, 0, keep);
  prefix += hash;
  prefix += ".tmp-";
  return prefix;
}

int create_temp_file(const std::string& target, std::string& tmp_path) {
  namespace fs = std::filesystem;
  const fs::path p(target);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..")
    fail_file(ErrorCode::Io, "imwrite", target, "not a file name");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const std::string prefix =
      temp_file_prefix(name, name_max > 0 ? static_cast<std::size_t>(name_max) : 255);
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "%016llx",
                  static_cast<unsigned long long>(random_suffix()));
    std::string candidate = (dir / (prefix + suffix)).string();
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      tmp_path = std::move(candidate);  // no allocation: the created file is never left unnamed
      return fd;
    }
    if (errno != EEXIST) {
      fail_file(
          ErrorCode::Io, "imwrite", target,
          "cannot create a temporary file in '" + dir.string() + "': " + std::strerror(errno));
    }
  }
  fail_file(ErrorCode::Io, "imwrite", target, "cannot find a free temporary file name");
}

namespace {

// The option values for fmt (ranges, the TIFF codec), with messages naming op.
void check_options(const char* op, ImageFormat fmt, const WriteOptions& opt) {
  switch (fmt) {
    case ImageFormat::png:
      if (opt.png_compression < 0 || opt.png_compression > 9)
        fail(ErrorCode::InvalidArgument, op, "png_compression out of range",
             std::to_string(opt.png_compression), "0..9");
      break;
    case ImageFormat::jpeg:
      if (opt.jpeg_quality < 1 || opt.jpeg_quality > 100)
        fail(ErrorCode::InvalidArgument, op, "jpeg_quality out of range",
             std::to_string(opt.jpeg_quality), "1..100");
      break;
    case ImageFormat::tiff: {
      const TiffCompression c = opt.tiff_compress ? opt.tiff_compression : TiffCompression::none;
      const io_detail::TiffLevels lv = io_detail::tiff_levels(c);
      if (opt.tiff_level != 0 && lv.max == 0)
        fail(ErrorCode::InvalidArgument, op,
             std::string("tiff_level: TIFF compression ") + to_string(c) + " has no level",
             std::to_string(opt.tiff_level), "0");
      if (opt.tiff_level != 0 && (opt.tiff_level < lv.min || opt.tiff_level > lv.max))
        fail(ErrorCode::InvalidArgument, op,
             std::string("tiff_level out of range for ") + to_string(c),
             std::to_string(opt.tiff_level),
             "0 (default) or " + std::to_string(lv.min) + ".." + std::to_string(lv.max));
#if defined(TEXCV_HAS_TIFF)
      if (!io_detail::tiff_codec_configured(c)) {
        std::string have;
        for (const TiffCompression k : supported_tiff_compressions()) {
          if (!have.empty()) have += ", ";
          have += to_string(k);
        }
        fail(ErrorCode::Unsupported, op,
             std::string("the linked libtiff (") + io_detail::tiff_library_version() + ") has no " +
                 to_string(c) + " encoder; it writes " + have);
      }
#endif
      break;
    }
  }
}

// What the format can hold and the options, with messages "<op>: <path>: ..." (path "": none).
void check_writable(const char* op, ImageFormat fmt, const ImageView& img, const WriteOptions& opt,
                    const std::string& path) {
  const std::string got =
      std::string(to_string(img.type)) + " with " + std::to_string(img.channels) + " channel(s)";
  switch (fmt) {
    case ImageFormat::png:
      if (img.type == ElemType::f32)
        fail(ErrorCode::Unsupported, op, at_path(path, "PNG cannot store this element type"), got,
             "u8 or u16");
      break;
    case ImageFormat::jpeg:
      if (img.type != ElemType::u8)
        fail(ErrorCode::Unsupported, op,
             at_path(path, "JPEG stores 8-bit samples only (convert to u8 first)"), got, "u8");
      if (img.channels == 4)
        fail(ErrorCode::Unsupported, op,
             at_path(path, "JPEG has no alpha channel (drop it first, or write PNG/TIFF)"), got,
             "1 or 3 channels");
      break;
    case ImageFormat::tiff:
      break;  // u8/u16/f32 and 1/3/4 channels are all writable
  }
  check_options(op, fmt, opt);
}

}  // namespace

const char* to_string(ImageFormat f) noexcept {
  switch (f) {
    case ImageFormat::png:
      return "png";
    case ImageFormat::jpeg:
      return "jpeg";
    case ImageFormat::tiff:
      return "tiff";
  }
  return "unknown";
}

ImageFormat format_from_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".png") return ImageFormat::png;
  if (ext == ".jpg" || ext == ".jpeg") return ImageFormat::jpeg;
  if (ext == ".tif" || ext == ".tiff") return ImageFormat::tiff;
  fail(ErrorCode::Unsupported, "format_from_path", "unsupported file extension for '" + path + "'",
       ext.empty() ? std::string("no extension") : "'" + ext + "'",
       ".png, .jpg, .jpeg, .tif or .tiff");
}

namespace io_detail {

TiffLevels tiff_levels(TiffCompression c) noexcept {
  switch (c) {
    case TiffCompression::deflate:
      return {1, 9, 6};
    case TiffCompression::zstd:
      return {1, 22, 1};
    case TiffCompression::lzma:
      return {1, 9, 6};
    case TiffCompression::none:
    case TiffCompression::lzw:
    case TiffCompression::packbits:
      break;
  }
  return {0, 0, 0};
}

}  // namespace io_detail

const char* to_string(TiffCompression c) noexcept {
  switch (c) {
    case TiffCompression::none:
      return "none";
    case TiffCompression::deflate:
      return "deflate";
    case TiffCompression::zstd:
      return "zstd";
    case TiffCompression::lzw:
      return "lzw";
    case TiffCompression::packbits:
      return "packbits";
    case TiffCompression::lzma:
      return "lzma";
  }
  return "unknown";
}

std::vector<TiffCompression> all_tiff_compressions() {
  return {TiffCompression::none, TiffCompression::deflate,  TiffCompression::zstd,
          TiffCompression::lzw,  TiffCompression::packbits, TiffCompression::lzma};
}

TiffCompression parse_tiff_compression(std::string_view s) {
  for (const TiffCompression c : all_tiff_compressions())
    if (s == to_string(c)) return c;
  if (s == "zip") return TiffCompression::deflate;
  std::string names = "one of ";
  for (const TiffCompression c : all_tiff_compressions()) {
    if (c != TiffCompression::none) names += ", ";
    names += to_string(c);
  }
  std::string got = "'";
  got.append(s);
  got += "'";
  fail(ErrorCode::InvalidArgument, "parse_tiff_compression", "unknown TIFF compression", got,
       names);
}

std::vector<TiffCompression> supported_tiff_compressions() {
  std::vector<TiffCompression> out;
#if defined(TEXCV_HAS_TIFF)
  for (const TiffCompression c : all_tiff_compressions())
    if (io_detail::tiff_codec_configured(c)) out.push_back(c);
#endif
  return out;
}

void check_write_options(ImageFormat fmt, const WriteOptions& opt) {
  check_options("check_write_options", fmt, opt);
}

std::vector<std::string> supported_formats() {
  std::vector<std::string> out{"png", "jpeg"};
#if defined(TEXCV_HAS_TIFF)
  out.emplace_back("tiff");
#endif
  return out;
}

namespace {

// read_info's and imread's codec dispatch on a file open_for_read opened (positioned at 0).
ImageInfo info_of_open_file(std::FILE* f, const std::string& path, ImageFormat fmt) {
  constexpr const char* op = "read_info";
  switch (fmt) {
    case ImageFormat::png:
      return io_detail::read_png_info(f, path);
    case ImageFormat::jpeg:
      return io_detail::read_jpeg_info(f, path);
    case ImageFormat::tiff:
#if defined(TEXCV_HAS_TIFF)
      return io_detail::read_tiff_info(io_detail::TiffInput{::fileno(f), nullptr, 0}, path);
#else
      fail_no_tiff(op, path);
#endif
  }
  fail(ErrorCode::Internal, op, "unknown image format");
}

Image read_open_file(std::FILE* f, const std::string& path, ImageFormat fmt, const ReadOptions& opt,
                     ReadNotes& out) {
  constexpr const char* op = "imread";
  switch (fmt) {
    case ImageFormat::png:
      return io_detail::read_png(f, path, opt, out);
    case ImageFormat::jpeg:
      return io_detail::read_jpeg(f, path, opt, out);
    case ImageFormat::tiff:
#if defined(TEXCV_HAS_TIFF)
      return io_detail::read_tiff(io_detail::TiffInput{::fileno(f), nullptr, 0}, path, opt, out);
#else
      fail_no_tiff(op, path);
#endif
  }
  fail(ErrorCode::Internal, op, "unknown image format");
}

}  // namespace

ImageInfo read_info(const std::string& path) {
  const ImageFormat fmt = format_from_path(path);
  constexpr const char* op = "read_info";
#if !defined(TEXCV_HAS_TIFF)
  if (fmt == ImageFormat::tiff) fail_no_tiff(op, path);
#endif
  FilePtr f = open_for_read(op, path, fmt);
  return info_of_open_file(f.get(), path, fmt);
}

Image imread(const std::string& path) {
  return imread(path, ReadOptions{}, nullptr);
}

Image imread(const std::string& path, const ReadOptions& opt, ReadNotes* notes) {
  ReadNotes local;
  ReadNotes& out = notes ? *notes : local;
  out = ReadNotes{};
  const ImageFormat fmt = format_from_path(path);
  constexpr const char* op = "imread";
#if !defined(TEXCV_HAS_TIFF)
  if (fmt == ImageFormat::tiff) fail_no_tiff(op, path);
#endif
  check_read_options(op, path, opt);
  FilePtr f = open_for_read(op, path, fmt);
  return read_open_file(f.get(), path, fmt, opt, out);
}

ImageFile::ImageFile(const std::string& path) : path_(path) {
  format_ = format_from_path(path);
#if !defined(TEXCV_HAS_TIFF)
  if (format_ == ImageFormat::tiff) fail_no_tiff("read_info", path);
#endif
  file_ = open_for_read("read_info", path, format_, &size_).release();
}

ImageFile::~ImageFile() {
  if (file_) std::fclose(file_);
}

ImageFile::ImageFile(ImageFile&& other) noexcept
    : path_(std::move(other.path_)),
      format_(other.format_),
      size_(other.size_),
      file_(std::exchange(other.file_, nullptr)) {}

ImageFile& ImageFile::operator=(ImageFile&& other) noexcept {
  if (this != &other) {
    if (file_) std::fclose(file_);
    path_ = std::move(other.path_);
    format_ = other.format_;
    size_ = other.size_;
    file_ = std::exchange(other.file_, nullptr);
  }
  return *this;
}

ImageInfo ImageFile::info() {
  if (!file_) fail(ErrorCode::InvalidArgument, "ImageFile::info", "the file is not open");
  std::rewind(file_);
  return info_of_open_file(file_, path_, format_);
}

Image ImageFile::read(const ReadOptions& opt, ReadNotes* notes) {
  if (!file_) fail(ErrorCode::InvalidArgument, "ImageFile::read", "the file is not open");
  ReadNotes local;
  ReadNotes& out = notes ? *notes : local;
  out = ReadNotes{};
  check_read_options("imread", path_, opt);
  std::rewind(file_);
  return read_open_file(file_, path_, format_, opt, out);
}

std::vector<unsigned char> ImageFile::bytes() {
  if (!file_) fail(ErrorCode::InvalidArgument, "ImageFile::bytes", "the file is not open");
  std::vector<unsigned char> data(static_cast<std::size_t>(size_));
  std::rewind(file_);
  const std::size_t n = std::fread(data.data(), 1, data.size(), file_);
  const bool err = std::ferror(file_) != 0;
  const bool more = !err && std::fgetc(file_) != EOF;
  if (err || n != data.size() || more)
    fail_file(ErrorCode::Io, "imread", path_,
              "read error or the file changed size while being read; got " + std::to_string(n) +
                  (more ? "+" : "") + " bytes, expected " + std::to_string(size_));
  return data;
}

ImageInfo read_info(const unsigned char* data, std::size_t size, const std::string& name) {
  constexpr const char* op = "read_info";
  const ImageFormat fmt = format_of_data(op, op, name, data, size);
  switch (fmt) {
    case ImageFormat::png:
      return io_detail::read_png_info(open_memory(op, name, data, size).get(), name);
    case ImageFormat::jpeg:
      return io_detail::read_jpeg_info(open_memory(op, name, data, size).get(), name);
    case ImageFormat::tiff:
#if defined(TEXCV_HAS_TIFF)
      return io_detail::read_tiff_info(io_detail::TiffInput{-1, data, size}, name);
#else
      fail_no_tiff(op, name);
#endif
  }
  fail(ErrorCode::Internal, op, "unknown image format");
}

Image imdecode(const unsigned char* data, std::size_t size, const std::string& name,
               const ReadOptions& opt, ReadNotes* notes) {
  ReadNotes local;
  ReadNotes& out = notes ? *notes : local;
  out = ReadNotes{};
  constexpr const char* op = "imread";
  const ImageFormat fmt = format_of_data(op, "imdecode", name, data, size);
#if !defined(TEXCV_HAS_TIFF)
  if (fmt == ImageFormat::tiff) fail_no_tiff(op, name);
#endif
  check_read_options(op, name, opt);
  switch (fmt) {
    case ImageFormat::png:
      return io_detail::read_png(open_memory(op, name, data, size).get(), name, opt, out);
    case ImageFormat::jpeg:
      return io_detail::read_jpeg(open_memory(op, name, data, size).get(), name, opt, out);
    case ImageFormat::tiff:
#if defined(TEXCV_HAS_TIFF)
      return io_detail::read_tiff(io_detail::TiffInput{-1, data, size}, name, opt, out);
#endif
      break;
  }
  fail(ErrorCode::Internal, op, "unknown image format");
}

std::string check_jpeg(const unsigned char* data, std::size_t size, const std::string& path,
                       const ReadOptions& opt) {
  // What imread's open_for_read checks before the codec, with the same messages.
  constexpr const char* op = "imread";
  if (size == 0) fail_file(ErrorCode::Io, op, path, "empty file (0 bytes)");
  if (!data) fail(ErrorCode::InvalidArgument, "check_jpeg", "data is null", "nullptr", "bytes");
  check_signature(op, path, ImageFormat::jpeg, data, std::min<std::size_t>(size, 8));
  return io_detail::check_jpeg_data(data, size, path, opt);
}

void imwrite(const std::string& path, const ImageView& img, const WriteOptions& opt) {
  const ImageFormat fmt = format_from_path(path);
#if !defined(TEXCV_HAS_TIFF)
  if (fmt == ImageFormat::tiff) fail_no_tiff("imwrite", path);
#endif
  check_host_view("imwrite", img);
  check_writable("imwrite", fmt, img, opt, path);

  TempFile tmp;
  const int fd = create_temp_file(path, tmp.path);
  if (fmt == ImageFormat::tiff) {
#if defined(TEXCV_HAS_TIFF)
    try {
      io_detail::write_tiff(io_detail::TiffOutput{fd, nullptr}, "imwrite", path, img, opt);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0)
      fail_file(ErrorCode::Io, "imwrite", path, std::string("close: ") + std::strerror(errno));
#endif
  } else {
    FilePtr f(::fdopen(fd, "wb"));
    if (!f) {
      const int e = errno;
      ::close(fd);
      fail_file(ErrorCode::Io, "imwrite", path, std::string("fdopen: ") + std::strerror(e));
    }
    if (fmt == ImageFormat::png)
      io_detail::write_png(f.get(), "imwrite", path, img, opt);
    else
      io_detail::write_jpeg(f.get(), "imwrite", path, img, opt);
    if (std::fflush(f.get()) != 0 || std::ferror(f.get()))
      fail_file(ErrorCode::Io, "imwrite", path,
                std::string("write error: ") + std::strerror(errno));
    if (std::fclose(f.release()) != 0)
      fail_file(ErrorCode::Io, "imwrite", path, std::string("close: ") + std::strerror(errno));
  }
  if (std::rename(tmp.path.c_str(), path.c_str()) != 0) {
    fail_file(ErrorCode::Io, "imwrite", path,
              std::string("cannot move the written file into place: ") + std::strerror(errno));
  }
  tmp.committed = true;
}

std::vector<unsigned char> imencode(const ImageView& img, ImageFormat fmt,
                                    const WriteOptions& opt) {
  constexpr const char* op = "imencode";
#if !defined(TEXCV_HAS_TIFF)
  if (fmt == ImageFormat::tiff) fail_no_tiff(op, "");
#endif
  check_host_view(op, img);
  check_writable(op, fmt, img, opt, "");
  std::vector<unsigned char> out;
  if (fmt == ImageFormat::tiff) {
#if defined(TEXCV_HAS_TIFF)
    io_detail::write_tiff(io_detail::TiffOutput{-1, &out}, op, "", img, opt);
#endif
    return out;
  }
  FilePtr f = open_vector_stream(out);
  if (fmt == ImageFormat::png)
    io_detail::write_png(f.get(), op, "", img, opt);
  else
    io_detail::write_jpeg(f.get(), op, "", img, opt);
  if (std::fflush(f.get()) != 0 || std::ferror(f.get()))
    fail(ErrorCode::OutOfMemory, op,
         std::string("cannot store the encoded bytes: ") + std::strerror(errno));
  std::fclose(f.release());
  return out;
}

}  // namespace texcv
