// Whether a view can back a Pitch2D texture directly, and the channel format of its pixels.
#include <cstdint>
#include <string>
#include <utility>

#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda {

namespace {

bool refuse(std::string* why, std::string reason) {
  if (why != nullptr) *why = std::move(reason);
  return false;
}

}  // namespace

cudaChannelFormatDesc channel_format(ElemType type, int channels) {
  if (channels != 1 && channels != 2 && channels != 4)
    fail(ErrorCode::Unsupported, "channel_format", "no texture channel format for this count",
         std::to_string(channels) + " channels", "1, 2 or 4 (pad 3 channels to 4)");
  const int bits = static_cast<int>(elem_size(type)) * 8;
  cudaChannelFormatKind kind = cudaChannelFormatKindUnsigned;
  switch (type) {
    case ElemType::u8:
    case ElemType::u16:
      kind = cudaChannelFormatKindUnsigned;
      break;
    case ElemType::f32:
      kind = cudaChannelFormatKindFloat;
      break;
    default:
      fail(ErrorCode::InvalidArgument, "channel_format", "element type is not supported",
           std::to_string(static_cast<int>(type)), "u8, u16 or f32");
  }
  return cudaCreateChannelDesc(bits, channels >= 2 ? bits : 0, channels >= 4 ? bits : 0,
                               channels >= 4 ? bits : 0, kind);
}

bool can_bind_pitch2d(const ImageView& v, std::string* why) {
  if (v.location != Location::device)
    return refuse(why, "the view is in host memory; textures need device memory");
  if (v.data == nullptr || v.width <= 0 || v.height <= 0)
    return refuse(why, "the view is empty (" + v.describe() + ")");
  if (v.channels != 1 && v.channels != 4)
    return refuse(why, std::to_string(v.channels) +
                           " channels have no texture format (1 or 4 bind; 3 needs padding to 4 "
                           "or the global path)");
  if (elem_size(v.type) == 0) return refuse(why, "the element type is not supported");
  if (v.pitch < v.row_bytes())
    return refuse(why, "pitch " + std::to_string(v.pitch) + " is smaller than a row (" +
                           std::to_string(v.row_bytes()) + " bytes)");

  // Where the memory lives. Unregistered host memory reports cudaMemoryTypeUnregistered.
  cudaPointerAttributes attr{};
  const cudaError_t aerr = cudaPointerGetAttributes(&attr, v.data);
  if (aerr != cudaSuccess) {
    (void)cudaGetLastError();
    return refuse(why, std::string("cudaPointerGetAttributes failed: ") + cudaGetErrorName(aerr));
  }
  if (attr.type != cudaMemoryTypeDevice)
    return refuse(why, attr.type == cudaMemoryTypeManaged
                           ? "the view is in managed memory; Pitch2D textures bind device memory"
                           : "the pointer is not device memory although the view says device");
  int device = 0;
  const cudaError_t derr = cudaGetDevice(&device);
  if (derr != cudaSuccess) {
    (void)cudaGetLastError();
    return refuse(why, std::string("cudaGetDevice failed: ") + cudaGetErrorName(derr));
  }
  if (attr.device != device)
    return refuse(why, "the memory is on device " + std::to_string(attr.device) +
                           " but the current device is " + std::to_string(device));

  const cudaDeviceProp* prop = nullptr;
  try {
    prop = &device_properties(device, "can_bind_pitch2d");
  } catch (const Error& e) {
    return refuse(why, e.what());
  }
  const auto address = reinterpret_cast<std::uintptr_t>(v.data);
  if (prop->textureAlignment != 0 && address % prop->textureAlignment != 0)
    return refuse(why, "the data pointer is not a multiple of textureAlignment (" +
                           std::to_string(prop->textureAlignment) + " bytes; offset " +
                           std::to_string(address % prop->textureAlignment) + ")");
  if (prop->texturePitchAlignment != 0 && v.pitch % prop->texturePitchAlignment != 0)
    return refuse(why, "pitch " + std::to_string(v.pitch) +
                           " is not a multiple of texturePitchAlignment (" +
                           std::to_string(prop->texturePitchAlignment) + " bytes)");
  if (v.width > prop->maxTexture2DLinear[0])
    return refuse(why, "width " + std::to_string(v.width) + " exceeds maxTexture2DLinear width " +
                           std::to_string(prop->maxTexture2DLinear[0]));
  if (v.height > prop->maxTexture2DLinear[1])
    return refuse(why, "height " + std::to_string(v.height) +
                           " exceeds maxTexture2DLinear height " +
                           std::to_string(prop->maxTexture2DLinear[1]));
  if (v.pitch > static_cast<std::size_t>(prop->maxTexture2DLinear[2]))
    return refuse(why, "pitch " + std::to_string(v.pitch) + " exceeds maxTexture2DLinear pitch " +
                           std::to_string(prop->maxTexture2DLinear[2]));
  if (why != nullptr) why->clear();
  return true;
}

}  // namespace texcv::cuda
