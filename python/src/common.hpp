// The native module's shared parts (python/src/init_*.cpp): arrays to views, where an operation
// runs (run: the CPU backend, or the GPU with copies for host arrays), errors, options, and the
// classes bound in several files. The module's overview is in module.cpp.
#pragma once

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

namespace texcv_py {

using namespace nb::literals;

using texcv::ElemType;
using texcv::ErrorCode;
using texcv::fail;
using texcv::ImageView;
using texcv::Location;

using InArray = nb::ndarray<nb::ro>;
using OutArray = nb::ndarray<>;

// ---- Errors --------------------------------------------------------------------------------

// One Python exception class per ErrorCode, registered by texcv/_errors.py at import.
inline std::array<PyObject*, 7> g_error_classes{};

inline void set_python_error(const texcv::Error& e) {
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
inline const char* dtype_name(ElemType t) {
  return t == ElemType::u8 ? "uint8" : t == ElemType::u16 ? "uint16" : "float32";
}

// ---- Where an operation runs ---------------------------------------------------------------

inline bool cuda_usable() {
  static std::once_flag once;
  static bool usable = false;
  std::call_once(once, [] { usable = texcv::cuda_available(); });
  return usable;
}

// True when host arrays are to be processed on the GPU.
inline bool host_on_cuda(const char* op, const std::string& device) {
  if (device == "cpu") return false;
  if (device == "cuda") return true;
  if (device == "auto") return cuda_usable();
  fail(ErrorCode::InvalidArgument, op, "unknown device", "\"" + device + "\"", "cpu, cuda or auto");
}

using Body = std::function<void(const std::vector<ImageView>&, const ImageView&, void*)>;

// Runs body on the inputs and the output, without the GIL. Host arrays with the CUDA device go
// through device copies (uploaded and downloaded on stream; the download synchronizes).
inline void run(const char* op, const std::vector<ImageView>& ins, const ImageView& out,
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

inline std::array<double, 4> border4(const std::vector<double>& v, const char* op) {
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

inline texcv::Sampling sampling(const std::string& interp, const std::string& border,
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
inline nb::ndarray<nb::numpy> to_numpy(texcv::Image img) {
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

inline nb::dict gpu_dict(const texcv::GpuInfo& g) {
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
inline texcv::ReadOptions read_options(bool allow_corrupt, std::uint64_t max_pixels) {
  texcv::ReadOptions o;
  o.allow_corrupt = allow_corrupt;
  o.max_pixels = max_pixels;
  return o;
}
inline texcv::WriteOptions write_options(int jpeg_quality, int png_compression,
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
// datas empty: job i is the file at path names[i], read by the engine's read threads (a Ray actor
// on a shared filesystem: no bytes through the object store). Runs with the GIL released; each
// job's result and output (Deliver::encoded / images) by index.
struct InMemoryRun {
  std::vector<texcv::batch::Job> jobs;
  std::vector<texcv::batch::Result> results;
  std::vector<texcv::batch::Output> outputs;
  texcv::batch::Summary summary;
};
inline InMemoryRun run_in_memory(const std::vector<std::string>& names,
                                 const std::vector<nb::bytes>& datas,
                                 const std::vector<std::string>& outputs,
                                 texcv::batch::Session& session) {
  InMemoryRun r;
  r.jobs.resize(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    r.jobs[i].input = names[i];
    if (!datas.empty()) {
      const auto* p = static_cast<const unsigned char*>(datas[i].data());
      r.jobs[i].data.assign(p, p + datas[i].size());
    }
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
    texcv::batch::Options opt;
    opt.steps = texcv::parse_pipeline(pipeline);
    opt.device = texcv::batch::parse_device(device);
    opt.deliver = texcv::batch::parse_deliver(deliver_name);
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

}  // namespace texcv_py
