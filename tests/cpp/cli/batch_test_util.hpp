// Helpers of the texcv batch tests (test_batch.cpp, test_batch_safety.cpp): run the texcv
// command as a process, read its outputs, report lines and file trees, make input folders.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::test::batch {

namespace fs = std::filesystem;

inline std::string read_all(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// prefix + i + suffix (appending avoids GCC 12's false -Wrestrict on "literal" + to_string).
inline std::string numbered(const char* prefix, int i, const char* suffix = "") {
  std::string s(prefix);
  s += std::to_string(i);
  s += suffix;
  return s;
}

inline bool has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

struct Proc {
  int code = -1;  // exit status, or -1 when killed by a signal
  std::string out, err;
  long max_rss_kb = 0;  // the child's peak resident set (getrusage via wait4)
};

// Starts texcv with args and extra environment entries ("NAME=value"); stdout and stderr go to
// files. Returns the pid.
inline pid_t spawn(const std::vector<std::string>& args, const fs::path& out, const fs::path& err,
                   const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv_s{TEXCV_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  // The child's freopen flushes what this process had buffered for stdout (the test's
  // "[ info ]" lines) into the log a second time unless it is flushed here first.
  std::cout.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::FILE* o = std::freopen(out.c_str(), "w", stdout);
    std::FILE* e = std::freopen(err.c_str(), "w", stderr);
    if (!o || !e) ::_exit(127);
    for (const auto& kv : env) {
      const std::size_t eq = kv.find('=');
      ::setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    }
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

inline Proc wait_for(pid_t pid, const fs::path& out, const fs::path& err) {
  Proc p;
  int status = 0;
  struct rusage ru {};
  if (::wait4(pid, &status, 0, &ru) == pid) {
    p.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    p.max_rss_kb = ru.ru_maxrss;
  }
  p.out = read_all(out);
  p.err = read_all(err);
  return p;
}

// Every regular file under dir (relative path -> bytes).
inline std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> m;
  if (!fs::exists(dir)) return m;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) m[fs::relative(e.path(), dir).generic_string()] = read_all(e.path());
  return m;
}

inline std::size_t count_files(const fs::path& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_regular_file(ec) && it->path().filename().string()[0] != '.') ++n;
  return n;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::size_t s = 0;
  while (s < text.size()) {
    std::size_t e = text.find('\n', s);
    if (e == std::string::npos) e = text.size();
    if (e > s) v.push_back(text.substr(s, e - s));
    s = e + 1;
  }
  return v;
}

// The report line whose input is exactly `input` ("" when none, failing the test when two).
inline std::string report_for(const std::vector<std::string>& report, const std::string& input) {
  std::string found;
  for (const auto& l : report) {
    if (has(l, "{\"input\":\"" + input + "\",")) {
      EXPECT_TRUE(found.empty()) << "two report lines for " << input;
      found = l;
    }
  }
  return found;
}

inline std::uint32_t crc32(const unsigned char* p, std::size_t n, std::uint32_t crc = 0) {
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline void put_be32(std::string& s, std::uint32_t v) {
  for (int sh = 24; sh >= 0; sh -= 8) s += static_cast<char>((v >> sh) & 0xFF);
}

// A PNG signature, a valid IHDR chunk claiming width x height RGB 8-bit, and a short IDAT.
inline void write_png_header_only(const fs::path& p, std::uint32_t width, std::uint32_t height) {
  std::string s("\x89PNG\r\n\x1a\n", 8);
  std::string chunk = "IHDR";
  put_be32(chunk, width);
  put_be32(chunk, height);
  chunk += std::string("\x08\x02\x00\x00\x00", 5);  // depth 8, RGB, deflate, filter 0, no interlace
  put_be32(s, 13);
  s += chunk;
  put_be32(s, crc32(reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size()));
  // An IDAT chunk with a little data: the header reader stops at it (no pixel is decoded).
  std::string idat = "IDAT";
  idat += std::string(16, '\0');
  put_be32(s, 16);
  s += idat;
  put_be32(s, crc32(reinterpret_cast<const unsigned char*>(idat.data()), idat.size()));
  std::ofstream(p, std::ios::binary) << s;
}

// The expected output of the pipeline: the library run in this process, written with the
// same options as texcv batch's defaults.
inline void write_reference(const fs::path& in, const fs::path& out, const std::string& pipeline,
                            const texcv::WriteOptions& wopt = {}) {
  texcv::Image img = texcv::imread(in.string());
  for (const auto& s : texcv::parse_pipeline(pipeline)) img = texcv::apply(s.name, img, s.params);
  fs::create_directories(out.parent_path());
  texcv::imwrite(out.string(), img, wopt);
}

class Batch : public ::testing::Test {
 protected:
  // Gives back the permissions a test took away, so that tmp_ can remove everything.
  void TearDown() override {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::end(it);
         it.increment(ec))
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  }

  Proc texcv(const std::vector<std::string>& args) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    Proc p = wait_for(spawn(args, out, err), out, err);
    fs::remove(out);
    fs::remove(err);
    return p;
  }

  // Sends `sig` to a run of 240 files once 20 outputs exist: the files in flight finish and are
  // written, the rest are reported cancelled, exit 1, no temporary file is left.
  void expect_signal_stops_the_run(int sig);

  texcv::test::TempDir tmp_{"texcv_batch_"};  // removed with the fixture
  fs::path dir_ = tmp_.path();
};

// Many small synthetic files in a few nested folders.
inline fs::path make_many(const fs::path& dir, int n, int size, std::uint32_t seed) {
  fs::create_directories(dir);
  for (int i = 0; i < n; ++i) {
    const fs::path sub = dir / numbered("d", i % 7) / numbered("e", i % 3);
    fs::create_directories(sub);
    const fs::path p = sub / numbered("img", i, ".png");
    if (i < 16) {
      texcv::imwrite(p.string(), texcv::test::random_image(size, size, 3, texcv::ElemType::u8,
                                                           seed + static_cast<std::uint32_t>(i)));
    } else {  // copies of the first 16 (fast to create)
      const fs::path src = dir / numbered("d", (i % 16) % 7) / numbered("e", (i % 16) % 3) /
                           numbered("img", i % 16, ".png");
      fs::copy_file(src, p);
    }
  }
  return dir;
}

inline void Batch::expect_signal_stops_the_run(int sig) {
  const fs::path base = dir_ / numbered("signal", sig);  // a folder a call
  const fs::path in = make_many(base / "in", 240, 96, 5), out = base / "out";
  const fs::path report = base / "r.jsonl", so = base / "i.out", se = base / "i.err";
  const pid_t pid = spawn(
      {"batch", "-i", in.string(), "-o", out.string(), "-p", "gaussian_blur:sigma=1.5", "--device",
       "cpu", "--decode-threads", "1", "--encode-threads", "1", "--report", report.string()},
      so, se);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (count_files(out) < 20 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(pid, sig);
  const Proc r = wait_for(pid, so, se);
  EXPECT_EQ(r.code, 1) << "signal " << sig << ": " << r.err;
  EXPECT_TRUE(has(r.err, "interrupted: the files not started are listed as cancelled")) << r.err;
  // Every file has one report line; each ok file is written and decodes; nothing else is.
  const auto lines = lines_of(read_all(report));
  EXPECT_EQ(lines.size(), 240u);
  std::size_t ok = 0, cancelled = 0;
  for (const auto& l : lines) {
    if (has(l, "\"status\":\"ok\"")) {
      ++ok;
      const std::size_t b = l.find("\"output\":\"") + 10, e = l.find('"', b);
      const std::string o = l.substr(b, e - b);
      EXPECT_EQ(texcv::read_info(o).width, 96) << o;
    } else {
      EXPECT_TRUE(has(l, "\"status\":\"cancelled\"")) << l;
      ++cancelled;
    }
  }
  EXPECT_GE(ok, 20u);
  EXPECT_GT(cancelled, 0u) << "the run ended before the interrupt";
  EXPECT_EQ(count_files(out), ok);
  for (const auto& [name, bytes] : tree(out)) EXPECT_FALSE(has(name, ".tmp-")) << name;
}

}  // namespace texcv::test::batch
