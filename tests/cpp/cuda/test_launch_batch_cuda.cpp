// Variable-shape batched launches (src/cuda/ops/common/launch_batch.hpp, issue 15 item 3): the
// same op calls made image by image, and made inside a LaunchBatch (one launch per kernel for
// every image, blockIdx.z selecting the image), give the same bytes, for images of different
// sizes, element types and channel counts. The per-image outputs are poisoned first (0xA5 bytes,
// NaN for f32) and the batched ones filled with other bytes (0x5A), so equal outputs were both
// written; and the batched run must really have batched (fewer launches than calls) for the ops
// that support it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include "src/cuda/ops/common/launch_batch.hpp"
#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv {
namespace {

struct Case {
  const char* step;  // a pipeline step: "op:params"
  bool batched;      // whether the op's kernel is batched (else each call launches at once)
  int channels = 0;  // only this channel count (0: 1, 3 and 4)
  // The separable filters: batched where the register kernel applies (which depends on the taps,
  // element types and channels: sep_vec_applies), so only some combinations must be.
  bool some = false;
};

// Whether a case's calls are recorded for this element type and channel count: the warps read u8
// x4 and u8 x1 nearest through textures and u8 x1 cubic through the staged kernel (path rule,
// src/cuda/ops/common/path_rule.cpp, and warp_kernels.cuh's kStagedCubic), which launch at once.
[[maybe_unused]] bool expect_batched(const Case& c, const std::string& name, const ParamValues& p,
                                     ElemType t, int ch) {
  if (!c.batched) return false;
  if (name.rfind("warp_", 0) == 0 && t == ElemType::u8) {
    const auto it = p.find("interp");
    const std::string interp = it == p.end() ? "linear" : it->second;
    if (ch == 4 || (ch == 1 && (interp == "cubic" || interp == "nearest"))) return false;
  }
  return true;
}

// The worker's batchable ops (CudaWorker::batched_op), and one op that is not batched.
const Case kCases[] = {
    {"resize:scale=0.5", true},
    {"resize:width=50,height=31,interp=cubic", true},
    {"resize:scale=1.7,interp=nearest", true},
    {"resize:scale=0.3,interp=area", true},
    {"resize:scale=1.5,interp=area", true},
    {"warp_affine:m=0.9|0.2|3|-0.1|1.1|2,interp=linear,border=reflect", true},
    {"warp_affine:m=1.2|0|-4|0|0.8|5,interp=cubic", true},
    {"warp_perspective:m=1|0.1|2|0.05|1|3|0.001|0.0005|1", true},
    {"flip:code=both", true},
    {"flip:code=horizontal", true},
    {"convolve:kernel=-1|-1|-1|-1|16|-1|-1|-1|-1,scale=0.125", true},
    {"convolve:kernel=1|2|1|2|4|2|1|2|1,scale=0.0625,border=constant", true},
    {"gamma:gamma=0.7", false},  // u8: a table kernel that launches at once
    {"threshold:thresh=100,maxval=200,type=binary", true},
    {"convert:type=f32,scale=0.5", true},
    {"cvt_color:code=rgb2gray", true, 3},
    {"cvt_color:code=bgr2hsv", true, 3},
    {"cvt_color:code=rgba2bgra", true, 4},
    {"gaussian_blur:sigma=1.2", true, 0, true},
    {"box_filter:ksize=5", true, 0, true},
    {"sobel:dx=1,dy=0", true, 0, true},
    {"separable_filter:row=1|2|1,column=-1|0|1", true, 0, true},
    {"median_blur:ksize=3", false},
};

// A device image of the format whose every byte is 0x5A.
[[maybe_unused]] Image filled(const OutputFormat& f) {
  Image h(f.width, f.height, f.channels, f.type);
  for (int y = 0; y < h.height(); ++y)
    std::memset(static_cast<unsigned char*>(h.data()) + h.pitch() * static_cast<std::size_t>(y),
                0x5A, h.view().row_bytes());
  Image d(f.width, f.height, f.channels, f.type, Location::device);
  texcv::copy(h, d);
  return d;
}

const int kSizes[][2] = {{67, 41}, {130, 77}, {33, 200}, {256, 128}, {9, 7}, {7, 12}};

TEST(LaunchBatchCuda, BatchedOutputsEqualPerImageOutputs) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  cuda::Stream stream("test");
  std::uint32_t seed = 11;
  for (const Case& c : kCases) {
    const std::string text(c.step);
    const std::vector<PipelineStep> parsed = parse_pipeline(text);
    ASSERT_EQ(parsed.size(), 1u) << text;
    const PipelineStep& step = parsed[0];
    int ran = 0, batched_somewhere = 0;
    for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
      for (int ch : {1, 3, 4}) {
        if (step.name == "gamma" && t != ElemType::u8) continue;  // u16 gamma is never batched
        if (c.channels != 0 && ch != c.channels) continue;
        SCOPED_TRACE(text + " " + to_string(t) + " x" + std::to_string(ch));
        // Combinations the op does not take (e.g. HSV of u16) are left out; each case must run
        // on at least one (checked below).
        try {
          Image probe(8, 8, ch, t, Location::device);
          const OutputFormat f = output_format(step.name, probe.view(), step.params);
          Image out(f.width, f.height, f.channels, f.type, Location::device);
          apply_into(step.name, probe.view(), out.view(), step.params, stream.get());
        } catch (const Error&) {
          continue;
        }
        ++ran;
        std::vector<Image> src, one, many;
        for (const auto& wh : kSizes) {
          Image d(wh[0], wh[1], ch, t, Location::device);
          texcv::copy(test::random_image(wh[0], wh[1], ch, t, ++seed), d);
          const OutputFormat f = output_format(step.name, d.view(), step.params);
          one.emplace_back(f.width, f.height, f.channels, f.type, Location::device);
          test::poison(one.back());
          many.push_back(filled(f));
          src.push_back(std::move(d));
        }
        for (std::size_t i = 0; i < src.size(); ++i)
          apply_into(step.name, src[i].view(), one[i].view(), step.params, stream.get());
        std::size_t recorded = 0, launches = 0;
        {
          cuda::ops::LaunchBatch batch(stream.get());
          for (std::size_t i = 0; i < src.size(); ++i)
            apply_into(step.name, src[i].view(), many[i].view(), step.params, stream.get());
          batch.flush();
          recorded = batch.recorded();
          launches = batch.launches();
        }
        stream.synchronize();
        if (c.some) {
          if (recorded > 0) {
            EXPECT_LT(launches, recorded) << "the recorded launches were batched";
            ++batched_somewhere;
          }
        } else if (expect_batched(c, step.name, step.params, t, ch)) {
          EXPECT_GE(recorded, src.size()) << "every image's launch was recorded";
          EXPECT_LT(launches, recorded) << "the recorded launches were batched";
        } else {
          EXPECT_EQ(recorded, 0u) << "an op without a batched kernel launches at once";
        }
        for (std::size_t i = 0; i < src.size(); ++i) {
          SCOPED_TRACE("image " + std::to_string(i) + " (" + std::to_string(src[i].width()) + "x" +
                       std::to_string(src[i].height()) + ")");
          const Image a = test::to_host(one[i]);
          const Image b = test::to_host(many[i]);
          const test::Diff d = test::compare(b.view(), a.view());
          EXPECT_EQ(d.count, 0) << d.describe();
          EXPECT_EQ(d.nan_or_poison, 0) << d.describe();
        }
      }
    }
    EXPECT_GT(ran, 0) << text << ": no element type and channel count ran";
    if (c.some) {
      EXPECT_GT(batched_somewhere, 0) << text << ": batched for no type and channels";
    }
  }
#endif
}

// A LaunchBatch that is not flushed launches nothing: its destinations stay poisoned. And a
// LaunchAtOnce inside it makes the calls launch at once.
TEST(LaunchBatchCuda, UnflushedLaunchesNothingAndLaunchAtOnceBypasses) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  cuda::Stream stream("test");
  Image src(40, 30, 3, ElemType::u8, Location::device);
  texcv::copy(test::random_image(40, 30, 3, ElemType::u8, 5), src);
  Image dropped(40, 30, 3, ElemType::u8, Location::device),
      now(40, 30, 3, ElemType::u8, Location::device);
  test::poison(dropped);
  test::poison(now);
  const ParamValues p{{"code", "both"}};
  {
    cuda::ops::LaunchBatch batch(stream.get());
    apply_into("flip", src.view(), dropped.view(), p, stream.get());
    EXPECT_EQ(batch.recorded(), 1u);
    {
      const cuda::ops::LaunchAtOnce at_once;
      apply_into("flip", src.view(), now.view(), p, stream.get());
    }
    EXPECT_EQ(batch.recorded(), 1u);
  }
  stream.synchronize();
  Image want(40, 30, 3, ElemType::u8);
  flip(test::to_host(src), want, FlipCode::both);
  const Image d = test::to_host(dropped);
  long written = 0;
  for (int y = 0; y < d.height(); ++y)
    for (std::size_t i = 0; i < d.view().row_bytes(); ++i)
      if (static_cast<const unsigned char*>(
              d.data())[d.pitch() * static_cast<std::size_t>(y) + i] != 0xA5)
        ++written;
  EXPECT_EQ(written, 0) << "an unflushed batch wrote nothing";
  const test::Diff at_once = test::compare(test::to_host(now).view(), want.view());
  EXPECT_EQ(at_once.count, 0) << at_once.describe();
  EXPECT_EQ(at_once.nan_or_poison, 0) << at_once.describe();
#endif
}

}  // namespace
}  // namespace texcv
