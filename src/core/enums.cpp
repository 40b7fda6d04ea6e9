// Names of the geometry enums: to_string and parse_* (the texcv command and the registry use them).
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "texcv/error.hpp"
#include "texcv/geometry.hpp"

namespace texcv {

namespace {

template <typename E, std::size_t N>
using NameTable = std::array<std::pair<E, const char*>, N>;

constexpr NameTable<Interp, 4> kInterp{{{Interp::nearest, "nearest"},
                                        {Interp::linear, "linear"},
                                        {Interp::cubic, "cubic"},
                                        {Interp::area, "area"}}};
constexpr NameTable<Border, 5> kBorder{{{Border::constant, "constant"},
                                        {Border::replicate, "replicate"},
                                        {Border::reflect, "reflect"},
                                        {Border::reflect101, "reflect101"},
                                        {Border::wrap, "wrap"}}};
constexpr NameTable<Precision, 3> kPrecision{
    {{Precision::automatic, "auto"}, {Precision::exact, "exact"}, {Precision::fast, "fast"}}};
constexpr NameTable<Path, 5> kPath{{{Path::automatic, "auto"},
                                    {Path::global, "global"},
                                    {Path::texture, "texture"},
                                    {Path::texture_filter, "texture_filter"},
                                    {Path::shared, "shared"}}};
constexpr NameTable<FlipCode, 3> kFlip{{{FlipCode::horizontal, "horizontal"},
                                        {FlipCode::vertical, "vertical"},
                                        {FlipCode::both, "both"}}};

template <typename E, std::size_t N>
const char* name_of(const NameTable<E, N>& t, E v) noexcept {
  for (const auto& [e, n] : t)
    if (e == v) return n;
  return "unknown";
}

template <typename E, std::size_t N>
E parse(const NameTable<E, N>& t, std::string_view s, std::string_view what) {
  for (const auto& [e, n] : t)
    if (s == n) return e;
  std::string accepted = "one of ";
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) accepted += ", ";
    accepted += t[i].second;
  }
  std::string got;
  got.append("'").append(s).append("'");
  fail(ErrorCode::InvalidArgument, what, "unknown name", got, accepted);
}

}  // namespace

const char* to_string(Interp v) noexcept {
  return name_of(kInterp, v);
}
const char* to_string(Border v) noexcept {
  return name_of(kBorder, v);
}
const char* to_string(Precision v) noexcept {
  return name_of(kPrecision, v);
}
const char* to_string(Path v) noexcept {
  return name_of(kPath, v);
}
const char* to_string(FlipCode v) noexcept {
  return name_of(kFlip, v);
}

Interp parse_interp(std::string_view s) {
  return parse(kInterp, s, "interp");
}
Border parse_border(std::string_view s) {
  return parse(kBorder, s, "border");
}
Precision parse_precision(std::string_view s) {
  return parse(kPrecision, s, "precision");
}
Path parse_path(std::string_view s) {
  return parse(kPath, s, "path");
}
FlipCode parse_flip(std::string_view s) {
  return parse(kFlip, s, "flip");
}

}  // namespace texcv
