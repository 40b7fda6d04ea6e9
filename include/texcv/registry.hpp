// The operation registry: each operation declares its name and parameters once; the texcv
// command (and the Python package) are driven from it. Names are those of the C++ API.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "texcv/image.hpp"

namespace texcv {

struct ParamSpec {
  std::string name;
  std::string type;           // "int", "float", "bool", "enum", "floats" (comma-free list a|b|c)
  std::string default_value;  // as text; "" when required
  std::string help;
  std::vector<std::string> choices;  // for "enum"
  bool required = false;
};

struct OpSpec {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
};

using ParamValues = std::map<std::string, std::string>;

// All operations usable in a pipeline, in a stable order.
const std::vector<OpSpec>& operations();
// The operation called name; throws Error(InvalidArgument) listing the known names.
const OpSpec& find_operation(std::string_view name);

// Runs operation `name` on src with the given textual parameters and returns a new image in
// src's location. Unknown keys, bad values and missing required parameters throw
// Error(InvalidArgument) naming the parameter, the value and what was expected.
Image apply(std::string_view name, const ImageView& src, const ParamValues& params,
            void* stream = nullptr);

}  // namespace texcv
