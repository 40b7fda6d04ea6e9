// Private to src/io: the contract between the dispatcher (io.cpp) and the codecs
// (codec_png.cpp, codec_jpeg.cpp, codec_tiff.cpp).
//
// Every codec reads from / writes to a file the dispatcher opened, reports failures through the
// helpers below (messages "imread: <path>: <reason>"), and never lets a C++ object with a
// destructor live across a setjmp in the same frame: the setjmp frames are small C-style
// functions that hold only plain data, and all owners (files, library structs, images) live
// in their callers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "texcv/error.hpp"
#include "texcv/io.hpp"

namespace texcv::io_detail {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// Throws Error(code, "<op>: <path>: <reason>").
[[noreturn]] void fail_file(ErrorCode code, const char* op, const std::string& path,
                            const std::string& reason);

// Throws Error(Io) when width x height x channels x element size exceeds kMaxImageBytes (or a
// dimension is not positive), naming the path and the claimed size.
void check_image_size(const char* op, const std::string& path, const ImageInfo& info);

// A fixed buffer for a C library's last error message (filled inside callbacks, no allocation).
struct ErrorText {
  char text[512] = {};
  void set(const char* msg) noexcept;
};

// Readers: `f` is an open regular, non-empty file positioned at 0. read_*_info reads only the
// header (damage in it fails as imread's default does); read_* returns the decoded image (host,
// channels 1, 3 or 4) and fills `notes` (reset by the caller): a corrupt-data warning fails the
// read with Error(Io) "<op>: <path>: Corrupt <FORMAT> data: ..." unless opt.allow_corrupt, when
// the first one goes to notes.corrupt instead (the same text after "<path>: ").
ImageInfo read_png_info(std::FILE* f, const std::string& path);
Image read_png(std::FILE* f, const std::string& path, const ReadOptions& opt, ReadNotes& notes);
ImageInfo read_jpeg_info(std::FILE* f, const std::string& path);
Image read_jpeg(std::FILE* f, const std::string& path, const ReadOptions& opt, ReadNotes& notes);
// check_jpeg's decoding part (texcv/io.hpp): the caller has checked the size and signature.
std::string check_jpeg_data(const unsigned char* data, std::size_t size, const std::string& path,
                            const ReadOptions& opt);

// Writers: `f` is the temporary file beside the target; `path` (the target) is for messages.
// The caller has checked the view (host, valid) and the type/channels for the format, flushes
// and closes the file, and renames it into place.
void write_png(std::FILE* f, const std::string& path, const ImageView& img,
               const WriteOptions& opt);
void write_jpeg(std::FILE* f, const std::string& path, const ImageView& img,
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
// TIFF works on file descriptors (libtiff owns and closes the descriptor it is given).
ImageInfo read_tiff_info(int fd, const std::string& path);
Image read_tiff(int fd, const std::string& path, const ReadOptions& opt, ReadNotes& notes);
// Writes and closes `fd` (also on failure).
void write_tiff(int fd, const std::string& path, const ImageView& img, const WriteOptions& opt);
#endif

}  // namespace texcv::io_detail
