// One line of texcv batch's --report (texcv/batch.hpp: report_json), and the text helpers it
// needs (src/batch/report.hpp), which the texcv command also uses for its messages.
#include "src/batch/report.hpp"

#include <cstdio>
#include <string>

#include "texcv/batch.hpp"

namespace texcv::batch {

namespace detail {

// The length of the UTF-8 sequence at s[i] and its code point; 0 when it is not valid UTF-8
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF).
std::size_t utf8_at(const std::string& s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_at(s, i, cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string utf8_replaced(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_at(s, i, cp);
    if (n == 0) {
      o += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      o.append(s, i, n);
      i += n;
    }
  }
  return o;
}

std::string base64(const std::string& s) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  o.reserve((s.size() + 2) / 3 * 4);
  std::size_t i = 0;
  const auto b = [&](std::size_t k) {
    return static_cast<unsigned>(static_cast<unsigned char>(s[k]));
  };
  for (; i + 3 <= s.size(); i += 3) {
    const unsigned v = (b(i) << 16) | (b(i + 1) << 8) | b(i + 2);
    for (int k = 3; k >= 0; --k) o += kDigits[(v >> (6 * k)) & 63];
  }
  if (const std::size_t rest = s.size() - i; rest > 0) {
    const unsigned v = (b(i) << 16) | (rest == 2 ? b(i + 1) << 8 : 0u);
    o += kDigits[(v >> 18) & 63];
    o += kDigits[(v >> 12) & 63];
    o += rest == 2 ? kDigits[(v >> 6) & 63] : '=';
    o += '=';
  }
  return o;
}

}  // namespace detail

namespace {

// A JSON string: valid UTF-8 for any input (bytes that are not UTF-8 become U+FFFD; the report
// gives a name's raw bytes apart, see report_json), control characters escaped.
std::string json_string(const std::string& raw) {
  const std::string s = detail::valid_utf8(raw) ? raw : detail::utf8_replaced(raw);
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);  // UTF-8 passes through
        }
    }
  }
  return o + "\"";
}

std::string json_ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::string report_json(const Job& job, const Result& r) {
  std::string s = "{\"input\":" + json_string(job.input) + ",\"output\":" +
                  (job.output.empty() ? std::string("null") : json_string(job.output)) +
                  ",\"status\":\"" + to_string(r.status) + "\"";
  // A name that is not UTF-8: its exact bytes, base64 (the "input"/"output" text then holds
  // U+FFFD where the bytes were).
  if (!detail::valid_utf8(job.input)) s += ",\"input_bytes\":\"" + detail::base64(job.input) + "\"";
  if (!detail::valid_utf8(job.output))
    s += ",\"output_bytes\":\"" + detail::base64(job.output) + "\"";
  s += ",\"error\":" + (r.error.empty() ? std::string("null") : json_string(r.error));
  s += ",\"stage\":" + (r.stage.empty() ? std::string("null") : json_string(r.stage));
  s += ",\"device\":" + (r.device.empty() ? std::string("null") : json_string(r.device));
  s += std::string(",\"cpu_fallback\":") + (r.cpu_fallback ? "true" : "false");
  // Where each stage ran (a stage not reached: null).
  if (!r.read_device.empty() || !r.device.empty() || !r.write_device.empty()) {
    auto or_null = [](const std::string& v) {
      return v.empty() ? std::string("null") : json_string(v);
    };
    s += ",\"devices\":{\"read\":" + or_null(r.read_device) + ",\"process\":" + or_null(r.device) +
         ",\"write\":" + or_null(r.write_device) + "}";
  }
  if (!r.note.empty()) s += ",\"note\":" + json_string(r.note);
  if (!r.warning.empty()) s += ",\"warning\":" + json_string(r.warning);
  if (!r.decoder.empty()) s += ",\"decoder\":" + json_string(r.decoder);
  if (!r.retried_from.empty()) {
    s += ",\"retried\":true,\"retried_from\":[";
    for (std::size_t i = 0; i < r.retried_from.size(); ++i) {
      if (i) s += ',';
      s += json_string(r.retried_from[i]);
    }
    s += "],\"retry_reason\":" + json_string(r.retry_reason);
  }
  if (r.width > 0)
    s += ",\"in\":{\"width\":" + std::to_string(r.width) +
         ",\"height\":" + std::to_string(r.height) + ",\"channels\":" + std::to_string(r.channels) +
         ",\"type\":\"" + to_string(r.type) + "\",\"bytes\":" + std::to_string(r.bytes_in) + "}";
  if (r.status == Status::ok || r.status == Status::corrupt)
    s += ",\"out\":{\"width\":" + std::to_string(r.out_width) +
         ",\"height\":" + std::to_string(r.out_height) +
         ",\"channels\":" + std::to_string(r.out_channels) + ",\"type\":\"" +
         to_string(r.out_type) + "\",\"bytes\":" + std::to_string(r.bytes_out) + "}";
  s += ",\"ms\":{\"read\":" + json_ms(r.read_ms) + ",\"process\":" + json_ms(r.process_ms) +
       ",\"write\":" + json_ms(r.write_ms) + ",\"total\":" + json_ms(r.total_ms) + "}}";
  return s;
}

}  // namespace texcv::batch
