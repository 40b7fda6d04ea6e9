// texcv._texcv: the nanobind extension module behind the Python package (python/texcv).
//
// Each operation is bound as `op(src, dst, <typed parameters>, device, stream)`: src and dst are
// arrays (numpy, CuPy, torch, anything with DLPack or the buffer protocol) already allocated and
// laid out with contiguous pixels (rows may be pitched); the Python layer (texcv/_api.py) picks
// the output size and kind, copies inputs that are not laid out so, and fills the defaults.
// Host arrays run on the CPU backend, or with device="cuda" (or "auto" when a GPU is usable) are
// copied to the GPU, processed there on `stream` and copied back. CUDA arrays run on the CUDA
// backend on `stream` (a cudaStream_t as an integer; 0 is the legacy default stream), without
// copies and without waiting for the work. The GIL is released while texcv works.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "python/src/array_view.hpp"
#include "texcv/batch.hpp"
#include "texcv/texcv.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using texcv::ElemType;
using texcv::ErrorCode;
using texcv::fail;
using texcv::ImageView;
using texcv::Location;

using InArray = nb::ndarray<nb::ro>;
using OutArray = nb::ndarray<>;

// ---- Errors --------------------------------------------------------------------------------

// One Python exception class per ErrorCode, registered by texcv/_errors.py at import.
std::array<PyObject*, 7> g_error_classes{};

void set_python_error(const texcv::Error& e) {
  const auto i = static_cast<std::size_t>(e.code());
  PyObject* cls = i < g_error_classes.size() ? g_error_classes[i] : nullptr;
  PyErr_SetString(cls ? cls : PyExc_RuntimeError, e.what());
}

// ---- Arrays to views -----------------------------------------------------------------------

template <typename A>
ImageView view_of(const A& a, const char* op, const char* which) {
  const std::string w(which);
  if (a.ndim() != 2 && a.ndim() != 3)
    fail(ErrorCode::InvalidArgument, op, w + " must be H x W or H x W x C",
         std::to_string(a.ndim()) + " dimensions", "2 or 3");
  ElemType type = ElemType::u8;
  if (a.dtype() == nb::dtype<std::uint8_t>())
    type = ElemType::u8;
  else if (a.dtype() == nb::dtype<std::uint16_t>())
    type = ElemType::u16;
  else if (a.dtype() == nb::dtype<float>())
    type = ElemType::f32;
  else
    fail(ErrorCode::Unsupported, op, w + " has an unsupported element type",
         "dtype code " + std::to_string(a.dtype().code) + " with " +
             std::to_string(a.dtype().bits) + " bits",
         "uint8, uint16 or float32");
  const auto dev = a.device_type();
  Location location = Location::host;
  if (dev == nb::device::cpu::value)
    location = Location::host;
  else if (dev == nb::device::cuda::value || dev == nb::device::cuda_managed::value)
    location = Location::device;
  else
    fail(ErrorCode::Unsupported, op, w + " lives on an unsupported device",
         "DLPack device type " + std::to_string(dev), "CPU or CUDA memory");
  // The layout (python/src/array_view.hpp, fuzzed by tests/fuzz/fuzz_view_checks.cpp).
  const int nd = static_cast<int>(a.ndim());
  std::size_t shape[3] = {0, 0, 0};
  std::int64_t stride[3] = {0, 0, 0};
  for (int i = 0; i < nd; ++i) {
    shape[i] = a.shape(static_cast<std::size_t>(i));
    stride[i] = a.stride(static_cast<std::size_t>(i));
  }
  return texcv::python::view_from_layout(type, location, a.data(), nd, shape, stride, op, w);
}

// numpy's name of an element type.
const char* dtype_name(ElemType t) {
  return t == ElemType::u8 ? "uint8" : t == ElemType::u16 ? "uint16" : "float32";
}

// ---- Where an operation runs ---------------------------------------------------------------

bool cuda_usable() {
  static std::once_flag once;
  static bool usable = false;
  std::call_once(once, [] { usable = texcv::cuda_available(); });
  return usable;
}

// True when host arrays are to be processed on the GPU.
bool host_on_cuda(const char* op, const std::string& device) {
  if (device == "cpu") return false;
  if (device == "cuda") return true;
  if (device == "auto") return cuda_usable();
  fail(ErrorCode::InvalidArgument, op, "unknown device", "\"" + device + "\"", "cpu, cuda or auto");
}

using Body = std::function<void(const std::vector<ImageView>&, const ImageView&, void*)>;

// Runs body on the inputs and the output, without the GIL. Host arrays with the CUDA device go
// through device copies (uploaded and downloaded on stream; the download synchronizes).
void run(const char* op, const std::vector<ImageView>& ins, const ImageView& out,
         const std::string& device, std::uintptr_t stream_int, const Body& body) {
  void* stream = reinterpret_cast<void*>(stream_int);
  bool any_device = out.location == Location::device;
  for (const ImageView& v : ins) any_device = any_device || v.location == Location::device;
  if (any_device && device == "cpu")
    fail(ErrorCode::InvalidArgument, op, "device='cpu' was asked for CUDA arrays", "device=\"cpu\"",
         "\"cuda\" or \"auto\" (or host arrays)");
  const bool upload = !any_device && host_on_cuda(op, device);
  nb::gil_scoped_release nogil;
  if (!upload) {
    body(ins, out, stream);
    return;
  }
  std::vector<texcv::Image> d_ins;
  std::vector<ImageView> d_views;
  d_ins.reserve(ins.size());
  for (const ImageView& v : ins) {
    // The library's own wording ("source", "destination"), as the CPU path reports it.
    texcv::validate_view(v, op, "source");
    d_ins.emplace_back(v.width, v.height, v.channels, v.type, Location::device);
    texcv::copy(v, d_ins.back(), stream);
    d_views.push_back(d_ins.back().view());
  }
  texcv::validate_view(out, op, "destination");
  texcv::Image d_out(out.width, out.height, out.channels, out.type, Location::device);
  body(d_views, d_out.view(), stream);
  texcv::copy(d_out, out, stream);
}

std::array<double, 4> border4(const std::vector<double>& v, const char* op) {
  if (v.empty() || v.size() > 4)
    fail(ErrorCode::InvalidArgument, op, "border_value must have 1 to 4 numbers",
         std::to_string(v.size()) + " numbers", "1 to 4");
  std::array<double, 4> r{0, 0, 0, 0};
  if (v.size() == 1)
    r.fill(v[0]);
  else
    for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i];
  return r;
}

texcv::Sampling sampling(const std::string& interp, const std::string& border,
                         const std::vector<double>& value, const std::string& precision,
                         const std::string& path, const char* op) {
  texcv::Sampling s;
  s.interp = texcv::parse_interp(interp);
  s.border = texcv::parse_border(border);
  s.border_value = border4(value, op);
  s.precision = texcv::parse_precision(precision);
  s.path = texcv::parse_path(path);
  return s;
}

// A new numpy array that owns a moved texcv::Image (host), without a copy.
nb::ndarray<nb::numpy> to_numpy(texcv::Image img) {
  auto* owned = new texcv::Image(std::move(img));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<texcv::Image*>(p); });
  const std::size_t es = texcv::elem_size(owned->type());
  const std::size_t c = static_cast<std::size_t>(owned->channels());
  const std::size_t shape[3] = {static_cast<std::size_t>(owned->height()),
                                static_cast<std::size_t>(owned->width()), c};
  const std::int64_t strides[3] = {static_cast<std::int64_t>(owned->pitch() / es),
                                   static_cast<std::int64_t>(c), 1};
  nb::dlpack::dtype dt = owned->type() == ElemType::u8    ? nb::dtype<std::uint8_t>()
                         : owned->type() == ElemType::u16 ? nb::dtype<std::uint16_t>()
                                                          : nb::dtype<float>();
  return nb::ndarray<nb::numpy>(owned->data(), c == 1 ? 2 : 3, shape, owner, strides, dt);
}

template <typename T>
nb::ndarray<nb::numpy, T> owned_array(std::vector<T>&& values, std::vector<std::size_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.data(), owner);
}

nb::dict gpu_dict(const texcv::GpuInfo& g) {
  nb::dict d;
  d["index"] = g.index;
  d["name"] = g.name;
  d["compute_capability"] = nb::make_tuple(g.compute_major, g.compute_minor);
  d["multiprocessors"] = g.multiprocessors;
  d["total_memory"] = g.total_memory;
  d["l2_bytes"] = g.l2_bytes;
  d["texture_alignment"] = g.texture_alignment;
  d["texture_pitch_alignment"] = g.texture_pitch_alignment;
  d["max_texture_2d"] = nb::make_tuple(g.max_texture_2d_width, g.max_texture_2d_height);
  d["max_texture_2d_linear"] =
      nb::make_tuple(g.max_texture_2d_linear_width, g.max_texture_2d_linear_height);
  d["max_texture_2d_linear_pitch"] = g.max_texture_2d_linear_pitch;
  return d;
}

// The codecs' options from the Python keywords (imread / imdecode, imwrite / imencode).
texcv::ReadOptions read_options(bool allow_corrupt, std::uint64_t max_pixels) {
  texcv::ReadOptions o;
  o.allow_corrupt = allow_corrupt;
  o.max_pixels = max_pixels;
  return o;
}
texcv::WriteOptions write_options(int jpeg_quality, int png_compression,
                                  const std::string& tiff_compression, int tiff_level) {
  texcv::WriteOptions o;
  o.jpeg_quality = jpeg_quality;
  o.png_compression = png_compression;
  // The library's parser: an unknown name throws its message listing the accepted ones.
  o.tiff_compression = texcv::parse_tiff_compression(tiff_compression);
  o.tiff_level = tiff_level;
  return o;
}

// ---- Pipelines -----------------------------------------------------------------------------

// texcv.Pipeline's native side: the library's Pipeline (its intermediate buffers kept between
// calls) and, for host arrays processed on the GPU, the device copies of the inputs and outputs,
// also kept and reused while their formats stay.
struct PyPipeline {
  texcv::Pipeline p;
  std::vector<texcv::Image> dev_in, dev_out;

  explicit PyPipeline(const std::string& text) : p(text) {}
  PyPipeline(const PyPipeline&) = delete;
  PyPipeline& operator=(const PyPipeline&) = delete;

  static texcv::Image& fit(std::vector<texcv::Image>& v, std::size_t i, const ImageView& like) {
    if (v.size() <= i) v.resize(i + 1);
    texcv::Image& m = v[i];
    if (m.data() == nullptr || m.width() != like.width || m.height() != like.height ||
        m.channels() != like.channels || m.type() != like.type)
      m = texcv::Image(like.width, like.height, like.channels, like.type, Location::device);
    return m;
  }

  void run_into(const std::vector<InArray>& srcs, const std::vector<OutArray>& dsts,
                const std::string& device, std::uintptr_t stream_int) {
    const char* op = "Pipeline";
    std::vector<ImageView> in, out;
    for (const InArray& a : srcs) in.push_back(view_of(a, op, "src"));
    for (const OutArray& a : dsts) out.push_back(view_of(a, op, "dst"));
    bool any_device = false;
    for (const ImageView& v : in) any_device = any_device || v.location == Location::device;
    for (const ImageView& v : out) any_device = any_device || v.location == Location::device;
    if (any_device && device == "cpu")
      fail(ErrorCode::InvalidArgument, op, "device='cpu' was asked for CUDA arrays",
           "device=\"cpu\"", "\"cuda\" or \"auto\" (or host arrays)");
    const bool upload = !any_device && host_on_cuda(op, device);
    void* stream = reinterpret_cast<void*>(stream_int);
    nb::gil_scoped_release nogil;
    if (!upload) {
      p.run_into(in, out, stream);
      return;
    }
    std::vector<ImageView> d_in, d_out;
    for (std::size_t i = 0; i < in.size(); ++i) {
      texcv::validate_view(in[i], op, "source");
      texcv::Image& d = fit(dev_in, i, in[i]);
      texcv::copy(in[i], d.view(), stream);
      d_in.push_back(d.view());
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      texcv::validate_view(out[i], op, "destination");
      d_out.push_back(fit(dev_out, i, out[i]).view());
    }
    p.run_into(d_in, d_out, stream);
    for (std::size_t i = 0; i < out.size(); ++i) texcv::copy(d_out[i], out[i], stream);
  }
};

// Encoded files in memory through a batch session (decode_many, BatchSession.process): job i is
// datas[i], named names[i] (messages, report), written to or named by outputs[i] (empty: none).
// Runs with the GIL released; each job's result and output (Deliver::encoded / images) by index.
struct InMemoryRun {
  std::vector<texcv::batch::Job> jobs;
  std::vector<texcv::batch::Result> results;
  std::vector<texcv::batch::Output> outputs;
  texcv::batch::Summary summary;
};
InMemoryRun run_in_memory(const std::vector<std::string>& names,
                          const std::vector<nb::bytes>& datas,
                          const std::vector<std::string>& outputs, texcv::batch::Session& session) {
  InMemoryRun r;
  r.jobs.resize(datas.size());
  for (std::size_t i = 0; i < datas.size(); ++i) {
    const auto* p = static_cast<const unsigned char*>(datas[i].data());
    r.jobs[i].input = names[i];
    r.jobs[i].data.assign(p, p + datas[i].size());
    if (!outputs.empty()) r.jobs[i].output = outputs[i];
  }
  r.results.resize(r.jobs.size());
  r.outputs.resize(r.jobs.size());
  if (!r.jobs.empty()) {
    nb::gil_scoped_release nogil;
    r.summary = session.run(
        r.jobs, {}, [&r](const texcv::batch::Result& res) { r.results[res.index] = res; },
        [&r](const texcv::batch::Result& res, texcv::batch::Output&& out) {
          r.outputs[res.index] = std::move(out);  // one call per index: no two write one slot
        });
  }
  return r;
}

// texcv.ray's actors: a batch::Session (workers made once, kept between batches) with the
// options of texcv batch of those names, and the way its outputs come back.
struct BatchSession {
  BatchSession(const std::string& pipeline, const std::string& deliver_name,
               const std::string& device, bool allow_corrupt, std::uint64_t max_pixels,
               int bit_depth, int jpeg_quality, int png_compression,
               const std::string& tiff_compression, int tiff_level, int workers, int threads)
      : session(options(pipeline, deliver_name, device, allow_corrupt, max_pixels, bit_depth,
                        jpeg_quality, png_compression, tiff_compression, tiff_level, workers,
                        threads)),
        deliver(session.options().deliver) {}

  static texcv::batch::Options options(const std::string& pipeline, const std::string& deliver_name,
                                       const std::string& device, bool allow_corrupt,
                                       std::uint64_t max_pixels, int bit_depth, int jpeg_quality,
                                       int png_compression, const std::string& tiff_compression,
                                       int tiff_level, int workers, int threads) {
    const char* op = "BatchSession";
    texcv::batch::Options opt;
    opt.steps = texcv::parse_pipeline(pipeline);
    opt.device = texcv::batch::parse_device(device);
    if (deliver_name == "files")
      opt.deliver = texcv::batch::Deliver::files;
    else if (deliver_name == "encoded")
      opt.deliver = texcv::batch::Deliver::encoded;
    else if (deliver_name == "images")
      opt.deliver = texcv::batch::Deliver::images;
    else
      fail(ErrorCode::InvalidArgument, op, "unknown deliver", "'" + deliver_name + "'",
           "files, encoded or images");
    opt.read = read_options(allow_corrupt, max_pixels);
    opt.max_pixels = max_pixels;
    opt.bit_depth = bit_depth;
    opt.write = write_options(jpeg_quality, png_compression, tiff_compression, tiff_level);
    // workers > 0: that many CPU workers, decode and encode threads, each worker's operations
    // on `threads` threads (a Ray actor given `workers` CPUs keeps to them); 0: the engine's
    // defaults (one per core). The session checks the options.
    if (workers > 0) {
      opt.cpu_workers = workers;
      opt.decode_threads = opt.encode_threads = workers;
      opt.cpu_threads_each = threads > 0 ? threads : 1;
    }
    return opt;
  }

  texcv::batch::Session session;
  texcv::batch::Deliver deliver;
};

}  // namespace

NB_MODULE(_texcv, m) {
  m.doc() = "texcv's native module; use the texcv package instead.";

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

  // ---- I/O -------------------------------------------------------------------------------
  m.def(
      "imread",
      [](const std::string& path, bool allow_corrupt, std::uint64_t max_pixels) {
        const texcv::ReadOptions o = read_options(allow_corrupt, max_pixels);
        texcv::Image img;
        {
          nb::gil_scoped_release nogil;
          img = texcv::imread(path, o);
        }
        return to_numpy(std::move(img));
      },
      "path"_a, "allow_corrupt"_a, "max_pixels"_a);
  m.def(
      "imwrite",
      [](const std::string& path, InArray img, int jpeg_quality, int png_compression,
         const std::string& tiff_compression, int tiff_level, bool tiff_compress) {
        const ImageView v = view_of(img, "imwrite", "img");
        texcv::WriteOptions o =
            write_options(jpeg_quality, png_compression, tiff_compression, tiff_level);
        o.tiff_compress = tiff_compress;  // deprecated: false forces uncompressed
        nb::gil_scoped_release nogil;
        texcv::imwrite(path, v, o);
      },
      "path"_a, "img"_a, "jpeg_quality"_a, "png_compression"_a, "tiff_compression"_a,
      "tiff_level"_a, "tiff_compress"_a);
  m.def(
      "imdecode",
      [](nb::bytes data, bool allow_corrupt, std::uint64_t max_pixels) {
        const texcv::ReadOptions o = read_options(allow_corrupt, max_pixels);
        const auto* p = static_cast<const unsigned char*>(data.data());
        const std::size_t n = data.size();
        texcv::Image img;
        {
          nb::gil_scoped_release nogil;  // data is immutable and kept alive by the caller
          img = texcv::imdecode(p, n, "", o);
        }
        return to_numpy(std::move(img));
      },
      "data"_a, "allow_corrupt"_a, "max_pixels"_a);
  m.def(
      "imencode",
      [](InArray img, const std::string& format, int jpeg_quality, int png_compression,
         const std::string& tiff_compression, int tiff_level) {
        const ImageView v = view_of(img, "imencode", "img");
        const texcv::WriteOptions o =
            write_options(jpeg_quality, png_compression, tiff_compression, tiff_level);
        const texcv::ImageFormat f = texcv::format_from_path("x." + format);
        std::vector<unsigned char> bytes;
        {
          nb::gil_scoped_release nogil;
          bytes = texcv::imencode(v, f, o);
        }
        return nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      },
      "img"_a, "format"_a, "jpeg_quality"_a, "png_compression"_a, "tiff_compression"_a,
      "tiff_level"_a);
  // A list of encoded images through the batch engine with no steps (its decode threads on the
  // CPU; on a GPU, nvJPEG, batched on the JPEG engines where the GPU has them): the images on
  // the host, None for an item that failed, and one status per item.
  m.def(
      "decode_many",
      [](const std::vector<nb::bytes>& datas, const std::string& device, bool allow_corrupt,
         std::uint64_t max_pixels) {
        std::vector<std::string> names(datas.size());
        for (std::size_t i = 0; i < datas.size(); ++i) names[i] = "item " + std::to_string(i);
        texcv::batch::Options opt;
        opt.device = texcv::batch::parse_device(device);
        opt.deliver = texcv::batch::Deliver::images;
        opt.read = read_options(allow_corrupt, max_pixels);
        opt.max_pixels = max_pixels;
        texcv::batch::Session session(std::move(opt));
        InMemoryRun run = run_in_memory(names, datas, {}, session);
        nb::list arrays, statuses;
        for (std::size_t i = 0; i < run.jobs.size(); ++i) {
          const texcv::batch::Result& r = run.results[i];
          texcv::Image& img = run.outputs[i].image;
          if (img.data() != nullptr)
            arrays.append(to_numpy(std::move(img)));
          else
            arrays.append(nb::none());
          nb::dict d;
          d["status"] = texcv::batch::to_string(r.status);
          d["error"] = r.error.empty() ? nb::object(nb::none()) : nb::cast(r.error);
          d["stage"] = r.stage.empty() ? nb::object(nb::none()) : nb::cast(r.stage);
          d["device"] = r.read_device.empty() ? nb::object(nb::none()) : nb::cast(r.read_device);
          d["decoder"] = r.decoder.empty() ? nb::object(nb::none()) : nb::cast(r.decoder);
          d["bytes"] = run.jobs[i].data.size();
          d["ms"] = r.read_ms;
          statuses.append(d);
        }
        return nb::make_tuple(arrays, statuses);
      },
      "datas"_a, "device"_a, "allow_corrupt"_a, "max_pixels"_a);
  // Encoded files in memory through the batch engine with a pipeline, in a session whose
  // workers (CUDA streams, buffers, nvJPEG's states) are made once and serve every call
  // (texcv.ray's actors). process(names, datas, outputs): names[i] names item i in messages and
  // the report, datas[i] its bytes, outputs[i] the output path (deliver "files": written there,
  // temporary file + rename) or a name whose extension picks the format (deliver "encoded": the
  // bytes come back; "images": the arrays). Returns (records, outputs, lost): each item's report
  // line (report_json), its output (None for files and for an item that failed), and the
  // devices lost during the call ("cuda:0: <reason>").
  nb::class_<BatchSession>(m, "BatchSession")
      .def(nb::init<const std::string&, const std::string&, const std::string&, bool, std::uint64_t,
                    int, int, int, const std::string&, int, int, int>(),
           "pipeline"_a, "deliver"_a, "device"_a, "allow_corrupt"_a, "max_pixels"_a, "bit_depth"_a,
           "jpeg_quality"_a, "png_compression"_a, "tiff_compression"_a, "tiff_level"_a, "workers"_a,
           "threads"_a)
      .def(
          "start",
          [](BatchSession& b) {
            texcv::batch::Summary s;
            {
              nb::gil_scoped_release nogil;
              s = b.session.start();
            }
            return nb::make_tuple(s.workers_made, s.lost, s.gpu_note);
          },
          "Makes and sets up the workers now; returns (workers made, devices lost, why no GPU "
          "worker joined).")
      .def("workers", [](const BatchSession& b) { return b.session.workers(); })
      .def(
          "process",
          [](BatchSession& b, const std::vector<std::string>& names,
             const std::vector<nb::bytes>& datas, const std::vector<std::string>& outputs) {
            if (names.size() != datas.size() || outputs.size() != datas.size())
              fail(ErrorCode::InvalidArgument, "BatchSession.process",
                   "names, datas and outputs must have one item each",
                   std::to_string(names.size()) + ", " + std::to_string(datas.size()) + " and " +
                       std::to_string(outputs.size()),
                   "equal lengths");
            InMemoryRun run = run_in_memory(names, datas, outputs, b.session);
            nb::list recs, results;
            for (std::size_t i = 0; i < run.jobs.size(); ++i) {
              const std::string rec = texcv::batch::report_json(run.jobs[i], run.results[i]);
              recs.append(nb::str(rec.c_str(), rec.size()));
              texcv::batch::Output& out = run.outputs[i];
              if (out.image.data() != nullptr)
                results.append(to_numpy(std::move(out.image)));
              else if (b.deliver == texcv::batch::Deliver::encoded && !out.encoded.empty())
                results.append(nb::bytes(reinterpret_cast<const char*>(out.encoded.data()),
                                         out.encoded.size()));
              else
                results.append(nb::none());
            }
            return nb::make_tuple(recs, results, run.summary.lost, run.summary.workers_made);
          },
          "names"_a, "datas"_a, "outputs"_a);
  m.def(
      "read_info",
      [](const std::string& path) {
        const texcv::ImageInfo i = texcv::read_info(path);
        nb::dict d;
        d["width"] = i.width;
        d["height"] = i.height;
        d["channels"] = i.channels;
        d["dtype"] = dtype_name(i.type);
        d["format"] = texcv::to_string(i.format);
        d["pages"] = i.pages;
        return d;
      },
      "path"_a);

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
