// Private to src/io: check_jpeg's fast verdict on the entropy-coded data of a sequential Huffman
// JPEG (codec_jpeg_scan.cpp), used by codec_jpeg.cpp.
//
// It walks the data symbol by symbol as libjpeg-turbo's decoder does (jdhuff.c, decode_mcu_slow:
// the same tables, the same MCU order, the same restart handling), but keeps no coefficients, and
// it can only say "sound" or "unsure". "Sound" is said only when libjpeg-turbo, decoding the same
// bytes, meets none of the damage warnings codec_jpeg.cpp fails on: every Huffman code is valid,
// no bit is read past a marker or past the end of the data, each restart interval ends with no
// whole byte left over and is followed by the expected RSTn marker (fill bytes 0xFF allowed), and
// the last MCU is followed by EOI the same way. Anything else, including things libjpeg-turbo
// accepts (a few bytes left over before EOI, another marker before EOI), is "unsure", and the
// caller settles the file with libjpeg-turbo itself. So the fast verdict can be wrong only by
// being unsure.
#pragma once

#include <cstddef>
#include <cstdint>

namespace texcv::io_detail {

// A Huffman table as a DHT marker gives it (libjpeg's JHUFF_TBL): bits[l] codes of length l
// (l = 1..16; bits[0] unused), then their symbols in code order.
struct JpegHuffSpec {
  std::uint8_t bits[17] = {};
  std::uint8_t vals[256] = {};
};

// One scan of a baseline or extended sequential Huffman JPEG with every component in it, as
// libjpeg-turbo set it up for decoding (jpeg_start_decompress done: the MCU layout, the tables
// the scan's components use, standard tables filled in for missing ones).
struct JpegScanLayout {
  static constexpr int kMaxBlocks = 10;  // libjpeg's D_MAX_BLOCKS_IN_MCU
  int blocks_in_mcu = 0;                 // 1..kMaxBlocks
  std::uint64_t mcus = 0;                // MCUs_per_row x MCU_rows_in_scan
  std::uint32_t restart_interval = 0;    // MCUs between RSTn markers; 0: none
  JpegHuffSpec dc[4], ac[4];
  int dc_table[kMaxBlocks] = {};  // the table each block of an MCU uses, 0..3
  int ac_table[kMaxBlocks] = {};
};

enum class JpegScanVerdict : std::uint8_t { sound, unsure };

// Walks [data, end): the first byte after the SOS marker segment up to the end of the file.
JpegScanVerdict scan_jpeg_entropy(const JpegScanLayout& layout, const unsigned char* data,
                                  const unsigned char* end);

}  // namespace texcv::io_detail
