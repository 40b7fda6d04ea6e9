// texcv._texcv: the codecs, decode lists and batch sessions (the batch engine on bytes in memory).
#include "python/src/common.hpp"

namespace texcv_py {

void init_io(nb::module_& m) {
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
  // the report, datas[i] its bytes (datas empty: the engine reads the file at path names[i]),
  // outputs[i] the output path (deliver "files": written there, temporary file + rename) or a
  // name whose extension picks the format (deliver "encoded": the bytes come back; "images": the
  // arrays). Returns (records, outputs, lost, made): each item's report line (report_json), its
  // output (None for files and for an item that failed), the devices lost during the call
  // ("cuda:0: <reason>"), and the workers the call had to make (0 while none is lost).
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
            if ((!datas.empty() && names.size() != datas.size()) || outputs.size() != names.size())
              fail(ErrorCode::InvalidArgument, "BatchSession.process",
                   "names, datas and outputs must have one item each (or datas empty: the files "
                   "at the paths names)",
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
}

}  // namespace texcv_py
