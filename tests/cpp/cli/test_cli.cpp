// The texcv command, run as a process on temporary copies of the sample images (--device cpu).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_TIFF) && __has_include(<tiffio.h>)
#include <tiffio.h>
#endif

namespace fs = std::filesystem;

namespace {

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Single-quotes a word for /bin/sh.
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

class Cli : public ::testing::Test {
 protected:
  // Runs texcv with the given arguments (each quoted), capturing stdout, stderr, exit code.
  Result texcv(const std::vector<std::string>& args) {
    std::string cmd = quote(TEXCV_CLI_PATH);
    // Appended piece by piece: GCC 12's -Wrestrict misreads `std::string(" ") + quote(a)`.
    for (const auto& a : args) {
      cmd += ' ';
      cmd += quote(a);
    }
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    cmd += " >";
    cmd += quote(out.string());
    cmd += " 2>";
    cmd += quote(err.string());
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  // Copies sample images into dir_/name and returns that folder.
  fs::path samples(const std::string& name, const std::vector<std::string>& files) {
    const fs::path d = dir_ / name;
    fs::create_directories(d);
    for (const auto& f : files) fs::copy_file(fs::path(TEXCV_EXAMPLE_IMAGES) / f, d / f);
    return d;
  }

  texcv::test::TempDir tmp_{"texcv_cli_"};  // removed with the fixture
  fs::path dir_ = tmp_.path();
};

void expect_image(const fs::path& p, int width, int height, int channels, texcv::ElemType type) {
  ASSERT_TRUE(fs::exists(p)) << p;
  const texcv::ImageInfo info = texcv::read_info(p.string());
  EXPECT_EQ(info.width, width) << p;
  EXPECT_EQ(info.height, height) << p;
  EXPECT_EQ(info.channels, channels) << p;
  EXPECT_EQ(info.type, type) << p;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_F(Cli, RotateThenResizeOneFile) {
  const fs::path in = samples("in", {"coffee.png"});
  const fs::path out = dir_ / "coffee_small.png";
  const Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out.string(), "-p",
                          "rotate:angle=30;resize:scale=0.5,interp=area", "--device", "cpu"});
  EXPECT_EQ(r.code, 0) << r.err;
  // rotate keeps 600x400 (expand=false); scale 0.5 gives 300x200.
  expect_image(out, 300, 200, 3, texcv::ElemType::u8);
  EXPECT_TRUE(contains(r.err, "1 ok, 0 failed")) << r.err;
}

TEST_F(Cli, FolderInFolderOut) {
  const fs::path in = samples(
      "in", {"camera.png", "coffee.png", "chelsea.png", "rocket.jpg", "chessboard_GRAY_U16.tif"});
  const fs::path out = dir_ / "out";
  const Result r = texcv({"run", "-i", in.string(), "-o", out.string(), "-p",
                          "resize:scale=0.5;flip:code=both", "--device", "cpu", "--quiet"});
#if defined(TEXCV_HAS_TIFF)
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // --quiet and nothing failed
  expect_image(out / "chessboard_GRAY_U16.tif", 100, 100, 1, texcv::ElemType::u16);
#else
  // A build without libtiff reports the TIFF file and writes the others.
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "chessboard_GRAY_U16.tif: imread: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "texcv was built without libtiff")) << r.err;
  EXPECT_FALSE(fs::exists(out / "chessboard_GRAY_U16.tif"));
#endif
  // Sizes are size * 0.5 rounded to nearest, ties to even: 451 -> 226, 427 -> 214.
  expect_image(out / "camera.png", 256, 256, 1, texcv::ElemType::u8);
  expect_image(out / "coffee.png", 300, 200, 3, texcv::ElemType::u8);
  expect_image(out / "chelsea.png", 226, 150, 3, texcv::ElemType::u8);
  expect_image(out / "rocket.jpg", 320, 214, 3, texcv::ElemType::u8);
}

TEST_F(Cli, FormatChangesTheExtensionAndProgressIsReported) {
  const fs::path in = samples("in", {"camera.png", "chelsea.png"});
  const fs::path out = dir_ / "out";
  const Result r = texcv({"run", "-i", in.string(), "-o", out.string(), "-p",
                          "crop:x=10,y=20,width=100,height=50", "--device", "cpu", "--format",
                          "jpg", "--quality", "80"});
  EXPECT_EQ(r.code, 0) << r.err;
  expect_image(out / "camera.jpg", 100, 50, 1, texcv::ElemType::u8);
  expect_image(out / "chelsea.jpg", 100, 50, 3, texcv::ElemType::u8);
  EXPECT_FALSE(fs::exists(out / "camera.png"));
  EXPECT_TRUE(contains(r.err, "[1/2]")) << r.err;
  EXPECT_TRUE(contains(r.err, "[2/2]")) << r.err;
  EXPECT_TRUE(contains(r.err, "2 ok, 0 failed")) << r.err;
}

TEST_F(Cli, BadStepNameIsAUsageErrorNamingTheStep) {
  const fs::path in = samples("in", {"coffee.png"});
  const fs::path out = dir_ / "out";
  const Result r = texcv({"run", "-i", in.string(), "-o", out.string(), "-p",
                          "rotate:angle=30;resiz:scale=0.5", "--device", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err,
                       "texcv: pipeline step 2 \"resiz:scale=0.5\": unknown operation "
                       "'resiz'; expected one of resize, warp_affine"))
      << r.err;
  // The caret line points at the bad step (offset 16 in the pipeline, after a 2-space indent).
  EXPECT_TRUE(contains(r.err, std::string("\n") + std::string(2 + 16, ' ') + "^~~~~~~~~~~~~~~\n"))
      << r.err;
  EXPECT_FALSE(fs::exists(out)) << "nothing may be written for a bad pipeline";
}

TEST_F(Cli, BadKeyIsAUsageErrorNamingStepAndKey) {
  const fs::path in = samples("in", {"coffee.png"});
  const Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o",
                          (dir_ / "x.png").string(), "-p", "rotate:angel=30", "--device", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err,
                       "pipeline step 1 \"rotate:angel=30\": rotate: parameter 'angel' "
                       "is unknown; got angel=30, expected one of angle, expand"))
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.png"));
}

TEST_F(Cli, BadValueIsAUsageErrorNamingStepKeyAndValue) {
  const fs::path in = samples("in", {"coffee.png"});
  const Result r =
      texcv({"run", "-i", (in / "coffee.png").string(), "-o", (dir_ / "x.png").string(), "-p",
             "flip;resize:scale=0.5,interp=bilinear", "--device", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err,
                       "pipeline step 2 \"resize:scale=0.5,interp=bilinear\": resize: "
                       "parameter 'interp' has a bad value; got interp=bilinear, expected "
                       "one of nearest, linear, cubic, area"))
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.png"));
}

TEST_F(Cli, MissingInputIsAUsageError) {
  const Result r = texcv({"run", "-i", (dir_ / "nope.png").string(), "-o",
                          (dir_ / "x.png").string(), "-p", "flip", "--device", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "nope.png' does not exist")) << r.err;
}

TEST_F(Cli, MissingOptionIsAUsageError) {
  const Result r = texcv({"run", "-i", (dir_ / "a.png").string(), "-p", "flip"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--output is required")) << r.err;
}

TEST_F(Cli, CorruptFileIsReportedAndTheOthersAreWritten) {
  const fs::path in = samples("in", {"camera.png", "coffee.png"});
  fs::copy_file(fs::path(TEXCV_TEST_DATA) / "truncated.jpg", in / "truncated.jpg");
  const fs::path out = dir_ / "out";
  const Result r = texcv(
      {"run", "-i", in.string(), "-o", out.string(), "-p", "resize:width=100", "--device", "cpu"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, std::string("texcv: ") + (in / "truncated.jpg").string() + ": "))
      << r.err;
  EXPECT_TRUE(contains(r.err, "2 ok, 1 failed")) << r.err;
  expect_image(out / "camera.png", 100, 100, 1, texcv::ElemType::u8);
  expect_image(out / "coffee.png", 100, 67, 3, texcv::ElemType::u8);  // 400 * 100 / 600 = 66.7
  EXPECT_FALSE(fs::exists(out / "truncated.jpg"));
}

TEST_F(Cli, NeverOverwritesTheInput) {
  const fs::path in = samples("in", {"camera.png"});
  const std::string before = slurp(in / "camera.png");
  Result r = texcv({"run", "-i", (in / "camera.png").string(), "-o", (in / "camera.png").string(),
                    "-p", "flip", "--device", "cpu", "--overwrite"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "is the input file")) << r.err;
  // The same file through another spelling of its folder, and a folder run into itself.
  r = texcv({"run", "-i", (in / "camera.png").string(), "-o", (in / "." / "camera.png").string(),
             "-p", "flip", "--device", "cpu", "--overwrite"});
  EXPECT_EQ(r.code, 2);
  r = texcv({"run", "-i", in.string(), "-o", (in / ".").string(), "-p", "flip", "--device", "cpu",
             "--overwrite"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "is the input folder")) << r.err;
  EXPECT_EQ(slurp(in / "camera.png"), before);
}

TEST_F(Cli, ExistingOutputNeedsOverwrite) {
  const fs::path in = samples("in", {"camera.png"});
  const fs::path out = dir_ / "cam.png";
  const std::vector<std::string> args = {
      "run",      "-i", (in / "camera.png").string(), "-o", out.string(), "-p", "resize:scale=0.25",
      "--device", "cpu"};
  EXPECT_EQ(texcv(args).code, 0);
  expect_image(out, 128, 128, 1, texcv::ElemType::u8);
  std::vector<std::string> again = args;
  again[6] = "resize:scale=0.5";
  const Result r = texcv(again);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "exists (use --overwrite")) << r.err;
  expect_image(out, 128, 128, 1, texcv::ElemType::u8);
  again.push_back("--overwrite");
  EXPECT_EQ(texcv(again).code, 0);
  expect_image(out, 256, 256, 1, texcv::ElemType::u8);
}

TEST_F(Cli, ImageDependentErrorFailsTheFile) {
  // crop's rectangle fits camera (512x512) but not chelsea (451x300): exit 1, camera written.
  const fs::path in = samples("in", {"camera.png", "chelsea.png"});
  const fs::path out = dir_ / "out";
  const Result r = texcv({"run", "-i", in.string(), "-o", out.string(), "-p",
                          "crop:x=0,y=0,width=400,height=400", "--device", "cpu"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "chelsea.png: step 1 (crop): crop: the rectangle is not inside"))
      << r.err;
  expect_image(out / "camera.png", 400, 400, 1, texcv::ElemType::u8);
  EXPECT_FALSE(fs::exists(out / "chelsea.png"));
}

TEST_F(Cli, CudaDevice) {
  const fs::path in = samples("in", {"coffee.png"});
  const fs::path out = dir_ / "c.png";
  const Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out.string(), "-p",
                          "resize:scale=0.5", "--device", "cuda"});
  if (texcv::cuda_available()) {
    EXPECT_EQ(r.code, 0) << r.err;
    expect_image(out, 300, 200, 3, texcv::ElemType::u8);
  } else {
    // Requested but unavailable: a set-up error before any file is touched.
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--device cuda: no usable GPU")) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST_F(Cli, OpsListsEveryOperationAndParameter) {
  const Result r = texcv({"ops"});
  EXPECT_EQ(r.code, 0) << r.err;
  for (const auto& op : texcv::operations()) {
    EXPECT_TRUE(contains(r.out, op.name + ": ")) << op.name;
    for (const auto& p : op.params)
      EXPECT_TRUE(contains(r.out, std::string("  ") + p.name + " ")) << p.name;
  }
  EXPECT_TRUE(contains(r.out, "remap is not a pipeline step")) << r.out;

  const Result one = texcv({"ops", "rotate"});
  EXPECT_EQ(one.code, 0);
  EXPECT_TRUE(contains(one.out, "rotate: "));
  EXPECT_FALSE(contains(one.out, "resize: "));
  EXPECT_TRUE(contains(one.out, "angle           float   required"));

  const Result bad = texcv({"ops", "rotat"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(contains(bad.err, "unknown operation 'rotat'")) << bad.err;
}

TEST_F(Cli, InfoSaysWhetherCudaIsCompiled) {
  const Result r = texcv({"info"});
  EXPECT_EQ(r.code, 0) << r.err;
  const texcv::BuildInfo b = texcv::build_info();
  EXPECT_TRUE(contains(r.out, std::string("texcv ") + b.version));
  if (b.cuda_compiled) {
    EXPECT_TRUE(contains(r.out, std::string("CUDA backend       compiled (CUDA ") + b.cuda_version))
        << r.out;
  } else {
    EXPECT_TRUE(contains(r.out, "CUDA backend       not compiled")) << r.out;
  }
  if (texcv::gpus().empty()) {
    EXPECT_TRUE(contains(r.out, "GPUs:\n  none")) << r.out;
  } else {
    EXPECT_TRUE(contains(r.out, texcv::gpus()[0].name)) << r.out;
  }
}

TEST_F(Cli, VersionAndHelp) {
  const Result v = texcv({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_TRUE(contains(v.out, std::string("texcv ") + texcv::build_info().version)) << v.out;
  const Result h = texcv({"run", "--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_TRUE(contains(h.out, "Examples:")) << h.out;
  EXPECT_TRUE(contains(h.out, "Exit codes:")) << h.out;
  const Result none = texcv({});
  EXPECT_EQ(none.code, 2);
  const Result unknown = texcv({"rnu", "-i", "a.png"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown command 'rnu'; expected one of run, batch, ops, info"))
      << unknown.err;
}

}  // namespace

namespace {

TEST_F(Cli, DocsListTheOperationsAsTexcvOpsPrintsThem) {
  const Result r = texcv({"ops", "--markdown"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "### warp_perspective\n")) << r.out;
  const std::string doc = slurp(fs::path(TEXCV_SOURCE_DIR) / "docs" / "cli.md");
  EXPECT_TRUE(contains(doc, r.out))
      << "docs/cli.md is out of date: replace its operation tables with `texcv ops --markdown`";
}

}  // namespace

namespace {

TEST_F(Cli, CvtColorToGrayWritesAOneChannelPng) {
  const fs::path in = samples("in", {"coffee.png"});
  const fs::path out = dir_ / "gray.png";
  const Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out.string(), "-p",
                          "cvt_color:code=rgb2gray", "--device", "cpu"});
  EXPECT_EQ(r.code, 0) << r.err;
  expect_image(out, 600, 400, 1, texcv::ElemType::u8);
  EXPECT_TRUE(contains(r.err, "(600x400x3 u8 -> 600x400x1 u8)")) << r.err;
  // The file holds what the C++ API computes (PNG is lossless).
  const texcv::Image src = texcv::imread((in / "coffee.png").string());
  texcv::Image want(600, 400, 1, texcv::ElemType::u8);
  texcv::cvt_color(src, want, texcv::ColorCode::rgb2gray);
  const texcv::Image got = texcv::imread(out.string());
  const auto d = texcv::test::compare(got.view(), want.view());
  EXPECT_EQ(d.count, 0) << d.describe();
}

TEST_F(Cli, ConvertToFloatTiff) {
  const fs::path in = samples("in", {"coffee.png"});
  const fs::path out = dir_ / "coffee_f32.tif";
  const Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out.string(), "-p",
                          "convert:type=f32,scale=0.00392156862745098", "--device", "cpu"});
#if defined(TEXCV_HAS_TIFF)
  EXPECT_EQ(r.code, 0) << r.err;
  expect_image(out, 600, 400, 3, texcv::ElemType::f32);
  const texcv::Image src = texcv::imread((in / "coffee.png").string());
  texcv::Image want(600, 400, 3, texcv::ElemType::f32);
  texcv::convert(src, want, 0.00392156862745098);
  const texcv::Image got = texcv::imread(out.string());
  const auto d = texcv::test::compare(got.view(), want.view());
  EXPECT_EQ(d.count, 0) << d.describe();
#else
  // A build without libtiff cannot write the file: it fails, nothing is written.
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
#endif
}

TEST_F(Cli, BadColorCodeAndBadTypeAreUsageErrors) {
  const fs::path in = samples("in", {"coffee.png"});
  const fs::path out = dir_ / "x.png";
  Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out.string(), "-p",
                    "cvt_color:code=rgb2grey", "--device", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(
      r.err,
      "texcv: pipeline step 1 \"cvt_color:code=rgb2grey\": cvt_color: parameter 'code' has a bad "
      "value; got code=rgb2grey, expected one of rgb2bgr, rgba2bgra, rgb2gray, bgr2gray, "
      "rgba2gray, bgra2gray, gray2rgb, gray2rgba, rgb2yuv_bt601, rgb2yuv_bt601_limited, "
      "rgb2yuv_bt709, rgb2yuv_bt709_limited, yuv2rgb_bt601, yuv2rgb_bt601_limited, yuv2rgb_bt709, "
      "yuv2rgb_bt709_limited, rgb2hsv, bgr2hsv, hsv2rgb, hsv2bgr\n"))
      << r.err;
  r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out.string(), "-p",
             "flip;convert:type=f64,scale=2", "--device", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err,
                       "texcv: pipeline step 2 \"convert:type=f64,scale=2\": convert: parameter "
                       "'type' has a bad value; got type=f64, expected one of u8, u16, f32\n"))
      << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(Cli, OpsFooterSaysHistogramIsNotAStep) {
  const Result r = texcv({"ops"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "histogram is not a pipeline step: it returns counts, not an image"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "cvt_color: ")) << r.out;
}

// texcv run's output options, shared with texcv batch: --tiff-compression, --tiff-level,
// --png-compression, --quality.

bool same_pixels(const fs::path& a, const fs::path& b) {
  const texcv::Image x = texcv::imread(a.string()), y = texcv::imread(b.string());
  const texcv::ImageView u = x.view(), v = y.view();
  if (u.width != v.width || u.height != v.height || u.channels != v.channels || u.type != v.type)
    return false;
  for (int r = 0; r < u.height; ++r)
    if (std::memcmp(u.row<const unsigned char>(r), v.row<const unsigned char>(r), u.row_bytes()) !=
        0)
      return false;
  return true;
}

#if defined(TEXCV_HAS_TIFF) && __has_include(<tiffio.h>)
// The Compression tag, read with libtiff (on the link line through the static texcv library).
int tiff_compression_tag(const fs::path& p) {
  TIFF* tif = TIFFOpen(p.string().c_str(), "r");
  if (!tif) return -1;
  std::uint16_t c = 0;
  const int got = TIFFGetField(tif, TIFFTAG_COMPRESSION, &c);
  TIFFClose(tif);
  return got ? c : -1;
}
#define TEXCV_CLI_TEST_LIBTIFF 1
#endif

TEST_F(Cli, RunTiffCompressionOption) {
#if !defined(TEXCV_HAS_TIFF)
  GTEST_SKIP() << "this build has no TIFF codec (libtiff not found)";
#else
  const fs::path in = samples("in", {"coffee.png"}) / "coffee.png";
  struct Case {
    std::string name;
    std::vector<std::string> args;
    int tag;  // libtiff's COMPRESSION_* value
  };
  const std::vector<Case> cases = {
      {"default", {}, 1},                                 // COMPRESSION_NONE
      {"none", {"--tiff-compression", "none"}, 1},        //
      {"deflate", {"--tiff-compression", "deflate"}, 8},  // COMPRESSION_ADOBE_DEFLATE
      {"zstd", {"--tiff-compression", "zstd"}, 50000},    // COMPRESSION_ZSTD
      {"zstd5", {"--tiff-compression", "zstd", "--tiff-level", "5"}, 50000},
      {"lzw", {"--tiff-compression", "lzw"}, 5},  // COMPRESSION_LZW
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path out = dir_ / (c.name + ".tif");
    std::vector<std::string> args = {"run", "-i",   in.string(), "-o",  out.string(),
                                     "-p",  "flip", "--device",  "cpu", "--quiet"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const Result r = texcv(args);
    EXPECT_EQ(r.code, 0) << r.err;
    ASSERT_TRUE(fs::exists(out));
#if defined(TEXCV_CLI_TEST_LIBTIFF)
    EXPECT_EQ(tiff_compression_tag(out), c.tag);
#endif
    if (c.tag == 1)
      EXPECT_GE(fs::file_size(out), 600u * 400u * 3u);
    else
      EXPECT_LT(fs::file_size(out), 600u * 400u * 3u);
    EXPECT_TRUE(same_pixels(out, dir_ / "default.tif"));
  }
#endif
}

TEST_F(Cli, RunRejectsBadOutputOptions) {
  const fs::path in = samples("in", {"coffee.png"}) / "coffee.png";
  const fs::path out = dir_ / "out.tif";
  const auto run = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", "-i",   in.string(), "-o", out.string(),
                                     "-p",  "flip", "--device",  "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    return texcv(args);
  };
  Result r = run({"--tiff-compression", "jpeg"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(
      contains(r.err, "--tiff-compression: jpeg not in {none,deflate,zstd,lzw,packbits,lzma}"))
      << r.err;
  r = run({"--tiff-compression", "zstd", "--tiff-level", "23"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--tiff-level")) << r.err;
  r = run({"--tiff-compression", "zstd", "--tiff-level", "20"});  // in the option's range...
  EXPECT_EQ(r.code, 0) << r.err;
  fs::remove(out);
  r = run({"--tiff-compression", "deflate", "--tiff-level", "20"});  // ...but not deflate's
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err,
                       "texcv: --tiff-level 20: check_write_options: tiff_level out of "
                       "range for deflate; got 20, expected 0 (default) or 1..9"))
      << r.err;
  r = run({"--tiff-level", "3"});  // the default, none, has no level
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "TIFF compression none has no level")) << r.err;
  r = run({"--png-compression", "10"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--png-compression")) << r.err;
  r = run({"--quality", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--quality")) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // run --help lists the shared options.
  r = texcv({"run", "--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* o : {"--quality", "--png-compression", "--tiff-compression", "--tiff-level"})
    EXPECT_TRUE(contains(r.out, o)) << o << "\n" << r.out;
}

TEST_F(Cli, RunPngCompressionAndQuality) {
  const fs::path in = samples("in", {"coffee.png"}) / "coffee.png";
  for (const char* level : {"0", "9"}) {
    const Result r = texcv({"run", "-i", in.string(), "-o",
                            (dir_ / (std::string("p") + level + ".png")).string(), "-p", "flip",
                            "--device", "cpu", "--quiet", "--png-compression", level});
    EXPECT_EQ(r.code, 0) << r.err;
  }
  // zlib level 0 stores: at least the samples; 9 compresses the photo; same pixels.
  EXPECT_GE(fs::file_size(dir_ / "p0.png"), 600u * 400u * 3u);
  EXPECT_LT(fs::file_size(dir_ / "p9.png"), fs::file_size(dir_ / "p0.png") * 3 / 4);
  EXPECT_TRUE(same_pixels(dir_ / "p0.png", dir_ / "p9.png"));
  for (const char* q : {"20", "98"}) {
    const Result r =
        texcv({"run", "-i", in.string(), "-o", (dir_ / (std::string("q") + q + ".jpg")).string(),
               "-p", "flip", "--device", "cpu", "--quiet", "--quality", q});
    EXPECT_EQ(r.code, 0) << r.err;
  }
  EXPECT_LT(fs::file_size(dir_ / "q20.jpg"), fs::file_size(dir_ / "q98.jpg") / 2);
}

// Parameter errors that need no image are usage errors found before any file is read: texcv run,
// texcv batch and texcv batch --dry-run exit 2 naming the step, and write nothing.
TEST_F(Cli, ImageIndependentParameterErrorsAreUsageErrorsBeforeAnyFile) {
  const fs::path in = samples("in", {"camera.png", "coffee.png"});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"gaussian_blur",
       "pipeline step 1 \"gaussian_blur\": gaussian_blur: kernel size and sigma are both unset; "
       "got ksize=0, sigma=0, expected ksize=<an odd size> and/or sigma=<a number > 0>, e.g. "
       "gaussian_blur:sigma=2\n"},
      {"sobel:dx=0,dy=0",
       "pipeline step 1 \"sobel:dx=0,dy=0\": sobel: derivative orders are both zero; got dx=0, "
       "dy=0, expected dx + dy > 0\n"},
      {"flip;gaussian_blur:ksize=2",
       "pipeline step 2 \"gaussian_blur:ksize=2\": gaussian_blur: parameter 'ksize' must be "
       "odd; got ksize=2, expected an odd number >= 1, or 0 to derive it from sigma\n"},
  };
  for (const auto& [pipeline, message] : cases) {
    SCOPED_TRACE(pipeline);
    const fs::path out_file = dir_ / "one.png", out = dir_ / "out";
    Result r = texcv({"run", "-i", (in / "coffee.png").string(), "-o", out_file.string(), "-p",
                      pipeline, "--device", "cpu"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "texcv: " + message)) << r.err;
    EXPECT_FALSE(contains(r.err, "coffee.png")) << r.err;  // no file was started
    EXPECT_FALSE(fs::exists(out_file));
    r = texcv({"run", "-i", in.string(), "-o", out.string(), "-p", pipeline, "--device", "cpu"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "texcv: " + message)) << r.err;
    EXPECT_FALSE(fs::exists(out));
    for (const bool dry : {false, true}) {
      std::vector<std::string> args{"batch", "-i",     in.string(), "-o", out.string(),
                                    "-p",    pipeline, "--device",  "cpu"};
      if (dry) args.push_back("--dry-run");
      r = texcv(args);
      EXPECT_EQ(r.code, 2) << (dry ? "--dry-run: " : "") << r.err;
      EXPECT_TRUE(contains(r.err, "texcv batch: " + message)) << r.err;
      EXPECT_EQ(r.out, "");  // --dry-run prints no plan
      EXPECT_FALSE(fs::exists(out));
    }
  }
}

}  // namespace
