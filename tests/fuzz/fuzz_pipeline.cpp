// libFuzzer target: the pipeline parser (include/texcv/registry.hpp) and the plan-time answers
// that need no pixels. The input is pipeline text, as given to texcv run -p / batch -p.
// Checked besides "no crash, no leak, only texcv::Error":
// - split_pipeline: each step's text is the trimmed text at its offset, indices count from 1;
// - a pipeline that parses, written back as name:key=value,... (';' between steps), parses to
//   the same names and parameters;
// - output_size, chained from 64x48, gives positive sizes, and output_format on an image of
//   that size agrees with it.
// Steps are not run: what a step costs on pixels (a 40000x40000 resize, 1000 iterations of a
// 255-wide erode) is bounded at plan time by the engine, not by the parser.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_common.hpp"
#include "texcv/error.hpp"
#include "texcv/image.hpp"
#include "texcv/registry.hpp"

namespace {

using texcv::fuzz::broken;

std::string write_back(const std::vector<texcv::PipelineStep>& steps) {
  std::string s;
  for (const auto& step : steps) {
    if (!s.empty()) s += ';';
    s += step.name;
    char sep = ':';
    for (const auto& [k, v] : step.params) {
      s += sep;
      s += k;
      s += '=';
      s += v;
      sep = ',';
    }
  }
  return s;
}

// Memory behind the views given to output_format (never read: output_format looks at the shape).
alignas(64) unsigned char g_pixels[64 * 48 * 4 * 4];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;  // longer texts add nothing a shorter one does not
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const std::vector<texcv::PipelineStep> split = texcv::split_pipeline(text);
  for (std::size_t i = 0; i < split.size(); ++i) {
    const auto& s = split[i];
    if (s.index != static_cast<int>(i) + 1) broken("split_pipeline: step indices");
    if (s.text.empty() || s.offset > text.size() || text.substr(s.offset, s.text.size()) != s.text)
      broken("split_pipeline: a step's text is not the text at its offset");
    (void)texcv::describe_step(s);
  }

  std::vector<texcv::PipelineStep> steps;
  try {
    steps = texcv::parse_pipeline(text);
  } catch (const texcv::Error& e) {
    if (e.code() != texcv::ErrorCode::InvalidArgument && e.code() != texcv::ErrorCode::Unsupported)
      broken("parse_pipeline: an error code other than InvalidArgument/Unsupported:", e.what());
    return 0;
  }
  if (steps.size() != split.size()) broken("parse_pipeline and split_pipeline: step counts");

  const std::string again = write_back(steps);
  try {
    const auto steps2 = texcv::parse_pipeline(again);
    if (steps2.size() != steps.size()) broken("written back: step count", again.c_str());
    for (std::size_t i = 0; i < steps.size(); ++i)
      if (steps2[i].name != steps[i].name || steps2[i].params != steps[i].params)
        broken("written back: a step parses differently:", again.c_str());
  } catch (const texcv::Error& e) {
    broken("written back, the pipeline no longer parses:", (again + " | " + e.what()).c_str());
  }

  int w = 64, h = 48;
  texcv::ImageView src{g_pixels, w, h, 3, texcv::ElemType::u8, 0, texcv::Location::host};
  src.pitch = src.row_bytes();
  bool with_format = true;
  for (const auto& step : steps) {
    texcv::Rect r;
    try {
      r = texcv::output_size(step.name, w, h, step.params);
    } catch (const texcv::Error&) {
      break;  // what depends on the image (a crop outside it, a size too large) is refused here
    }
    if (r.width <= 0 || r.height <= 0) broken("output_size: a size that is not positive");
    if (with_format) {
      try {
        const texcv::OutputFormat f = texcv::output_format(step.name, src, step.params);
        if (f.width != r.width || f.height != r.height)
          broken("output_format's size differs from output_size's:", step.text.c_str());
        src.width = f.width;
        src.height = f.height;
        src.channels = f.channels;
        src.type = f.type;
        src.pitch = src.row_bytes();
        with_format = src.pitch * static_cast<std::size_t>(src.height) <= sizeof(g_pixels);
      } catch (const texcv::Error&) {
        with_format = false;  // a type or channel count the step does not take
      }
    }
    w = r.width;
    h = r.height;
  }
  return 0;
}
