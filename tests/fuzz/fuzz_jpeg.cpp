// libFuzzer target: the JPEG decoder through read_info and imdecode (tests/fuzz/fuzz_decode.hpp).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return texcv::fuzz::decode_one(data, size, texcv::ImageFormat::jpeg);
}
