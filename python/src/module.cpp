// texcv._texcv: the nanobind extension module behind the Python package (python/texcv).
//
// Every registry operation goes through two entry points, op_output (the output's format) and
// op_run (the run), with typed parameter values; texcv._ops makes the Python functions from the
// registry's specs. The few operations the registry cannot describe yet are bound as
// `op(src, dst, <typed parameters>, device, stream)`. src and dst are arrays (numpy, CuPy, torch,
// anything with DLPack or the buffer protocol) already allocated with contiguous pixels (rows
// may be pitched); the Python layer picks the output size and kind. Host arrays run on the CPU
// backend, or with device="cuda" (or "auto" when a GPU is usable) are copied to the GPU,
// processed there on `stream` and copied back. CUDA arrays run on the CUDA backend on `stream`
// (a cudaStream_t as an integer; 0 is the legacy default stream), without copies and without
// waiting for the work. The GIL is released while texcv works.
//
// The bindings are split by area, one init_<area>(m) each (nanobind's advice for large modules):
// init_runtime.cpp (errors, runtime, the registry and its two generic entry points), init_io.cpp,
// init_ops.cpp, init_pipeline.cpp; their shared parts are in common.hpp.
#include "python/src/common.hpp"

namespace texcv_py {
void init_runtime(nb::module_& m);
void init_io(nb::module_& m);
void init_ops(nb::module_& m);
void init_pipeline(nb::module_& m);
}  // namespace texcv_py

NB_MODULE(_texcv, m) {
  m.doc() = "texcv's native module; use the texcv package instead.";
  texcv_py::init_runtime(m);
  texcv_py::init_io(m);
  texcv_py::init_ops(m);
  texcv_py::init_pipeline(m);
}
