// texcv batch's promises on data that matters (issue 14, docs/batch.md "What texcv batch
// never does"): no write lands on an input, the --list file or the --report file, whatever links
// lead there; corrupt data never counts as ok, with the same verdict on every device; names of
// any bytes are written, reported as valid JSON and printed escaped; SIGHUP stops a run as SIGTERM
// does; one run at a time writes into an output folder. Run as a process, mostly --device cpu.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "cli/batch_test_util.hpp"

namespace fs = std::filesystem;
using namespace texcv::test::batch;

namespace {

class BatchSafety : public Batch {
 protected:
  // in/a.png, in/b.jpg and in/sub/c.png (real photographs), their bytes kept to compare.
  fs::path make_inputs() {
    const fs::path in = dir_ / "in", ex(TEXCV_EXAMPLE_IMAGES);
    fs::create_directories(in / "sub");
    fs::copy_file(ex / "camera.png", in / "a.png");
    fs::copy_file(ex / "rocket.jpg", in / "b.jpg");
    fs::copy_file(ex / "chelsea.png", in / "sub" / "c.png");
    original_ = tree(in);
    return in;
  }
  // Every input file is still there with its bytes, and nothing was added to the input tree
  // (other than what `added` names).
  void expect_inputs_intact(const fs::path& in, const std::vector<std::string>& added = {}) {
    auto now = tree(in);
    for (const auto& name : added) now.erase(name);
    EXPECT_EQ(now.size(), original_.size());
    for (const auto& [name, bytes] : original_) {
      auto it = now.find(name);
      ASSERT_NE(it, now.end()) << name << " is gone";
      EXPECT_TRUE(it->second == bytes) << name << " was overwritten";
    }
  }
  std::map<std::string, std::string> original_;
};

// The value of "key":"..." in a report line ("" when absent).
std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\":\"";
  const std::size_t b = line.find(k);
  if (b == std::string::npos) return {};
  const std::size_t e = line.find('"', b + k.size());
  return line.substr(b + k.size(), e - b - k.size());
}

// Whether s is valid UTF-8 without raw control characters (what a JSON string may hold).
bool json_safe_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size() || c < 0x20) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

// RFC 4648 base64 decoding (the test's own, to check the report's input_bytes).
std::string unbase64(const std::string& s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  };
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (char c : s) {
    const int v = val(c);
    if (v < 0) break;  // '=' padding
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

// Raw control characters other than the newline that ends each line.
bool has_raw_controls(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c < 0x20 && c != '\n') || c == 0x7F;
  });
}

TEST_F(BatchSafety, ReportNeverReplacesAnInputTheListOrAPlannedOutput) {
  const fs::path in = make_inputs(), out = dir_ / "out", list = dir_ / "l.txt";
  std::ofstream(list) << "a.png\n";
  const std::string list_text = read_all(list);
  auto batch = [&](std::vector<std::string> extra) {
    std::vector<std::string> a{"batch", "-p", "flip", "--device", "cpu", "-o", out.string()};
    a.insert(a.end(), extra.begin(), extra.end());
    return texcv(a);
  };
  // The report named as an input.
  Proc r = batch({"-i", in.string(), "--report", (in / "a.png").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "the report file is the input '" + (in / "a.png").string() + "'"))
      << r.err;
  // The same input through a symlink beside it: the same file on disk.
  fs::create_symlink(in / "a.png", dir_ / "alias.png");
  r = batch({"-i", in.string(), "--report", (dir_ / "alias.png").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "the report file is the input '")) << r.err;
  // The report named as the list.
  r = batch({"-i", in.string(), "--list", list.string(), "--report", list.string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "the report file is the --list file")) << r.err;
  // The report named as a planned output (which does not exist yet).
  r = batch({"-i", in.string(), "--report", (out / "b.jpg").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "the report file is the output of '")) << r.err;
  // --dry-run finds the same.
  r = batch({"-i", in.string(), "--report", (in / "a.png").string(), "--dry-run"});
  EXPECT_EQ(r.code, 2) << r.err;
  expect_inputs_intact(in);
  EXPECT_EQ(read_all(list), list_text);
  EXPECT_FALSE(fs::exists(out)) << "a refused run wrote its output folder";
}

TEST_F(BatchSafety, OutputReachedThroughLinksNeverReplacesAnInput) {
  const fs::path in = make_inputs();
  // -o a symlink to the input folder: the same folder on disk (as through a bind mount).
  fs::create_directory_symlink(in, dir_ / "alias");
  Proc r = texcv({"batch", "-i", in.string(), "-o", (dir_ / "alias").string(), "-p", "flip",
                  "--device", "cpu", "--overwrite"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "is the input folder")) << r.err;
  EXPECT_TRUE(has(r.err, "(the same folder on disk)")) << r.err;
  // texcv run: the same rule.
  r = texcv({"run", "-i", in.string(), "-o", (dir_ / "alias").string(), "-p", "flip", "--device",
             "cpu", "--overwrite"});
  EXPECT_EQ(r.code, 2) << r.err;

  // A folder of the output tree that is a symlink into the input folder.
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  fs::create_directory_symlink(in / "sub", out / "sub");
  const fs::path report = dir_ / "r.jsonl";
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
             "--overwrite", "--report", report.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto lines = lines_of(read_all(report));
  const std::string c = report_for(lines, (in / "sub" / "c.png").string());
  EXPECT_TRUE(has(c, "\"status\":\"failed\"")) << c;
  EXPECT_TRUE(has(c, "inside the input folder")) << c;
  EXPECT_TRUE(has(report_for(lines, (in / "a.png").string()), "\"status\":\"ok\""));

  // An output that is a hard link to an input (the same file under another name).
  const fs::path out2 = dir_ / "out2";
  fs::create_directories(out2);
  fs::create_hard_link(in / "a.png", out2 / "a.png");
  r = texcv({"batch", "-i", in.string(), "-o", out2.string(), "-p", "flip", "--device", "cpu",
             "--overwrite", "--quiet"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(has(r.err, "the output is the input '")) << r.err;
  const fs::path out3 = dir_ / "out3";
  fs::create_directories(out3);
  fs::create_hard_link(in / "b.jpg", out3 / "b.jpg");
  r = texcv({"run", "-i", in.string(), "-o", out3.string(), "-p", "flip", "--device", "cpu",
             "--overwrite", "--quiet"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(has(r.err, "is one of the inputs (the same file on disk")) << r.err;
  expect_inputs_intact(in);
}

TEST_F(BatchSafety, OutputInsideTheInputExcludesItsFilesAndTheReportSaysSo) {
  const fs::path in = make_inputs(), report = dir_ / "r.jsonl";
  Proc r = texcv({"batch", "-i", in.string(), "-o", (in / "sub").string(), "-p", "flip", "--device",
                  "cpu", "--overwrite", "--quiet", "--report", report.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  // Said on stderr even with --quiet, and in the report: a line for in/sub/c.png.
  EXPECT_TRUE(has(r.err, "1 file(s) under the output folder")) << r.err;
  const auto lines = lines_of(read_all(report));
  EXPECT_EQ(lines.size(), 3u);
  const std::string c = report_for(lines, (in / "sub" / "c.png").string());
  EXPECT_TRUE(has(c, "\"status\":\"excluded\"")) << c;
  EXPECT_TRUE(has(c, "\"output\":null")) << c;
  // in/sub/c.png was neither read nor replaced; a.png and b.jpg were written beside it.
  expect_inputs_intact(in, {"sub/a.png", "sub/b.jpg"});
  EXPECT_TRUE(fs::exists(in / "sub" / "a.png"));

  // With --list, -o the input folder itself is refused as without it (it replaced an unlisted
  // file before), and nothing in the folder changes.
  const fs::path list = dir_ / "l.txt";
  std::ofstream(list) << "a.png\n";
  fs::copy_file(in / "a.png", in / "c.png");
  original_ = tree(in);
  r = texcv({"batch", "--list", list.string(), "-i", in.string(), "-o", in.string(), "--format",
             "png", "-p", "flip", "--device", "cpu", "--overwrite"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "is the input folder")) << r.err;
  expect_inputs_intact(in);
}

// -o naming the input folder through a bind mount (the case: the mount has another path
// and no symlink in it; only the identity tells). The mount is made in a private user and mount
// namespace (unshare -rm), so the test needs no privileges where unprivileged user namespaces
// are allowed; elsewhere it says why it cannot run.
TEST_F(BatchSafety, OutputFolderThatIsTheInputThroughABindMountIsRefused) {
  if (std::system("unshare -rm true >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "cannot make a bind mount here: `unshare -rm` (a user and mount namespace) "
                    "is not available or not allowed";
  const fs::path in = make_inputs(), mnt = dir_ / "mnt", err = dir_ / "err.txt";
  fs::create_directories(mnt);
  for (const char* cmd : {"batch", "run"}) {
    const std::string line = "unshare -rm sh -c 'mount --bind " + in.string() + " " + mnt.string() +
                             " && exec " + TEXCV_CLI_PATH + " " + cmd + " -i " + in.string() +
                             " -o " + mnt.string() + " -p flip --device cpu --overwrite' 2>" +
                             err.string();
    const int status = std::system(line.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << line;
    EXPECT_EQ(WEXITSTATUS(status), 2) << cmd << ": " << read_all(err);
  }
  EXPECT_TRUE(has(read_all(err), "is the input folder")) << read_all(err);
  expect_inputs_intact(in);
  EXPECT_TRUE(fs::is_empty(mnt)) << "the mount point itself was written";
}

TEST_F(BatchSafety, ListEntriesAreResolvedBeforeTheInsideTheInputCheck) {
  const fs::path in = make_inputs(), outside = dir_ / "outside";
  fs::create_directories(outside / "deep");
  fs::copy_file(in / "a.png", outside / "x.png");
  fs::copy_file(in / "a.png", in / "x.png");
  fs::create_directory_symlink(outside / "deep", in / "symdir");
  // As text, "symdir/../x.png" is in/x.png; the kernel reads outside/x.png.
  const fs::path list = dir_ / "l.txt", report = dir_ / "r.jsonl";
  std::ofstream(list) << "symdir/../x.png\na.png\n";
  Proc r =
      texcv({"batch", "--list", list.string(), "-i", in.string(), "-o", (dir_ / "out").string(),
             "-p", "flip", "--device", "cpu", "--report", report.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto lines = lines_of(read_all(report));
  const std::string x = report_for(lines, (in / "symdir/../x.png").string());
  EXPECT_TRUE(has(x, "\"status\":\"failed\"")) << x;
  EXPECT_TRUE(has(x, "\"stage\":\"plan\"")) << x;
  EXPECT_TRUE(has(x, "not under the input folder")) << x;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "x.png"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "a.png"));
}

TEST_F(BatchSafety, OutputNamingAFileIsAUsageErrorInRunAndBatch) {
  const fs::path in = make_inputs(), file = dir_ / "taken.png";
  std::ofstream(file) << "not a folder";
  Proc r =
      texcv({"batch", "-i", in.string(), "-o", file.string(), "-p", "flip", "--device", "cpu"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "is a file, but the input is the folder")) << r.err;
  r = texcv({"run", "-i", in.string(), "-o", file.string(), "-p", "flip", "--device", "cpu"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(read_all(file), "not a folder");
}

TEST_F(BatchSafety, NamesOfEveryLengthAndByteAreWrittenReportedAsJsonAndPrintedEscaped) {
  const fs::path in = dir_ / "in", out = dir_ / "out", report = dir_ / "r.jsonl";
  fs::create_directories(in);
  const fs::path ex(TEXCV_EXAMPLE_IMAGES);
  // 251 and 255 bytes: the longest names ext4 and tmpfs accept; ".NAME.tmp-<16 hex>" would not.
  const std::string long1 = std::string(247, 'L') + ".png", long2 = std::string(251, 'M') + ".png";
  const std::string bad = std::string("bad\xff\xfe") + "name.png";
  const std::string evil = "evil\n\x1b[2Jtexcv batch: 0 failed\x07.png";
  for (const auto& n : {long1, long2, bad, evil}) fs::copy_file(ex / "camera.png", in / n);

  Proc dry = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
                    "--dry-run"});
  EXPECT_EQ(dry.code, 0) << dry.err;
  EXPECT_FALSE(has_raw_controls(dry.out)) << dry.out;
  EXPECT_TRUE(has(dry.out, "evil\\n\\e[2Jtexcv batch: 0 failed\\x07.png")) << dry.out;
  EXPECT_TRUE(has(dry.out, "bad\\xff\\xfename.png")) << dry.out;

  Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
                  "--report", report.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(has_raw_controls(r.err)) << r.err;
  for (const auto& n : {long1, long2, bad, evil}) {
    EXPECT_TRUE(fs::exists(out / n)) << n.size() << "-byte name not written";
    EXPECT_EQ(texcv::read_info((out / n).string()).width, 512) << n;
  }
  for (const auto& [name, bytes] : tree(out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
  const auto lines = lines_of(read_all(report));
  ASSERT_EQ(lines.size(), 4u);
  bool saw_bad = false;
  for (const auto& l : lines) {
    EXPECT_TRUE(json_safe_utf8(l)) << l;
    EXPECT_TRUE(has(l, "\"status\":\"ok\"")) << l;
    if (has(l, "\"input_bytes\"")) {
      saw_bad = true;
      EXPECT_EQ(unbase64(field(l, "input_bytes")), (in / bad).string());
      EXPECT_EQ(unbase64(field(l, "output_bytes")), (out / bad).string());
      EXPECT_TRUE(has(l, "bad\xEF\xBF\xBD\xEF\xBF\xBDname.png")) << l;  // U+FFFD twice
    }
  }
  EXPECT_TRUE(saw_bad) << "no report line has input_bytes";
  // The evil name's newline and ESC are JSON escapes in its report line.
  EXPECT_TRUE(has(read_all(report), "evil\\n\\u001b[2J")) << read_all(report);

  // A temporary file of the 255-byte name, as an interrupted write leaves it: its shortened name
  // fits, and the next run finds it stale and removes it (a plain one beside it too).
  const std::string prefix = texcv::temp_file_prefix(long2);
  EXPECT_EQ(prefix.compare(0, 201, "." + long2.substr(0, 200)), 0) << prefix;
  EXPECT_LE(prefix.size() + 16, 255u);
  std::ofstream(out / (prefix + "0123456789abcdef")) << "half an image";
  std::ofstream(out / ("." + bad + ".tmp-fedcba9876543210")) << "half an image";
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
             "--resume"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "removed 2 temporary file(s) left by an interrupted run")) << r.err;
  for (const auto& [name, bytes] : tree(out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
}

TEST_F(BatchSafety, SighupStopsTheRunAsSigtermDoes) {
  expect_signal_stops_the_run(SIGHUP);
  expect_signal_stops_the_run(SIGTERM);
}

TEST_F(BatchSafety, ASecondRunIntoTheSameOutputFolderIsRefusedAndLeavesItsFilesAlone) {
  const fs::path in = make_inputs(), out = dir_ / "out";
  fs::create_directories(out);
  // A run in flight: it holds the folder's lock and has a temporary file open.
  const int fd = ::open(out.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const fs::path in_flight = out / ".a.png.tmp-0123456789abcdef";
  std::ofstream(in_flight) << "half an image";
  Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
                  "--resume"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "another texcv batch is writing into the output folder")) << r.err;
  EXPECT_TRUE(fs::exists(in_flight)) << "the second run removed the first run's temporary file";
  EXPECT_EQ(tree(out).size(), 1u);
  // Once the first run has ended, its temporary file is stale: the next run removes it.
  ::close(fd);
  r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device", "cpu",
             "--resume"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "removed 1 temporary file(s) left by an interrupted run")) << r.err;
  EXPECT_FALSE(fs::exists(in_flight));
}

// ---- Corrupt data: one verdict per file, on every device --------------------------------------

// bytes[from, from + n) replaced by a pattern with no 0xFF byte (entropy-coded garbage, no
// marker).
std::string overwrite_run(std::string bytes, std::size_t from, std::size_t n) {
  for (std::size_t i = 0; i < n && from + i < bytes.size(); ++i)
    bytes[from + i] = static_cast<char>((i * 37 + 11) % 251);
  return bytes;
}

// Where a JPEG's entropy-coded data starts (after the first SOS segment).
std::size_t jpeg_scan_start(const std::string& j) {
  for (std::size_t i = 2; i + 4 < j.size();) {
    if (static_cast<unsigned char>(j[i]) != 0xFF) return 0;
    const auto marker = static_cast<unsigned char>(j[i + 1]);
    const std::size_t len =
        (static_cast<unsigned char>(j[i + 2]) << 8) | static_cast<unsigned char>(j[i + 3]);
    if (marker == 0xDA) return i + 2 + len;
    i += 2 + len;
  }
  return 0;
}

// The damaged and good files of the verdict test (name -> the CPU's expected status).
std::map<std::string, std::string> make_damaged_folder(const fs::path& in) {
  fs::create_directories(in);
  const fs::path ex(TEXCV_EXAMPLE_IMAGES);
  const std::string jpg = read_all(texcv::test::sample_image("hubble_deep_field.jpg"));
  const std::string png = read_all(ex / "camera.png");
  const std::size_t scan = jpeg_scan_start(jpg);
  EXPECT_GT(scan, 0u);
  const std::size_t mid = scan + (jpg.size() - scan) / 2;
  auto put = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(in / name, std::ios::binary) << bytes;
  };
  std::map<std::string, std::string> expect;
  put("j_good.jpg", jpg);
  expect["j_good.jpg"] = "ok";
  put("j_truncated.jpg", jpg.substr(0, jpg.size() / 2));  // no end-of-image marker
  expect["j_truncated.jpg"] = "failed";
  put("j_entropy.jpg", overwrite_run(jpg, mid, 600));  // Huffman data garbled, no marker in it
  expect["j_entropy.jpg"] = "failed";
  std::string marker = jpg;
  marker[mid] = static_cast<char>(0xFF);  // a marker (0xFF 0x05) in the middle of the scan
  marker[mid + 1] = 0x05;
  put("j_marker.jpg", marker);
  expect["j_marker.jpg"] = "failed";
  put("p_good.png", png);
  expect["p_good.png"] = "ok";
  put("p_truncated.png", png.substr(0, png.size() * 3 / 5));
  expect["p_truncated.png"] = "failed";
  std::string crc = png;
  crc[crc.size() / 2] = static_cast<char>(crc[crc.size() / 2] ^ 0x5A);  // IDAT data: CRC mismatch
  put("p_crc.png", crc);
  expect["p_crc.png"] = "failed";
#if defined(TEXCV_HAS_TIFF)
  const std::string tif = read_all(ex / "chessboard_GRAY_U16.tif");
  put("t_good.tif", tif);
  expect["t_good.tif"] = "ok";
  put("t_truncated.tif", tif.substr(0, tif.size() / 2));
  expect["t_truncated.tif"] = "failed";
#endif
  return expect;
}

// name -> status, from a report.
std::map<std::string, std::string> statuses(const fs::path& report) {
  std::map<std::string, std::string> m;
  for (const auto& l : lines_of(read_all(report)))
    m[fs::path(field(l, "input")).filename().string()] = field(l, "status");
  return m;
}

TEST_F(BatchSafety, DamagedFilesGetTheSameVerdictOnEveryDevice) {
  const fs::path in = dir_ / "in";
  const auto expect = make_damaged_folder(in);
  std::vector<std::string> devices{"cpu", "auto"};
  std::string why;
  const bool gpu = texcv::test::gpu_available(&why);
  if (gpu) devices.push_back("cuda");
  std::map<std::string, std::map<std::string, std::string>> got;
  for (const auto& dev : devices) {
    for (const bool allow : {false, true}) {
      const std::string tag = dev + (allow ? "-allow" : "");
      const fs::path out = dir_ / ("out-" + tag), report = dir_ / (tag + ".jsonl");
      std::vector<std::string> args{"batch", "-i",       in.string(),     "-o",     out.string(),
                                    "-p",    "flip",     "--device",      dev,      "--format",
                                    "png",   "--report", report.string(), "--quiet"};
      if (allow) args.push_back("--allow-corrupt");
      const Proc r = texcv(args);
      EXPECT_EQ(r.code, 1) << tag << ": " << r.err;  // with --allow-corrupt too: PNG, TIFF fail
      got[tag] = statuses(report);
      // No output for a failed file; an output for every other.
      for (const auto& [name, status] : got[tag]) {
        const fs::path o = out / (fs::path(name).stem().string() + ".png");
        EXPECT_EQ(fs::exists(o), status != "failed") << tag << " " << name << " " << status;
      }
      for (const auto& [name, bytes] : tree(out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
    }
  }
  // The CPU verdicts are the expected ones; every device gives the CPU's.
  EXPECT_EQ(got["cpu"], expect);
  for (const auto& dev : devices) {
    EXPECT_EQ(got[dev], got["cpu"]) << dev;
    EXPECT_EQ(got[dev + "-allow"], got["cpu-allow"]) << dev << " --allow-corrupt";
  }
  // --allow-corrupt: the JPEG damage libjpeg-turbo recovers from is "corrupt" and written.
  EXPECT_EQ(got["cpu-allow"]["j_truncated.jpg"], "corrupt");
  EXPECT_EQ(got["cpu-allow"]["j_entropy.jpg"], "corrupt");
  EXPECT_EQ(got["cpu-allow"]["j_good.jpg"], "ok");
  // The GPU writes a corrupt file from the CPU decoder's recovery (flip and PNG are exact).
  if (gpu)
    for (const char* n : {"j_truncated.png", "j_entropy.png"}) {
      const std::string name = std::string(n);
      EXPECT_TRUE(read_all(dir_ / "out-cuda-allow" / name) ==
                  read_all(dir_ / "out-cpu-allow" / name))
          << name;
    }
  if (!gpu) std::cout << "[ info ] the cuda column was not run: " << why << "\n";
}

// A minimal little-endian TIFF of `pages` 4x3 8-bit gray pages, uncompressed (written by hand:
// the test's own writer, not libtiff).
std::string multi_page_tiff(int pages) {
  std::string t("II*\0", 4);
  auto u16 = [&](unsigned v) {
    t += static_cast<char>(v & 0xFF);
    t += static_cast<char>((v >> 8) & 0xFF);
  };
  auto u32 = [&](unsigned v) {
    for (int k = 0; k < 4; ++k) t += static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  u32(8);
  constexpr unsigned kEntries = 9, kIfd = 2 + kEntries * 12 + 4, kPixels = 12;
  for (int p = 0; p < pages; ++p) {
    const unsigned ifd = static_cast<unsigned>(t.size());
    const unsigned data = ifd + kIfd;
    const unsigned next = p + 1 < pages ? data + kPixels : 0;
    u16(kEntries);
    auto entry = [&](unsigned tag, unsigned type, unsigned value) {
      u16(tag);
      u16(type);
      u32(1);
      if (type == 3) {
        u16(value);
        u16(0);
      } else {
        u32(value);
      }
    };
    entry(256, 3, 4);        // ImageWidth
    entry(257, 3, 3);        // ImageLength
    entry(258, 3, 8);        // BitsPerSample
    entry(259, 3, 1);        // Compression: none
    entry(262, 3, 1);        // Photometric: min-is-black
    entry(273, 4, data);     // StripOffsets
    entry(277, 3, 1);        // SamplesPerPixel
    entry(278, 3, 3);        // RowsPerStrip
    entry(279, 4, kPixels);  // StripByteCounts
    u32(next);
    for (unsigned i = 0; i < kPixels; ++i) t += static_cast<char>(p * 50 + static_cast<int>(i));
  }
  return t;
}

TEST_F(BatchSafety, MultiPageTiffSaysOnlyPageOneWasProcessed) {
#if !defined(TEXCV_HAS_TIFF)
  GTEST_SKIP() << "this build has no libtiff";
#else
  const fs::path in = dir_ / "in", out = dir_ / "out", report = dir_ / "r.jsonl";
  fs::create_directories(in);
  std::ofstream(in / "three.tif", std::ios::binary) << multi_page_tiff(3);
  std::ofstream(in / "one.tif", std::ios::binary) << multi_page_tiff(1);
  const Proc r = texcv({"batch", "-i", in.string(), "-o", out.string(), "-p", "flip", "--device",
                        "cpu", "--report", report.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "three.tif: multi-page TIFF: only page 1 of 3 was processed")) << r.err;
  EXPECT_TRUE(has(r.err, "1 with a warning")) << r.err;
  const auto lines = lines_of(read_all(report));
  const std::string three = report_for(lines, (in / "three.tif").string());
  EXPECT_TRUE(has(three, "\"warning\":\"multi-page TIFF: only page 1 of 3 was processed")) << three;
  EXPECT_FALSE(has(report_for(lines, (in / "one.tif").string()), "\"warning\""));
  // Page 1 it is: 4x3, first pixel 0 (page 2 starts at 50), flipped about the vertical axis.
  const texcv::Image img = texcv::imread((out / "three.tif").string());
  ASSERT_EQ(img.width(), 4);
  EXPECT_EQ(img.view().row<std::uint8_t>(0)[3], 0);
#endif
}

TEST_F(BatchSafety, APipelineWithControlCharactersIsPrintedEscaped) {
  const fs::path in = make_inputs();
  for (const char* cmd : {"batch", "run"}) {
    const Proc r = texcv({cmd, "-i", in.string(), "-o", (dir_ / "out").string(), "-p",
                          "flip;bogus\x1b[2J\n:x=1", "--device", "cpu"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_FALSE(has_raw_controls(r.err)) << r.err;
    EXPECT_TRUE(has(r.err, "bogus\\e[2J\\n:x=1")) << r.err;
    // The caret line still points at the bad step (after "flip;", in the escaped text).
    EXPECT_TRUE(has(r.err, "\n       ^~~~~~~~~~~~~~~~\n")) << r.err;
  }
}

}  // namespace
