// texcv._texcv: the geometry and kernel helpers (the operations go through the registry's entry
// points: init_runtime.cpp).
#include "python/src/common.hpp"

namespace texcv_py {

void init_ops(nb::module_& m) {
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
}

}  // namespace texcv_py
