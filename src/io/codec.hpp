// Private to src/io: the contract between the dispatcher (io.cpp) and the codecs
// (codec_png.cpp, codec_jpeg.cpp, codec_tiff.cpp).
//
// Every codec reads from / writes to a file the dispatcher opened, or memory (imdecode,
// imencode), reports failures through the helpers below (messages "imread: <path>: <reason>"),
// and never lets a C++ object with a destructor live across a setjmp in the same frame: the
// setjmp frames are small C-style functions that hold only plain data, and all owners (files,
// library structs, images) live in their callers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "texcv/error.hpp"
#include "texcv/io.hpp"

namespace texcv::io_detail {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// Throws Error(code, "<op>: <path>: <reason>"), or "<op>: <reason>" when path is empty (imencode:
// bytes without a name).
[[noreturn]] void fail_file(ErrorCode code, const char* op, const std::string& path,
                            const std::string& reason);
// "<path>: <what>", or what alone when path is empty: the `what` of fail() for a named file.
std::string at_path(const std::string& path, const std::string& what);

// Throws Error(Io) when width x height x channels x element size exceeds kMaxImageBytes (or a
// dimension is not positive), naming the path and the claimed size.
void check_image_size(const char* op, const std::string& path, const ImageInfo& info);
// Throws Error(Io) when the image has more than max_pixels pixels (0: no cap), naming the path,
// the dimensions and the cap (ReadOptions::max_pixels). Every decoder calls it on the size it is
// about to decode, before allocating the image.
void check_pixel_cap(const char* op, const std::string& path, const ImageInfo& info,
                     std::uint64_t max_pixels);
// The message of a pixel cap exceeded: "the image is WxH pixels, more than the pixel cap
// (--max-pixels); got P pixels, expected at most M".
std::string pixel_cap_message(std::uint64_t width, std::uint64_t height, std::uint64_t max_pixels);

// A fixed buffer for a C library's last error message (filled inside callbacks, no allocation).
struct ErrorText {
  char text[512] = {};
  void set(const char* msg) noexcept;
};

// The image a reader decodes into, made once the header is checked (check_image_size): the
// caller's (ReadOptions::allocate, checked: host, exactly info's size, channels and type, else
// Error(InvalidArgument) "<op>: <path>: ...") or a new host image.
Image allocate_image(const char* op, const std::string& path, const ImageInfo& info,
                     const ReadOptions& opt);

// Readers: `f` is open on a non-empty regular file or on memory (fmemopen), positioned at 0, its
// signature checked; `path` names it in messages. read_*_info reads only the header (damage in
// it fails as imread's default does); read_* returns the decoded image (allocate_image's;
// host, channels 1, 3 or 4) and fills `notes` (reset by the caller): a corrupt-data warning fails
// the read with Error(Io) "<op>: <path>: Corrupt <FORMAT> data: ..." unless opt.allow_corrupt, when
// the first one goes to notes.corrupt instead (the same text after "<path>: ").
ImageInfo read_png_info(std::FILE* f, const std::string& path);
Image read_png(std::FILE* f, const std::string& path, const ReadOptions& opt, ReadNotes& notes);
ImageInfo read_jpeg_info(std::FILE* f, const std::string& path);
Image read_jpeg(std::FILE* f, const std::string& path, const ReadOptions& opt, ReadNotes& notes);
// check_jpeg's decoding part (texcv/io.hpp): the caller has checked the size and signature.
std::string check_jpeg_data(const unsigned char* data, std::size_t size, const std::string& path,
                            const ReadOptions& opt);
// check_jpeg_data's first stage (tests and benchmarks call it alone): true when the header,
// the caps and the fast entropy walk (codec_jpeg_scan.hpp) find the file sound; false means
// "not settled", never "damaged".
bool jpeg_sound_by_scan(const unsigned char* data, std::size_t size, const std::string& path,
                        const ReadOptions& opt);

// Writers: `f` is the temporary file beside the target (imwrite) or a stream into memory
// (imencode); messages read "<op>: <path>: ..." (`path`: the target; "" for memory). The caller
// has checked the view (host, valid), the type/channels for the format and the options, flushes
// and closes the file (and renames it into place).
void write_png(std::FILE* f, const char* op, const std::string& path, const ImageView& img,
               const WriteOptions& opt);
void write_jpeg(std::FILE* f, const char* op, const std::string& path, const ImageView& img,
                const WriteOptions& opt);

// The levels WriteOptions::tiff_level accepts for a TIFF compression (max 0: it has none) and
// the one 0 stands for (io.cpp).
struct TiffLevels {
  int min = 0, max = 0, fallback = 0;
};
TiffLevels tiff_levels(TiffCompression c) noexcept;

#if defined(TEXCV_HAS_TIFF)
// Whether the linked libtiff can encode c (TIFFIsCODECConfigured).
bool tiff_codec_configured(TiffCompression c) noexcept;
// The first line of TIFFGetVersion(), e.g. "LIBTIFF, Version 4.5.0".
std::string tiff_library_version();
// What a TIFF is read from: an open regular file (fd >= 0, read with pread and mapped read-only;
// not closed here) or `size` bytes in memory (fd < 0). libtiff reads either through the same
// client procedures (TIFFClientOpen), each handle with its own position, so that several
// threads can each open one on the same input.
struct TiffInput {
  int fd = -1;
  const unsigned char* data = nullptr;
  std::size_t size = 0;
};
ImageInfo read_tiff_info(const TiffInput& in, const std::string& path);
// Reads the strips or tiles on up to ReadOptions::threads threads (codec_tiff.cpp, "strips and
// tiles in parallel"), with the sequential read's verdict.
Image read_tiff(const TiffInput& in, const std::string& path, const ReadOptions& opt,
                ReadNotes& notes);
// What a TIFF is written to: an open, empty file (fd >= 0, written with pwrite; not closed
// here) or `bytes` (fd < 0), through the same client procedures.
struct TiffOutput {
  int fd = -1;
  std::vector<unsigned char>* bytes = nullptr;
};
void write_tiff(const TiffOutput& out, const char* op, const std::string& path,
                const ImageView& img, const WriteOptions& opt);
#endif

}  // namespace texcv::io_detail
