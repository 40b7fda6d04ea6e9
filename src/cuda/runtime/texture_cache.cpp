// The texture-object cache: Pitch2D texture objects over device views, reused per
// (device, pointer, size, pitch, format, spec), least recently used dropped past a bound.
//
// Destroying an object that leaves the cache. cudaDestroyTextureObject gives no guarantee for
// kernels still queued (or running) that read through the object, and the cache cannot know
// which streams used it: callers only pass the handle to launches on their own streams. So an
// object that leaves the cache (eviction, forget_textures when its memory is freed) is not
// destroyed at once: it moves to a retired list, and once kRetireBatch objects are retired (or on
// clear_texture_cache) the devices they belong to are synchronized (cudaDeviceSynchronize) and
// then the objects are destroyed. Every kernel queued with such an object before the
// synchronization has finished by then. Alternatives weighed: synchronizing at every eviction
// stalls all streams each time a working set larger than the cache cycles; recording an event
// per use would need every caller to report its stream. Batching keeps the contract simple and
// costs one device synchronization per kRetireBatch evictions; with kCapacity entries the working
// sets of real pipelines (a few buffers, a few specs) never evict at all.
// The one case this does not cover: a thread that looked a handle up and has not launched with it
// yet while other threads churn more than kCapacity + kRetireBatch other views through the cache.
// Synchronization and destruction happen outside the cache's mutex.
#include <cstdint>
#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "src/cuda/runtime/runtime.hpp"

namespace texcv::cuda {

namespace {

constexpr std::size_t kCapacity = 64;
constexpr std::size_t kRetireBatch = 16;

struct Key {
  int device = 0;
  const void* ptr = nullptr;
  int width = 0, height = 0, channels = 0;
  std::size_t pitch = 0;
  ElemType type = ElemType::u8;
  cudaTextureFilterMode filter = cudaFilterModePoint;
  cudaTextureAddressMode address = cudaAddressModeClamp;
  bool normalized_coords = false;
  bool read_normalized = false;
  std::uint32_t border_bits[4] = {0, 0, 0, 0};  // bit patterns: -0.0 and NaN compare exactly

  bool operator==(const Key& o) const noexcept {
    return device == o.device && ptr == o.ptr && width == o.width && height == o.height &&
           channels == o.channels && pitch == o.pitch && type == o.type && filter == o.filter &&
           address == o.address && normalized_coords == o.normalized_coords &&
           read_normalized == o.read_normalized &&
           std::memcmp(border_bits, o.border_bits, sizeof(border_bits)) == 0;
  }
};

struct Entry {
  Key key;
  TextureObject texture;
};

struct Retired {
  int device = 0;
  TextureObject texture;
};

struct Cache {
  std::mutex mutex;
  std::list<Entry> entries;  // front: most recently used
  std::vector<Retired> retired;
};

Cache& cache() {
  // Never destroyed: at process exit the CUDA runtime may already be unloaded, and the driver
  // frees the objects with the context anyway.
  static Cache* c = new Cache;
  return *c;
}

// Synchronizes every device that owns an object in batch, then destroys the objects.
void destroy_after_sync(std::vector<Retired>& batch) noexcept {
  if (batch.empty()) return;
  int previous = 0;
  const cudaError_t gerr = cudaGetDevice(&previous);
  record_release_error(gerr);
  std::vector<int> synced;
  for (const Retired& r : batch) {
    bool done = false;
    for (int d : synced) done = done || d == r.device;
    if (done) continue;
    synced.push_back(r.device);
    if (r.device != previous) record_release_error(cudaSetDevice(r.device));
    record_release_error(cudaDeviceSynchronize());
  }
  if (gerr == cudaSuccess) {
    int now = previous;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous)
      record_release_error(cudaSetDevice(previous));
  }
  batch.clear();  // the TextureObject destructors release the handles
}

Key make_key(const ImageView& v, const TextureSpec& spec, int device) {
  Key k;
  k.device = device;
  k.ptr = v.data;
  k.width = v.width;
  k.height = v.height;
  k.channels = v.channels;
  k.pitch = v.pitch;
  k.type = v.type;
  k.filter = spec.filter;
  k.address = spec.address;
  k.normalized_coords = spec.normalized_coords;
  k.read_normalized = spec.read_normalized && v.type != ElemType::f32;
  static_assert(sizeof(k.border_bits) == sizeof(spec.border_color));
  std::memcpy(k.border_bits, spec.border_color, sizeof(k.border_bits));
  return k;
}

TextureObject create(const ImageView& v, const Key& k, const TextureSpec& spec, const char* op) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = v.data;
  res.res.pitch2D.desc = channel_format(v.type, v.channels);
  res.res.pitch2D.width = static_cast<std::size_t>(v.width);
  res.res.pitch2D.height = static_cast<std::size_t>(v.height);
  res.res.pitch2D.pitchInBytes = v.pitch;

  cudaTextureDesc tex;
  std::memset(&tex, 0, sizeof(tex));
  tex.addressMode[0] = spec.address;
  tex.addressMode[1] = spec.address;
  tex.addressMode[2] = spec.address;
  tex.filterMode = spec.filter;
  tex.readMode = k.read_normalized ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  tex.normalizedCoords = spec.normalized_coords ? 1 : 0;
  for (int i = 0; i < 4; ++i) tex.borderColor[i] = spec.border_color[i];
  return TextureObject(res, tex, op);
}

}  // namespace

cudaTextureObject_t cached_texture(const ImageView& v, const TextureSpec& spec, const char* op) {
  std::string why;
  if (!can_bind_pitch2d(v, &why))
    fail(ErrorCode::InvalidArgument, op, "the view cannot back a Pitch2D texture: " + why,
         v.describe(), "a device view that can_bind_pitch2d accepts");
  const Key key = make_key(v, spec, current_device(op));

  Cache& c = cache();
  std::vector<Retired> batch;
  cudaTextureObject_t handle = 0;
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    for (auto it = c.entries.begin(); it != c.entries.end(); ++it) {
      if (it->key == key) {
        c.entries.splice(c.entries.begin(), c.entries, it);
        return it->texture.get();
      }
    }
    // Miss: create under the lock (about 17 us) so two threads never create the same object.
    // Reserve first so that moving an evicted object to the retired list cannot throw.
    c.retired.reserve(kRetireBatch);
    c.entries.push_front(Entry{key, create(v, key, spec, op)});
    handle = c.entries.front().texture.get();
    if (c.entries.size() > kCapacity) {
      Entry& last = c.entries.back();
      c.retired.push_back(Retired{last.key.device, std::move(last.texture)});
      c.entries.pop_back();
    }
    if (c.retired.size() >= kRetireBatch) batch.swap(c.retired);
  }
  destroy_after_sync(batch);
  return handle;
}

std::size_t texture_cache_size() {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return c.entries.size();
}

std::size_t texture_cache_capacity() noexcept {
  return kCapacity;
}

void clear_texture_cache() {
  Cache& c = cache();
  std::vector<Retired> batch;
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    batch.reserve(c.retired.size() + c.entries.size());  // the moves below cannot throw
    for (Retired& r : c.retired) batch.push_back(std::move(r));
    c.retired.clear();
    for (Entry& e : c.entries) batch.push_back(Retired{e.key.device, std::move(e.texture)});
    c.entries.clear();
  }
  destroy_after_sync(batch);
}

void forget_textures(const void* begin, std::size_t bytes) noexcept {
  Cache& c = cache();
  std::vector<Retired> batch;
  const auto lo = reinterpret_cast<std::uintptr_t>(begin);
  const auto hi = lo + bytes;
  try {
    const std::lock_guard<std::mutex> lock(c.mutex);
    std::size_t matches = 0;
    for (const Entry& e : c.entries) {
      const auto p = reinterpret_cast<std::uintptr_t>(e.key.ptr);
      matches += (p >= lo && p < hi) ? 1 : 0;
    }
    if (matches == 0) return;
    c.retired.reserve(c.retired.size() + matches);  // may throw; the moves below cannot
    for (auto it = c.entries.begin(); it != c.entries.end();) {
      const auto p = reinterpret_cast<std::uintptr_t>(it->key.ptr);
      if (p >= lo && p < hi) {
        c.retired.push_back(Retired{it->key.device, std::move(it->texture)});
        it = c.entries.erase(it);
      } else {
        ++it;
      }
    }
    if (c.retired.size() >= kRetireBatch) batch.swap(c.retired);
  } catch (...) {
    // reserve failed (bad_alloc): the entries stay in the cache; clear_texture_cache drops them.
  }
  destroy_after_sync(batch);
}

}  // namespace texcv::cuda
