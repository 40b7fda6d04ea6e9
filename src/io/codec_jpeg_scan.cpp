// check_jpeg's fast verdict on sequential Huffman entropy data (codec_jpeg_scan.hpp says what
// it promises). The references are libjpeg-turbo's jdhuff.c (jpeg_make_d_derived_tbl,
// jpeg_fill_bit_buffer, jpeg_huff_decode, decode_mcu_slow, process_restart) and jdmarker.c
// (next_marker, read_restart_marker): the comments name the rule of theirs each step follows.
// Written for this purpose, not copied: libjpeg-turbo offers no decode that both reports every
// bad code and runs at its fast path's speed (its fast path decodes a bad code as 0 silently).
#include "src/io/codec_jpeg_scan.hpp"

#include <cstring>
#include <memory>

namespace texcv::io_detail {
namespace {

constexpr int kLook = 10;   // code bits looked up at once (libjpeg: 8, then bit by bit)
constexpr int kMulti = 12;  // bits looked up at once for a run of AC symbols

// A decoding table. fast[b], for the next kLook bits b: 0 when the code there is longer than
// kLook bits (or invalid), else advance | step << 5, where advance is the code's length plus the
// extra bits after it (1..25) and step is what the AC loop adds to k: run + 1 for a coefficient,
// 16 for ZRL (run 15, size 0), 64 for EOB (any other run with size 0); 0 for DC.
struct Decoder {
  std::uint16_t fast[1 << kLook];
  std::int32_t maxcode[18];    // the largest code of each length, -1: none (Figure F.15)
  std::int32_t valoffset[18];  // symbol index of a code of that length, minus the code
  const std::uint8_t* vals;
  bool ac;
  // AC only: multi[b], for the next kMulti bits b, the run of whole symbols (code and extra
  // bits) that fits in them, up to and including an EOB: advance | steps << 4 | eob << 11, where
  // steps is the sum of the k steps of the symbols before an EOB (at most 127). The run is taken
  // only while k + steps < 64, so that none of it belongs to the next block; then k becomes
  // k + steps, or 64 after an EOB. 0: not even one symbol fits. 16-bit entries: 8 KB a table, so
  // that two AC tables and the rest stay in a 32 KB L1 (32-bit ones measured 4 % slower).
  std::uint16_t multi[1 << kMulti];
};

std::uint16_t entry_for(unsigned sym, int len, bool ac) {
  if (!ac) return static_cast<std::uint16_t>(len + static_cast<int>(sym));  // sym <= 15
  const int run = static_cast<int>(sym >> 4), size = static_cast<int>(sym & 15);
  const int step = size ? run + 1 : (run == 15 ? 16 : 64);
  return static_cast<std::uint16_t>((len + size) | (step << 5));
}

void build_multi(Decoder& d);

// jpeg_make_d_derived_tbl's code assignment (Figures C.1, C.2) and its checks: false where it
// would fail (more than 256 symbols, a length overflowing, a DC symbol above 15).
bool build(const JpegHuffSpec& spec, bool ac, Decoder& d) {
  int sizes[257];
  unsigned codes[257];
  int p = 0;
  for (int l = 1; l <= 16; ++l) {
    int i = spec.bits[l];
    if (p + i > 256) return false;
    while (i--) sizes[p++] = l;
  }
  sizes[p] = 0;
  const int nsym = p;
  unsigned code = 0;
  int si = sizes[0];
  p = 0;
  while (sizes[p]) {
    while (sizes[p] == si) codes[p++] = code++;
    if (code >= (1u << si)) return false;  // no code may be all ones
    code <<= 1;
    ++si;
  }
  if (!ac)
    for (int i = 0; i < nsym; ++i)
      if (spec.vals[i] > 15) return false;
  p = 0;
  for (int l = 1; l <= 16; ++l) {
    if (spec.bits[l]) {
      d.valoffset[l] = p - static_cast<std::int32_t>(codes[p]);
      p += spec.bits[l];
      d.maxcode[l] = static_cast<std::int32_t>(codes[p - 1]);
    } else {
      d.maxcode[l] = -1;
    }
  }
  d.vals = spec.vals;
  d.ac = ac;
  std::memset(d.fast, 0, sizeof d.fast);
  for (int i = 0; i < nsym && sizes[i] <= kLook; ++i) {
    const unsigned first = codes[i] << (kLook - sizes[i]);
    const std::uint16_t e = entry_for(spec.vals[i], sizes[i], ac);
    for (unsigned j = 0; j < (1u << (kLook - sizes[i])); ++j) d.fast[first + j] = e;
  }
  if (ac) build_multi(d);
  return true;
}

// Decoder::multi, from the canonical codes (maxcode) and symbols of `d`.
void build_multi(Decoder& d) {
  for (unsigned w = 0; w < (1u << kMulti); ++w) {
    int pos = 0, steps = 0, eob = 0;
    while (pos < kMulti) {
      const int room = kMulti - pos;
      int len = 0;
      std::int32_t code = 0;
      for (int l = 1; l <= room; ++l) {
        code = static_cast<std::int32_t>((w >> (room - l)) & ((1u << l) - 1));
        if (code <= d.maxcode[l]) {
          len = l;
          break;
        }
      }
      if (!len) break;
      const unsigned sym = d.vals[(code + d.valoffset[len]) & 0xFF];
      const std::uint16_t e = entry_for(sym, len, true);
      const int step = e >> 5;
      if ((e & 31) > room || (step != 64 && steps + step > 127)) break;
      pos += e & 31;
      if (step == 64) {
        eob = 1;
        break;
      }
      steps += step;
    }
    d.multi[w] = static_cast<std::uint16_t>(pos | steps << 4 | eob << 11);
  }
}

// A code longer than kLook bits, from the next 16 bits (jpeg_huff_decode's loop over lengths);
// 0: no code of up to 16 bits is there (libjpeg: JWRN_HUFF_BAD_CODE).
std::uint16_t decode_long(const Decoder& d, std::uint64_t buf) {
  const auto top = static_cast<std::int32_t>(buf >> 48);
  for (int l = kLook + 1; l <= 16; ++l) {
    const std::int32_t code = top >> (16 - l);
    if (code <= d.maxcode[l]) return entry_for(d.vals[(code + d.valoffset[l]) & 0xFF], l, d.ac);
  }
  return 0;
}

// The bits of one entropy-coded segment, most significant first, with jpeg_fill_bit_buffer's
// byte rules: FF 00 (after any number of fill FFs) is a data byte FF; FF (FF...) then anything
// else is the marker that ends the segment. Past it, or past the end of the data, come zero bits,
// counted in `pad`: a decode that uses any of them read past the segment (libjpeg:
// JWRN_HIT_MARKER, or JWRN_JPEG_EOF at the end of the data).
struct Bits {
  const unsigned char* p;
  const unsigned char* end;
  std::uint64_t buf = 0;  // the next bit is bit 63; the bits below the n valid ones are 0
  int n = 0;
  int pad = 0;
  bool stopped = false;
  int marker = -1;  // when stopped: the marker's code, or -1 where the data ended

  // At least 56 valid bits after it, called before every symbol without a test of n (a branch
  // on n mispredicts often; the one on an FF byte among the next 8 rarely does): the next 8
  // bytes go in at once when none is FF, the whole bytes that fit counted in.
  void refill() {
    if (!stopped && end - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      w = __builtin_bswap64(w);
      const std::uint64_t x = ~w;  // a zero byte of x is an FF byte of w
      if (((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) == 0) {
        buf |= w >> n;
        p += (63 - n) >> 3;
        n |= 56;               // n + 8 x the bytes taken
        buf &= ~(~0ull >> n);  // the part of a byte not taken stays out
        return;
      }
    }
    while (n <= 56) {
      if (stopped) {
        n += 8;
        pad += 8;
        continue;
      }
      if (p == end) {
        stopped = true;
        continue;
      }
      const unsigned c = *p++;
      if (c == 0xFF) {
        while (p < end && *p == 0xFF) ++p;
        if (p == end) {
          stopped = true;
          continue;
        }
        if (*p != 0) {
          marker = *p++;
          stopped = true;
          continue;
        }
        ++p;  // FF 00: the data byte FF
      }
      buf |= static_cast<std::uint64_t>(c) << (56 - n);
      n += 8;
    }
  }

  // The end of a segment: no whole byte of data left unused (libjpeg counts those as
  // discarded bytes, JWRN_EXTRANEOUS_DATA), then fill FFs and the marker `want`, and nothing of
  // the padding used. Starts the next segment after the marker.
  bool end_segment(int want) {
    if (stopped) {
      if (marker != want || n < pad || n - pad >= 8) return false;
    } else {
      if (n >= 8 || p == end || *p != 0xFF) return false;
      while (p < end && *p == 0xFF) ++p;
      if (p == end || *p != want) return false;
      ++p;
    }
    buf = 0;
    n = 0;
    pad = 0;
    stopped = false;
    marker = -1;
    return true;
  }
};

// The decoders a thread built last. The files of a batch nearly always carry the same DHT
// segments (libjpeg-turbo's standard tables, or one encoder's), and building an AC table's runs
// (4,096 windows) costs about as much as walking a small file (0.1 ms). Allocated on a thread's
// first walk (not static TLS, which every thread of the process would carry). One file uses at
// most 8 tables (4 DC, 4 AC), as many as there are slots; a slot the current file already took
// is pinned for the rest of its look-ups and never replaced (replacing one would leave an
// earlier block pointing at another table's decoder).
class DecoderCache {
 public:
  static constexpr int kSlots = 8;

  // The decoder for spec, found by content or built into an unpinned slot; nullptr where the
  // table is invalid. Pins the slot until unpin_all.
  const Decoder* get(const JpegHuffSpec& spec, bool ac) {
    for (Slot& s : slots_)
      if (s.used && s.ac == ac && std::memcmp(&s.spec, &spec, sizeof spec) == 0) {
        s.pinned = true;
        return &s.d;
      }
    for (int tries = 0; tries < kSlots; ++tries) {
      Slot& s = slots_[next_];
      next_ = (next_ + 1) % kSlots;
      if (s.pinned) continue;
      s.spec = spec;  // the decoder points into this copy
      s.ac = ac;
      s.used = build(s.spec, ac, s.d);
      s.pinned = s.used;
      return s.used ? &s.d : nullptr;
    }
    return nullptr;  // unreachable: a file pins at most 8 slots, and only distinct tables
  }
  void unpin_all() {
    for (Slot& s : slots_) s.pinned = false;
  }

 private:
  struct Slot {
    bool used = false;
    bool pinned = false;
    bool ac = false;
    JpegHuffSpec spec;
    Decoder d;
  };
  Slot slots_[kSlots];
  int next_ = 0;
};

}  // namespace

JpegScanVerdict scan_jpeg_entropy(const JpegScanLayout& layout, const unsigned char* data,
                                  const unsigned char* end) {
  constexpr auto unsure = JpegScanVerdict::unsure;
  const int blocks = layout.blocks_in_mcu;
  if (blocks < 1 || blocks > JpegScanLayout::kMaxBlocks || !data || end < data) return unsure;
  thread_local std::unique_ptr<DecoderCache> cache;
  if (!cache) cache = std::make_unique<DecoderCache>();
  cache->unpin_all();
  // Each of the file's tables looked up once (the blocks of one component share theirs).
  const Decoder* found[8] = {};
  const Decoder* dc[JpegScanLayout::kMaxBlocks];
  const Decoder* ac[JpegScanLayout::kMaxBlocks];
  for (int b = 0; b < blocks; ++b) {
    const int t[2] = {layout.dc_table[b], layout.ac_table[b]};
    for (int k = 0; k < 2; ++k) {
      if (t[k] < 0 || t[k] > 3) return unsure;
      const Decoder*& d = found[k * 4 + t[k]];
      if (!d && !(d = cache->get(k ? layout.ac[t[k]] : layout.dc[t[k]], k == 1))) return unsure;
    }
    dc[b] = found[t[0]];
    ac[b] = found[4 + t[1]];
  }

  Bits bits{data, end};
  const std::uint64_t interval = layout.restart_interval;
  int next_rst = 0;
  for (std::uint64_t mcu = 0; mcu < layout.mcus; ++mcu) {
    if (interval && mcu && mcu % interval == 0) {  // decode_mcu's process_restart
      if (!bits.end_segment(0xD0 + next_rst)) return unsure;
      next_rst = (next_rst + 1) & 7;
    }
    for (int b = 0; b < blocks; ++b) {
      // decode_mcu_slow: the DC difference, then AC symbols while k < 64 (k += run + 1; ZRL
      // adds 16; EOB ends the block). The values are not needed, only how many bits each takes.
      bits.refill();
      std::uint16_t e = dc[b]->fast[bits.buf >> (64 - kLook)];
      if (!e && !(e = decode_long(*dc[b], bits.buf))) return unsure;
      bits.buf <<= (e & 31);
      bits.n -= (e & 31);
      const Decoder& a = *ac[b];
      for (int k = 1; k < 64;) {
        bits.refill();
        const unsigned m = a.multi[bits.buf >> (64 - kMulti)];
        const int steps = static_cast<int>((m >> 4) & 127);
        if (m && k + steps < 64) {
          bits.buf <<= (m & 15);
          bits.n -= static_cast<int>(m & 15);
          k = (k + steps) | static_cast<int>((m >> 5) & 64);  // 64 after an EOB
          continue;
        }
        e = a.fast[bits.buf >> (64 - kLook)];
        if (!e && !(e = decode_long(a, bits.buf))) return unsure;
        bits.buf <<= (e & 31);
        bits.n -= (e & 31);
        k += e >> 5;
      }
    }
    // Read past the segment's end: end_segment would say so too; this stops early.
    if (bits.stopped && bits.n < bits.pad) return unsure;
  }
  return bits.end_segment(0xD9) ? JpegScanVerdict::sound : unsure;  // EOI
}

}  // namespace texcv::io_detail
