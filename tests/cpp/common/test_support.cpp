// Helpers shared by the tests (see test_support.hpp).
#include "common/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

namespace texcv::test {

void expect_error(const std::function<void()>& f, ErrorCode code, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "no error thrown; expected: " << message;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << to_string(e.code()) << ": " << e.what();
    EXPECT_EQ(std::string(e.what()), message);
  }
}

double at(const ImageView& v, int x, int y, int c) {
  const std::size_t i = static_cast<std::size_t>(x) * v.channels + c;
  switch (v.type) {
    case ElemType::u8:
      return v.row<const std::uint8_t>(y)[i];
    case ElemType::u16:
      return v.row<const std::uint16_t>(y)[i];
    case ElemType::f32:
      return v.row<const float>(y)[i];
  }
  return 0;
}

bool is_poison(const ImageView& v, int x, int y, int c) {
  const double d = at(v, x, y, c);
  switch (v.type) {
    case ElemType::u8:
      return d == 0xA5;
    case ElemType::u16:
      return d == 0xA5A5;
    case ElemType::f32:
      return std::isnan(d);
  }
  return false;
}

long written_outside(const ImageView& whole, const Rect& inside) {
  long n = 0;
  for (int y = 0; y < whole.height; ++y)
    for (int x = 0; x < whole.width; ++x) {
      if (x >= inside.x && x < inside.x + inside.width && y >= inside.y &&
          y < inside.y + inside.height)
        continue;
      for (int c = 0; c < whole.channels; ++c)
        if (!is_poison(whole, x, y, c)) ++n;
    }
  return n;
}

namespace {

void poison_host(const ImageView& v) {
  for (int y = 0; y < v.height; ++y) {
    if (v.type == ElemType::f32) {
      float* p = v.row<float>(y);
      const std::size_t n = static_cast<std::size_t>(v.width) * v.channels;
      for (std::size_t i = 0; i < n; ++i) p[i] = std::numeric_limits<float>::quiet_NaN();
    } else {
      std::memset(v.row<unsigned char>(y), 0xA5, v.row_bytes());
    }
  }
}

}  // namespace

Image random_image(int width, int height, int channels, ElemType type, std::uint32_t seed) {
  Image img(width, height, channels, type);
  std::mt19937 rng(seed);
  const ImageView& v = img.view();
  const std::size_t n = static_cast<std::size_t>(width) * channels;
  for (int y = 0; y < height; ++y) {
    switch (type) {
      case ElemType::u8: {
        std::uniform_int_distribution<int> d(0, 255);
        auto* p = v.row<std::uint8_t>(y);
        for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(d(rng));
        break;
      }
      case ElemType::u16: {
        std::uniform_int_distribution<int> d(0, 65535);
        auto* p = v.row<std::uint16_t>(y);
        for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint16_t>(d(rng));
        break;
      }
      case ElemType::f32: {
        std::uniform_real_distribution<float> d(0.0f, 1.0f);
        auto* p = v.row<float>(y);
        for (std::size_t i = 0; i < n; ++i) p[i] = d(rng);
        break;
      }
    }
  }
  return img;
}

ImageView padded_view(Image& owner, int width, int height, int channels, ElemType type, int pad,
                      int ox, int oy) {
  owner = Image(ox + width + pad, oy + height + 1, channels, type);
  poison(owner.view());  // anything read outside the view shows up as poison
  return owner.view().roi(Rect{ox, oy, width, height});
}

void poison(const ImageView& v) {
  if (v.location == Location::host) {
    poison_host(v);
    return;
  }
  Image h(v.width, v.height, v.channels, v.type);
  poison_host(h.view());
  texcv::copy(h.view(), v);
}

std::string Diff::describe() const {
  std::ostringstream s;
  s << "max_abs " << max_abs << ", max_rel " << max_rel << ", differing " << count
    << ", nan/poison " << nan_or_poison;
  if (worst_x >= 0) s << ", worst at (" << worst_x << ", " << worst_y << ") channel " << worst_c;
  return s.str();
}

Diff compare(const ImageView& a, const ImageView& b) {
  Diff d;
  if (a.width != b.width || a.height != b.height || a.channels != b.channels) {
    ADD_FAILURE() << "compare: shapes differ: " << a.describe() << " vs " << b.describe();
    d.max_abs = std::numeric_limits<double>::infinity();
    return d;
  }
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      for (int c = 0; c < a.channels; ++c) {
        const double va = at(a, x, y, c), vb = at(b, x, y, c);
        const bool na = std::isnan(va), nb = std::isnan(vb);
        if (na && nb) continue;
        if (na != nb) {
          ++d.nan_or_poison;
          ++d.count;
          if (!std::isinf(d.max_abs)) {
            d.max_abs = std::numeric_limits<double>::infinity();
            d.max_rel = d.max_abs;
            d.worst_x = x, d.worst_y = y, d.worst_c = c;
          }
          continue;
        }
        if (va == vb) continue;
        ++d.count;
        const double diff = std::fabs(va - vb);
        const double rel = diff / std::max(std::fabs(vb), 1e-6);
        if (rel > d.max_rel) d.max_rel = rel;
        if (diff > d.max_abs) {
          d.max_abs = diff;
          d.worst_x = x, d.worst_y = y, d.worst_c = c;
        }
      }
    }
  }
  return d;
}

Image to_host(const ImageView& v) {
  Image h(v.width, v.height, v.channels, v.type, Location::host);
  texcv::copy(v, h.view());
  return h;
}

bool gpu_available(std::string* why) {
  if (texcv::cuda_available()) return true;
  if (why != nullptr) {
    *why = build_info().cuda_compiled ? "no usable CUDA GPU on this machine"
                                      : "this build has no CUDA backend";
  }
  return false;
}

std::string sample_image(const std::string& name) {
  const std::filesystem::path ex = std::filesystem::path(TEXCV_EXAMPLE_IMAGES) / name;
  if (std::filesystem::exists(ex)) return ex.string();
  return (std::filesystem::path(TEXCV_TEST_IMAGES) / name).string();
}

}  // namespace texcv::test
