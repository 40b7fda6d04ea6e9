// texcv._texcv: the operations the registry cannot describe yet (remap, histogram, convert,
// threshold) and the geometry and kernel helpers.
#include "python/src/common.hpp"

namespace texcv_py {

void init_ops(nb::module_& m) {
  m.def(
      "remap",
      [](InArray src, OutArray dst, InArray map_x, InArray map_y, const std::string& interp,
         const std::string& border, const std::vector<double>& border_value,
         const std::string& precision, const std::string& path, const std::string& device,
         std::uintptr_t stream) {
        const char* op = "remap";
        const texcv::Sampling s = sampling(interp, border, border_value, precision, path, op);
        run(op, {view_of(src, op, "src"), view_of(map_x, op, "map_x"), view_of(map_y, op, "map_y")},
            view_of(dst, op, "dst"), device, stream,
            [&](auto& in, auto& out, void* st) { texcv::remap(in[0], out, in[1], in[2], s, st); });
      },
      "src"_a, "dst"_a, "map_x"_a, "map_y"_a, "interp"_a, "border"_a, "border_value"_a,
      "precision"_a, "path"_a, "device"_a, "stream"_a);

  m.def(
      "rotated_size",
      [](int w, int h, double angle, bool expand) {
        const texcv::Rect r = texcv::rotated_size(w, h, angle, expand);
        return nb::make_tuple(r.width, r.height);
      },
      "width"_a, "height"_a, "angle"_a, "expand"_a);
  m.def("rotation_matrix", &texcv::rotation_matrix, "src_w"_a, "src_h"_a, "dst_w"_a, "dst_h"_a,
        "angle"_a);

  m.def("gaussian_kernel", &texcv::gaussian_kernel, "ksize"_a, "sigma"_a);

  m.def(
      "structuring_element",
      [](const std::string& shape, int width, int height, int anchor_x, int anchor_y) {
        texcv::StructuringElement e = texcv::structuring_element(texcv::parse_morph_shape(shape),
                                                                 width, height, anchor_x, anchor_y);
        return owned_array<std::uint8_t>(std::move(e.values), {static_cast<std::size_t>(e.height),
                                                               static_cast<std::size_t>(e.width)});
      },
      "shape"_a, "width"_a, "height"_a, "anchor_x"_a, "anchor_y"_a);

  m.def(
      "color_channels",
      [](const std::string& code) {
        // (source channels, destination channels) of a conversion code.
        const texcv::ColorCode c = texcv::parse_color_code(code);
        switch (c) {
          case texcv::ColorCode::rgba2bgra:
            return nb::make_tuple(4, 4);
          case texcv::ColorCode::rgb2gray:
          case texcv::ColorCode::bgr2gray:
            return nb::make_tuple(3, 1);
          case texcv::ColorCode::rgba2gray:
          case texcv::ColorCode::bgra2gray:
            return nb::make_tuple(4, 1);
          case texcv::ColorCode::gray2rgb:
            return nb::make_tuple(1, 3);
          case texcv::ColorCode::gray2rgba:
            return nb::make_tuple(1, 4);
          default:
            return nb::make_tuple(3, 3);
        }
      },
      "code"_a);

  m.def(
      "convert",
      [](InArray src, OutArray dst, double scale, double offset, const std::string& device,
         std::uintptr_t stream) {
        const char* op = "convert";
        run(op, {view_of(src, op, "src")}, view_of(dst, op, "dst"), device, stream,
            [&](auto& in, auto& out, void* st) { texcv::convert(in[0], out, scale, offset, st); });
      },
      "src"_a, "dst"_a, "scale"_a, "offset"_a, "device"_a, "stream"_a);

  m.def(
      "threshold",
      [](InArray src, OutArray dst, double thresh, double maxval, const std::string& type,
         const std::string& device, std::uintptr_t stream) {
        const char* op = "threshold";
        const texcv::ThresholdType t = texcv::parse_threshold_type(type);
        double used = 0.0;
        run(op, {view_of(src, op, "src")}, view_of(dst, op, "dst"), device, stream,
            [&](auto& in, auto& out, void* st) {
              used = texcv::threshold(in[0], out, thresh, maxval, t, st);
            });
        return used;
      },
      "src"_a, "dst"_a, "thresh"_a, "maxval"_a, "type"_a, "device"_a, "stream"_a);

  m.def(
      "histogram",
      [](InArray src, int bins, std::array<double, 2> range, const std::string& device,
         std::uintptr_t stream) {
        const char* op = "histogram";
        const ImageView v = view_of(src, op, "src");
        std::vector<std::vector<std::uint64_t>> h;
        const bool upload = v.location == Location::host && host_on_cuda(op, device);
        if (v.location == Location::device && device == "cpu")
          fail(ErrorCode::InvalidArgument, op, "device='cpu' was asked for CUDA arrays",
               "device=\"cpu\"", "\"cuda\" or \"auto\" (or host arrays)");
        {
          nb::gil_scoped_release nogil;
          void* st = reinterpret_cast<void*>(stream);
          if (upload) {
            texcv::validate_view(v, op, "src");
            texcv::Image d(v.width, v.height, v.channels, v.type, Location::device);
            texcv::copy(v, d, st);
            h = texcv::histogram(d, bins, range, st);
          } else {
            h = texcv::histogram(v, bins, range, st);
          }
        }
        std::vector<std::uint64_t> flat;
        flat.reserve(h.size() * static_cast<std::size_t>(bins));
        for (const auto& c : h) flat.insert(flat.end(), c.begin(), c.end());
        return owned_array<std::uint64_t>(std::move(flat), {h.size(), h.empty() ? 0 : h[0].size()});
      },
      "src"_a, "bins"_a, "range"_a, "device"_a, "stream"_a);
}

}  // namespace texcv_py
