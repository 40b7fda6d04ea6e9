// The registry's internals shared by src/core/registry.cpp and the operations that declare
// their spec in their own file (src/core/ops/<op>.cpp: `void declare_<op>(std::vector<OpEntry>&)`,
// found by CMake, src/CMakeLists.txt): parameter declarations (p_int...), the typed arguments
// of one call (Args) and an operation's entry (OpEntry: spec, checks, size, runner).
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "src/core/param_checks.hpp"
#include "texcv/error.hpp"
#include "texcv/geometry.hpp"
#include "texcv/registry.hpp"

namespace texcv::reg {

inline constexpr ErrorCode kInvalid = ErrorCode::InvalidArgument;
// The operations' own rules (src/core/param_checks.hpp) name the step's parameters.
inline constexpr detail::Naming kStep = detail::Naming::step;

inline std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

inline std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Shortest text that reads back as the same double ("0.5", "30", "1e-07").
inline std::string number_text(double v) {
  std::array<char, 64> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

// ---- Value parsing (no exceptions: callers build the message) ----------------------------

inline std::optional<double> parse_number(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

inline std::optional<int> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

inline std::optional<bool> parse_boolean(std::string_view s) {
  if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "0" || s == "no" || s == "off") return false;
  return std::nullopt;
}

// Numbers separated by '|' or whitespace; nullopt when an item is not a number.
inline std::optional<std::vector<double>> parse_numbers(std::string_view s) {
  std::vector<double> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    std::size_t j = i;
    while (j < s.size() && s[j] != '|' && s[j] != ' ' && s[j] != '\t') ++j;
    const auto v = parse_number(s.substr(i, j - i));
    if (!v) return std::nullopt;
    out.push_back(*v);
    // Skip spaces, then at most one '|'.
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
    if (j < s.size() && s[j] == '|') {
      ++j;
      // A '|' must be followed by a number.
      std::size_t k = j;
      while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
      if (k >= s.size() || s[k] == '|') return std::nullopt;
    }
    i = j;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// ---- Declaring parameters ---------------------------------------------------------------

inline ParamSpec p_int(std::string name, std::string def, std::optional<double> min,
                       std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = "int";
  p.default_value = std::move(def);
  p.min = min;
  p.help = std::move(help);
  return p;
}

inline ParamSpec p_float(std::string name, std::string def, std::string help,
                         std::optional<double> min = std::nullopt, bool min_exclusive = false) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = "float";
  p.default_value = std::move(def);
  p.min = min;
  p.min_exclusive = min_exclusive;
  p.help = std::move(help);
  return p;
}

inline ParamSpec p_bool(std::string name, std::string def, std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = "bool";
  p.default_value = std::move(def);
  p.help = std::move(help);
  return p;
}

inline ParamSpec p_enum(std::string name, std::string def, std::vector<std::string> choices,
                        std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = "enum";
  p.default_value = std::move(def);
  p.choices = std::move(choices);
  p.help = std::move(help);
  return p;
}

inline ParamSpec p_floats(std::string name, std::string def, int min_count, int max_count,
                          std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = "floats";
  p.default_value = std::move(def);
  p.min_count = min_count;
  p.max_count = max_count;
  p.help = std::move(help);
  return p;
}

// An input image beside the source (remap's maps): required, positional in Python, given to the
// typed entry points by name (TypedImages); an op with one is not a pipeline step.
inline ParamSpec p_image(std::string name, std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = "image";
  p.help = std::move(help);
  p.required = true;
  p.positional = true;
  return p;
}

// The parameters that Python takes positionally (in their declaration order), and those that
// set the output's size (not parameters of <op>_into). Fails (at start-up, in every test) on a
// name the op does not declare.
inline void declare_python(OpSpec& op, const std::vector<std::string>& positional,
                           const std::vector<std::string>& shapes_output = {}) {
  auto mark = [&op](const std::string& name, bool ParamSpec::*flag) {
    for (auto& p : op.params)
      if (p.name == name) {
        p.*flag = true;
        return;
      }
    fail(ErrorCode::Internal, "registry", op.name + " declares no parameter " + name);
  };
  for (const auto& n : positional) mark(n, &ParamSpec::positional);
  for (const auto& n : shapes_output) mark(n, &ParamSpec::shapes_output);
}

inline ParamSpec required(ParamSpec p) {
  p.required = true;
  p.default_value.clear();
  return p;
}

inline const std::vector<std::string> kInterpAll{"nearest", "linear", "cubic", "area"};
inline const std::vector<std::string> kInterpWarp{"nearest", "linear", "cubic"};
inline const std::vector<std::string> kBorders{"constant", "replicate", "reflect", "reflect101",
                                               "wrap"};

// The sampling parameters shared by resize, the warps and rotate.
inline void add_sampling(std::vector<ParamSpec>& ps, const std::vector<std::string>& interps,
                         const std::string& border_default) {
  ps.push_back(p_enum("interp", "linear", interps,
                      interps.size() == 4
                          ? "interpolation; area averages the covered source pixels when "
                            "shrinking (as cv::INTER_AREA)"
                          : "interpolation (cubic uses a = -0.75, as OpenCV)"));
  ps.push_back(p_enum("border", border_default, kBorders,
                      "how pixels outside the source are read (docs/conventions.md)"));
  ps.push_back(p_floats("border_value", "0", 1, 4,
                        "value outside the source for border=constant: one number for every "
                        "channel, or one per channel (missing channels get 0)"));
  ps.push_back(p_enum("precision", "auto", {"auto", "exact", "fast"},
                      "exact: float32 software weights; fast: hardware texture filtering (8-bit "
                      "weights, up to 2 levels off at the steepest u8 edges); auto: exact"));
  ps.push_back(p_enum("path", "auto", {"auto", "global", "texture", "texture_filter"},
                      "how the CUDA backend reads the source; the CPU backend ignores it"));
}

// The names of the values 0 .. last of an enum, as its to_string (and parser) spell them.
template <typename E>
std::vector<std::string> enum_names(E last) {
  std::vector<std::string> out;
  for (int v = 0; v <= static_cast<int>(last); ++v) out.emplace_back(to_string(static_cast<E>(v)));
  return out;
}

// ---- Reading validated arguments --------------------------------------------------------

// The given values of one call, checked against the op's declaration: unknown keys, values of
// the wrong type, out of range or with the wrong count, and missing required parameters throw at
// construction. Values are kept typed; accessors return the value or the declared default.
class Args {
 public:
  // Text values (the pipeline's front end): each parsed as declared; a choice must be one of the
  // declared ones.
  Args(const OpSpec& op, const ParamValues& text) : op_(op) {
    for (const auto& [key, raw] : text) {
      const ParamSpec& spec = declared(key, raw);
      values_[key] = parse_text(spec, raw);
      shown_[key] = raw;
    }
    check_required();
  }

  // Typed values (texcv::run_into, the Python package). A choice is checked by the enum's own
  // parser where the operation reads it (its message names the accepted values).
  Args(const OpSpec& op, const TypedParams& typed) : op_(op) {
    for (const auto& [key, v] : typed) {
      const std::string shown = value_text(v);
      const ParamSpec& spec = declared(key, shown);
      values_[key] = convert(spec, v, shown);
      shown_[key] = shown;
    }
    check_required();
  }

  const std::string& op() const { return op_.name; }
  bool has(const std::string& name) const { return values_.find(name) != values_.end(); }
  // The destination gives the output's size (run_into): a rule that asks for a parameter setting
  // it (resize's "no output size given") does not apply.
  bool into() const { return into_; }
  void set_into() { into_ = true; }

  // The input images beside the source ("image" parameters), by name: each must be declared and
  // every required one given.
  void set_images(const TypedImages& images) {
    for (const auto& [key, v] : images) {
      const ParamSpec& spec = declared(key, "<an image>");
      if (spec.type != "image")
        fail(kInvalid, op_.name, "parameter '" + key + "' is not an image", key + "=<an image>",
             spec.expected());
      images_[key] = v;
    }
    for (const auto& p : op_.params)
      if (p.type == "image" && images_.find(p.name) == images_.end())
        fail(kInvalid, op_.name, "input image '" + p.name + "' is required", "no " + p.name,
             p.name + "=<an image>");
  }
  const ImageView& image(const std::string& name) const { return images_.at(name); }

  int i(const std::string& name) const {
    return static_cast<int>(std::get<std::int64_t>(value(name)));
  }
  double f(const std::string& name) const { return std::get<double>(value(name)); }
  bool b(const std::string& name) const { return std::get<bool>(value(name)); }
  std::string e(const std::string& name) const { return std::get<std::string>(value(name)); }
  std::vector<double> fs(const std::string& name) const {
    return std::get<std::vector<double>>(value(name));
  }

  // "key=value" as given, for messages.
  std::string given(const std::string& name) const {
    const auto it = shown_.find(name);
    return it == shown_.end() ? name + " not given" : name + "=" + it->second;
  }

  // The parameters interp, border, border_value, precision, path.
  Sampling sampling() const {
    Sampling s;
    s.interp = parse_interp(e("interp"));
    s.border = parse_border(e("border"));
    s.border_value = border_value();
    s.precision = parse_precision(e("precision"));
    s.path = parse_path(e("path"));
    return s;
  }

  std::array<double, 4> border_value() const {
    const auto v = fs("border_value");
    std::array<double, 4> out{0, 0, 0, 0};
    if (v.size() == 1) {
      out.fill(v[0]);
    } else {
      for (std::size_t c = 0; c < v.size() && c < 4; ++c) out[c] = v[c];
    }
    return out;
  }

 private:
  const ParamSpec& declared(const std::string& key, const std::string& shown) const {
    const ParamSpec* spec = op_.find(key);
    if (spec == nullptr) {
      std::vector<std::string> names;
      for (const auto& p : op_.params) names.push_back(p.name);
      fail(kInvalid, op_.name, "parameter '" + key + "' is unknown", key + "=" + shown,
           "one of " + join(names, ", "));
    }
    return *spec;
  }

  void check_required() const {
    for (const auto& p : op_.params)
      if (p.required && p.type != "image" && values_.find(p.name) == values_.end())
        fail(kInvalid, op_.name, "parameter '" + p.name + "' is required", "no " + p.name,
             p.name + "=<" + p.expected() + ">");
  }

  // The given value, or the declared default (parsed from its text).
  ParamValue value(const std::string& name) const {
    if (const auto it = values_.find(name); it != values_.end()) return it->second;
    const ParamSpec* spec = op_.find(name);
    return spec ? default_value(*spec) : ParamValue(std::string());
  }

  static ParamValue default_value(const ParamSpec& p) {
    const std::string& d = p.default_value;
    if (p.type == "int") return static_cast<std::int64_t>(parse_integer(d).value_or(0));
    if (p.type == "float") return parse_number(d).value_or(0.0);
    if (p.type == "bool") return parse_boolean(d).value_or(false);
    if (p.type == "floats") return parse_numbers(d).value_or(std::vector<double>{});
    return d;
  }

  [[noreturn]] void bad_value(const ParamSpec& p, const std::string& got) const {
    fail(kInvalid, op_.name, "parameter '" + p.name + "' has a bad value", got, p.expected());
  }

  void check_range(const ParamSpec& p, double number, const std::string& got) const {
    if (p.min && (number < *p.min || (p.min_exclusive && number == *p.min)))
      fail(kInvalid, op_.name, "parameter '" + p.name + "' is out of range", got, p.expected());
  }

  void check_count(const ParamSpec& p, std::size_t count, const std::string& got) const {
    const int n = static_cast<int>(count);
    if (n < p.min_count || n > p.max_count)
      fail(kInvalid, op_.name, "parameter '" + p.name + "' has the wrong number of values",
           got + " (" + std::to_string(n) + (n == 1 ? " number)" : " numbers)"), p.expected());
  }

  ParamValue parse_text(const ParamSpec& p, const std::string& raw) const {
    const std::string_view v = trim(raw);
    const std::string got = p.name + "=" + raw;
    if (p.type == "int") {
      const auto x = parse_integer(v);
      if (!x) bad_value(p, got);
      check_range(p, *x, got);
      return static_cast<std::int64_t>(*x);
    }
    if (p.type == "float") {
      const auto x = parse_number(v);
      if (!x) bad_value(p, got);
      check_range(p, *x, got);
      return *x;
    }
    if (p.type == "bool") {
      const auto x = parse_boolean(v);
      if (!x) bad_value(p, got);
      return *x;
    }
    if (p.type == "enum") {
      if (std::find(p.choices.begin(), p.choices.end(), v) == p.choices.end()) bad_value(p, got);
      return std::string(v);
    }
    const auto x = parse_numbers(v);  // floats
    if (!x) bad_value(p, got);
    check_count(p, x->size(), got);
    return *x;
  }

  ParamValue convert(const ParamSpec& p, const ParamValue& v, const std::string& shown) const {
    const std::string got = p.name + "=" + shown;
    if (p.type == "int") {
      const auto* x = std::get_if<std::int64_t>(&v);
      if (x == nullptr || *x < std::numeric_limits<int>::min() ||
          *x > std::numeric_limits<int>::max())
        bad_value(p, got);
      check_range(p, static_cast<double>(*x), got);
      return *x;
    }
    if (p.type == "float") {
      double x = 0;
      if (const auto* d = std::get_if<double>(&v))
        x = *d;
      else if (const auto* n = std::get_if<std::int64_t>(&v))
        x = static_cast<double>(*n);
      else
        bad_value(p, got);
      if (!std::isfinite(x)) bad_value(p, got);
      check_range(p, x, got);
      return x;
    }
    if (p.type == "bool") {
      if (const auto* b = std::get_if<bool>(&v)) return *b;
      if (const auto* n = std::get_if<std::int64_t>(&v); n && (*n == 0 || *n == 1)) return *n == 1;
      bad_value(p, got);
    }
    if (p.type == "enum") {
      if (const auto* s = std::get_if<std::string>(&v)) return *s;
      bad_value(p, got);
    }
    if (p.type == "image") bad_value(p, got);  // an image comes through set_images
    // floats: a list, or one number
    std::vector<double> xs;
    if (const auto* l = std::get_if<std::vector<double>>(&v))
      xs = *l;
    else if (const auto* d = std::get_if<double>(&v))
      xs = {*d};
    else if (const auto* n = std::get_if<std::int64_t>(&v))
      xs = {static_cast<double>(*n)};
    else
      bad_value(p, got);
    for (double x : xs)
      if (!std::isfinite(x)) bad_value(p, got);
    check_count(p, xs.size(), got);
    return xs;
  }

  const OpSpec& op_;
  std::map<std::string, ParamValue> values_;  // typed, as given
  std::map<std::string, std::string> shown_;  // as given, for messages
  std::map<std::string, ImageView> images_;
  bool into_ = false;
};

// ---- The operations ------------------------------------------------------------------------

struct OpEntry {
  OpSpec spec;
  // The checks beyond each value's own (type, range, choices) that need no image: exclusive
  // groups, and the operation's rules that the C++ API also checks before it reads an image
  // (src/core/param_checks.hpp: one function for both); may be empty.
  // Naming::step for a pipeline step's messages, Naming::api for a typed caller's (the C++ API's).
  std::function<void(const Args&, detail::Naming)> check;
  // The output size for a w x h source.
  std::function<Rect(const Args&, int w, int h)> size;
  // The output's element type and channels, given the source's in `type` and `channels`; empty:
  // the output has the source's (geometry, filters).
  std::function<void(const Args&, ElemType& type, int& channels)> format;
  // Runs the operation through the public API; dst has the size from `size` and the type and
  // channels from `format`.
  std::function<void(const Args&, const ImageView& src, const ImageView& dst, void* stream)> run;
  // Output "image_value" (spec.output): the run, returning the op's number (threshold's level);
  // `run` is made from it.
  std::function<double(const Args&, const ImageView& src, const ImageView& dst, void* stream)>
      run_value;
  // Output "counts" (histogram): the counts per channel of src; no size, format or run.
  std::function<std::vector<std::vector<std::uint64_t>>(const Args&, const ImageView& src,
                                                        void* stream)>
      run_counts;
};

inline std::string size_text(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// n * factor rounded to nearest, ties to even, as cv::resize computes its output size.
inline int scaled(int n, double factor) {
  const double v = std::nearbyint(static_cast<double>(n) * factor);
  return v > 1e9 ? 1000000000 : static_cast<int>(v);
}

inline void check_size(const Args& a, Rect r, int w, int h, const std::string& given) {
  if (r.width < 1 || r.height < 1)
    fail(kInvalid, a.op(), "the output size is empty",
         given + " on a " + size_text(w, h) + " image gives " + size_text(r.width, r.height),
         "an output of at least 1x1");
}

// Operations whose output has the source's size (the filters, the colour ops).
inline Rect same_size(const Args&, int w, int h) {
  return Rect{0, 0, w, h};
}

}  // namespace texcv::reg
