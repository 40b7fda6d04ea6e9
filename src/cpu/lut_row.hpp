// A 256-entry table applied to the u8 elements of a row (gamma, equalize_hist): d[i] = lut[s[i]].
#pragma once

#include <cstdint>
#include <cstring>

namespace texcv::cpu::detail {

// Eight elements per step, read and written as one 64-bit word (byte k of the word is element
// i + k on either byte order, as both copies map it the same way): two memory accesses for eight
// elements where one at a time takes sixteen, and the table's address stays in a register (a
// table reached through a reference is reloaded after every u8 store, which may alias it).
inline void lut_row(const std::uint8_t* s, std::uint8_t* d, int n, const std::uint8_t* lut) {
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t v, r = 0;
    std::memcpy(&v, s + i, 8);
    for (int k = 0; k < 8; ++k) r |= std::uint64_t{lut[(v >> (8 * k)) & 255]} << (8 * k);
    std::memcpy(d + i, &r, 8);
  }
  for (; i < n; ++i) d[i] = lut[s[i]];
}

}  // namespace texcv::cpu::detail
