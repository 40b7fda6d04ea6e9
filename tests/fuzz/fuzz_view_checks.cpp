// libFuzzer target: the array checks of the Python module (python/src/array_view.hpp: shape and
// strides to an ImageView) and the view checks every entry point makes after it
// (validate_view, src/core/view_checks.cpp: check_pair, check_same_size, check_no_overlap,
// border_value_for). The input is read with FuzzedDataProvider as two arrays (ndim, shape,
// strides, element type, location, address) and a border value. Checked besides "no crash, no
// UB, only texcv::Error":
// - an accepted non-empty array's view is the array: its height, width and channels are the
//   shape's, every element lies in the view's bytes, each row starts a pitch after the last;
// - check_pair accepts two views in the same memory only when their byte ranges do not
//   overlap (computed again here in 128 bits; ranges that run past the end of the address
//   space are left out: no array can hold them).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "python/src/array_view.hpp"
#include "src/core/view_checks.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "texcv/error.hpp"
#include "texcv/image.hpp"

namespace {

using texcv::fuzz::broken;
using u128 = unsigned __int128;
using i128 = __int128;

struct Array {
  int ndim = 2;
  std::size_t shape[3] = {0, 0, 0};
  std::int64_t stride[3] = {0, 0, 0};
  texcv::ElemType type = texcv::ElemType::u8;
  texcv::Location location = texcv::Location::host;
  std::uintptr_t address = 0;
};

// Mostly small, sometimes anything: sizes and strides near the int and size_t limits matter.
std::size_t pick_extent(FuzzedDataProvider& p) {
  return p.ConsumeBool() ? p.ConsumeIntegralInRange<std::size_t>(0, 70)
                         : p.ConsumeIntegral<std::size_t>();
}
std::int64_t pick_stride(FuzzedDataProvider& p) {
  return p.ConsumeBool() ? p.ConsumeIntegralInRange<std::int64_t>(-4, 300)
                         : p.ConsumeIntegral<std::int64_t>();
}

Array pick_array(FuzzedDataProvider& p) {
  Array a;
  a.ndim = p.ConsumeIntegralInRange(1, 4);
  for (int i = 0; i < 3; ++i) {
    a.shape[i] = pick_extent(p);
    a.stride[i] = pick_stride(p);
  }
  a.type = static_cast<texcv::ElemType>(p.ConsumeIntegralInRange(0, 2));
  a.location = p.ConsumeBool() ? texcv::Location::host : texcv::Location::device;
  a.address = p.ConsumeBool() ? (std::uintptr_t{1} << 32) + p.ConsumeIntegralInRange(0, 1 << 16)
                              : p.ConsumeIntegral<std::uintptr_t>();
  if (a.address == 0) a.address = 64;
  return a;
}

std::string describe(const Array& a, const texcv::ImageView& v) {
  std::string s = "ndim " + std::to_string(a.ndim) + ", shape";
  for (int i = 0; i < 3; ++i) s += " " + std::to_string(a.shape[i]);
  s += ", strides";
  for (int i = 0; i < 3; ++i) s += " " + std::to_string(a.stride[i]);
  s += ", type " + std::string(texcv::to_string(a.type)) + "; view " + std::to_string(v.width) +
       "x" + std::to_string(v.height) + "x" + std::to_string(v.channels) + " pitch " +
       std::to_string(v.pitch);
  return s;
}

// The view of an accepted array must be that array.
void check_view_is_array(const Array& a, const texcv::ImageView& v) {
  const std::size_t c = a.ndim == 3 ? a.shape[2] : 1;
  if (a.shape[0] == 0 || a.shape[1] == 0 || c == 0) return;  // empty: refused later by the op
  if (static_cast<u128>(v.height) != a.shape[0] || static_cast<u128>(v.width) != a.shape[1] ||
      static_cast<u128>(v.channels) != c)
    broken("view_from_layout: the view's shape is not the array's:", describe(a, v).c_str());
  const i128 es = static_cast<i128>(texcv::elem_size(v.type));
  // Byte offset of the last element, and the bytes the view spans.
  const i128 last = (static_cast<i128>(a.shape[0] - 1) * a.stride[0] +
                     static_cast<i128>(a.shape[1] - 1) * (a.shape[1] > 1 ? a.stride[1] : 0) +
                     static_cast<i128>(c - 1) * (c > 1 ? a.stride[2] : 0)) *
                    es;
  const i128 span = static_cast<i128>(v.pitch) * (v.height - 1) + static_cast<i128>(v.row_bytes());
  if (last < 0 || last + es > span)
    broken("view_from_layout: an element outside the view:", describe(a, v).c_str());
  if (v.height > 1 && static_cast<i128>(v.pitch) != a.stride[0] * es)
    broken("view_from_layout: the pitch is not the row stride:", describe(a, v).c_str());
}

// [first, last) of a valid view's bytes in 128 bits; false when it runs past the address space.
bool byte_range(const texcv::ImageView& v, u128& first, u128& last) {
  first = reinterpret_cast<std::uintptr_t>(v.data);
  last = first + static_cast<u128>(v.pitch) * static_cast<u128>(v.height - 1) + v.row_bytes();
  return last <= (static_cast<u128>(1) << 64);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  const Array a = pick_array(p), b = pick_array(p);
  const double border = p.ConsumeFloatingPoint<double>();

  texcv::ImageView va, vb;
  bool ok_a = false, ok_b = false;
  try {
    va = texcv::python::view_from_layout(a.type, a.location, reinterpret_cast<void*>(a.address),
                                         a.ndim, a.shape, a.stride, "fuzz", "src");
    ok_a = true;
    check_view_is_array(a, va);
  } catch (const texcv::Error&) {
  }
  try {
    vb = texcv::python::view_from_layout(b.type, b.location, reinterpret_cast<void*>(b.address),
                                         b.ndim, b.shape, b.stride, "fuzz", "dst");
    ok_b = true;
    check_view_is_array(b, vb);
  } catch (const texcv::Error&) {
  }
  (void)texcv::detail::border_value_for(a.type, border);
  if (!ok_a || !ok_b) return 0;

  try {
    texcv::validate_view(va, "fuzz", "source");
  } catch (const texcv::Error&) {
  }
  bool pair_ok = false;
  try {
    texcv::detail::check_pair("fuzz", va, vb, p.ConsumeBool());
    pair_ok = true;
  } catch (const texcv::Error&) {
  }
  try {
    texcv::detail::check_same_size("fuzz", va, vb);
  } catch (const texcv::Error&) {
  }
  if (pair_ok && va.location == vb.location) {
    u128 a0, a1, b0, b1;
    if (byte_range(va, a0, a1) && byte_range(vb, b0, b1) && a0 < b1 && b0 < a1)
      broken("check_pair accepted a destination overlapping the source:",
             ("source " + describe(a, va) + " at " + std::to_string(a.address) + "; destination " +
              describe(b, vb) + " at " + std::to_string(b.address))
                 .c_str());
  }
  return 0;
}
