// Text helpers of the batch report (report.cpp), shared with the texcv command (its printable
// names and its report). Private to the library and its tools.
#pragma once

#include <cstddef>
#include <string>

namespace texcv::batch::detail {

// The length of the UTF-8 sequence at s[i] and its code point; 0 when it is not valid UTF-8
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF).
std::size_t utf8_at(const std::string& s, std::size_t i, char32_t& cp);
// Whether s is valid UTF-8.
bool valid_utf8(const std::string& s);
// s with every byte that is not part of valid UTF-8 replaced by U+FFFD (the replacement
// character), so it can go in JSON; the raw bytes are given apart (base64).
std::string utf8_replaced(const std::string& s);
// Standard base64 (RFC 4648, with padding) of the bytes of s.
std::string base64(const std::string& s);

}  // namespace texcv::batch::detail
