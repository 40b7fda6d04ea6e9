// Uses the installed texcv package only (tests/consumer/CMakeLists.txt): reads a PNG, crops it to
// an even size and halves it with area averaging on the CPU backend (host images), checks every
// pixel against 2x2 averages computed here, writes the result and reads it back.
//   texcv_consumer IN.png OUT_DIR
#include <texcv/texcv.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN.png OUT_DIR\n", argv[0]);
    return 2;
  }
  try {
    const texcv::Image src = texcv::imread(argv[1]);
    if (src.type() != texcv::ElemType::u8 || src.location() != texcv::Location::host) {
      std::fprintf(stderr, "FAIL: expected a u8 host image, got %s\n",
                   src.view().describe().c_str());
      return 1;
    }
    const int w = src.width() / 2, h = src.height() / 2, c = src.channels();
    const texcv::ImageView even = src.view().roi({0, 0, 2 * w, 2 * h});
    texcv::Image half(w, h, c, src.type());
    texcv::resize(even, half, {.interp = texcv::Interp::area});

    // Exactly 2x2 blocks: the mean of four u8 values, rounded to nearest, ties to even
    // (docs/conventions.md); 0.25-steps are exact in float, so no tolerance is needed.
    long mismatches = 0;
    int max_diff = 0;
    for (int y = 0; y < h; ++y) {
      const auto* r0 = even.row<std::uint8_t>(2 * y);
      const auto* r1 = even.row<std::uint8_t>(2 * y + 1);
      const auto* out = half.view().row<std::uint8_t>(y);
      for (int x = 0; x < w; ++x) {
        for (int k = 0; k < c; ++k) {
          const int a = 2 * x * c + k, b = a + c;
          const double mean = (r0[a] + r0[b] + r1[a] + r1[b]) / 4.0;
          const int expect = static_cast<int>(std::nearbyint(mean));
          const int diff = std::abs(out[x * c + k] - expect);
          if (diff != 0) ++mismatches;
          if (diff > max_diff) max_diff = diff;
        }
      }
    }

    const std::string path = std::string(argv[2]) + "/consumer_half.png";
    texcv::imwrite(path, half);
    const texcv::Image back = texcv::imread(path);
    bool same = back.width() == w && back.height() == h && back.channels() == c;
    for (int y = 0; same && y < h; ++y)
      for (std::size_t i = 0; same && i < half.view().row_bytes(); ++i)
        same = back.view().row<std::uint8_t>(y)[i] == half.view().row<std::uint8_t>(y)[i];

    const auto* p = half.view().row<std::uint8_t>(h / 2) + (w / 2) * c;
    std::printf(
        "texcv consumer: %dx%dx%d -> area half %dx%d, centre pixel (%d,%d,%d), "
        "%ld mismatches (max %d), png round trip %s, cuda_available %d\n",
        src.width(), src.height(), c, w, h, p[0], c > 1 ? p[1] : p[0], c > 2 ? p[2] : p[0],
        mismatches, max_diff, same ? "ok" : "DIFFERS", texcv::cuda_available() ? 1 : 0);
    if (mismatches != 0 || !same) {
      std::fprintf(stderr, "FAIL\n");
      return 1;
    }
    std::printf("OK\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAIL: %s\n", e.what());
    return 1;
  }
}
