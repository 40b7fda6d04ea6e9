// The operation registry (include/texcv/registry.hpp): parsing, validation, listing and pipelines.
// Each operation declares itself in its own file, src/core/ops/<op>.cpp (its parameters, its
// rule, its size and format, and a runner that calls its public C++ entry point defined there
// too); this file gathers them (op_spec.hpp's OpEntry) and reads them for every layer.
#include "texcv/registry.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "src/core/op_spec.hpp"
#include "src/core/param_checks.hpp"
#include "texcv/color.hpp"
#include "texcv/error.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"
#include "texcv/morphology.hpp"

namespace texcv {

using namespace reg;  // NOLINT: the registry's own internals (op_spec.hpp)

// Every operation declares itself in its own file (src/core/ops/<op>.cpp), listed by CMake
// (texcv_op_list.inc: one TEXCV_OP(<op>) line per file).
namespace reg {
#define TEXCV_OP(name) void declare_##name(std::vector<OpEntry>& ops);
#include "texcv_op_list.inc"
#undef TEXCV_OP
}  // namespace reg

namespace {

// The listing order (texcv ops, the docs, the "expected one of" of messages): by area as
// docs/cli.md groups them; an operation not named here (a new one) follows, by name, and the ops
// no pipeline can name (remap, histogram) come last.
constexpr std::string_view kListing =
    " resize warp_affine warp_perspective rotate flip crop convolve separable_filter gaussian_blur"
    " box_filter sharpen unsharp_mask sobel scharr laplacian erode dilate morphology median_blur"
    " bilateral_filter cvt_color gamma normalize convert threshold equalize_hist clahe invert ";

// Every operation (api_operations' order): the pipeline ones first.
const std::vector<OpEntry>& entries() {
  static const std::vector<OpEntry> kEntries = [] {
    std::vector<OpEntry> v;
#define TEXCV_OP(name) reg::declare_##name(v);
#include "texcv_op_list.inc"
#undef TEXCV_OP
    const auto rank = [](const OpEntry& e) {
      std::string key(" ");
      key.append(e.spec.name).append(" ");
      return std::pair{!e.spec.pipeline, kListing.find(key)};  // npos (not listed): last
    };
    std::sort(v.begin(), v.end(), [&rank](const OpEntry& a, const OpEntry& b) {
      const auto ra = rank(a), rb = rank(b);
      return ra != rb ? ra < rb : a.spec.name < b.spec.name;
    });
    for (OpEntry& e : v) {
      using SizeFn = Rect (*)(const Args&, int, int);
      const SizeFn* size = e.size.target<SizeFn>();
      e.spec.keeps_format = !e.format && size != nullptr && *size == &same_size;
      if (e.run_value && !e.run)
        e.run = [f = e.run_value](const Args& a, const ImageView& src, const ImageView& dst,
                                  void* stream) { f(a, src, dst, stream); };
    }
    return v;
  }();
  return kEntries;
}

std::string operation_names(bool api) {
  std::vector<std::string> names;
  for (const auto& e : entries())
    if (api || e.spec.pipeline) names.push_back(e.spec.name);
  return join(names, ", ");
}

const OpEntry* find_entry(std::string_view name, bool api = false) noexcept {
  for (const auto& e : entries())
    if (e.spec.name == name && (api || e.spec.pipeline)) return &e;
  return nullptr;
}

// A pipeline operation (api: any operation of the typed API).
const OpEntry& entry(std::string_view name, bool api = false) {
  const OpEntry* e = find_entry(name, api);
  if (e == nullptr)
    fail(kInvalid, "registry", "unknown operation", "'" + std::string(name) + "'",
         "one of " + operation_names(api));
  return *e;
}

// Validated arguments of one call (keys, values, exclusive groups).
Args checked_args(const OpEntry& e, const ParamValues& params) {
  Args a(e.spec, params);
  if (e.check) e.check(a, kStep);
  return a;
}

}  // namespace

std::string value_text(const ParamValue& v) {
  struct Text {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t n) const { return std::to_string(n); }
    std::string operator()(double d) const { return number_text(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<double>& xs) const {
      std::string out;
      for (std::size_t k = 0; k < xs.size(); ++k) {
        if (k > 0) out += '|';
        out += number_text(xs[k]);
      }
      return out;
    }
  };
  return std::visit(Text{}, v);
}

std::string ParamSpec::expected() const {
  std::string bound;
  if (min) bound = std::string(min_exclusive ? " > " : " >= ") + number_text(*min);
  if (type == "int") return "an integer" + bound;
  if (type == "float") return "a number" + bound;
  if (type == "bool") return "true or false";
  if (type == "enum") return "one of " + join(choices, ", ");
  if (type == "image") return "an image";
  if (type == "floats") {
    const std::string count = min_count == max_count
                                  ? std::to_string(min_count)
                                  : std::to_string(min_count) + " to " + std::to_string(max_count);
    return count + (max_count == 1 ? " number" : " numbers separated by '|'");
  }
  return type;
}

const ParamSpec* OpSpec::find(std::string_view param) const noexcept {
  for (const auto& p : params)
    if (p.name == param) return &p;
  return nullptr;
}

const std::vector<OpSpec>& operations() {
  static const std::vector<OpSpec> kOps = [] {
    std::vector<OpSpec> v;
    for (const auto& e : entries())
      if (e.spec.pipeline) v.push_back(e.spec);
    return v;
  }();
  return kOps;
}

const std::vector<OpSpec>& api_operations() {
  static const std::vector<OpSpec> kOps = [] {
    std::vector<OpSpec> v;
    for (const auto& e : entries()) v.push_back(e.spec);
    return v;
  }();
  return kOps;
}

const OpSpec& find_operation(std::string_view name) {
  return entry(name).spec;
}

const OpSpec& find_api_operation(std::string_view name) {
  return entry(name, true).spec;
}

void validate(std::string_view name, const ParamValues& params) {
  checked_args(entry(name), params);
}

Rect output_size(std::string_view name, int src_width, int src_height, const ParamValues& params) {
  const OpEntry& e = entry(name);
  const Args a = checked_args(e, params);
  return e.size(a, src_width, src_height);
}

namespace {

OutputFormat format_of(const OpEntry& e, const Args& a, const ImageView& src) {
  validate_view(src, e.spec.name.c_str(), "source");
  const Rect r = e.size(a, src.width, src.height);
  OutputFormat f{r.width, r.height, src.channels, src.type};
  if (e.format) e.format(a, f.type, f.channels);
  return f;
}

}  // namespace

OutputFormat output_format(std::string_view name, const ImageView& src, const ParamValues& params) {
  const OpEntry& e = entry(name);
  return format_of(e, checked_args(e, params), src);
}

void apply_into(std::string_view name, const ImageView& src, const ImageView& dst,
                const ParamValues& params, void* stream) {
  const OpEntry& e = entry(name);
  const Args a = checked_args(e, params);
  const OutputFormat f = format_of(e, a, src);
  const char* op = e.spec.name.c_str();
  validate_view(dst, op, "destination");
  if (dst.width != f.width || dst.height != f.height)
    fail(ErrorCode::InvalidArgument, op, "destination size differs from the output's",
         size_text(dst.width, dst.height), size_text(f.width, f.height));
  if (dst.channels != f.channels || dst.type != f.type)
    fail(ErrorCode::InvalidArgument, op, "destination format differs from the output's",
         std::to_string(dst.channels) + " channel(s) of " + std::string(to_string(dst.type)),
         std::to_string(f.channels) + " channel(s) of " + std::string(to_string(f.type)));
  if (dst.location != src.location)
    fail(ErrorCode::InvalidArgument, op, "destination location differs from the source's",
         to_string(dst.location), to_string(src.location));
  e.run(a, src, dst, stream);
}

namespace {

// A typed call's values, checked as declared and by the op's rules with the C++ API's names.
Args typed_args(const OpEntry& e, const TypedParams& params, const TypedImages& images,
                bool into = false) {
  Args a(e.spec, params);
  a.set_images(images);
  if (into) a.set_into();
  if (e.check) e.check(a, detail::Naming::api);
  return a;
}

}  // namespace

namespace {

// An op of the typed API that makes an image (not histogram's counts).
const OpEntry& image_entry(std::string_view name) {
  const OpEntry& e = entry(name, true);
  if (!e.run)
    fail(kInvalid, e.spec.name, "gives " + e.spec.output + ", not an image",
         std::string(name) + " as an image op", "run_counts");
  return e;
}

}  // namespace

OutputFormat typed_output_format(std::string_view name, const ImageView& src,
                                 const TypedParams& params, const TypedImages& images) {
  const OpEntry& e = image_entry(name);
  return format_of(e, typed_args(e, params, images), src);
}

double run_into(std::string_view name, const ImageView& src, const ImageView& dst,
                const TypedParams& params, void* stream, const TypedImages& images) {
  const OpEntry& e = image_entry(name);
  const Args a = typed_args(e, params, images, true);
  if (e.run_value) return e.run_value(a, src, dst, stream);
  e.run(a, src, dst, stream);
  return 0.0;
}

std::vector<std::vector<std::uint64_t>> run_counts(std::string_view name, const ImageView& src,
                                                   const TypedParams& params, void* stream) {
  const OpEntry& e = entry(name, true);
  if (!e.run_counts)
    fail(kInvalid, e.spec.name, "makes an image, not counts", std::string(name),
         "an op of output \"counts\" (histogram)");
  return e.run_counts(typed_args(e, params, {}), src, stream);
}

Image apply(std::string_view name, const ImageView& src, const ParamValues& params, void* stream) {
  const OpEntry& e = entry(name);
  const Args a = checked_args(e, params);
  const OutputFormat f = format_of(e, a, src);
  Image dst(f.width, f.height, f.channels, f.type, src.location);
  e.run(a, src, dst.view(), stream);
  return dst;
}

// ---- Pipelines -----------------------------------------------------------------------------

std::vector<PipelineStep> split_pipeline(std::string_view text) {
  std::vector<PipelineStep> steps;
  std::size_t start = 0;
  int index = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    const std::string_view t = trim(raw);
    if (!t.empty()) {
      PipelineStep s;
      s.text = std::string(t);
      s.offset = start + static_cast<std::size_t>(t.data() - raw.data());
      s.index = ++index;
      steps.push_back(std::move(s));
    }
    start = end + 1;
  }
  return steps;
}

void parse_step(PipelineStep& step) {
  const std::string_view text = step.text;
  const std::size_t colon = text.find(':');
  step.name = std::string(trim(text.substr(0, colon)));
  step.params.clear();
  if (step.name.empty())
    throw Error(kInvalid, "the operation name is missing; expected name:key=value,...");
  if (find_entry(step.name) == nullptr)
    throw Error(kInvalid,
                "unknown operation '" + step.name + "'; expected one of " + operation_names(false));
  if (colon != std::string_view::npos) {
    std::string_view rest = text.substr(colon + 1);
    while (true) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = trim(rest.substr(0, comma));
      if (!item.empty()) {
        const std::size_t eq = item.find('=');
        const std::string key(trim(item.substr(0, eq)));
        if (eq == std::string_view::npos)
          throw Error(kInvalid, step.name + ": parameter '" + key + "' has no value; got " + key +
                                    ", expected " + key + "=value");
        if (key.empty())
          throw Error(kInvalid, step.name + ": a parameter has no name; got " + std::string(item) +
                                    ", expected key=value");
        const std::string value(trim(item.substr(eq + 1)));
        const auto [it, inserted] = step.params.emplace(key, value);
        if (!inserted)
          throw Error(kInvalid, step.name + ": parameter '" + key + "' is given twice; got " + key +
                                    "=" + it->second + " and " + key + "=" + value +
                                    ", expected each parameter once");
      }
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  validate(step.name, step.params);
}

std::string describe_step(const PipelineStep& step) {
  return "pipeline step " + std::to_string(step.index) + " \"" + step.text + "\"";
}

std::vector<PipelineStep> parse_pipeline(std::string_view text) {
  auto steps = split_pipeline(text);
  if (steps.empty())
    fail(kInvalid, "pipeline", "no steps", "'" + std::string(text) + "'",
         "steps such as rotate:angle=30;resize:scale=0.5");
  for (auto& s : steps) {
    try {
      parse_step(s);
    } catch (const Error& err) {
      throw Error(err.code(), describe_step(s) + ": " + err.what());
    }
  }
  return steps;
}

void check_pipeline_size(const std::vector<PipelineStep>& steps, int width, int height,
                         std::uint64_t max_pixels) {
  int w = width, h = height;
  for (const PipelineStep& s : steps) {
    const std::string prefix = "step " + std::to_string(s.index) + " (" + s.name + ")";
    Rect r;
    try {
      r = output_size(s.name, w, h, s.params);
    } catch (const Error& e) {
      throw Error(e.code(), prefix + ": " + e.what());
    }
    const std::uint64_t pixels = static_cast<std::uint64_t>(std::max(r.width, 0)) *
                                 static_cast<std::uint64_t>(std::max(r.height, 0));
    if (max_pixels > 0 && pixels > max_pixels)
      fail(kInvalid, prefix,
           "its output would be " + size_text(r.width, r.height) + " pixels (from a " +
               size_text(w, h) + " input), more than the pixel cap (--max-pixels)",
           std::to_string(pixels) + " pixels", "at most " + std::to_string(max_pixels));
    w = r.width;
    h = r.height;
  }
}

}  // namespace texcv
