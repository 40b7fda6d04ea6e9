// texcv::Pipeline (include/texcv/pipeline.hpp): registry steps over images in memory, with
// intermediate buffers kept between calls and, on the GPU, a list's steps in batched launches.
#include "texcv/pipeline.hpp"

#include <algorithm>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "src/core/backends.hpp"
#include "src/core/cuda_call.hpp"
#include "texcv/error.hpp"

namespace texcv {

namespace {

std::string step_prefix(const PipelineStep& s) {
  return "step " + std::to_string(s.index) + " (" + s.name + "): ";
}

std::string format_text(const OutputFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + "x" +
         std::to_string(f.channels) + " " + to_string(f.type);
}

// Runs f(); an Error it throws gets prefix() in front of its message (its code kept), and a
// failed allocation becomes Error(OutOfMemory). The prefix is made only on a failure: run_steps
// calls this for every image and step.
template <class P, class F>
void prefixed(P&& prefix, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    throw Error(e.code(), prefix() + e.what());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::OutOfMemory, prefix() + "out of memory (an allocation failed)");
  }
}

// "image I: " in a list of several images, "" for one.
std::string image_prefix(std::size_t i, std::size_t n) {
  return n > 1 ? "image " + std::to_string(i) + ": " : "";
}

}  // namespace

Pipeline::Pipeline(std::string_view text) : steps_(parse_pipeline(text)) {}

Pipeline::Pipeline(std::vector<PipelineStep> steps) : steps_(std::move(steps)) {
  if (steps_.empty())
    fail(ErrorCode::InvalidArgument, "pipeline", "it has no steps", "none",
         "at least one step, such as \"resize:scale=0.5\"");
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    PipelineStep& s = steps_[i];
    if (s.index == 0) s.index = static_cast<int>(i) + 1;
    prefixed([&] { return step_prefix(s); }, [&] { validate(s.name, s.params); });
  }
}

std::string Pipeline::text() const {
  std::string t;
  for (const PipelineStep& s : steps_) {
    if (!t.empty()) t += ';';
    if (!s.text.empty()) {
      t += s.text;
      continue;
    }
    t += s.name;  // steps built by hand: name:key=value,...
    char sep = ':';
    for (const auto& [key, value] : s.params) {
      t += sep + key + "=" + value;
      sep = ',';
    }
  }
  return t;
}

// Every step's output format on src: each step is validated on a view of the shape the previous
// step gives (its pixels are not read).
std::vector<OutputFormat> Pipeline::formats(const ImageView& src) const {
  std::vector<OutputFormat> out;
  out.reserve(steps_.size());
  ImageView cur = src;
  for (const PipelineStep& s : steps_) {
    OutputFormat f;
    prefixed([&] { return step_prefix(s); },
             [&] { f = texcv::output_format(s.name, cur, s.params); });
    out.push_back(f);
    cur.width = f.width;
    cur.height = f.height;
    cur.channels = f.channels;
    cur.type = f.type;
    cur.pitch = cur.row_bytes();
  }
  return out;
}

OutputFormat Pipeline::output_format(const ImageView& src) const {
  return formats(src).back();
}

// A view of format f in buf, reallocated (in `loc`) only when too small: its rows are bytes, so
// one buffer serves every element type and channel count.
ImageView Pipeline::fit(Image& buf, const OutputFormat& f, Location loc) {
  const std::size_t row =
      static_cast<std::size_t>(f.width) * static_cast<std::size_t>(f.channels) * elem_size(f.type);
  if (buf.data() == nullptr || buf.location() != loc || buf.pitch() < row ||
      buf.height() < f.height) {
    // Rows rounded up to 64 bytes (every element type's alignment), and never smaller than
    // before: sizes that alternate settle on one buffer.
    const std::size_t keep = buf.data() != nullptr && buf.location() == loc ? buf.pitch() : 0;
    const std::size_t bytes = (std::max(row, keep) + 63) / 64 * 64;
    const int rows = std::max(f.height, buf.data() != nullptr ? buf.height() : 0);
    buf = Image();  // the old buffer goes first
    buf = Image(static_cast<int>(bytes), rows, 1, ElemType::u8, loc);
  }
  ImageView v;
  v.data = buf.data();
  v.width = f.width;
  v.height = f.height;
  v.channels = f.channels;
  v.type = f.type;
  v.pitch = buf.pitch();
  v.location = loc;
  return v;
}

void Pipeline::check_dst(const ImageView& src, const ImageView& dst, const OutputFormat& f) const {
  const OutputFormat got{dst.width, dst.height, dst.channels, dst.type};
  if (got.width != f.width || got.height != f.height || got.channels != f.channels ||
      got.type != f.type)
    fail(ErrorCode::InvalidArgument, "pipeline", "the destination is not the pipeline's output",
         format_text(got), format_text(f) + " (output_format of the source)");
  if (dst.location != src.location)
    fail(ErrorCode::InvalidArgument, "pipeline",
         "the destination is not where the source is (no copies between host and device here)",
         to_string(dst.location), to_string(src.location));
}

Image Pipeline::run(const ImageView& src, void* stream) {
  return std::move(run(std::vector<ImageView>{src}, stream).front());
}

void Pipeline::run_into(const ImageView& src, const ImageView& dst, void* stream) {
  run_into(std::vector<ImageView>{src}, std::vector<ImageView>{dst}, stream);
}

// Every image's step formats, each failure prefixed "image I: " in a list of several; with
// dsts, each destination checked against its source's output.
std::vector<std::vector<OutputFormat>> Pipeline::list_formats(
    const std::vector<ImageView>& srcs, const std::vector<ImageView>* dsts) const {
  const std::size_t n = srcs.size();
  std::vector<std::vector<OutputFormat>> fmt(n);
  for (std::size_t i = 0; i < n; ++i) {
    prefixed([&] { return image_prefix(i, n); },
             [&] {
               if (srcs[i].location != srcs[0].location)
                 fail(ErrorCode::InvalidArgument, "pipeline",
                      "the images are not all in one location", to_string(srcs[i].location),
                      std::string(to_string(srcs[0].location)) + " (as image 0)");
               fmt[i] = formats(srcs[i]);
               if (dsts) check_dst(srcs[i], (*dsts)[i], fmt[i].back());
             });
  }
  return fmt;
}

std::vector<Image> Pipeline::run(const std::vector<ImageView>& srcs, void* stream) {
  const std::vector<std::vector<OutputFormat>> fmt = list_formats(srcs, nullptr);
  std::vector<Image> outs;
  outs.reserve(srcs.size());
  std::vector<ImageView> dsts;
  for (std::size_t i = 0; i < srcs.size(); ++i) {
    const OutputFormat& f = fmt[i].back();
    outs.emplace_back(f.width, f.height, f.channels, f.type, srcs[i].location);
    dsts.push_back(outs.back().view());
  }
  run_steps(srcs, dsts, fmt, stream);
  return outs;
}

void Pipeline::run_into(const std::vector<ImageView>& srcs, const std::vector<ImageView>& dsts,
                        void* stream) {
  if (srcs.size() != dsts.size())
    fail(ErrorCode::InvalidArgument, "pipeline", "one destination per source is needed",
         std::to_string(dsts.size()) + " destinations", std::to_string(srcs.size()));
  run_steps(srcs, dsts, list_formats(srcs, &dsts), stream);
}

void Pipeline::run_steps(const std::vector<ImageView>& srcs, const std::vector<ImageView>& dsts,
                         const std::vector<std::vector<OutputFormat>>& fmt, void* stream) {
  const std::size_t n = srcs.size();
  if (n == 0) return;
  const Location loc = srcs[0].location;
  if (scratch_.size() < n) scratch_.resize(n);
  std::vector<ImageView> cur(srcs);
  std::vector<int> in_buf(n, -1);  // the scratch buffer cur[i] lies in (-1: the source)
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const PipelineStep& s = steps_[k];
    const bool last = k + 1 == steps_.size();
    const auto one = [&](std::size_t i) {
      prefixed([&] { return image_prefix(i, n) + step_prefix(s); },
               [&] {
                 if (s.name == "crop") {  // a view, no copy (as texcv batch's workers)
                   const Rect r = output_size(s.name, cur[i].width, cur[i].height, s.params);
                   cur[i] = cur[i].roi(r);
                   if (last) copy(cur[i], dsts[i], stream);
                   return;
                 }
                 const int next = in_buf[i] == 0 ? 1 : 0;
                 const ImageView out = last ? dsts[i] : fit(scratch_[i].buf[next], fmt[i][k], loc);
                 apply_into(s.name, cur[i], out, s.params, stream);
                 cur[i] = out;
                 in_buf[i] = last ? -1 : next;
               });
    };
    if (loc == Location::device && n > 1 && TEXCV_CUDA_OR(false, cuda::batchable_op(s.name))) {
      // Each image's call is made (and checked) as alone; the kernels launch once per step.
      TEXCV_CUDA("Pipeline", cuda::run_batched(stream, [&] {
                   for (std::size_t i = 0; i < n; ++i) one(i);
                 }));
    } else {
      for (std::size_t i = 0; i < n; ++i) one(i);
    }
  }
}

}  // namespace texcv
