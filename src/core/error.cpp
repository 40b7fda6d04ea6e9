// texcv::Error and the fail() helpers.
#include "texcv/error.hpp"

#include <string>

namespace texcv {

const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::InvalidArgument:
      return "InvalidArgument";
    case ErrorCode::Unsupported:
      return "Unsupported";
    case ErrorCode::OutOfMemory:
      return "OutOfMemory";
    case ErrorCode::Cuda:
      return "Cuda";
    case ErrorCode::Io:
      return "Io";
    case ErrorCode::NotCompiled:
      return "NotCompiled";
    case ErrorCode::Internal:
      return "Internal";
  }
  return "Unknown";
}

Error::Error(ErrorCode code, const std::string& message)
    : std::runtime_error(message), code_(code) {}

void fail(ErrorCode code, std::string_view op, std::string_view what, std::string_view got,
          std::string_view expected) {
  std::string msg;
  msg.reserve(op.size() + what.size() + got.size() + expected.size() + 24);
  msg.append(op).append(": ").append(what).append("; got ").append(got);
  msg.append(", expected ").append(expected);
  throw Error(code, msg);
}

void fail(ErrorCode code, std::string_view op, std::string_view what) {
  std::string msg;
  msg.append(op).append(": ").append(what);
  throw Error(code, msg);
}

}  // namespace texcv
