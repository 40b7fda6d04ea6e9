// Hostile image files made in the tests (issue 18): bombs whose headers or chunks claim far more
// than the file holds, and damaged copies of sound files. Every file is made from a few lines of
// code here, never read from elsewhere. Used by tests/cpp/io/test_io_limits.cpp and the stress
// suite tests/cpp/cli/test_hostile_input.cpp.
#pragma once

// jpeglib.h needs size_t and FILE declared before it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <jpeglib.h>

namespace texcv::test::hostile {

using Bytes = std::string;

inline std::uint32_t crc32(const unsigned char* p, std::size_t n) {
  std::uint32_t crc = ~0u;
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline void be32(Bytes& s, std::uint32_t v) {
  for (int sh = 24; sh >= 0; sh -= 8) s += static_cast<char>((v >> sh) & 0xFF);
}
inline void le16(Bytes& s, std::uint16_t v) {
  s += static_cast<char>(v & 0xFF);
  s += static_cast<char>(v >> 8);
}
inline void le32(Bytes& s, std::uint32_t v) {
  for (int sh = 0; sh < 32; sh += 8) s += static_cast<char>((v >> sh) & 0xFF);
}

// One PNG chunk: length, type, data, CRC (of type and data).
inline Bytes png_chunk(const char* type, const Bytes& data) {
  Bytes s;
  be32(s, static_cast<std::uint32_t>(data.size()));
  const Bytes td = std::string(type, 4) + data;
  s += td;
  be32(s, crc32(reinterpret_cast<const unsigned char*>(td.data()), td.size()));
  return s;
}

inline const Bytes& png_signature() {
  static const Bytes sig("\x89PNG\r\n\x1a\n", 8);
  return sig;
}

// IHDR data: width, height, bit depth 8, the colour type (0 gray, 2 RGB), no interlace.
inline Bytes png_ihdr(std::uint32_t w, std::uint32_t h, int color = 0) {
  Bytes d;
  be32(d, w);
  be32(d, h);
  d += static_cast<char>(8);
  d += static_cast<char>(color);
  d += std::string(3, '\0');
  return png_chunk("IHDR", d);
}

// Deflate's stored blocks (no compression), with zlib's header and Adler-32: a valid zlib stream
// of `raw` without linking zlib.
inline Bytes zlib_stored(const Bytes& raw) {
  Bytes z("\x78\x01", 2);
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min<std::size_t>(raw.size() - pos, 65535);
    const bool last = pos + n == raw.size();
    z += static_cast<char>(last ? 1 : 0);
    z += static_cast<char>(n & 0xFF);
    z += static_cast<char>(n >> 8);
    z += static_cast<char>(~n & 0xFF);
    z += static_cast<char>((~n >> 8) & 0xFF);
    z.append(raw, pos, n);
    pos += n;
  } while (pos < raw.size());
  std::uint32_t a = 1, b = 0;
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  be32(z, (b << 16) | a);
  return z;
}

// A sound gray PNG of w x h (a gradient), stored without compression.
inline Bytes png_gray(std::uint32_t w, std::uint32_t h) {
  Bytes raw;
  for (std::uint32_t y = 0; y < h; ++y) {
    raw += '\0';  // filter: none
    for (std::uint32_t x = 0; x < w; ++x) raw += static_cast<char>((x * 7 + y * 3) & 0xFF);
  }
  return png_signature() + png_ihdr(w, h) + png_chunk("IDAT", zlib_stored(raw)) +
         png_chunk("IEND", "");
}

// A 16x16 gray PNG whose next chunk (`type`) claims `length` bytes and holds 3: libpng allocated
// the claimed length (2 GB) before finding the file's end (issue 18: 2.1 GB for 56 bytes).
inline Bytes png_chunk_bomb(const char* type = "tEXt", std::uint32_t length = 0x7FFFFFF0u) {
  Bytes s = png_signature() + png_ihdr(16, 16);
  be32(s, length);
  s += std::string(type, 4);
  s += "abc";
  return s;
}

// A PNG whose IHDR claims w x h gray pixels, with a little image data (header-only bomb).
inline Bytes png_header_bomb(std::uint32_t w, std::uint32_t h) {
  return png_signature() + png_ihdr(w, h) + png_chunk("IDAT", zlib_stored(Bytes(64, '\0'))) +
         png_chunk("IEND", "");
}

// A little-endian TIFF, RGB u8, uncompressed, tiled: tw x th tiles over a w x h image, one tile
// given (offset, byte count), the others absent.
inline Bytes tiff_tiled(std::uint32_t w, std::uint32_t h, std::uint32_t tw, std::uint32_t th,
                        std::uint32_t byte_count_override = 0, std::size_t data_bytes = 64) {
  const std::uint16_t ntags = 11;
  const std::uint32_t ifd_size = 2 + ntags * 12 + 4;
  const std::uint32_t bps_off = 8 + ifd_size;
  const std::uint32_t data_off = bps_off + 6;
  const std::uint32_t bc =
      byte_count_override ? byte_count_override : static_cast<std::uint32_t>(data_bytes);
  Bytes s("II*\0", 4);
  le32(s, 8);
  le16(s, ntags);
  auto tag = [&](std::uint16_t t, std::uint16_t type, std::uint32_t count, std::uint32_t v) {
    le16(s, t);
    le16(s, type);
    le32(s, count);
    if (type == 3 && count == 1) {
      le16(s, static_cast<std::uint16_t>(v));
      le16(s, 0);
    } else {
      le32(s, v);
    }
  };
  tag(256, 4, 1, w);
  tag(257, 4, 1, h);
  tag(258, 3, 3, bps_off);  // BitsPerSample 8,8,8 at bps_off
  tag(259, 3, 1, 1);        // no compression
  tag(262, 3, 1, 2);        // RGB
  tag(277, 3, 1, 3);
  tag(284, 3, 1, 1);  // contiguous
  tag(322, 4, 1, tw);
  tag(323, 4, 1, th);
  tag(324, 4, 1, data_off);
  tag(325, 4, 1, bc);
  le32(s, 0);
  le16(s, 8);
  le16(s, 8);
  le16(s, 8);
  s += Bytes(data_bytes, '\x40');
  return s;
}

// The 1 KB TIFF of issue 18: 32768x32768 tiles over a 16x16 image (3.15 GB when read).
inline Bytes tiff_tile_bomb() {
  return tiff_tiled(16, 16, 32768, 32768);
}

// A TIFF whose only tile claims 2 GB of data in a file of a few hundred bytes.
inline Bytes tiff_byte_count_bomb() {
  return tiff_tiled(16, 16, 16, 16, 0x7FFFFFFFu);
}

// A little-endian TIFF header whose single strip claims w x h gray u8 pixels.
inline Bytes tiff_header_bomb(std::uint32_t w, std::uint32_t h) {
  Bytes s("II*\0", 4);
  le32(s, 8);
  const std::uint16_t ntags = 8;
  le16(s, ntags);
  const std::uint32_t data_off = 8 + 2 + ntags * 12 + 4;
  auto tag = [&](std::uint16_t t, std::uint16_t type, std::uint32_t v) {
    le16(s, t);
    le16(s, type);
    le32(s, 1);
    if (type == 3) {
      le16(s, static_cast<std::uint16_t>(v));
      le16(s, 0);
    } else {
      le32(s, v);
    }
  };
  tag(256, 4, w);
  tag(257, 4, h);
  tag(258, 3, 8);
  tag(259, 3, 1);
  tag(262, 3, 1);  // MinIsBlack
  tag(273, 4, data_off);
  tag(278, 4, h);  // one strip
  tag(279, 4, 64);
  le32(s, 0);
  s += Bytes(64, '\0');
  return s;
}

namespace detail {
struct JpegFail {
  jpeg_error_mgr mgr;
};
[[noreturn]] inline void jpeg_throw(j_common_ptr cinfo) {
  char buf[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buf);
  throw std::runtime_error(buf);
}
}  // namespace detail

// A JPEG of w x h flat gray (1 channel) or colour (3) pixels; progressive with a scan script of
// first passes only at Al = 0 when `progressive` (DC of every component, then each component's
// AC 1..63), so that a repeated last scan reads as a valid one (Ah = 0 = the coefficients' bits).
// libjpeg's errors throw here (C++ frames: its longjmp-free error_exit throws through C code,
// which is fine for a test generator built with the same compiler's unwinding).
inline Bytes jpeg_flat(int w, int h, int channels, bool progressive) {
  jpeg_compress_struct c{};
  detail::JpegFail err{};
  c.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = detail::jpeg_throw;
  jpeg_create_compress(&c);
  unsigned char* mem = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &mem, &size);
  c.image_width = static_cast<JDIMENSION>(w);
  c.image_height = static_cast<JDIMENSION>(h);
  c.input_components = channels;
  c.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 90, TRUE);
  std::vector<jpeg_scan_info> scans;
  if (progressive) {
    jpeg_scan_info dc{};
    dc.comps_in_scan = c.num_components;
    for (int k = 0; k < c.num_components; ++k) dc.component_index[k] = k;
    scans.push_back(dc);  // Ss = Se = Ah = Al = 0
    for (int k = 0; k < c.num_components; ++k) {
      jpeg_scan_info ac{};
      ac.comps_in_scan = 1;
      ac.component_index[0] = k;
      ac.Ss = 1;
      ac.Se = 63;
      scans.push_back(ac);
    }
    c.scan_info = scans.data();
    c.num_scans = static_cast<int>(scans.size());
  }
  jpeg_start_compress(&c, TRUE);
  std::vector<unsigned char> row(static_cast<std::size_t>(w) * static_cast<std::size_t>(channels),
                                 128);
  while (c.next_scanline < c.image_height) {
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  Bytes out(reinterpret_cast<const char*>(mem), size);
  std::free(mem);
  return out;
}

// The progressive JPEG scan bomb of issue 18: jpeg_flat's progressive file with its last scan
// (its DHT tables too, when they come right before it) repeated until the file has `scans` scans.
// Every copy is a valid scan, so libjpeg decodes each one over the whole image again.
inline Bytes jpeg_scan_bomb(int w, int h, int scans) {
  const Bytes base = jpeg_flat(w, h, 1, true);
  // Find the last SOS (FF DA) and the segments just before it (DHT), and the EOI at the end.
  std::size_t last_sos = Bytes::npos, seg_start = Bytes::npos;
  std::size_t i = 2;  // after SOI
  std::size_t prev_end = 2;
  while (i + 4 <= base.size()) {
    if (static_cast<unsigned char>(base[i]) != 0xFF) break;
    const auto marker = static_cast<unsigned char>(base[i + 1]);
    if (marker == 0xD9) break;  // EOI
    const std::size_t len =
        (static_cast<unsigned char>(base[i + 2]) << 8) | static_cast<unsigned char>(base[i + 3]);
    std::size_t end = i + 2 + len;
    if (marker == 0xC4 && seg_start == Bytes::npos) seg_start = i;  // DHT run before a scan
    if (marker == 0xDA) {
      // The entropy data runs to the next marker that is not a stuffed 00 or a restart.
      while (end + 1 < base.size() && !(static_cast<unsigned char>(base[end]) == 0xFF &&
                                        static_cast<unsigned char>(base[end + 1]) != 0x00 &&
                                        (static_cast<unsigned char>(base[end + 1]) < 0xD0 ||
                                         static_cast<unsigned char>(base[end + 1]) > 0xD7)))
        ++end;
      last_sos = seg_start != Bytes::npos ? seg_start : i;
      seg_start = Bytes::npos;
    } else if (marker != 0xC4) {
      seg_start = Bytes::npos;
    }
    prev_end = end;
    i = end;
  }
  if (last_sos == Bytes::npos) throw std::runtime_error("jpeg_scan_bomb: no scan found");
  const Bytes head = base.substr(0, prev_end);
  const Bytes scan = base.substr(last_sos, prev_end - last_sos);
  const int have = 1 + 1;  // the DC scan and the AC scan of the gray file
  Bytes out = head;
  for (int k = have; k < scans; ++k) out += scan;
  out += "\xFF\xD9";
  return out;
}

}  // namespace texcv::test::hostile
