#include "src/cuda/ops/common/source_access.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "texcv/error.hpp"

namespace texcv::cuda::ops {
namespace {

// Grid rows: kBlockY (8) rows a block, at most 65535 blocks along y.
constexpr int kMaxHeight = 65535 * 8;

TextureSpec spec_for(Path path, const ImageView& src, const detail::SamplingDesc& s) {
  TextureSpec spec;
  if (path != Path::texture_filter) return spec;  // point, element type, clamp, unnormalized
  spec.filter = cudaFilterModeLinear;
  spec.read_normalized = src.type != ElemType::f32;
  const float unit = src.type == ElemType::u8    ? 255.0f
                     : src.type == ElemType::u16 ? 65535.0f
                                                 : 1.0f;
  switch (s.border) {
    case Border::constant:
      spec.address = cudaAddressModeBorder;
      for (int c = 0; c < 4; ++c) spec.border_color[c] = s.border_value[c] / unit;
      break;
    case Border::replicate:
      spec.address = cudaAddressModeClamp;
      break;
    case Border::reflect:  // Mirror repeats the edge texel = reflect; normalized coords only
      spec.address = cudaAddressModeMirror;
      spec.normalized_coords = true;
      break;
    case Border::wrap:  // Wrap needs normalized coordinates too
      spec.address = cudaAddressModeWrap;
      spec.normalized_coords = true;
      break;
    case Border::reflect101:  // rejected by check_explicit_path / never chosen by choose_path
      fail(ErrorCode::Internal, "texture_filter", "no hardware address mode for reflect101");
  }
  return spec;
}

}  // namespace

void check_device_view(const char* op, const ImageView& v, const char* which) {
  if (v.location != Location::device)
    fail(ErrorCode::InvalidArgument, op, std::string(which) + " is not in device memory",
         v.describe(), "a device view");
  const std::size_t es = elem_size(v.type);
  if (reinterpret_cast<std::uintptr_t>(v.data) % es != 0 || v.pitch % es != 0)
    fail(ErrorCode::Unsupported, op,
         std::string(which) + ": the CUDA backend needs data and pitch aligned to the element size",
         v.describe(), "multiples of " + std::to_string(es) + " bytes");
  if (v.height > kMaxHeight)
    fail(ErrorCode::Unsupported, op, std::string(which) + " is too tall for one launch",
         std::to_string(v.height) + " rows", "at most " + std::to_string(kMaxHeight));
}

SourcePlan::SourcePlan(const char* op, GeomOp gop, const ImageView& src,
                       const detail::SamplingDesc& s, cudaStream_t stream)
    : op_(op), stream_(stream) {
  check_device_view(op, src, "src");
  args_.data = static_cast<const unsigned char*>(src.data);
  args_.pitch = src.pitch;
  args_.width = src.width;
  args_.height = src.height;
  const std::size_t px = src.pixel_bytes();
  args_.vec_load = src.channels == 4 && reinterpret_cast<std::uintptr_t>(src.data) % px == 0 &&
                   src.pitch % px == 0;

  Path path = s.path;
  std::string why;
  const bool bindable = src.channels != 3 && can_bind_pitch2d(src, &why);
  if (gop == GeomOp::flip) {
    path = Path::global;
  } else if (path == Path::automatic) {
    path = choose_path(gop, s.interp, src.type, src.channels, s.precision, s.border, bindable);
  } else {
    check_explicit_path(op, s, src.channels);
  }
  args_.path = path;
  if (path == Path::global || path == Path::shared) return;  // plain loads (shared: stencils)

  const TextureSpec spec = spec_for(path, src, s);
  args_.normalized_coords = spec.normalized_coords;
  args_.inv_width = 1.0f / static_cast<float>(src.width);
  args_.inv_height = 1.0f / static_cast<float>(src.height);
  args_.value_scale = src.type == ElemType::u8    ? 255.0f
                      : src.type == ElemType::u16 ? 65535.0f
                                                  : 1.0f;
  if (bindable) {
    args_.tex = cached_texture(src, spec, op);
    return;
  }

  // Explicit texture path on a view that cannot bind (pointer or pitch alignment): copy it into
  // a pitched scratch buffer (cudaMallocPitch meets the texture alignments) and bind that.
  scratch_ = DeviceBuffer(src.row_bytes(), static_cast<std::size_t>(src.height), op);
  const ImageView sv = scratch_.view(src.width, src.height, src.channels, src.type);
  std::string why_scratch;
  if (!can_bind_pitch2d(sv, &why_scratch))
    fail(ErrorCode::Unsupported, op,
         std::string("path ") + to_string(path) + " cannot bind this image as a texture (" +
             why_scratch + "); use path global (or automatic)",
         src.describe(), "an image within the device's texture limits");
  TEXCV_CUDA_CHECK(op, cudaMemcpy2DAsync(sv.data, sv.pitch, src.data, src.pitch, src.row_bytes(),
                                         static_cast<std::size_t>(src.height),
                                         cudaMemcpyDeviceToDevice, stream));
  pending_ = true;
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = sv.data;
  res.res.pitch2D.desc = channel_format(sv.type, sv.channels);
  res.res.pitch2D.width = static_cast<std::size_t>(sv.width);
  res.res.pitch2D.height = static_cast<std::size_t>(sv.height);
  res.res.pitch2D.pitchInBytes = sv.pitch;
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = spec.address;
  td.filterMode = spec.filter;
  td.readMode = spec.read_normalized ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = spec.normalized_coords ? 1 : 0;
  for (int c = 0; c < 4; ++c) td.borderColor[c] = spec.border_color[c];
  own_tex_ = TextureObject(res, td, op);
  args_.tex = own_tex_.get();
  args_.data = static_cast<const unsigned char*>(sv.data);
  args_.pitch = sv.pitch;
}

void SourcePlan::finish() {
  if (!pending_) return;
  pending_ = false;
  TEXCV_CUDA_CHECK(op_, cudaStreamSynchronize(stream_));
}

SourcePlan::~SourcePlan() {
  // The scratch buffer and its texture object must outlive the queued work (error paths too).
  if (pending_) (void)cudaStreamSynchronize(stream_);
}

}  // namespace texcv::cuda::ops
