// Times check_jpeg's stages on every *.jpg of a folder held in memory, a timing program, not a
// test: "scan" is the fast verdict alone (io_detail::jpeg_sound_by_scan: libjpeg-turbo's header
// and set-up, then the entropy walk of codec_jpeg_scan.cpp), "check" is texcv::check_jpeg as the
// batch engine calls it (the fast verdict, then libjpeg-turbo for what it leaves unsettled;
// TEXCV_JPEG_SCAN=0 in the environment gives the libjpeg-turbo path alone), "decode" is
// texcv::imdecode (the full CPU decode). Each mode runs over all files on THREADS threads (files
// handed out by an atomic counter), RUNS times; prints the median ms of core time a file (wall x
// threads / files) and files/s, and how many files the scan settled.
//
//   g++ -std=c++20 -O2 -I . -I include bench/io_jpeg_check.cpp BUILD/src/libtexcv.a -ltiff -lpng
//       -ljpeg -lhwy -fopenmp -pthread -o /tmp/io_jpeg_check    (BUILD: a build folder; one line)
//   /tmp/io_jpeg_check FOLDER [THREADS [RUNS [MODES]]]     (MODES: default "scan,check,decode")
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "src/io/codec.hpp"
#include "texcv/io.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double run_mode(const std::string& mode, const std::vector<std::string>& files, int threads,
                std::atomic<long>& settled) {
  std::atomic<std::size_t> next{0};
  std::atomic<long> failures{0};
  const auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
        const auto* d = reinterpret_cast<const unsigned char*>(files[i].data());
        const std::size_t n = files[i].size();
        try {
          if (mode == "scan") {
            if (texcv::io_detail::jpeg_sound_by_scan(d, n, "f.jpg", {})) settled.fetch_add(1);
          } else if (mode == "check") {
            (void)texcv::check_jpeg(d, n, "f.jpg");
          } else {
            (void)texcv::imdecode(d, n, "f.jpg");
          }
        } catch (const texcv::Error&) {
          failures.fetch_add(1);
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  if (failures) std::fprintf(stderr, "%s: %ld files failed\n", mode.c_str(), failures.load());
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FOLDER [THREADS [RUNS [MODES]]]\n", argv[0]);
    return 2;
  }
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 5;
  const std::string modes = argc > 4 ? argv[4] : "scan,check,decode";
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(argv[1])) {
    if (e.path().extension() != ".jpg") continue;
    std::ifstream f(e.path(), std::ios::binary);
    files.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "no .jpg files in %s\n", argv[1]);
    return 2;
  }
  std::size_t bytes = 0;
  for (const auto& f : files) bytes += f.size();
  std::printf("%zu files, %.1f KB a file, %d threads, %d runs, TEXCV_JPEG_SCAN=%s\n", files.size(),
              bytes / 1024.0 / files.size(), threads, runs,
              std::getenv("TEXCV_JPEG_SCAN") ? std::getenv("TEXCV_JPEG_SCAN") : "(unset)");
  std::size_t start = 0;
  while (start <= modes.size()) {
    const std::size_t comma = std::min(modes.find(',', start), modes.size());
    const std::string mode = modes.substr(start, comma - start);
    start = comma + 1;
    if (mode.empty()) continue;
    std::vector<double> walls;
    std::atomic<long> settled{0};
    for (int r = 0; r < runs; ++r) walls.push_back(run_mode(mode, files, threads, settled));
    std::sort(walls.begin(), walls.end());
    const double wall = walls[walls.size() / 2];
    std::printf("%-7s %7.3f ms of a core a file  %8.0f files/s  (wall %.3f s, min %.3f, max %.3f)",
                mode.c_str(), wall * threads * 1e3 / files.size(), files.size() / wall, wall,
                walls.front(), walls.back());
    if (mode == "scan") std::printf("  settled %ld of %zu", settled.load() / runs, files.size());
    std::printf("\n");
  }
  return 0;
}
