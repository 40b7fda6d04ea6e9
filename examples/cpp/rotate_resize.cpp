// The README's C++ example: rotate a photograph by 30 degrees on the GPU when one is present
// (else on the CPU backend), shrink it to half with area averaging, and save both.
//   example_rotate_resize IN.png OUT_DIR
#include <texcv/texcv.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN_IMAGE OUT_DIR\n", argv[0]);
    return 2;
  }
  try {
    const texcv::Image src = texcv::imread(argv[1]);  // host memory
    const texcv::Rect size = texcv::rotated_size(src.width(), src.height(), 30.0, /*expand=*/true);
    texcv::Image rotated(size.width, size.height, src.channels(), src.type());

    if (texcv::cuda_available()) {
      // Device images run on the CUDA backend: upload, rotate, download.
      const auto dev = texcv::Location::device;
      texcv::Image d_src(src.width(), src.height(), src.channels(), src.type(), dev);
      texcv::Image d_dst(size.width, size.height, src.channels(), src.type(), dev);
      texcv::copy(src, d_src);
      texcv::rotate(d_src, d_dst, 30.0);  // linear, constant border 0, exact
      texcv::copy(d_dst, rotated);
    } else {
      texcv::rotate(src, rotated, 30.0);  // host images run on the CPU backend
    }

    texcv::Image half(rotated.width() / 2, rotated.height() / 2, src.channels(), src.type());
    texcv::resize(rotated, half, {.interp = texcv::Interp::area});
    const std::string out = argv[2];
    texcv::imwrite(out + "/rotated.png", rotated);
    texcv::imwrite(out + "/half.png", half);
    std::printf("%dx%d -> rotated %dx%d -> half %dx%d (%s)\n", src.width(), src.height(),
                rotated.width(), rotated.height(), half.width(), half.height(),
                texcv::cuda_available() ? "cuda" : "cpu");
  } catch (const texcv::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
