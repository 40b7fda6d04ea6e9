// texcv._texcv: errors, the runtime and the registry (every operation through op_output, op_run
// and op_counts).
#include "python/src/common.hpp"

namespace texcv_py {

namespace {

// The specs as Python dicts (texcv._ops reads them).
nb::list spec_list(const std::vector<texcv::OpSpec>& specs) {
  nb::list ops;
  for (const texcv::OpSpec& o : specs) {
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
      d["numpy_dtype"] = p.numpy_dtype;
      params.append(d);
    }
    nb::dict d;
    d["name"] = o.name;
    d["summary"] = o.summary;
    d["doc"] = o.doc;
    d["float_output"] = o.float_output;
    d["keeps_format"] = o.keeps_format;
    d["output"] = o.output;
    d["pipeline"] = o.pipeline;
    d["params"] = params;
    ops.append(d);
  }
  return ops;
}

// The output's (width, height, channels, dtype) of op `name` on src, with its input images
// beside it (remap's maps) by name.
nb::tuple op_output(const std::string& name, InArray src, const texcv::TypedParams& params,
                    const std::vector<std::string>& image_names,
                    const std::vector<InArray>& images) {
  const char* op = texcv::find_api_operation(name).name.c_str();
  texcv::TypedImages views;
  for (std::size_t i = 0; i < images.size() && i < image_names.size(); ++i)
    views[image_names[i]] = view_of(images[i], op, image_names[i].c_str());
  const texcv::OutputFormat f =
      texcv::typed_output_format(name, view_of(src, op, "src"), params, views);
  return nb::make_tuple(f.width, f.height, f.channels, dtype_name(f.type));
}

// Runs op `name` into dst (on the CPU, or the GPU with copies for host arrays); returns the op's
// number (threshold's level) or None.
nb::object op_run(InArray src, OutArray dst, const std::string& name,
                  const texcv::TypedParams& params, const std::vector<std::string>& image_names,
                  const std::vector<InArray>& images, const std::string& device,
                  std::uintptr_t stream) {
  const texcv::OpSpec& spec = texcv::find_api_operation(name);
  const char* op = spec.name.c_str();  // outlives the call
  std::vector<ImageView> ins{view_of(src, op, "src")};
  for (std::size_t i = 0; i < images.size() && i < image_names.size(); ++i)
    ins.push_back(view_of(images[i], op, image_names[i].c_str()));
  double value = 0.0;
  run(op, ins, view_of(dst, op, "dst"), device, stream, [&](auto& in, auto& out, void* s) {
    texcv::TypedImages views;
    for (std::size_t i = 1; i < in.size(); ++i) views[image_names[i - 1]] = in[i];
    value = texcv::run_into(op, in[0], out, params, s, views);
  });
  return spec.output == "image_value" ? nb::object(nb::cast(value)) : nb::none();
}

}  // namespace

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
  m.def("operations", [] { return spec_list(texcv::operations()); });
  m.def("api_operations", [] { return spec_list(texcv::api_operations()); });
  // Every operation through three entry points (texcv._ops builds the Python functions from the
  // specs): the output's (width, height, channels, dtype) for src, the run into dst (returning
  // the op's number, threshold's level, or None), and an op's counts (histogram), with typed
  // values (texcv::typed_output_format, texcv::run_into, texcv::run_counts). The _with forms
  // take the op's input images beside src (remap's maps: their names and arrays of src's kind);
  // the others skip converting two empty lists on every call (0.6 us of a 16x16 flip).
  m.def(
      "op_output",
      [](const std::string& name, InArray src, const texcv::TypedParams& params) {
        return op_output(name, src, params, {}, {});
      },
      "name"_a, "src"_a, "params"_a);
  m.def("op_output_with", &op_output, "name"_a, "src"_a, "params"_a, "image_names"_a, "images"_a);
  m.def(
      "op_run",
      [](InArray src, OutArray dst, const std::string& name, const texcv::TypedParams& params,
         const std::string& device,
         std::uintptr_t stream) { return op_run(src, dst, name, params, {}, {}, device, stream); },
      "src"_a, "dst"_a, "name"_a, "params"_a, "device"_a, "stream"_a);
  m.def("op_run_with", &op_run, "src"_a, "dst"_a, "name"_a, "params"_a, "image_names"_a, "images"_a,
        "device"_a, "stream"_a);
  m.def(
      "op_counts",
      [](InArray src, const std::string& name, const texcv::TypedParams& params,
         const std::string& device, std::uintptr_t stream) {
        const char* op = texcv::find_api_operation(name).name.c_str();
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
            h = texcv::run_counts(op, d, params, st);
          } else {
            h = texcv::run_counts(op, v, params, st);
          }
        }
        std::vector<std::uint64_t> flat;
        for (const auto& c : h) flat.insert(flat.end(), c.begin(), c.end());
        return owned_array<std::uint64_t>(std::move(flat), {h.size(), h.empty() ? 0 : h[0].size()});
      },
      "src"_a, "name"_a, "params"_a, "device"_a, "stream"_a);
  m.def(
      "output_size",
      [](const std::string& name, int w, int h, const std::map<std::string, std::string>& params) {
        const texcv::Rect r = texcv::output_size(name, w, h, params);
        return nb::make_tuple(r.width, r.height);
      },
      "name"_a, "width"_a, "height"_a, "params"_a);
}

}  // namespace texcv_py
