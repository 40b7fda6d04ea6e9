// A pipeline of registry operations, parsed and validated once, run on images in memory: what
// `texcv run -p` and `texcv batch -p` do to each file, for callers that hold the pixels (the
// Python package's texcv.Pipeline).
//
//   texcv::Pipeline p("resize:scale=0.5;sharpen");
//   texcv::Image small = p.run(img);                  // host in, host out; device in, device out
//   std::vector<texcv::Image> outs = p.run(views);    // a list of images of any sizes
//
// Intermediate images are kept between calls and reused while they are large enough, so a
// pipeline called again and again on images of one size allocates only its outputs (run_into:
// nothing). On the GPU a list runs step by step: each step's kernel is launched once for the
// whole list where the operation supports batched launches (resize, the warps, flip, the
// pointwise colour ops, the linear filters: as the batch engine's GPU workers), with the same
// results as one image at a time. A Pipeline is not thread-safe: one caller at a time (its
// buffers); another one from its steps: Pipeline(p.steps()).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "texcv/image.hpp"
#include "texcv/registry.hpp"

namespace texcv {

class Pipeline {
 public:
  // parse_pipeline(text): throws its Error(InvalidArgument) "pipeline step N \"...\": ...".
  explicit Pipeline(std::string_view text);
  // Steps already parsed (parse_pipeline, split_pipeline + parse_step); none is an error.
  explicit Pipeline(std::vector<PipelineStep> steps);
  // Movable, not copyable (its buffers); Pipeline(p.steps()) makes another one.
  Pipeline(Pipeline&&) noexcept = default;
  Pipeline& operator=(Pipeline&&) noexcept = default;
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const std::vector<PipelineStep>& steps() const noexcept { return steps_; }
  // The steps' texts joined with ';' (the pipeline as it was written, without empty steps).
  std::string text() const;

  // The output of the whole pipeline on src: its size, channels and element type. Validates src
  // and every step on the image it would get; a failure throws the operation's error prefixed
  // "step N (name): ", as texcv run reports it.
  OutputFormat output_format(const ImageView& src) const;

  // Runs every step on src and returns the result, in src's location. Device images run on
  // `stream` (a cudaStream_t; nullptr: the legacy default stream) and the call returns once the
  // work is queued, as the single operations do. Errors as output_format's.
  Image run(const ImageView& src, void* stream = nullptr);
  // The same into dst, which must have output_format(src) and src's location (any pitch).
  void run_into(const ImageView& src, const ImageView& dst, void* stream = nullptr);
  // Every image of srcs (all in one location, of any sizes, types and channel counts the steps
  // take) through every step; outputs in the same order. A failure throws the first failing
  // image's error prefixed "image I: " (0-based), before any output is returned.
  std::vector<Image> run(const std::vector<ImageView>& srcs, void* stream = nullptr);
  // The same into dsts (one per source, each of its output_format and location).
  void run_into(const std::vector<ImageView>& srcs, const std::vector<ImageView>& dsts,
                void* stream = nullptr);

 private:
  // Two intermediate buffers per list position, reused between calls.
  struct Scratch {
    Image buf[2];
  };
  std::vector<OutputFormat> formats(const ImageView& src) const;
  std::vector<std::vector<OutputFormat>> list_formats(const std::vector<ImageView>& srcs,
                                                      const std::vector<ImageView>* dsts) const;
  void run_steps(const std::vector<ImageView>& srcs, const std::vector<ImageView>& dsts,
                 const std::vector<std::vector<OutputFormat>>& fmt, void* stream);
  ImageView fit(Image& buf, const OutputFormat& f, Location loc);
  void check_dst(const ImageView& src, const ImageView& dst, const OutputFormat& f) const;

  std::vector<PipelineStep> steps_;
  std::vector<Scratch> scratch_;
};

}  // namespace texcv
