// Hostile input through the texcv command (issue 18): the caps' usage errors, texcv run's caps,
// FIFOs and devices given as inputs or lists, and a stress suite of malformed files made here
// (truncated at many points, bad CRCs and markers, huge dimension claims, chunk, tile and scan
// bombs, wrong extensions, non-regular files) run through `texcv run` and `texcv batch`: each
// file gets its verdict within 2 s and 300 MB beyond its decoded size, a report line, no output
// when it fails, and the documented exit code (docs/cli.md, docs/batch.md).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/batch_test_util.hpp"
#include "common/hostile_files.hpp"

namespace texcv::test::batch {
namespace {

using hostile::Bytes;

struct Timed {
  Proc proc;
  double wall_s = 0;
  bool timed_out = false;
};

// Runs texcv with a deadline: killed (and timed_out) past `limit_s` seconds.
Timed run_timed(const std::vector<std::string>& args, const fs::path& dir, double limit_s = 10) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = spawn(args, out, err);
  Timed t;
  int status = 0;
  struct rusage ru {};
  for (;;) {
    const pid_t r = ::wait4(pid, &status, WNOHANG, &ru);
    t.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r == pid) break;
    if (t.wall_s > limit_s) {
      t.timed_out = true;
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &ru);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  t.proc.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  t.proc.max_rss_kb = ru.ru_maxrss;
  t.proc.out = read_all(out);
  t.proc.err = read_all(err);
  return t;
}

class HostileInput : public Batch {
 protected:
  fs::path put(const fs::path& p, const Bytes& b) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << b;
    return p;
  }
};

// ---------------------------------------------------------------- the caps' values

TEST_F(HostileInput, BadCapValuesAreUsageErrors) {
  const fs::path in = put(dir_ / "in" / "a.png", hostile::png_gray(16, 16));
  struct Bad {
    const char* option;
    const char* value;
    const char* says;
  };
  const std::vector<Bad> bad = {
      {"--max-pixels", "-1",
       "--max-pixels: '-1' is not a whole number >= 0 (a negative cap would turn the cap off); "
       "expected a whole number of 0 (no cap) to 18446744073709551615, in digits only"},
      {"--max-bytes", "-5", "--max-bytes: '-5' is not a whole number >= 0"},
      {"--max-pixels", "99999999999999999999999",
       "--max-pixels: '99999999999999999999999' is too large; expected a whole number of 0 (no "
       "cap) to 18446744073709551615"},
      {"--max-pixels", "1e6", "--max-pixels: '1e6' is not a whole number >= 0"},
      {"--max-bytes", "", "--max-bytes: an empty value"}};
  for (const Bad& b : bad) {
    SCOPED_TRACE(std::string(b.option) + " " + b.value);
    const Proc r = texcv({"run", "-i", in.string(), "-o", (dir_ / "o.png").string(), "-p", "flip",
                          b.option, b.value});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(has(r.err, b.says)) << r.err;
    const Proc s = texcv({"batch", "-i", (dir_ / "in").string(), "-o", (dir_ / "out").string(),
                          "-p", "flip", b.option, b.value});
    EXPECT_EQ(s.code, 2) << s.err;
    EXPECT_TRUE(has(s.err, b.says)) << s.err;
  }
  EXPECT_FALSE(fs::exists(dir_ / "o.png"));
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  // 0 is "no cap", as documented.
  EXPECT_EQ(texcv({"run", "-i", in.string(), "-o", (dir_ / "o.png").string(), "-p", "flip",
                   "--max-pixels", "0", "--max-bytes", "0"})
                .code,
            0);
}

// texcv run has batch's caps, with the same defaults: a 30000x30000 PNG (900 megapixels) that
// batch refused was decoded by run (887 MB); now both refuse it before decoding.
TEST_F(HostileInput, RunHasBatchsCapsWithTheSameDefaults) {
  const fs::path bomb = put(dir_ / "in" / "bomb.png", hostile::png_header_bomb(30000, 30000));
  const Proc r = texcv({"run", "-i", bomb.string(), "-o", (dir_ / "o.png").string(), "-p", "flip"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err,
                  "the image is 30000x30000 pixels, more than the pixel cap "
                  "(--max-pixels); got 900000000 pixels, expected at most 256000000"))
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o.png"));
  const fs::path small = put(dir_ / "in" / "s.png", hostile::png_gray(40, 30));
  const Proc p = texcv({"run", "-i", small.string(), "-o", (dir_ / "o.png").string(), "-p", "flip",
                        "--max-pixels", "1199"});
  EXPECT_EQ(p.code, 1);
  EXPECT_TRUE(has(p.err,
                  "the image is 40x30 pixels, more than the pixel cap (--max-pixels); got "
                  "1200 pixels, expected at most 1199"))
      << p.err;
  const Proc b = texcv({"run", "-i", small.string(), "-o", (dir_ / "o.png").string(), "-p", "flip",
                        "--max-bytes", "100"});
  EXPECT_EQ(b.code, 1);
  EXPECT_TRUE(has(b.err, "file too large (--max-bytes); got " +
                             std::to_string(fs::file_size(small)) + " bytes, expected at most 100"))
      << b.err;
  EXPECT_FALSE(fs::exists(dir_ / "o.png"));
  // The default byte cap (2 GiB), from stat, before the file is opened or its signature read (a
  // sparse file: nothing is written).
  const fs::path huge = dir_ / "in" / "huge.tif";
  { std::ofstream(huge) << "II*"; }
  fs::resize_file(huge, 3'000'000'000);
  const Proc h = texcv({"run", "-i", huge.string(), "-o", (dir_ / "o.tif").string(), "-p", "flip"});
  EXPECT_EQ(h.code, 1);
  EXPECT_TRUE(has(h.err, "texcv: " + huge.string() +
                             ": file too large (--max-bytes); got 3000000000 bytes, expected at "
                             "most 2147483648"))
      << h.err;
  EXPECT_FALSE(fs::exists(dir_ / "o.tif"));
  // The help of both commands shows the one default, on the option's line (CLI11's layout differs
  // by version: "UINT:N=256000000" here, "UINT:N [256000000]" with the GPU machine's CLI11).
  const auto option_line = [](const std::string& help, const std::string& opt) {
    const std::size_t at = help.find(opt + " ");
    if (at == std::string::npos) return std::string();
    return help.substr(at, help.find('\n', at) - at);
  };
  for (const char* cmd : {"run", "batch"}) {
    const Proc h = texcv({cmd, "--help"});
    EXPECT_TRUE(has(option_line(h.out, "--max-pixels"), "256000000")) << cmd << ":\n" << h.out;
    EXPECT_TRUE(has(option_line(h.out, "--max-bytes"), "2147483648")) << cmd << ":\n" << h.out;
  }
}

// texcv run -i fifo.png blocked for ever in open(); it is refused from stat now.
TEST_F(HostileInput, RunRefusesAFifoWithoutBlocking) {
  const fs::path fifo = dir_ / "fifo.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Timed t = run_timed(
      {"run", "-i", fifo.string(), "-o", (dir_ / "o.png").string(), "-p", "flip"}, dir_, 5);
  ASSERT_FALSE(t.timed_out) << "texcv run blocked on a FIFO";
  EXPECT_EQ(t.proc.code, 1);
  EXPECT_TRUE(has(t.proc.err, "not a regular file (a FIFO); expected a regular image file"))
      << t.proc.err;
  EXPECT_FALSE(fs::exists(dir_ / "o.png"));
}

// --list /dev/zero read until memory ran out (2.2 GB in 8 s); a list that is no regular file,
// or larger than 64 MiB, is a usage error.
TEST_F(HostileInput, ListMustBeABoundedRegularFile) {
  put(dir_ / "in" / "a.png", hostile::png_gray(16, 16));
  const fs::path fifo = dir_ / "list.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path zero = dir_ / "zero.txt";
  fs::create_symlink("/dev/zero", zero);
  const fs::path big = dir_ / "big.txt";
  { std::ofstream(big) << "a.png\n"; }
  fs::resize_file(big, (std::uintmax_t{64} << 20) + 1);  // sparse: no 64 MiB written
  struct Case {
    fs::path list;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"/dev/zero",
       "--list '/dev/zero': not a regular file (a character device); expected a regular file of "
       "paths, one a line"},
      {zero, "not a regular file (a character device)"},
      {fifo, "not a regular file (a FIFO)"},
      {dir_ / "in", "not a regular file (a directory)"},
      {big,
       "the list file is larger than 67108864 bytes (64 MiB); expected at most that (split the "
       "list)"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.list.string());
    const Timed t = run_timed({"batch", "--list", c.list.string(), "-i", (dir_ / "in").string(),
                               "-o", (dir_ / "out").string(), "-p", "flip"},
                              dir_, 5);
    ASSERT_FALSE(t.timed_out);
    EXPECT_EQ(t.proc.code, 2);
    EXPECT_TRUE(has(t.proc.err, c.says)) << t.proc.err;
    EXPECT_LT(t.proc.max_rss_kb, 100 * 1024);
  }
  EXPECT_FALSE(fs::exists(dir_ / "out" / "a.png"));
}

// ---------------------------------------------------------------- the stress suite

struct Hostile {
  std::string name;  // file name (its extension picks the codec)
  Bytes bytes;
  enum Kind { file, fifo, folder, dev_zero } kind = file;
  bool must_fail = true;
  std::uint64_t decoded_bytes = 0;  // what a successful decode may allocate
};

Bytes cut(const Bytes& b, std::size_t n) {
  return b.substr(0, std::min(n, b.size()));
}
Bytes flipped(Bytes b, std::size_t at, unsigned char mask = 0xFF) {
  if (at < b.size()) b[at] = static_cast<char>(static_cast<unsigned char>(b[at]) ^ mask);
  return b;
}
Bytes from(const std::vector<unsigned char>& v) {
  return Bytes(reinterpret_cast<const char*>(v.data()), v.size());
}

// Where `marker` (FF xx) first occurs in a JPEG.
std::size_t marker_at(const Bytes& b, unsigned char marker) {
  for (std::size_t i = 0; i + 1 < b.size(); ++i)
    if (static_cast<unsigned char>(b[i]) == 0xFF && static_cast<unsigned char>(b[i + 1]) == marker)
      return i;
  return Bytes::npos;
}

std::vector<Hostile> make_hostile_files() {
  std::vector<Hostile> v;
  const Image rgb = random_image(64, 48, 3, ElemType::u8, 11);
  struct Base {
    const char* stem;
    const char* ext;
    Bytes bytes;
  };
  std::vector<Base> bases = {
      {"png_stored", ".png", hostile::png_gray(64, 48)},
      {"png_deflate", ".png", from(imencode(rgb.view(), ImageFormat::png))},
      {"jpeg_baseline", ".jpg", from(imencode(rgb.view(), ImageFormat::jpeg))},
      {"jpeg_progressive", ".jpg", hostile::jpeg_flat(64, 48, 3, true)}};
#if defined(TEXCV_HAS_TIFF)
  WriteOptions deflate;
  deflate.tiff_compression = TiffCompression::deflate;
  bases.push_back({"tiff_none", ".tif", from(imencode(rgb.view(), ImageFormat::tiff))});
  bases.push_back({"tiff_deflate", ".tif", from(imencode(rgb.view(), ImageFormat::tiff, deflate))});
#endif
  const std::uint64_t decoded = 64 * 48 * 3;
  for (const Base& b : bases) {
    v.push_back({std::string(b.stem) + "_sound" + b.ext, b.bytes, Hostile::file, false, decoded});
    // Truncated at many points: inside the signature, the header, the data, just before the end.
    const std::size_t n = b.bytes.size();
    for (const std::size_t at : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{20},
                                 std::size_t{40}, n / 8, n / 4, n / 2, 3 * n / 4, n - 2}) {
      v.push_back({std::string(b.stem) + "_cut" + std::to_string(at) + b.ext, cut(b.bytes, at),
                   Hostile::file, true, decoded});
    }
    // Wrong extension: the bytes of one format under another's name.
    const char* other = std::string(b.ext) == ".png" ? ".jpg" : ".png";
    v.push_back({std::string(b.stem) + "_misnamed" + other, b.bytes, Hostile::file, true, decoded});
  }
  // PNG: bad CRCs (IHDR, IDAT), a damaged zlib stream, no IEND.
  const Bytes png = bases[0].bytes;
  v.push_back({"png_bad_ihdr_crc.png", flipped(png, 8 + 8 + 13), Hostile::file, true, decoded});
  v.push_back(
      {"png_bad_idat_crc.png", flipped(png, png.size() - 12 - 1), Hostile::file, true, decoded});
  v.push_back({"png_bad_zlib.png", flipped(png, 8 + 25 + 8), Hostile::file, true, decoded});
  v.push_back({"png_no_iend.png", cut(png, png.size() - 12), Hostile::file, true, decoded});
  // JPEG: damaged markers (SOF turned into a lossless SOF3, DHT's length, the SOS gone, no EOI),
  // entropy bytes flipped, a header claiming 65500x65500.
  const Bytes jpg = bases[2].bytes;
  const std::size_t sof = marker_at(jpg, 0xC0), dht = marker_at(jpg, 0xC4),
                    sos = marker_at(jpg, 0xDA);
  v.push_back({"jpeg_sof3.jpg", flipped(jpg, sof + 1, 0x03), Hostile::file, true, decoded});
  v.push_back({"jpeg_bad_dht.jpg", flipped(jpg, dht + 3, 0x40), Hostile::file, true, decoded});
  v.push_back({"jpeg_no_sos.jpg", flipped(jpg, sos + 1, 0x20), Hostile::file, true, decoded});
  v.push_back({"jpeg_no_eoi.jpg", cut(jpg, jpg.size() - 2), Hostile::file, true, decoded});
  {
    Bytes b = jpg;
    for (std::size_t i = sos + 20; i < b.size() - 2; i += 37) b[i] = static_cast<char>(0x5A);
    v.push_back({"jpeg_garbled_entropy.jpg", b, Hostile::file, true, decoded});
    Bytes huge = jpg;
    huge[sof + 5] = huge[sof + 7] = static_cast<char>(0xFF);  // height, width 0xFFxx
    huge[sof + 6] = huge[sof + 8] = static_cast<char>(0xDC);  // 65500
    v.push_back({"jpeg_claims_65500.jpg", huge, Hostile::file, true, 0});
  }
  // Bombs: huge claims, chunks, tiles, scans.
  v.push_back({"png_claims_30000.png", hostile::png_header_bomb(30000, 30000), Hostile::file});
  v.push_back({"png_claims_1e6.png", hostile::png_header_bomb(1000000, 1000000), Hostile::file});
  v.push_back({"png_claims_2e9.png", hostile::png_header_bomb(0x7FFFFFFFu, 1), Hostile::file});
  for (const char* t : {"tEXt", "zTXt", "iTXt", "iCCP", "sPLT", "abCd"})
    v.push_back({std::string("png_chunk_bomb_") + t + ".png", hostile::png_chunk_bomb(t)});
  v.push_back({"jpeg_scan_bomb.jpg", hostile::jpeg_scan_bomb(1024, 1024, 2000)});
#if defined(TEXCV_HAS_TIFF)
  v.push_back({"tiff_claims_60000.tif", hostile::tiff_header_bomb(60000, 60000)});
  v.push_back({"tiff_tile_bomb.tif", hostile::tiff_tile_bomb()});
  v.push_back({"tiff_byte_count_bomb.tif", hostile::tiff_byte_count_bomb()});
  {
    Bytes b = bases[4].bytes;  // the IFD offset (bytes 4-7) past the end
    b[7] = static_cast<char>(0x7F);
    v.push_back({"tiff_ifd_past_end.tif", b});
  }
#endif
  // Not images at all, and not regular files.
  v.push_back({"text.png", "hello, this is not an image\n"});
  v.push_back({"empty.jpg", ""});
  v.push_back({"fifo.png", "", Hostile::fifo});
  v.push_back({"folder.png", "", Hostile::folder});
  v.push_back({"zero.png", "", Hostile::dev_zero});
  return v;
}

TEST_F(HostileInput, StressSuiteEveryFileGetsABoundedVerdict) {
  const fs::path in = dir_ / "in";
  fs::create_directories(in);
  const std::vector<Hostile> files = make_hostile_files();
  std::string list_all;
  for (const Hostile& h : files) {
    const fs::path p = in / h.name;
    switch (h.kind) {
      case Hostile::file:
        put(p, h.bytes);
        break;
      case Hostile::fifo:
        ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
        break;
      case Hostile::folder:
        fs::create_directory(p);
        break;
      case Hostile::dev_zero:
        fs::create_symlink("/dev/zero", p);
        break;
    }
    list_all += h.name + "\n";
  }
  constexpr double kLimitS = 2.0;
  constexpr long kAllowanceKb = 300 * 1024;
  double slowest = 0;
  long largest_kb = 0;
  std::string slowest_name, largest_name;
  auto measure = [&](const Timed& t, const Hostile& h, const char* how) {
    EXPECT_FALSE(t.timed_out) << how << " " << h.name << " did not finish";
    EXPECT_LT(t.wall_s, kLimitS) << how << " " << h.name;
    EXPECT_LT(t.proc.max_rss_kb, kAllowanceKb + static_cast<long>(h.decoded_bytes / 1024))
        << how << " " << h.name;
    if (t.wall_s > slowest) {
      slowest = t.wall_s;
      slowest_name = std::string(how) + " " + h.name;
    }
    if (t.proc.max_rss_kb > largest_kb) {
      largest_kb = t.proc.max_rss_kb;
      largest_name = std::string(how) + " " + h.name;
    }
  };
  std::size_t failed = 0;
  for (const Hostile& h : files) {
    SCOPED_TRACE(h.name);
    const fs::path p = in / h.name;
    // texcv run, one file: exit 0 and an output, or exit 1, a message and no output.
    const fs::path run_out = dir_ / "run_out";
    fs::create_directories(run_out);
    const Timed r = run_timed(
        {"run", "-i", p.string(), "-o", (run_out / "").string(), "-p", "flip", "--quiet"}, dir_);
    measure(r, h, "run");
    const bool run_ok = r.proc.code == 0;
    if (h.kind == Hostile::folder) {  // run takes a folder as a folder: one without images
      EXPECT_EQ(r.proc.code, 2) << r.proc.err;
      EXPECT_TRUE(has(r.proc.err, "has no image files")) << r.proc.err;
    } else {
      EXPECT_TRUE(r.proc.code == 0 || r.proc.code == 1) << r.proc.code << " " << r.proc.err;
      if (!run_ok) {
        EXPECT_TRUE(has(r.proc.err, "texcv: " + p.string() + ": ")) << r.proc.err;
      }
    }
    EXPECT_EQ(fs::exists(run_out / h.name), run_ok) << r.proc.err;
    if (h.must_fail) {
      EXPECT_FALSE(run_ok) << "decoded: " << h.name;
    }
    // texcv batch, the same file through a one-line list: one report line, the same verdict.
    const fs::path list = dir_ / "one.txt", report = dir_ / "one.jsonl";
    const fs::path batch_out = dir_ / "batch_out";
    { std::ofstream(list) << h.name << "\n"; }
    const Timed b =
        run_timed({"batch", "--list", list.string(), "-i", in.string(), "-o", batch_out.string(),
                   "-p", "flip", "--device", "cpu", "--report", report.string(), "--quiet"},
                  dir_);
    measure(b, h, "batch");
    const auto lines = lines_of(read_all(report));
    ASSERT_EQ(lines.size(), 1u) << b.proc.err;
    const bool batch_ok = has(lines[0], "\"status\":\"ok\"");
    EXPECT_EQ(b.proc.code, batch_ok ? 0 : 1) << b.proc.err;
    EXPECT_EQ(batch_ok, run_ok) << lines[0] << "\n" << r.proc.err;
    if (!batch_ok) {
      EXPECT_TRUE(has(lines[0], "\"status\":\"failed\"")) << lines[0];
      EXPECT_FALSE(fs::exists(batch_out / h.name));
      ++failed;
    }
    for (const auto& [name, bytes] : tree(run_out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
    for (const auto& [name, bytes] : tree(batch_out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
    std::error_code ec;
    fs::remove_all(batch_out, ec);
    fs::remove(report, ec);
  }
  // All of them in one batch: a report line each, outputs for the ok ones only, exit 1.
  const fs::path list = dir_ / "all.txt", report = dir_ / "all.jsonl", out = dir_ / "all_out";
  { std::ofstream(list) << list_all; }
  const Timed all = run_timed({"batch", "--list", list.string(), "-i", in.string(), "-o",
                               out.string(), "-p", "flip", "--report", report.string()},
                              dir_, 60);
  ASSERT_FALSE(all.timed_out);
  EXPECT_EQ(all.proc.code, 1) << all.proc.err;
  const auto lines = lines_of(read_all(report));
  EXPECT_EQ(lines.size(), files.size());
  std::size_t ok_lines = 0;
  for (const Hostile& h : files) {
    const std::string l = report_for(lines, (in / h.name).string());
    EXPECT_FALSE(l.empty()) << h.name;
    const bool ok = has(l, "\"status\":\"ok\"");
    ok_lines += ok;
    EXPECT_EQ(fs::exists(out / h.name), ok) << l;
    if (h.must_fail) {
      EXPECT_FALSE(ok) << l;
    }
  }
  EXPECT_EQ(ok_lines + failed, files.size());
  EXPECT_TRUE(has(all.proc.err, std::to_string(failed) + " failed")) << all.proc.err;
  for (const auto& [name, bytes] : tree(out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
  std::cout << "[ info ] " << files.size() << " files, " << failed << " failed; slowest "
            << slowest_name << " " << slowest << " s; largest " << largest_name << " "
            << largest_kb / 1024 << " MB; all in one batch " << all.wall_s << " s, "
            << all.proc.max_rss_kb / 1024 << " MB\n";
}

}  // namespace
}  // namespace texcv::test::batch
