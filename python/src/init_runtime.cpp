// texcv._texcv: errors, the runtime and the registry (every registry operation through op_output
// and op_run).
#include "python/src/common.hpp"

namespace texcv_py {

void init_runtime(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const texcv::Error& e) {
      set_python_error(e);
    }
  });

  m.def(
      "_register_errors",
      [](const std::vector<nb::handle>& classes) {
        if (classes.size() != g_error_classes.size())
          throw nb::value_error("_register_errors: one class per ErrorCode is needed");
        for (std::size_t i = 0; i < classes.size(); ++i) {
          Py_XDECREF(g_error_classes[i]);
          g_error_classes[i] = classes[i].inc_ref().ptr();
        }
      },
      "classes"_a);
  m.def("_error_codes", [] {
    std::vector<std::string> names;
    for (int i = 0; i < 7; ++i) names.emplace_back(texcv::to_string(static_cast<ErrorCode>(i)));
    return names;
  });
  m.def("_raise", [](int code, const std::string& message) {
    throw texcv::Error(static_cast<ErrorCode>(code), message);
  });
  m.def("_view", [](InArray a, const std::string& op) {
    const ImageView v = view_of(a, op.c_str(), "src");
    // What the native side sees of an array (tests use it to prove zero copies).
    return nb::make_tuple(v.width, v.height, v.channels, texcv::to_string(v.type), v.pitch,
                          texcv::to_string(v.location), reinterpret_cast<std::uintptr_t>(v.data));
  });

  // ---- Runtime and registry --------------------------------------------------------------
  m.def("build_info", [] {
    const texcv::BuildInfo b = texcv::build_info();
    nb::dict d;
    d["version"] = b.version;
    d["cuda_compiled"] = b.cuda_compiled;
    d["cuda_version"] = b.cuda_version;
    d["cuda_architectures"] = b.cuda_architectures;
    d["openmp"] = b.openmp;
    d["cpu_simd"] = b.cpu_simd;
    d["formats"] = b.formats;
    std::vector<std::string> tiff;
    for (const texcv::TiffCompression c : texcv::supported_tiff_compressions())
      tiff.emplace_back(texcv::to_string(c));
    d["tiff_compressions"] = tiff;
    return d;
  });
  m.def("cuda_available", &cuda_usable);
  m.def("gpus", [] {
    nb::list l;
    for (const texcv::GpuInfo& g : texcv::gpus()) l.append(gpu_dict(g));
    return l;
  });
  m.def("live_handles", [] {
    const texcv::HandleCounts h = texcv::live_handles();
    nb::dict d;
    d["textures"] = h.textures;
    d["arrays"] = h.arrays;
    d["streams"] = h.streams;
    d["events"] = h.events;
    d["device_buffers"] = h.device_buffers;
    d["pinned_buffers"] = h.pinned_buffers;
    return d;
  });
  m.def("device_memory_info", [] {
    const texcv::MemoryInfo i = texcv::device_memory_info();
    return nb::make_tuple(i.free, i.total);
  });
  m.def("clear_texture_cache", &texcv::clear_texture_cache);
  m.def("operations", [] {
    nb::list ops;
    for (const texcv::OpSpec& o : texcv::operations()) {
      nb::list params;
      for (const texcv::ParamSpec& p : o.params) {
        nb::dict d;
        d["name"] = p.name;
        d["type"] = p.type;
        d["default"] = p.default_value;
        d["help"] = p.help;
        d["choices"] = p.choices;
        d["required"] = p.required;
        d["expected"] = p.expected();
        d["min"] = p.min ? nb::object(nb::cast(*p.min)) : nb::object(nb::none());
        d["min_exclusive"] = p.min_exclusive;
        d["min_count"] = p.min_count;
        d["max_count"] = p.max_count;
        d["positional"] = p.positional;
        d["shapes_output"] = p.shapes_output;
        params.append(d);
      }
      nb::dict d;
      d["name"] = o.name;
      d["summary"] = o.summary;
      d["doc"] = o.doc;
      d["float_output"] = o.float_output;
      d["keeps_format"] = o.keeps_format;
      d["params"] = params;
      ops.append(d);
    }
    return ops;
  });
  // Every registry operation through one pair of entry points (texcv._ops builds the Python
  // functions from the specs): the output's (width, height, channels, dtype) for src, and the
  // run into dst, with typed values (texcv::typed_output_format, texcv::run_into).
  m.def(
      "op_output",
      [](const std::string& name, InArray src, const texcv::TypedParams& params) {
        const texcv::OutputFormat f =
            texcv::typed_output_format(name, view_of(src, name.c_str(), "src"), params);
        return nb::make_tuple(f.width, f.height, f.channels, dtype_name(f.type));
      },
      "name"_a, "src"_a, "params"_a);
  m.def(
      "op_run",
      [](InArray src, OutArray dst, const std::string& name, const texcv::TypedParams& params,
         const std::string& device, std::uintptr_t stream) {
        const char* op = texcv::find_operation(name).name.c_str();  // outlives the call
        run(op, {view_of(src, op, "src")}, view_of(dst, op, "dst"), device, stream,
            [&](auto& in, auto& out, void* s) { texcv::run_into(op, in[0], out, params, s); });
      },
      "src"_a, "dst"_a, "name"_a, "params"_a, "device"_a, "stream"_a);
  m.def(
      "output_size",
      [](const std::string& name, int w, int h, const std::map<std::string, std::string>& params) {
        const texcv::Rect r = texcv::output_size(name, w, h, params);
        return nb::make_tuple(r.width, r.height);
      },
      "name"_a, "width"_a, "height"_a, "params"_a);
}

}  // namespace texcv_py
