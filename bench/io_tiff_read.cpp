// Times imread of one large TIFF (default: 5000x5000 RGB u8, uncompressed, as texcv writes it),
// a timing program, not a test: ReadOptions::threads = 1 against the default, and decoding into
// a caller buffer that is already faulted in (ReadOptions::allocate, as a pinned pool's buffer
// would be), against imread's fresh allocation; and imdecode of the file's bytes. The file is
// written first and read once before timing (page cache warm). Each round runs every mode once,
// in a rotated order; prints the median, min and max of RUNS rounds in milliseconds.
//
//   g++ -std=c++20 -O2 -I include bench/io_tiff_read.cpp BUILD/src/libtexcv.a -ltiff -lpng
//       -ljpeg -fopenmp -pthread -o /tmp/io_tiff_read      (BUILD: a CPU build folder; one line)
//   /tmp/io_tiff_read [WIDTH HEIGHT [RUNS [COMPRESSION [FILE]]]]
//
// COMPRESSION: none (default), deflate, zstd, ... (texcv::parse_tiff_compression). FILE: where
// the TIFF goes (default /tmp/texcv_io_tiff_read.tif; removed at the end). With
// -DTEXCV_BENCH_OLD_API it times plain imread only (for a texcv without ReadOptions::threads and
// allocate).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "texcv/io.hpp"

namespace {

double now_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

// A photograph-like image: smooth gradients plus a little noise per channel.
texcv::Image make_image(int w, int h) {
  texcv::Image img(w, h, 3, texcv::ElemType::u8);
  unsigned seed = 12345;
  for (int y = 0; y < h; ++y) {
    auto* row = img.view().row<unsigned char>(y);
    for (int x = 0; x < w; ++x) {
      seed = seed * 1103515245u + 12345u;
      const int n = static_cast<int>((seed >> 16) & 15);
      row[3 * x + 0] = static_cast<unsigned char>((x * 255 / w + n) & 255);
      row[3 * x + 1] = static_cast<unsigned char>((y * 255 / h + n) & 255);
      row[3 * x + 2] = static_cast<unsigned char>(((x + y) * 127 / (w + h) + 2 * n) & 255);
    }
  }
  return img;
}

struct Mode {
  std::string name;
  std::function<texcv::Image()> run;
  std::vector<double> ms;
};

}  // namespace

int main(int argc, char** argv) {
  const int w = argc > 2 ? std::atoi(argv[1]) : 5000;
  const int h = argc > 2 ? std::atoi(argv[2]) : 5000;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 9;
  const std::string comp = argc > 4 ? argv[4] : "none";
  const std::string path = argc > 5 ? argv[5] : "/tmp/texcv_io_tiff_read.tif";

  const texcv::Image src = make_image(w, h);
  texcv::WriteOptions wo;
  wo.tiff_compression = texcv::parse_tiff_compression(comp);
  texcv::imwrite(path, src.view(), wo);
  std::ifstream f(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::printf("%dx%d RGB u8 TIFF, %s, %zu bytes; %d rounds\n", w, h, comp.c_str(), bytes.size(),
              runs);

  std::vector<Mode> modes;
  modes.push_back({"imread (defaults)", [&] { return texcv::imread(path); }, {}});
#if !defined(TEXCV_BENCH_OLD_API)
  // The caller's buffer, faulted in once (every page written), reused by every read.
  const std::size_t row = static_cast<std::size_t>(w) * 3;
  auto pool = std::make_shared<std::vector<unsigned char>>(row * static_cast<std::size_t>(h), 1);
  auto into_pool = [&](int, int, int, texcv::ElemType) {
    return texcv::Image::adopt(
        texcv::ImageView{pool->data(), w, h, 3, texcv::ElemType::u8, row, texcv::Location::host},
        pool);
  };
  auto read = [&](int threads, bool pooled) {
    texcv::ReadOptions o;
    o.threads = threads;
    if (pooled) o.allocate = into_pool;
    return texcv::imread(path, o);
  };
  modes.push_back({"imread threads=1", [&] { return read(1, false); }, {}});
  modes.push_back({"imread threads=2", [&] { return read(2, false); }, {}});
  modes.push_back({"allocate (pre-faulted) threads=1", [&] { return read(1, true); }, {}});
  modes.push_back({"allocate (pre-faulted) default", [&] { return read(0, true); }, {}});
  modes.push_back({"imdecode (bytes in memory) default",
                   [&] {
                     return texcv::imdecode(reinterpret_cast<const unsigned char*>(bytes.data()),
                                            bytes.size(), "bytes");
                   },
                   {}});
#endif
  // Warm-up, and a check that every mode reads the image.
  for (Mode& m : modes) {
    const texcv::Image img = m.run();
    for (int y = 0; y < h; ++y) {
      if (std::memcmp(img.view().row<const void>(y), src.view().row<const void>(y),
                      static_cast<std::size_t>(w) * 3) != 0) {
        std::fprintf(stderr, "%s: row %d differs\n", m.name.c_str(), y);
        return 1;
      }
    }
  }
  for (int r = 0; r < runs; ++r) {
    for (std::size_t i = 0; i < modes.size(); ++i) {
      Mode& m = modes[(i + static_cast<std::size_t>(r)) % modes.size()];
      const double t0 = now_ms();
      texcv::Image img = m.run();
      const double t1 = now_ms();
      m.ms.push_back(t1 - t0);
    }
  }
  std::printf("| mode | median ms | min | max |\n| --- | ---: | ---: | ---: |\n");
  for (Mode& m : modes) {
    std::sort(m.ms.begin(), m.ms.end());
    std::printf("| %s | %.1f | %.1f | %.1f |\n", m.name.c_str(), m.ms[m.ms.size() / 2],
                m.ms.front(), m.ms.back());
  }
  std::remove(path.c_str());
  return 0;
}
