// texcv info: version, build options and the GPUs with their texture limits.
#include <cstddef>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "texcv/io.hpp"
#include "texcv/runtime.hpp"
#include "tools/texcv/commands.hpp"

namespace texcv::cli {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "none" : s;
}

std::string bytes_text(std::size_t n) {
  const double gib = 1024.0 * 1024.0 * 1024.0;
  char buf[64];
  if (n >= static_cast<std::size_t>(gib)) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(n) / gib);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(n) / (1024.0 * 1024.0));
  }
  return buf;
}

}  // namespace

int info_command() {
  const BuildInfo b = build_info();
  std::cout << "texcv " << b.version << "\n\nbuild:\n";
  std::cout << "  CUDA backend       "
            << (b.cuda_compiled ? "compiled (CUDA " + b.cuda_version + ", architectures " +
                                      b.cuda_architectures + ")"
                                : std::string("not compiled (CPU backend only)"))
            << "\n";
  std::cout << "  OpenMP             " << (b.openmp ? "yes" : "no") << "\n";
  std::cout << "  CPU SIMD           "
            << (b.cpu_simd == "none" ? std::string("baseline (built without Google Highway)")
                                     : b.cpu_simd + " (Google Highway, chosen at run time)")
            << "\n";
  std::cout << "  image formats      " << join(b.formats) << "\n";
  std::vector<std::string> tiff;
  for (const TiffCompression c : supported_tiff_compressions()) tiff.emplace_back(to_string(c));
  if (!tiff.empty()) std::cout << "  TIFF compression   " << join(tiff) << " (default none)\n";
  std::cout << "\nGPUs:\n";

  if (!b.cuda_compiled) {
    std::cout << "  none usable: this build has no CUDA backend (--device cpu only)\n";
    return kExitOk;
  }
  std::vector<GpuInfo> list;
  try {
    list = gpus();
  } catch (const std::exception& e) {
    std::cout << "  none usable: " << e.what() << "\n";
    return kExitOk;
  }
  if (list.empty()) {
    std::cout << "  none found: the CUDA runtime sees no GPU on this machine (--device cpu only)\n";
    return kExitOk;
  }
  for (const auto& g : list) {
    std::cout << "  [" << g.index << "] " << g.name << ", compute capability " << g.compute_major
              << "." << g.compute_minor << ", " << g.multiprocessors << " multiprocessors, "
              << bytes_text(g.total_memory) << ", L2 " << bytes_text(g.l2_bytes) << "\n";
    std::cout << "      texture alignment " << g.texture_alignment << " B, pitch alignment "
              << g.texture_pitch_alignment << " B\n";
    std::cout << "      max 2D texture (array) " << g.max_texture_2d_width << "x"
              << g.max_texture_2d_height << ", max 2D pitched (linear) texture "
              << g.max_texture_2d_linear_width << "x" << g.max_texture_2d_linear_height
              << ", pitch up to " << g.max_texture_2d_linear_pitch << " B\n";
  }
  return kExitOk;
}

}  // namespace texcv::cli
