// The one dispatch (src/core/dispatch.hpp) that the CPU backend, the CUDA host code and the
// launchers share: each run-time (type, channels) reaches its template, and anything else is
// Error(Unsupported) naming what is accepted. Also the public name parsers that replaced private
// copies (parse_elem_type).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "src/core/dispatch.hpp"

namespace texcv::detail {
namespace {

template <typename T>
int type_code() {
  return std::is_same_v<T, std::uint8_t> ? 8 : std::is_same_v<T, std::uint16_t> ? 16 : 32;
}

TEST(Dispatch, EachTypeAndChannelCountReachesItsTemplate) {
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    for (int c : {1, 3, 4}) {
      int got_bits = 0, got_c = 0;
      by_type_channels("op", t, c, [&]<typename T, int C>() {
        got_bits = type_code<T>();
        got_c = C;
      });
      EXPECT_EQ(got_bits, t == ElemType::u8 ? 8 : t == ElemType::u16 ? 16 : 32);
      EXPECT_EQ(got_c, c);
    }
}

TEST(Dispatch, AnythingElseIsUnsupportedWithWhatIsAccepted) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { by_channels("op", 2, []<int C>() {}); }),
            "op: unsupported channel count; got 2, expected 1, 3 or 4");
  EXPECT_EQ(message([] { by_channels_of<1, 3>("bilateral_filter", 4, []<int C>() {}); }),
            "bilateral_filter: unsupported channel count; got 4, expected 1 or 3");
  EXPECT_EQ(message([] { by_type("op", static_cast<ElemType>(9), []<typename T>() {}); }),
            "op: unsupported element type; got 9, expected u8, u16 or f32");
}

}  // namespace
}  // namespace texcv::detail

namespace texcv {
namespace {

// Every enum has one public parser (issue 20, item 1); these three were private copies.
TEST(EnumParsers, NamesRoundTripAndOthersSayWhatIsAccepted) {
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32})
    EXPECT_EQ(parse_elem_type(to_string(t)), t);
  try {
    parse_elem_type("f64");
    ADD_FAILURE() << "f64 parsed";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "element type: unknown name; got 'f64', expected one of u8, u16, f32");
  }
}

}  // namespace
}  // namespace texcv
