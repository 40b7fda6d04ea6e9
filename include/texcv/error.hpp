// texcv::Error: the one exception type of texcv.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace texcv {

enum class ErrorCode { InvalidArgument, Unsupported, OutOfMemory, Cuda, Io, NotCompiled, Internal };

const char* to_string(ErrorCode code) noexcept;

// Messages read "<op>: <what is wrong>; got <x>, expected <y>".
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message);
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

// Throws Error(code, "<op>: <what>; got <got>, expected <expected>").
[[noreturn]] void fail(ErrorCode code, std::string_view op, std::string_view what,
                       std::string_view got, std::string_view expected);
// Throws Error(code, "<op>: <what>") for errors without a got/expected pair.
[[noreturn]] void fail(ErrorCode code, std::string_view op, std::string_view what);

}  // namespace texcv
