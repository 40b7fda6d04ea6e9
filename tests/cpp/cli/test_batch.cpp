// texcv batch, run as a process (--device cpu) on folders of good and bad files: outputs, report
// lines, exit codes, resume after SIGKILL, and flat peak memory over thousands of files.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli/batch_test_util.hpp"
#include "common/test_support.hpp"
#include "texcv/batch.hpp"
#include "texcv/texcv.hpp"

namespace fs = std::filesystem;
using namespace texcv::test::batch;

namespace {

const char* const kPipe = "resize:scale=0.5;sharpen";

// Symbolic links in the input folder (their targets are checked after the listing, several at
// a time): a link to an image file is an input as the file is; a dangling link, a link to a
// folder and a link to a non-image file are not inputs; a link to a regular file without an
// image extension counts as ignored as the file does.
TEST_F(Batch, LinksInTheInputFolderAreInputsWhenTheyLeadToFiles) {
  const fs::path in = dir_ / "in", elsewhere = dir_ / "elsewhere";
  fs::create_directories(in / "sub");
  fs::create_directories(elsewhere / "folder.png");
  const fs::path ex(TEXCV_EXAMPLE_IMAGES);
  fs::copy_file(ex / "coffee.png", elsewhere / "coffee.png");
  std::ofstream(elsewhere / "notes.txt") << "no image\n";
  fs::copy_file(ex / "coffee.png", in / "real.png");
  for (int i = 0; i < 600; ++i)  // enough links for several checking threads
    fs::create_symlink(elsewhere / "coffee.png", in / "sub" / numbered("l", i, ".png"));
  fs::create_symlink(dir_ / "nowhere.png", in / "dangling.png");
  fs::create_directory_symlink(elsewhere / "folder.png", in / "folder.png");
  fs::create_symlink(elsewhere / "notes.txt", in / "notes.txt");
  const fs::path out = dir_ / "out";
  const Proc r = texcv(
      {"batch", "-i", in.string(), "-o", out.string(), "-p", "flip:code=vertical", "--dry-run"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out,
                  "601 to process, 0 to skip, 0 failing, 1 file(s) without an image "
                  "extension ignored"))
      << r.out;
  EXPECT_TRUE(has(r.out, (in / "sub" / numbered("l", 599, ".png")).string())) << r.out;
  EXPECT_FALSE(has(r.out, "dangling.png")) << r.out;
  EXPECT_FALSE(has(r.out, "folder.png")) << r.out;
}

// A folder with a good file in each format and a bad file of each kind, in nested folders.
TEST_F(Batch, GoodAndBadFilesInNestedFolders) {
  const fs::path in = dir_ / "in";
  fs::create_directories(in / "a" / "b");
  const fs::path ex(TEXCV_EXAMPLE_IMAGES), data(TEXCV_TEST_DATA);
  fs::copy_file(ex / "coffee.png", in / "coffee.png");                    // PNG RGB u8
  fs::copy_file(ex / "rocket.jpg", in / "a" / "rocket.jpg");              // JPEG RGB
  fs::copy_file(ex / "camera.png", in / "a" / "b" / "camera.png");        // PNG gray
  fs::copy_file(ex / "chessboard_GRAY_U16.tif", in / "a" / "board.tif");  // TIFF u16
  fs::copy_file(data / "truncated.jpg", in / "a" / "truncated.jpg");      // truncated
  { std::ofstream(in / "a" / "b" / "empty.png"); }                        // 0 bytes
  std::ofstream(in / "text.png") << "this is not an image\n";             // text as .png
  write_png_header_only(in / "a" / "huge.png", 100000, 100000);           // header lies
  std::ofstream(in / "notes.txt") << "ignored: no image extension\n";
  texcv::imwrite((in / "a" / "b" / "rgba16.png").string(),
                 texcv::test::random_image(33, 21, 4, texcv::ElemType::u16, 7));  // PNG RGBA u16
  // A file without read permission. As root chmod 000 does not stop reading: checked below.
  fs::copy_file(ex / "chelsea.png", in / "locked.png");
  fs::permissions(in / "locked.png", fs::perms::none);
  const bool root_reads = ::access((in / "locked.png").c_str(), R_OK) == 0;

  const fs::path out = dir_ / "out", report = dir_ / "run.jsonl";
  const Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", kPipe, "--device",
                        "cpu", "--report", report.string()});
  EXPECT_EQ(r.code, 1) << r.err;  // some files failed

  // Good files: byte-identical to the library's own result written with the same options.
  const fs::path ref = dir_ / "ref";
  std::vector<std::string> good{"coffee.png", "a/rocket.jpg", "a/b/camera.png", "a/b/rgba16.png"};
#if defined(TEXCV_HAS_TIFF)
  good.push_back("a/board.tif");
#endif
  if (root_reads) good.push_back("locked.png");
  for (const auto& g : good) {
    if (g == "locked.png") {
      write_reference(ex / "chelsea.png", ref / g, kPipe);
    } else {
      write_reference(in / g, ref / g, kPipe);
    }
    ASSERT_TRUE(fs::exists(out / g)) << g << "\n" << r.err;
    EXPECT_EQ(read_all(out / g), read_all(ref / g)) << g;
  }
  // Nothing else was written: no output for a failed file, no temporary file.
  EXPECT_EQ(tree(out).size(), good.size());
  // The input folder is untouched (same files, same bytes as the sources).
  EXPECT_EQ(read_all(in / "coffee.png"), read_all(ex / "coffee.png"));
  EXPECT_EQ(tree(in).size(), 11u);

  // One report line per image file (the .txt is not an input), each with its status.
  const auto lines = lines_of(read_all(report));
  EXPECT_EQ(lines.size(), 10u) << read_all(report);
  for (const auto& g : good) {
    const std::string l = report_for(lines, (in / g).string());
    EXPECT_TRUE(has(l, "\"output\":\"" + (out / g).string() + "\"")) << l;
    EXPECT_TRUE(has(l, "\"status\":\"ok\",\"error\":null")) << l;
    EXPECT_TRUE(has(l, "\"device\":\"cpu\"")) << l;
    // Where each stage ran.
    EXPECT_TRUE(has(l, "\"devices\":{\"read\":\"cpu\",\"process\":\"cpu\",\"write\":\"cpu\"}"))
        << l;
    EXPECT_TRUE(has(l, "\"ms\":{\"read\":")) << l;
    EXPECT_TRUE(has(l, ",\"process\":")) << l;
    EXPECT_TRUE(has(l, ",\"write\":")) << l;
  }
  EXPECT_TRUE(has(report_for(lines, (in / "coffee.png").string()),
                  "\"in\":{\"width\":600,\"height\":400,\"channels\":3,\"type\":\"u8\""));
  EXPECT_TRUE(has(report_for(lines, (in / "coffee.png").string()),
                  "\"out\":{\"width\":300,\"height\":200,\"channels\":3,\"type\":\"u8\""));
  auto expect_failed = [&](const std::string& rel, const std::string& why) {
    const std::string l = report_for(lines, (in / rel).string());
    EXPECT_TRUE(has(l, "\"status\":\"failed\"")) << rel << ": " << l;
    EXPECT_TRUE(has(l, "\"stage\":\"read\"")) << rel << ": " << l;
    EXPECT_FALSE(has(l, "\"devices\"")) << rel << ": no stage ran: " << l;
    EXPECT_TRUE(has(l, why)) << rel << ": " << l;
    EXPECT_TRUE(has(r.err, "FAILED " + (in / rel).string() + ": ")) << r.err;
    EXPECT_FALSE(fs::exists(out / rel)) << rel;
  };
  expect_failed("a/truncated.jpg", "Premature end of JPEG file");
  expect_failed("a/b/empty.png", "empty file (0 bytes)");
  expect_failed("text.png", "not a PNG file (bad signature)");
  expect_failed("a/huge.png",
                "the header claims 100000x100000 pixels, more than --max-pixels; got "
                "10000000000 pixels, expected at most 256000000");
  if (root_reads) {
    // Running as root: permission bits do not stop reading, so the file is processed.
    std::cout << "[ note ] running as root: a mode-000 file is readable; asserted as processed\n";
  } else {
    expect_failed("locked.png", "cannot open: Permission denied");
  }
#if !defined(TEXCV_HAS_TIFF)
  expect_failed("a/board.tif", "built without libtiff");
#endif
  const std::size_t nfail = 10 - good.size();
  EXPECT_TRUE(has(r.err, std::to_string(good.size()) + " ok, " + std::to_string(nfail) +
                             " failed, 0 skipped (outputs exist), 0 not started"))
      << r.err;
  EXPECT_TRUE(has(r.err, "JPEG codec: libjpeg-turbo")) << r.err;
  // The fixed cost before the first file, in parts (no CUDA part on --device cpu).
  EXPECT_TRUE(has(r.err, "texcv batch: time before the first file: ")) << r.err;
  EXPECT_TRUE(has(r.err, " s (start-up ")) << r.err;
  EXPECT_TRUE(has(r.err, ", listing the files ")) << r.err;
  EXPECT_FALSE(has(r.err, "CUDA runtime")) << r.err;
}

TEST_F(Batch, AllGoodExitsZeroAndFormatQualityBitDepthApply) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES);
  fs::create_directories(in / "x");
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  fs::copy_file(ex / "camera.png", in / "x" / "camera.png");
  const fs::path out = dir_ / "out";
  Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
                  "--format", "jpeg", "--quality", "80", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // --quiet and nothing failed
  texcv::WriteOptions q80;
  q80.jpeg_quality = 80;
  write_reference(in / "coffee.png", dir_ / "ref" / "coffee.jpg", "flip", q80);
  EXPECT_EQ(read_all(out / "coffee.jpg"), read_all(dir_ / "ref" / "coffee.jpg"));
  EXPECT_TRUE(fs::exists(out / "x" / "camera.jpg"));
  EXPECT_FALSE(fs::exists(out / "coffee.png"));

  // 16-bit PNG: u8 values scaled by 257 (65535 / 255).
  const fs::path out16 = dir_ / "out16";
  r = texcv({"batch", "-i", in.string(), "-o", out16.string(), "-p", "flip", "--device", "cpu",
             "--bit-depth", "16", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  const texcv::Image a = texcv::imread((out16 / "x" / "camera.png").string());
  const texcv::Image b = texcv::imread((in / "x" / "camera.png").string());
  ASSERT_EQ(a.type(), texcv::ElemType::u16);
  for (int y = 0; y < b.height(); y += 37)
    for (int x = 0; x < b.width(); x += 41)
      EXPECT_EQ(texcv::test::at(a.view(), b.width() - 1 - x, y, 0),
                257.0 * texcv::test::at(b.view(), x, y, 0));

  // A depth the format cannot hold is a usage error before anything is read.
  r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "o3").string(), "-p", "flip", "--device",
             "cpu", "--format", "jpeg", "--bit-depth", "16"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--bit-depth 16: jpeg files cannot hold it; expected 8")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o3"));
}

TEST_F(Batch, TiffCompressionOption) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES);
  fs::create_directories(in);
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  // A value outside the list is a usage error that names the accepted ones.
  Proc r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "bad").string(), "-p", "flip",
                  "--device", "cpu", "--format", "tiff", "--tiff-compression", "jpeg"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--tiff-compression")) << r.err;
  EXPECT_TRUE(has(r.err, "none,deflate,zstd,lzw,packbits,lzma")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
  // A level the codec does not have, likewise.
  r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "bad").string(), "-p", "flip", "--device",
             "cpu", "--format", "tiff", "--tiff-compression", "deflate", "--tiff-level", "12"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "texcv batch: --tiff-level 12: ")) << r.err;
  EXPECT_TRUE(
      has(r.err, "tiff_level out of range for deflate; got 12, expected 0 (default) or 1..9"))
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
#if !defined(TEXCV_HAS_TIFF)
  GTEST_SKIP() << "this build has no TIFF codec (libtiff not found): TIFF outputs untested here";
#else
  // Each choice writes the same bytes as texcv::imwrite with that choice (the default: none).
  struct Case {
    std::vector<std::string> args;
    texcv::TiffCompression c;
    int level;
  };
  const std::vector<Case> cases = {
      {{}, texcv::TiffCompression::none, 0},
      {{"--tiff-compression", "none"}, texcv::TiffCompression::none, 0},
      {{"--tiff-compression", "deflate"}, texcv::TiffCompression::deflate, 0},
      {{"--tiff-compression", "zstd"}, texcv::TiffCompression::zstd, 0},
      {{"--tiff-compression", "zstd", "--tiff-level", "5"}, texcv::TiffCompression::zstd, 5},
  };
  int k = 0;
  for (const Case& c : cases) {
    const std::string n = std::to_string(++k);
    const fs::path out = dir_ / ("o" + n);
    std::vector<std::string> args = {"batch",      "-i",       in.string(), "-o",
                                     out.string(), "-p",       "flip",      "--device",
                                     "cpu",        "--format", "tiff",      "--quiet"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    r = texcv(args);
    EXPECT_EQ(r.code, 0) << r.err;
    texcv::WriteOptions w;
    w.tiff_compression = c.c;
    w.tiff_level = c.level;
    const fs::path ref = dir_ / "ref" / ("r" + n + ".tif");
    write_reference(in / "coffee.png", ref, "flip", w);
    EXPECT_EQ(read_all(out / "coffee.tif"), read_all(ref)) << k;
    // Uncompressed holds at least the 600x400x3 samples; the codecs make the photo smaller.
    const auto size = fs::file_size(out / "coffee.tif");
    if (c.c == texcv::TiffCompression::none)
      EXPECT_GE(size, 600u * 400u * 3u) << k;
    else
      EXPECT_LT(size, 600u * 400u * 3u) << k;
  }
#endif
}

TEST_F(Batch, ReportFolderIsCreated) {
  // As scripts/demo.sh does: the report beside an output tree that does not exist yet.
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES);
  fs::create_directories(in);
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  const fs::path report = dir_ / "new" / "deeper" / "run.jsonl";
  const Proc r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "new" / "out").string(), "-p",
                        "flip", "--device", "cpu", "--quiet", "--report", report.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(read_all(report), "\"status\":\"ok\"")) << read_all(report);
}

TEST_F(Batch, UsageErrorsExitTwoAndWriteNothing) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES), out = dir_ / "out";
  fs::create_directories(in);
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  Proc r = texcv({"batch", "-i", (dir_ / "nope").string(), "-o", out.string(), "-p", "flip"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "nope' does not exist")) << r.err;
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip;resiz:scale=2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "pipeline step 2 \"resiz:scale=2\": unknown operation 'resiz'")) << r.err;
  r = texcv({"batch", "-i", in.string(), "-o", in.string(), "-p", "flip"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "is the input folder")) << r.err;
  r = texcv(
      {"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--resume", "--overwrite"});
  EXPECT_EQ(r.code, 2);
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--format", "bmp"});
  EXPECT_EQ(r.code, 2);
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--glob", "*.jpg"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "no input image files found")) << r.err;
#if !defined(TEXCV_HAS_CUDA)
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cuda"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--device cuda: no usable GPU; this build has no CUDA backend")) << r.err;
#endif
  if (!texcv::build_info().cuda_compiled) {
    r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
               "--jpeg-codec", "nvjpeg"});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(has(r.err, "--jpeg-codec nvjpeg: this build has no nvJPEG")) << r.err;
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(tree(in).size(), 1u);
}

TEST_F(Batch, DryRunPrintsThePlanAndWritesNothing) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES), out = dir_ / "out";
  fs::create_directories(in / "s");
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  fs::copy_file(ex / "rocket.jpg", in / "s" / "rocket.jpg");
  const Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", kPipe, "--format",
                        "png", "--dry-run", "--report", (dir_ / "r.jsonl").string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "process " + (in / "coffee.png").string() + " -> " +
                             (out / "coffee.png").string() + "\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "process " + (in / "s" / "rocket.jpg").string() + " -> " +
                             (out / "s" / "rocket.png").string() + "\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "2 to process, 0 to skip, 0 failing")) << r.out;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(dir_ / "r.jsonl"));
}

TEST_F(Batch, GlobAndListSelectInputs) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES);
  fs::create_directories(in / "s");
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  fs::copy_file(ex / "camera.png", in / "s" / "camera.png");
  fs::copy_file(ex / "rocket.jpg", in / "s" / "rocket.jpg");
  Proc r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "g").string(), "-p", "flip", "--glob",
                  "*.png", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(tree(dir_ / "g").size(), 2u);
  EXPECT_TRUE(fs::exists(dir_ / "g" / "s" / "camera.png"));
  r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "g2").string(), "-p", "flip", "--glob",
             "s/*", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(tree(dir_ / "g2").size(), 2u);
  EXPECT_TRUE(fs::exists(dir_ / "g2" / "s" / "rocket.jpg"));

  // A list: paths relative to -i, comments and blank lines ignored; a listed file that does not
  // exist fails on its own, an unsupported extension too.
  std::ofstream(dir_ / "list.txt") << "# inputs\ns/rocket.jpg\n\nmissing.png\nnotes.bmp\n";
  const fs::path report = dir_ / "r.jsonl";
  r = texcv({"batch", "--list", (dir_ / "list.txt").string(), "-i", in.string(), "-o",
             (dir_ / "l").string(), "-p", "flip", "--report", report.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(tree(dir_ / "l").size(), 1u);
  EXPECT_TRUE(fs::exists(dir_ / "l" / "s" / "rocket.jpg"));
  const auto lines = lines_of(read_all(report));
  EXPECT_EQ(lines.size(), 3u);
  EXPECT_TRUE(has(report_for(lines, (in / "missing.png").string()), "cannot stat")) << r.err;
  EXPECT_TRUE(has(report_for(lines, (in / "notes.bmp").string()), "unsupported file extension"))
      << r.err;
}

TEST_F(Batch, OutputInsideTheInputIsNeverReadAndListsWithoutInputAreRelativeToTheList) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES);
  fs::create_directories(in / "s");
  fs::copy_file(ex / "camera.png", in / "camera.png");
  fs::copy_file(ex / "rocket.jpg", in / "s" / "rocket.jpg");
  const fs::path out = in / "out";
  Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--resume"});
  EXPECT_EQ(r.code, 0) << r.err;
  // The second run sees the same two inputs (not out/camera.png), both skipped.
  EXPECT_TRUE(has(r.err, "2 file(s): 0 to process, 2 skipped")) << r.err;
  EXPECT_EQ(tree(out).size(), 2u);

  // --list without -i: entries relative to the list's folder, outputs mirror them.
  std::ofstream(in / "list.txt") << "s/rocket.jpg\n";
  r = texcv({"batch", "--list", (in / "list.txt").string(), "-o", (dir_ / "l").string(), "-p",
             "flip", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "l" / "s" / "rocket.jpg"));
  EXPECT_EQ(tree(dir_ / "l").size(), 1u);
}

TEST_F(Batch, ExistingOutputsFailUnlessResumeOrOverwrite) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES), out = dir_ / "out";
  fs::create_directories(in);
  fs::copy_file(ex / "coffee.png", in / "coffee.png");
  fs::copy_file(ex / "camera.png", in / "camera.png");
  fs::create_directories(out);
  std::ofstream(out / "camera.png") << "old";
  Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--quiet"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "the output exists (--resume skips existing outputs")) << r.err;
  EXPECT_EQ(read_all(out / "camera.png"), "old");
  fs::remove(out / "coffee.png");
  const fs::path report = dir_ / "r.jsonl";
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--resume", "--report",
             report.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_all(out / "camera.png"), "old");  // resume trusts any final-named file
  EXPECT_TRUE(has(report_for(lines_of(read_all(report)), (in / "camera.png").string()),
                  "\"status\":\"skipped\""));
  EXPECT_TRUE(has(r.err, "1 ok, 0 failed, 1 skipped (outputs exist)")) << r.err;
  r = texcv(
      {"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--overwrite", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(read_all(out / "camera.png"), "old");
}

TEST_F(Batch, FailFastStopsStartingFiles) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES), out = dir_ / "out";
  fs::create_directories(in);
  std::ofstream(in / "a_bad.png") << "not a png";  // sorted first
  for (int i = 0; i < 6; ++i) fs::copy_file(ex / "camera.png", in / numbered("b", i, ".png"));
  const fs::path report = dir_ / "r.jsonl";
  const Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--fail-fast",
                        "--decode-threads", "1", "--report", report.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(has(r.err, "stopped at the first failure (--fail-fast)")) << r.err;
  // One decode thread checks the stop flag before each file: nothing after the failure starts.
  EXPECT_EQ(count_files(out), 0u);
  const auto lines = lines_of(read_all(report));
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_TRUE(has(lines[0], "\"status\":\"failed\""));
  for (std::size_t i = 1; i < lines.size(); ++i)
    EXPECT_TRUE(has(lines[i], "\"status\":\"cancelled\"")) << lines[i];
}

TEST_F(Batch, MaxBytesAndMaxPixelsSkipLargeFiles) {
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES), out = dir_ / "out";
  fs::create_directories(in);
  fs::copy_file(ex / "coffee.png", in / "coffee.png");  // 600x400, about 466 kB
  fs::copy_file(ex / "rocket.jpg", in / "rocket.jpg");  // 640x427, about 112 kB
  Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--max-bytes",
                  "200000", "--quiet"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "coffee.png: file too large (--max-bytes); got")) << r.err;
  EXPECT_TRUE(fs::exists(out / "rocket.jpg"));
  EXPECT_FALSE(fs::exists(out / "coffee.png"));
  r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "o2").string(), "-p", "flip", "--max-pixels",
             "250000", "--quiet"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "rocket.jpg: the header claims 640x427 pixels, more than --max-pixels"))
      << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "o2" / "coffee.png"));
}

TEST_F(Batch, KilledRunResumesToIdenticalOutputsWithoutTemporaryFiles) {
  const fs::path in = make_many(dir_ / "in", 240, 96, 11);
  const std::string pipe = "gaussian_blur:sigma=1.5;resize:scale=0.75";
  const std::vector<std::string> common{"-p",       pipe,
                                        "--device", "cpu",
                                        "--quiet",  "--png-compression",
                                        "9",        "--decode-threads",
                                        "1",        "--encode-threads",
                                        "1"};
  auto args = [&](const fs::path& out, std::vector<std::string> extra) {
    std::vector<std::string> a{"batch", "-i", in.string(), "-o", out.string()};
    a.insert(a.end(), common.begin(), common.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const fs::path whole = dir_ / "whole", part = dir_ / "part";
  Proc r = texcv(args(whole, {}));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(count_files(whole), 240u);

  // Kill a second run once some outputs exist.
  const fs::path so = dir_ / "k.out", se = dir_ / "k.err";
  const pid_t pid = spawn(args(part, {}), so, se);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (count_files(part) < 40 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(pid, SIGKILL);
  const Proc killed = wait_for(pid, so, se);
  EXPECT_EQ(killed.code, -1) << "the run ended before it could be killed";
  const std::size_t done = count_files(part);
  EXPECT_GE(done, 40u);
  EXPECT_LT(done, 240u) << "the run ended before it could be killed";
  // Plant a temporary file as an interrupted write leaves it (whether or not the kill did).
  const fs::path planted = part / "d0" / "e0" / ".img0.png.tmp-0123456789abcdef";
  fs::create_directories(planted.parent_path());
  std::ofstream(planted) << "half an image";

  r = texcv(args(part, {"--resume"}));
  EXPECT_EQ(r.code, 0) << r.err;
  // Byte-identical trees: the same files (nothing missing, nothing extra such as a temporary
  // file), the same bytes.
  const auto a = tree(whole), b = tree(part);
  EXPECT_EQ(a.size(), b.size());
  for (const auto& [name, bytes] : a) {
    auto it = b.find(name);
    ASSERT_NE(it, b.end()) << name;
    EXPECT_TRUE(it->second == bytes) << name << " differs";
  }
  for (const auto& [name, bytes] : b) EXPECT_FALSE(has(name, ".tmp-")) << name;
}

TEST_F(Batch, InterruptFinishesFilesInFlightAndReportsTheRestCancelled) {
  expect_signal_stops_the_run(SIGINT);
}

TEST_F(Batch, GpuWorkersMatchTheCpuBackend) {
  TEXCV_REQUIRE_GPU();
  // flip and crop are integer-only: CUDA and CPU results are identical, so are the PNG files.
  const fs::path in = make_many(dir_ / "in", 40, 97, 21), ex(TEXCV_EXAMPLE_IMAGES);
  fs::copy_file(ex / "camera.png", in / "camera.png");
#if defined(TEXCV_HAS_TIFF)
  fs::copy_file(ex / "chessboard_GRAY_U16.tif", in / "board.tif");
#endif
  const std::string pipe = "flip:code=both;crop:x=3,y=5,width=80,height=60";
  Proc r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "cpu").string(), "-p", pipe, "--device",
                  "cpu", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path report = dir_ / "r.jsonl";
  r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "gpu").string(), "-p", pipe, "--device",
             "cuda", "--devices", "0", "--streams", "3", "--report", report.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "device cuda (GPU 0")) << r.err;
  EXPECT_EQ(tree(dir_ / "cpu"), tree(dir_ / "gpu"));
  for (const auto& l : lines_of(read_all(report)))
    EXPECT_TRUE(has(l, "\"device\":\"cuda:0\",\"cpu_fallback\":false")) << l;

  // Every GPU (one or more): the same files; then a resume over them skips every one.
  const std::size_t ngpu = texcv::gpus().size();
  const fs::path all = dir_ / "all", report_all = dir_ / "all.jsonl";
  r = texcv({"batch", "-i", in.string(), "-o", all.string(), "-p", pipe, "--device", "cuda",
             "--devices", "all", "--report", report_all.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string gpu_list;
  for (std::size_t d = 0; d < ngpu; ++d) {
    gpu_list += d ? ',' : ' ';
    gpu_list += std::to_string(d);
  }
  EXPECT_TRUE(has(r.err, "device cuda (GPU" + gpu_list + ", 2 streams each)")) << r.err;
  EXPECT_EQ(tree(dir_ / "cpu"), tree(all));
  std::size_t lines = 0;
  for (const auto& l : lines_of(read_all(report_all))) {
    ++lines;
    EXPECT_TRUE(has(l, "\"status\":\"ok\"")) << l;
    EXPECT_TRUE(has(l, "\"device\":\"cuda:")) << l;
    EXPECT_TRUE(has(l, "\"cpu_fallback\":false")) << l;
  }
  EXPECT_EQ(lines, count_files(in));
  std::cout << "[ info ] --devices all on " << ngpu << " GPU(s)\n";
  r = texcv({"batch", "-i", in.string(), "-o", all.string(), "-p", pipe, "--device", "cuda",
             "--devices", "all", "--resume"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, std::to_string(lines) + " file(s): 0 to process, " +
                             std::to_string(lines) + " skipped"))
      << r.err;
  EXPECT_EQ(tree(dir_ / "cpu"), tree(all));

  // JPEG in and out (nvJPEG when the build has it): right sizes, decodable, reported on cuda.
  const fs::path jin = dir_ / "jin";
  fs::create_directories(jin);
  for (int i = 0; i < 6; ++i) fs::copy_file(ex / "rocket.jpg", jin / numbered("r", i, ".jpg"));
  fs::copy_file(ex / "camera.png", jin / "camera.png");
  r = texcv({"batch", "-i", jin.string(), "-o", (dir_ / "jout").string(), "-p",
             "resize:scale=0.5;sharpen", "--device", "cuda", "--devices", "0", "--format", "jpeg",
             "--quality", "90", "--report", report.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  std::cout << "[ info ] " << r.err.substr(0, r.err.find('\n')) << "\n";
  for (int i = 0; i < 6; ++i) {
    const texcv::Image img = texcv::imread((dir_ / "jout" / numbered("r", i, ".jpg")).string());
    EXPECT_EQ(img.width(), 320);
    EXPECT_EQ(img.height(), 214);
    EXPECT_EQ(img.channels(), 3);
  }
  const texcv::Image cam = texcv::imread((dir_ / "jout" / "camera.jpg").string());
  EXPECT_EQ(cam.width(), 256);
  EXPECT_EQ(cam.channels(), 1);
}

// nvJPEG's batched decode on the GPU's hardware decoder (when the build has nvJPEG and the GPU
// the engines): the decoded pixels agree with libjpeg-turbo's (two JPEG decoders are not
// bit-identical: IDCT and chroma upsampling differ, so the mean and largest differences are
// bounded and printed), a truncated file still fails with libjpeg-turbo's reason, and the
// files of a batch are reported as decoded on the GPU.
TEST_F(Batch, GpuBatchedJpegDecodeAgreesWithLibjpeg) {
  TEXCV_REQUIRE_GPU();
  const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES), images(TEXCV_TEST_IMAGES),
                 data(TEXCV_TEST_DATA);
  fs::create_directories(in);
  for (int i = 0; i < 5; ++i) {
    fs::copy_file(ex / "rocket.jpg", in / numbered("r", i, ".jpg"));
    fs::copy_file(images / "hubble_deep_field.jpg", in / numbered("h", i, ".jpg"));
  }
  fs::copy_file(data / "truncated.jpg", in / "truncated.jpg");
  const std::string pipe = "flip:code=both";
  Proc r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "cpu").string(), "-p", pipe, "--device",
                  "cpu", "--format", "png", "--quiet"});
  ASSERT_EQ(r.code, 1) << r.err;  // the truncated file
  const fs::path report = dir_ / "r.jsonl";
  r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "gpu").string(), "-p", pipe, "--device",
             "cuda", "--devices", "0", "--streams", "1", "--format", "png", "--report",
             report.string()});
  ASSERT_EQ(r.code, 1) << r.err;
  std::cout << "[ info ] " << r.err.substr(0, r.err.find('\n')) << "\n";
  const bool nvjpeg = has(r.err, "JPEG codec: nvJPEG");
  // The workers find the GPU's JPEG engines in their set-up (the start line says "when it has
  // one"); asked here too.
  const bool hardware = nvjpeg && texcv::batch::gpu_jpeg_engines(0);
  for (const auto& l : lines_of(read_all(report))) {
    if (has(l, "truncated.jpg")) {
      EXPECT_TRUE(has(l, "\"status\":\"failed\"")) << l;
      EXPECT_TRUE(has(l, "Premature end of JPEG file")) << l;
      continue;
    }
    EXPECT_TRUE(has(l, "\"status\":\"ok\",")) << l;
    EXPECT_TRUE(has(l, "\"device\":\"cuda:0\",\"cpu_fallback\":false")) << l;
    // With nvJPEG every file is decoded on the GPU, by the JPEG engines when the start line
    // says so.
    if (nvjpeg) {
      EXPECT_TRUE(has(l, hardware ? "\"decoder\":\"nvjpeg-hardware\"" : "\"decoder\":\"nvjpeg-"))
          << l;
    }
  }
  for (const auto& [name, bytes] : tree(dir_ / "cpu")) {
    SCOPED_TRACE(name);
    const texcv::Image a = texcv::imread((dir_ / "cpu" / name).string());
    const texcv::Image b = texcv::imread((dir_ / "gpu" / name).string());
    ASSERT_EQ(a.width(), b.width());
    ASSERT_EQ(a.height(), b.height());
    ASSERT_EQ(a.channels(), b.channels());
    double sum = 0, worst = 0;
    for (int y = 0; y < a.height(); ++y)
      for (int x = 0; x < a.width(); ++x)
        for (int c = 0; c < a.channels(); ++c) {
          const double d = std::abs(texcv::test::at(a, x, y, c) - texcv::test::at(b, x, y, c));
          sum += d;
          worst = std::max(worst, d);
        }
    const double mean = sum / (static_cast<double>(a.width()) * a.height() * a.channels());
    std::cout << "[ info ] " << name << ": nvJPEG vs libjpeg-turbo mean |diff| " << mean
              << ", largest " << worst << "\n";
    // A swapped channel order, a wrong pitch or an unwritten buffer gives means in the tens.
    EXPECT_LT(mean, 1.5);
  }
  EXPECT_EQ(tree(dir_ / "cpu").size(), 10u);
}

TEST_F(Batch, PeakMemoryStaysFlatOverThousandsOfFiles) {
  const fs::path small = make_many(dir_ / "small", 200, 48, 3);
  const fs::path large = make_many(dir_ / "large", 3000, 48, 3);
  // Two threads of each kind whatever the machine: every thread's first files warm up its
  // malloc arena, and with the defaults of a 32-core machine (96 threads) 200 files do not warm
  // them all (measured: 12.8 MB at 200 files, 18.3 at 1,000, 21 at 3,000, 22-23 at 6,000; with
  // one arena, MALLOC_ARENA_MAX=1, 3,000 -> 6,000 files grows 0.4 MB): this test is about files.
  auto run = [&](const fs::path& in, const fs::path& out) {
    return texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "resize:scale=0.5",
                  "--device", "cpu", "--quiet", "--png-compression", "1", "--workers", "2",
                  "--decode-threads", "2", "--encode-threads", "2"});
  };
  const Proc a = run(small, dir_ / "o1");
  ASSERT_EQ(a.code, 0) << a.err;
  const Proc b = run(large, dir_ / "o2");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(count_files(dir_ / "o2"), 3000u);
  // 15x the files; the plan (paths) grows by well under 4 MB, images in flight stay bounded.
  std::cout << "[ info ] peak RSS: 200 files " << a.max_rss_kb << " kB, 3000 files " << b.max_rss_kb
            << " kB\n";
  EXPECT_LT(b.max_rss_kb, a.max_rss_kb + 4096) << "peak RSS grows with the number of files";
}

}  // namespace
