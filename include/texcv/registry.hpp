// The operation registry: each operation declares its name and parameters once; the texcv
// command and the Python package are driven from it: listing, parsing, validation and help, and
// Python's functions (texcv._ops makes op and op_into from each spec at import). Names are those
// of the C++ API (include/texcv/geometry.hpp).
//
// Values are typed (ParamValue); a pipeline step's text is parsed once, at the front end. Types
// and their text:
//   int     a decimal integer                      width=300
//   float   a finite decimal number                 scale=0.5
//   bool    true|false (also 1|0, yes|no, on|off)   expand=true
//   enum    one of the listed choices               interp=area
//   floats  numbers separated by '|' (or spaces)    m=1|0|10|0|1|20
//   image   an input image beside the source (remap's maps): no text, so not in pipelines
// A list uses '|' because ',' separates the parameters of a pipeline step.
//
// Pipeline text (texcv run -p, Python): steps separated by ';', each "name" or
// "name:key=value,key=value", e.g. "rotate:angle=30;resize:scale=0.5,interp=area".
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "texcv/image.hpp"

namespace texcv {

struct ParamSpec {
  std::string name;
  std::string type;           // "int", "float", "bool", "enum", "floats", "image"
  std::string default_value;  // as text; "" when required or when derived (help says how)
  std::string help;
  std::vector<std::string> choices;  // for "enum"
  bool required = false;
  int min_count = 1, max_count = 1;  // for "floats": how many numbers are accepted
  std::optional<double> min;         // for "int", "float": smallest accepted value
  bool min_exclusive = false;        // min itself is not accepted (scale > 0)
  // Python: a positional-or-keyword argument (the positional ones come first, in declaration
  // order); the others are keyword-only.
  bool positional = false;
  // Sets the output's size (resize's scale/width/height, a warp's width/height, rotate's expand,
  // crop's width/height): not a parameter of Python's <op>_into, whose destination's size is the
  // output's.
  bool shapes_output = false;
  // Python: an element type given as a numpy dtype (np.float32, "uint16") in an argument named
  // dtype (convert's type: "u8", "u16", "f32").
  bool numpy_dtype = false;
  // What a value must look like, for messages and listings: "a number > 0", "one of a, b",
  // "6 numbers separated by '|'".
  std::string expected() const;
};

struct OpSpec {
  std::string name;
  std::string summary;  // one line (texcv ops)
  // The longer description: the Python function's docstring (with its accuracy), before the
  // parameters' section made from `params`.
  std::string doc;
  std::vector<ParamSpec> params;
  // The output may be float32 whatever the source's type (OpenCV's ddepth = CV_32F): Python's
  // dtype="float32", a float32 destination in C++. Otherwise its type is the source's (or the
  // op's own rule: convert's type).
  bool float_output = false;
  // The output always has the source's size, channels and element type (the filters, gamma...).
  bool keeps_format = false;
  // What a call gives back: "image" (the output image), "image_value" (the image and a number:
  // threshold's level), "counts" (no image: counts per channel, histogram's).
  std::string output = "image";
  // A pipeline step may name it; false for remap (a pipeline cannot give its maps) and histogram
  // (no image out). Those are in api_operations() only.
  bool pipeline = true;
  const ParamSpec* find(std::string_view param) const noexcept;
};

// Parameter values as text (the pipeline's front end: "ksize=5").
using ParamValues = std::map<std::string, std::string>;

// A parameter's value as a typed caller gives it (the Python package, C++): a bool, an integer,
// a number, a name (a choice) or numbers (a list; a matrix row by row). A number may be given as
// an integer, one number for a list of numbers, and 0 or 1 for a bool.
using ParamValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;
using TypedParams = std::map<std::string, ParamValue>;
// The value as a pipeline step writes it ("0.5", "true", "1|0|2"), for messages.
std::string value_text(const ParamValue& v);

// All operations usable in a pipeline, in a stable order.
const std::vector<OpSpec>& operations();
// Every operation of the typed API (the Python package): operations(), then those no pipeline
// step can name (remap, histogram).
const std::vector<OpSpec>& api_operations();
// The operation called name; throws Error(InvalidArgument) listing the known names.
const OpSpec& find_operation(std::string_view name);
// The operation called name among api_operations() (also remap, histogram).
const OpSpec& find_api_operation(std::string_view name);

// Checks everything that does not depend on an image: the operation exists, every key is known,
// every value parses and is in range, required parameters are present, exclusive parameters are
// not mixed, and the operation's own rules that need no image hold (an odd kernel size, a
// derivative order that is not zero, an anchor inside the kernel, a kernel size that gaussian_blur
// can derive, an invertible warp matrix, ...: the same checks the C++ API makes before it reads
// the image). Throws Error(InvalidArgument) "<op>: parameter '<key>' ...; got <key>=<value>,
// expected ..." (Error(Unsupported) for a combination the operation does not implement:
// resize's align_corners with interp=area). What depends on the image (a crop outside it, an
// element type or channel count the operation does not take) is found when it runs.
void validate(std::string_view name, const ParamValues& params);

// The size of the output of operation `name` on a src_width x src_height image (validates).
Rect output_size(std::string_view name, int src_width, int src_height, const ParamValues& params);

// The output of operation `name` on src: its size, channels and element type (validates the
// parameters and src, as apply does).
struct OutputFormat {
  int width = 0, height = 0, channels = 0;
  ElemType type = ElemType::u8;
};
OutputFormat output_format(std::string_view name, const ImageView& src, const ParamValues& params);

// Runs operation `name` on src into dst, which must have the output_format (same location as
// src, any pitch, not overlapping src): what a caller that keeps its own buffers uses (the
// batch workers). A dst of another size, type or channel count throws Error(InvalidArgument)
// "<op>: destination ...; got ..., expected ...".
void apply_into(std::string_view name, const ImageView& src, const ImageView& dst,
                const ParamValues& params, void* stream = nullptr);

// Typed values (the Python package): each is checked as the operation declares it (type, range,
// count; unknown keys and missing required ones, with the step's messages), a choice by the
// enum's own parser where the operation reads it (parse_interp...), and the operation's own rules
// (an odd kernel size...) with the C++ API's names ("median_blur: ksize must be odd; got 4, ..."),
// as a direct call of its function would; run_into's destination by that function. run_into's
// destination gives the output size: resize then needs none of scale, width, height.
// `images`: the op's input images beside src ("image" parameters: remap's map_x and map_y), by
// name. run_into returns the op's number for output "image_value" (threshold's level), else 0.
// These take every op of api_operations().
using TypedImages = std::map<std::string, ImageView>;
OutputFormat typed_output_format(std::string_view name, const ImageView& src,
                                 const TypedParams& params, const TypedImages& images = {});
double run_into(std::string_view name, const ImageView& src, const ImageView& dst,
                const TypedParams& params, void* stream = nullptr, const TypedImages& images = {});
// An op of output "counts" (histogram): its counts, one vector per channel of src.
std::vector<std::vector<std::uint64_t>> run_counts(std::string_view name, const ImageView& src,
                                                   const TypedParams& params,
                                                   void* stream = nullptr);

// Runs operation `name` on src with the given textual parameters and returns a new image in
// src's location. Unknown keys, bad values and missing required parameters throw
// Error(InvalidArgument) naming the parameter, the value and what was expected.
Image apply(std::string_view name, const ImageView& src, const ParamValues& params,
            void* stream = nullptr);

// One step of a pipeline text, with where it stands in the text (for carets in messages).
struct PipelineStep {
  std::string name;
  ParamValues params;
  std::string text;        // the step as written, trimmed
  std::size_t offset = 0;  // of `text` in the whole pipeline text
  int index = 0;           // 1-based
};

// Splits a pipeline text into steps (';'), keeping each step's text and offset; empty steps
// (";;", a trailing ';') are dropped. Does not parse the steps.
std::vector<PipelineStep> split_pipeline(std::string_view text);
// Parses step.text into step.name and step.params and validates them. Throws
// Error(InvalidArgument) with the reason (without the step prefix, see describe_step).
void parse_step(PipelineStep& step);
// "pipeline step 2 \"resiz:scale=0.5\"", the prefix of messages about a step.
std::string describe_step(const PipelineStep& step);
// split_pipeline + parse_step for every step; a failure throws Error(InvalidArgument)
// "pipeline step N \"text\": <reason>". An empty pipeline is an error.
std::vector<PipelineStep> parse_pipeline(std::string_view text);

// Pipeline bounds: the size of every step's output when the pipeline runs on a width x height
// image, computed from the parameters alone (output_size, step by step) before any pixel is
// allocated. Throws Error(InvalidArgument) at the first step whose output would have more than
// max_pixels pixels (0: no limit): "step N (name): its output would be WxH pixels (from a wxh
// input), more than the pixel cap (--max-pixels); got P pixels, expected at most M". A step whose
// size cannot be computed on that image (a crop outside it) throws output_size's error with the
// same "step N (name): " prefix, as running it would. texcv run and the batch engine check every
// file with it once its header is read (texcv::batch::Options::max_pixels).
void check_pipeline_size(const std::vector<PipelineStep>& steps, int width, int height,
                         std::uint64_t max_pixels);

}  // namespace texcv
