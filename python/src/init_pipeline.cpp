// texcv._texcv: texcv.Pipeline.
#include "python/src/common.hpp"

namespace texcv_py {

void init_pipeline(nb::module_& m) {
  // ---- Pipelines -------------------------------------------------------------------------
  nb::class_<PyPipeline>(m, "Pipeline")
      .def(nb::init<const std::string&>(), "text"_a)
      .def_prop_ro("text", [](const PyPipeline& self) { return self.p.text(); })
      .def_prop_ro("steps",
                   [](const PyPipeline& self) {
                     nb::list steps;
                     for (const texcv::PipelineStep& st : self.p.steps()) {
                       nb::dict params;
                       for (const auto& [k, v] : st.params) params[k.c_str()] = v;
                       steps.append(nb::make_tuple(st.name, params));
                     }
                     return steps;
                   })
      .def(
          "output_format",
          [](const PyPipeline& self, InArray src) {
            const texcv::OutputFormat f = self.p.output_format(view_of(src, "Pipeline", "src"));
            return nb::make_tuple(f.width, f.height, f.channels, texcv::to_string(f.type));
          },
          "src"_a)
      .def("run_into", &PyPipeline::run_into, "srcs"_a, "dsts"_a, "device"_a, "stream"_a);
}

}  // namespace texcv_py
