// The options that `texcv run` and `texcv batch` share: the output options --quality,
// --png-compression, --tiff-compression, --tiff-level, and the caps --max-pixels, --max-bytes
// (declared once here, checked once here).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "texcv/io.hpp"
#include "tools/texcv/commands.hpp"

namespace texcv::cli {

namespace {

std::string join(const std::vector<TiffCompression>& v) {
  std::string s;
  for (const TiffCompression c : v) {
    if (!s.empty()) s += ", ";
    s += to_string(c);
  }
  return s.empty() ? std::string("none") : s;
}

// A cap's value: decimal digits only, at most 2^64-1. Returns "" or what is wrong.
std::string check_limit(const std::string& s) {
  const std::string expected =
      "; expected a whole number of 0 (no cap) to 18446744073709551615, in digits only";
  if (s.empty()) return "an empty value" + expected;
  for (const char c : s)
    if (c < '0' || c > '9')
      return "'" + s + "' is not a whole number >= 0" +
             (s[0] == '-' ? std::string(" (a negative cap would turn the cap off)") : "") +
             expected;
  std::uint64_t v = 0;
  for (const char c : s) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return "'" + s + "' is too large" + expected;
    v = v * 10 + d;
  }
  return {};
}

}  // namespace

std::string limit_text(std::uint64_t n) {
  if (n == 0) return "0 (no cap)";
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void add_limit_options(CLI::App& cmd, LimitOptions& opt) {
  const CLI::Validator whole(check_limit, "N", "a whole number >= 0");
  cmd.add_option("--max-pixels", opt.max_pixels,
                 "fail images of more pixels (width x height) than this, before decoding them; "
                 "0: no cap")
      ->check(whole)
      ->capture_default_str();
  cmd.add_option("--max-bytes", opt.max_bytes,
                 "fail input files larger than this many bytes, before reading them; 0: no cap")
      ->check(whole)
      ->capture_default_str();
}

void add_output_options(CLI::App& cmd, OutputOptions& opt) {
  cmd.add_option("-q,--quality", opt.quality, "JPEG quality, 1 to 100")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd.add_option("--png-compression", opt.png_compression, "PNG zlib level, 0 to 9")
      ->check(CLI::Range(0, 9))
      ->capture_default_str();
  std::vector<std::string> names;
  for (const TiffCompression c : all_tiff_compressions()) names.emplace_back(to_string(c));
  cmd.add_option("--tiff-compression", opt.tiff_compression,
                 "TIFF outputs, all lossless: none (uncompressed, fastest to write, as libvips), "
                 "zstd (about half the size, ~4x the write time of none), deflate (as small, "
                 "much slower), lzw, packbits, lzma (smallest, slowest); this build writes " +
                     join(supported_tiff_compressions()))
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  cmd.add_option("--tiff-level", opt.tiff_level,
                 "the TIFF codec's level: deflate 1-9 (default 6), zstd 1-22 (default 1), lzma "
                 "1-9 (default 6); 0: the default")
      ->check(CLI::Range(0, 22))
      ->capture_default_str();
}

bool write_options_from(const OutputOptions& opt, WriteOptions& w, const std::string& prefix) {
  const auto say = [&](const std::string& msg) { std::cerr << prefix << ": " << msg << "\n"; };
  TiffCompression c = TiffCompression::none;
  try {
    c = parse_tiff_compression(opt.tiff_compression);
  } catch (const std::exception& e) {
    say(std::string("--tiff-compression: ") + e.what());
    return false;
  }
  const std::vector<TiffCompression> have = supported_tiff_compressions();
  if (c != TiffCompression::none && std::find(have.begin(), have.end(), c) == have.end()) {
    say("--tiff-compression " + opt.tiff_compression + ": " +
        (have.empty() ? std::string("this build has no TIFF support (libtiff)")
                      : "the linked libtiff has no " + opt.tiff_compression +
                            " codec; this build writes " + join(have)));
    return false;
  }
  w.jpeg_quality = opt.quality;
  w.png_compression = opt.png_compression;
  w.tiff_compression = c;
  w.tiff_level = opt.tiff_level;
  // The level's range depends on the codec: imwrite checks it; check it here once, before any
  // file, with an image of any size.
  if (opt.tiff_level != 0) {
    try {
      check_write_options(ImageFormat::tiff, w);
    } catch (const std::exception& e) {
      say(std::string("--tiff-level ") + std::to_string(opt.tiff_level) + ": " + e.what());
      return false;
    }
  }
  return true;
}

}  // namespace texcv::cli
