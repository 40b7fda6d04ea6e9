// The CUDA runtime layer (RAII handles, counters, texture binding rules, texture cache) and the
// CUDA backend's non-kernel entry points (queries, allocation, copy). GPU tests skip with a
// message where no GPU is usable; the no-GPU behaviour is tested on such machines.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

#if defined(TEXCV_HAS_CUDA)
#include "src/core/host_cache.hpp"
#include "src/cuda/runtime/runtime.hpp"
#endif

namespace texcv {
namespace {

void expect_counts_equal(const HandleCounts& got, const HandleCounts& want, const char* where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(got.textures, want.textures);
  EXPECT_EQ(got.arrays, want.arrays);
  EXPECT_EQ(got.streams, want.streams);
  EXPECT_EQ(got.events, want.events);
  EXPECT_EQ(got.device_buffers, want.device_buffers);
  EXPECT_EQ(got.pinned_buffers, want.pinned_buffers);
}

#if defined(TEXCV_HAS_CUDA)
// Pitch2D resource and point-sampling texture descriptors over a device view.
cudaResourceDesc pitch2d_resource(const ImageView& v) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = v.data;
  res.res.pitch2D.desc = cuda::channel_format(v.type, v.channels);
  res.res.pitch2D.width = static_cast<std::size_t>(v.width);
  res.res.pitch2D.height = static_cast<std::size_t>(v.height);
  res.res.pitch2D.pitchInBytes = v.pitch;
  return res;
}

cudaTextureDesc point_clamp() {
  cudaTextureDesc tex;
  std::memset(&tex, 0, sizeof(tex));
  tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = cudaFilterModePoint;
  tex.readMode = cudaReadModeElementType;
  return tex;
}
#endif

// ---- Without a GPU (these run on any machine) ----

TEST(CudaRuntime, NoGpuReportsNoneAndDeviceImageThrowsClearError) {
  if (cuda_available())
    GTEST_SKIP() << "a GPU is present; this test checks the behaviour without one";
  EXPECT_FALSE(cuda_available());
  EXPECT_TRUE(gpus().empty());
  const MemoryInfo m = device_memory_info();
  EXPECT_EQ(m.free, 0u);
  EXPECT_EQ(m.total, 0u);
  expect_counts_equal(live_handles(), HandleCounts{}, "no handles without a GPU");
  EXPECT_NO_THROW(clear_texture_cache());
  try {
    Image img(16, 8, 1, ElemType::u8, Location::device);
    FAIL() << "a device Image was created without a GPU: " << img.view().describe();
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (build_info().cuda_compiled) {
      EXPECT_EQ(e.code(), ErrorCode::Cuda) << msg;
      // "Image: no usable CUDA device; got cudaGetDeviceCount: <name>: <text>, expected ..."
      EXPECT_EQ(msg.rfind("Image: no usable CUDA device; got ", 0), 0u) << msg;
      EXPECT_NE(msg.find("expected a CUDA GPU and driver"), std::string::npos) << msg;
    } else {
      EXPECT_EQ(e.code(), ErrorCode::NotCompiled) << msg;
      EXPECT_EQ(msg.rfind("Image: ", 0), 0u) << msg;
    }
  }
  // The failed query must not leave an error behind for the next launch check.
  EXPECT_FALSE(cuda_available());
}

TEST(CudaRuntime, ErrorMessageNamesOpCallAndCudaError) {
#if defined(TEXCV_HAS_CUDA)
  try {
    cuda::throw_cuda_error(cudaErrorInvalidValue, "my_op", "cudaFoo(a, b)");
    FAIL() << "throw_cuda_error returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Cuda);
    EXPECT_EQ(std::string(e.what()),
              std::string("my_op: cudaFoo(a, b) failed: cudaErrorInvalidValue: ") +
                  cudaGetErrorString(cudaErrorInvalidValue));
  }
  try {
    cuda::throw_cuda_error(cudaErrorMemoryAllocation, "alloc_op", "cudaMalloc(p, n)");
    FAIL() << "throw_cuda_error returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_EQ(std::string(e.what()).rfind("alloc_op: cudaMalloc(p, n) failed: "
                                          "cudaErrorMemoryAllocation: ",
                                          0),
              0u)
        << e.what();
  }
  // TEXCV_CUDA_CHECK passes success through and stringifies the failing call.
  EXPECT_NO_THROW(TEXCV_CUDA_CHECK("check_op", cudaSuccess));
  try {
    TEXCV_CUDA_CHECK("check_op", cudaErrorInvalidValue);
    FAIL() << "TEXCV_CUDA_CHECK did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("check_op: cudaErrorInvalidValue failed: ", 0), 0u)
        << e.what();
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, ChannelFormats) {
#if defined(TEXCV_HAS_CUDA)
  const cudaChannelFormatDesc a = cuda::channel_format(ElemType::u8, 4);
  EXPECT_EQ(a.x, 8);
  EXPECT_EQ(a.y, 8);
  EXPECT_EQ(a.z, 8);
  EXPECT_EQ(a.w, 8);
  EXPECT_EQ(a.f, cudaChannelFormatKindUnsigned);
  const cudaChannelFormatDesc b = cuda::channel_format(ElemType::u16, 1);
  EXPECT_EQ(b.x, 16);
  EXPECT_EQ(b.y, 0);
  EXPECT_EQ(b.z, 0);
  EXPECT_EQ(b.w, 0);
  EXPECT_EQ(b.f, cudaChannelFormatKindUnsigned);
  const cudaChannelFormatDesc c = cuda::channel_format(ElemType::f32, 4);
  EXPECT_EQ(c.x, 32);
  EXPECT_EQ(c.w, 32);
  EXPECT_EQ(c.f, cudaChannelFormatKindFloat);
  try {
    (void)cuda::channel_format(ElemType::u8, 3);
    FAIL() << "a 3-channel texture format was returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("got 3 channels"), std::string::npos) << e.what();
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, BuildInfoNamesToolkitAndArchitectures) {
  const BuildInfo b = build_info();
#if defined(TEXCV_HAS_CUDA)
  EXPECT_TRUE(b.cuda_compiled);
  EXPECT_EQ(b.cuda_version, std::to_string(CUDART_VERSION / 1000) + "." +
                                std::to_string(CUDART_VERSION % 1000 / 10));
  EXPECT_FALSE(b.cuda_architectures.empty());
#else
  EXPECT_FALSE(b.cuda_compiled);
  EXPECT_EQ(b.cuda_version, "");
#endif
}

// ---- On a GPU ----

TEST(CudaRuntime, GpusReportTextureLimits) {
  TEXCV_REQUIRE_GPU();
  const std::vector<GpuInfo> g = gpus();
  ASSERT_FALSE(g.empty());
  for (std::size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g[i].index, static_cast<int>(i));
    EXPECT_FALSE(g[i].name.empty());
    EXPECT_GE(g[i].compute_major, 1);
    EXPECT_GT(g[i].multiprocessors, 0);
    EXPECT_GT(g[i].total_memory, 0u);
    EXPECT_GT(g[i].texture_alignment, 0u);
    EXPECT_GT(g[i].texture_pitch_alignment, 0u);
    EXPECT_GT(g[i].max_texture_2d_linear_width, 0);
    EXPECT_GT(g[i].max_texture_2d_linear_height, 0);
    EXPECT_GT(g[i].max_texture_2d_linear_pitch, 0);
    EXPECT_GT(g[i].max_texture_2d_width, 0);
  }
  const MemoryInfo m = device_memory_info();
  EXPECT_GT(m.total, 0u);
  EXPECT_LE(m.free, m.total);
}

TEST(CudaRuntime, RaiiTypesMoveAndCountersReturn) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  clear_texture_cache();
  const HandleCounts start = live_handles();
  const long release_errors = cuda::counters().release_errors.load();
  {
    cuda::DeviceBuffer a(256, 16);
    void* const p = a.data();
    ASSERT_NE(p, nullptr);
    EXPECT_GE(a.pitch(), 256u);
    EXPECT_EQ(a.width_bytes(), 256u);
    EXPECT_EQ(a.height(), 16u);
    EXPECT_EQ(live_handles().device_buffers, start.device_buffers + 1);
    cuda::DeviceBuffer b(std::move(a));
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from state is defined
    EXPECT_EQ(a.pitch(), 0u);
    EXPECT_EQ(b.data(), p);
    EXPECT_EQ(live_handles().device_buffers, start.device_buffers + 1);
    cuda::DeviceBuffer c(128, 4);
    EXPECT_EQ(live_handles().device_buffers, start.device_buffers + 2);
    c = std::move(b);  // c's own buffer is freed
    EXPECT_EQ(c.data(), p);
    EXPECT_EQ(b.data(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(live_handles().device_buffers, start.device_buffers + 1);

    cuda::PinnedBuffer h(4096);
    void* const hp = h.data();
    ASSERT_NE(hp, nullptr);
    EXPECT_EQ(h.size(), 4096u);
    cuda::PinnedBuffer h2;
    h2 = std::move(h);
    EXPECT_EQ(h2.data(), hp);
    EXPECT_EQ(h.data(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(live_handles().pinned_buffers, start.pinned_buffers + 1);

    cuda::Stream s1;
    const cudaStream_t raw = s1.get();
    ASSERT_NE(raw, nullptr);
    unsigned flags = 0;
    ASSERT_EQ(cudaStreamGetFlags(raw, &flags), cudaSuccess);
    EXPECT_EQ(flags & cudaStreamNonBlocking, static_cast<unsigned>(cudaStreamNonBlocking));
    cuda::Stream s2(std::move(s1));
    EXPECT_EQ(s1.get(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(s2.get(), raw);
    EXPECT_EQ(live_handles().streams, start.streams + 1);

    cuda::Event e1, e2;
    EXPECT_EQ(live_handles().events, start.events + 2);
    cuda::Event e3(std::move(e2));
    EXPECT_EQ(e2.get(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(live_handles().events, start.events + 2);
    // A device-to-device copy between the two events, so the timing has something to measure.
    cuda::DeviceBuffer d(256, 16);
    ASSERT_EQ(cudaMemcpy2DAsync(d.data(), d.pitch(), c.data(), c.pitch(), 256, 16,
                                cudaMemcpyDeviceToDevice, s2.get()),
              cudaSuccess);
    e1.record(s2.get());
    ASSERT_EQ(cudaMemcpy2DAsync(c.data(), c.pitch(), d.data(), d.pitch(), 256, 16,
                                cudaMemcpyDeviceToDevice, s2.get()),
              cudaSuccess);
    e3.record(s2.get());
    e3.synchronize();
    EXPECT_GE(e3.elapsed_since(e1), 0.0f);
    s2.synchronize();

    cuda::CudaArray arr(cuda::channel_format(ElemType::f32, 1), 64, 32);
    const cudaArray_t raw_arr = arr.get();
    ASSERT_NE(raw_arr, nullptr);
    cuda::CudaArray arr2;
    arr2 = std::move(arr);
    EXPECT_EQ(arr2.get(), raw_arr);
    EXPECT_EQ(arr.get(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(live_handles().arrays, start.arrays + 1);

    const ImageView v = c.view(64, 4, 1, ElemType::u8);
    std::string why;
    ASSERT_TRUE(cuda::can_bind_pitch2d(v, &why)) << why;
    cuda::TextureObject t1(pitch2d_resource(v), point_clamp());
    const cudaTextureObject_t raw_tex = t1.get();
    EXPECT_NE(raw_tex, 0u);
    cuda::TextureObject t2(std::move(t1));
    EXPECT_EQ(t1.get(), 0u);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(t2.get(), raw_tex);
    cuda::TextureObject t3(pitch2d_resource(v), point_clamp());
    EXPECT_EQ(live_handles().textures, start.textures + 2);
    t3 = std::move(t2);  // t3's own object is destroyed
    EXPECT_EQ(t3.get(), raw_tex);
    EXPECT_EQ(live_handles().textures, start.textures + 1);
  }
  expect_counts_equal(live_handles(), start, "after every RAII owner left scope");
  EXPECT_EQ(cuda::counters().release_errors.load(), release_errors);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// A large PinnedBuffer (4 MB or more) is memory of the process's own page-locked with
// cudaHostRegister, 2 MB aligned where host images get huge pages (else 4 KB): CUDA reports it
// as host memory, asynchronous copies through it round-trip exactly, moving it moves the
// registration, and releasing it unregisters it (the counters and no release error). A small one
// still comes from cudaMallocHost.
TEST(CudaRuntime, LargePinnedBuffersAreRegisteredHostMemory) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  const HandleCounts start = live_handles();
  const long release_errors = cuda::counters().release_errors.load();
  const std::size_t bytes = (std::size_t{6} << 20) + 12345;  // not a multiple of any page
  {
    cuda::PinnedBuffer a(bytes);
    ASSERT_NE(a.data(), nullptr);
    EXPECT_EQ(a.size(), bytes);
    const std::size_t align = detail::host_huge_pages() ? std::size_t{2} << 20 : 4096;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % align, 0u);
    cudaPointerAttributes attr{};
    ASSERT_EQ(cudaPointerGetAttributes(&attr, a.data()), cudaSuccess);
    EXPECT_EQ(attr.type, cudaMemoryTypeHost);
    cuda::PinnedBuffer small(4096);
    cudaPointerAttributes sattr{};
    ASSERT_EQ(cudaPointerGetAttributes(&sattr, small.data()), cudaSuccess);
    EXPECT_EQ(sattr.type, cudaMemoryTypeHost);
    EXPECT_EQ(live_handles().pinned_buffers, start.pinned_buffers + 2);

    auto* in = static_cast<unsigned char*>(a.data());
    for (std::size_t i = 0; i < bytes; ++i) in[i] = static_cast<unsigned char>(i * 131 + 7);
    cuda::PinnedBuffer back(bytes);
    std::memset(back.data(), 0xA5, bytes);  // poisoned
    cuda::DeviceBuffer dev(bytes, 1);
    cuda::Stream s;
    ASSERT_EQ(cudaMemcpyAsync(dev.data(), a.data(), bytes, cudaMemcpyHostToDevice, s.get()),
              cudaSuccess);
    ASSERT_EQ(cudaMemcpyAsync(back.data(), dev.data(), bytes, cudaMemcpyDeviceToHost, s.get()),
              cudaSuccess);
    s.synchronize();
    EXPECT_EQ(std::memcmp(back.data(), a.data(), bytes), 0);

    void* const p = a.data();
    cuda::PinnedBuffer moved(std::move(a));
    EXPECT_EQ(moved.data(), p);
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move)
    back = std::move(moved);       // back's own buffer is unregistered and freed
    EXPECT_EQ(back.data(), p);
    EXPECT_EQ(live_handles().pinned_buffers, start.pinned_buffers + 2);
  }
  expect_counts_equal(live_handles(), start, "after the pinned buffers left scope");
  EXPECT_EQ(cuda::counters().release_errors.load(), release_errors);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, TextureObjectCreateDestroyDoesNotLeak) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  clear_texture_cache();
  cuda::DeviceBuffer buf(1024 * sizeof(float), 256);
  const ImageView v = buf.view(1024, 256, 1, ElemType::f32);
  std::string why;
  ASSERT_TRUE(cuda::can_bind_pitch2d(v, &why)) << why;
  const cudaResourceDesc res = pitch2d_resource(v);
  const cudaTextureDesc tex = point_clamp();
  // Warm up: the driver may set up its texture-header pool on the first objects.
  for (int i = 0; i < 1000; ++i) cuda::TextureObject t(res, tex);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const HandleCounts start = live_handles();
  const MemoryInfo before = device_memory_info();
  const long release_errors = cuda::counters().release_errors.load();
  constexpr int kCycles = 100000;
  for (int i = 0; i < kCycles; ++i) {
    cuda::TextureObject t(res, tex);
    if (t.get() == 0) {
      ADD_FAILURE() << "cycle " << i << ": null texture object";
      break;
    }
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const MemoryInfo after = device_memory_info();
  expect_counts_equal(live_handles(), start, "after 100,000 create/destroy cycles");
  EXPECT_EQ(cuda::counters().release_errors.load(), release_errors);
  // Tolerance: one 2 MiB driver page. A leak of the 100,000 objects would hold at least their
  // 32-byte texture headers, 3.2 MB, so a real leak still exceeds it.
  const std::size_t kSlack = std::size_t{2} << 20;
  EXPECT_LE(before.free, after.free + kSlack)
      << "free memory fell from " << before.free << " to " << after.free << " bytes";
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, TextureCacheReusesPerViewAndSpecAndStaysBounded) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  clear_texture_cache();
  EXPECT_EQ(cuda::texture_cache_size(), 0u);
  const HandleCounts start = live_handles();
  cuda::DeviceBuffer buf(256 * 4, 64);
  const ImageView v = buf.view(256, 64, 4, ElemType::u8);
  std::string why;
  ASSERT_TRUE(cuda::can_bind_pitch2d(v, &why)) << why;

  cuda::TextureSpec point;
  const cudaTextureObject_t h1 = cuda::cached_texture(v, point, "test_cache");
  EXPECT_NE(h1, 0u);
  const cudaTextureObject_t h1b = cuda::cached_texture(v, point, "test_cache");
  EXPECT_EQ(h1b, h1) << "same view and spec must reuse the cached object";
  EXPECT_EQ(cuda::texture_cache_size(), 1u);
  EXPECT_EQ(live_handles().textures, start.textures + 1);

  cuda::TextureSpec linear;
  linear.filter = cudaFilterModeLinear;
  linear.read_normalized = true;
  const cudaTextureObject_t h2 = cuda::cached_texture(v, linear, "test_cache");
  EXPECT_NE(h2, h1);
  cuda::TextureSpec border = point;
  border.address = cudaAddressModeBorder;
  border.border_color[3] = 1.0f;
  const cudaTextureObject_t h3 = cuda::cached_texture(v, border, "test_cache");
  EXPECT_NE(h3, h1);
  EXPECT_NE(h3, h2);
  const ImageView narrower = buf.view(255, 64, 4, ElemType::u8);
  const cudaTextureObject_t h4 = cuda::cached_texture(narrower, point, "test_cache");
  EXPECT_NE(h4, h1);
  EXPECT_EQ(cuda::texture_cache_size(), 4u);
  EXPECT_EQ(cuda::cached_texture(v, linear, "test_cache"), h2);
  EXPECT_EQ(cuda::cached_texture(v, border, "test_cache"), h3);
  EXPECT_EQ(cuda::texture_cache_size(), 4u);

  // For f32 views read_normalized does not exist: both specs share one object.
  cuda::DeviceBuffer fbuf(64 * sizeof(float), 16);
  const ImageView fv = fbuf.view(64, 16, 1, ElemType::f32);
  cuda::TextureSpec fa;
  cuda::TextureSpec fb;
  fb.read_normalized = true;
  EXPECT_EQ(cuda::cached_texture(fv, fa, "test_cache"), cuda::cached_texture(fv, fb, "test_cache"));
  EXPECT_EQ(cuda::texture_cache_size(), 5u);

  // Bounded: many distinct specs never grow the cache past its capacity.
  const std::size_t cap = cuda::texture_cache_capacity();
  ASSERT_GT(cap, 4u);
  cudaTextureObject_t last = 0;
  cuda::TextureSpec distinct = border;
  for (std::size_t i = 0; i < cap + 20; ++i) {
    distinct.border_color[0] = 2.0f + static_cast<float>(i);
    last = cuda::cached_texture(v, distinct, "test_cache");
    ASSERT_LE(cuda::texture_cache_size(), cap) << "after " << i + 1 << " distinct specs";
  }
  EXPECT_EQ(cuda::texture_cache_size(), cap);
  // The most recent entry is still cached: asking again creates nothing.
  const long textures = live_handles().textures;
  EXPECT_EQ(cuda::cached_texture(v, distinct, "test_cache"), last);
  EXPECT_EQ(live_handles().textures, textures);
  EXPECT_EQ(cuda::texture_cache_size(), cap);

  clear_texture_cache();
  EXPECT_EQ(cuda::texture_cache_size(), 0u);
  EXPECT_EQ(live_handles().textures, start.textures);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, FreeingMemoryDropsItsCachedTextures) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  clear_texture_cache();
  const HandleCounts start = live_handles();
  cuda::DeviceBuffer keep(128 * 4, 8);
  (void)cuda::cached_texture(keep.view(128, 8, 4, ElemType::u8), cuda::TextureSpec{}, "t");
  {
    cuda::DeviceBuffer gone(128 * 4, 8);
    (void)cuda::cached_texture(gone.view(128, 8, 4, ElemType::u8), cuda::TextureSpec{}, "t");
    Image img(32, 8, 1, ElemType::f32, Location::device);
    (void)cuda::cached_texture(img.view(), cuda::TextureSpec{}, "t");
    EXPECT_EQ(cuda::texture_cache_size(), 3u);
  }
  // Both freed buffers (DeviceBuffer and the Image's allocation) left the cache.
  EXPECT_EQ(cuda::texture_cache_size(), 1u);
  clear_texture_cache();
  EXPECT_EQ(cuda::texture_cache_size(), 0u);
  EXPECT_EQ(live_handles().textures, start.textures);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, CanBindPitch2dRefusesWithReason) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  cuda::DeviceBuffer buf(64 * 4 * sizeof(float), 32);
  std::string why;
  EXPECT_TRUE(cuda::can_bind_pitch2d(buf.view(64, 32, 4, ElemType::f32), &why)) << why;
  EXPECT_TRUE(cuda::can_bind_pitch2d(buf.view(64, 32, 1, ElemType::f32), &why)) << why;

  EXPECT_FALSE(cuda::can_bind_pitch2d(buf.view(64, 32, 3, ElemType::f32), &why));
  EXPECT_NE(why.find("3 channels have no texture format"), std::string::npos) << why;

  // Offset by one element: the pointer misses textureAlignment.
  const ImageView offset = buf.view(64, 32, 1, ElemType::f32).roi(Rect{1, 0, 63, 32});
  why.clear();
  EXPECT_FALSE(cuda::can_bind_pitch2d(offset, &why));
  EXPECT_NE(why.find("textureAlignment"), std::string::npos) << why;
  try {
    (void)cuda::cached_texture(offset, cuda::TextureSpec{}, "offset_op");
    FAIL() << "a misaligned view was bound";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("offset_op: the view cannot back a Pitch2D texture: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("textureAlignment"), std::string::npos) << msg;
  }

  // A pitch that is not a multiple of texturePitchAlignment (odd, so no alignment > 1 divides it).
  const cudaDeviceProp& prop = cuda::device_properties(cuda::current_device("test"), "test");
  ASSERT_GT(prop.texturePitchAlignment, 1u);
  ImageView odd_pitch = buf.view(64, 32, 1, ElemType::u8);
  odd_pitch.pitch = 65;
  why.clear();
  EXPECT_FALSE(cuda::can_bind_pitch2d(odd_pitch, &why));
  EXPECT_NE(why.find("texturePitchAlignment"), std::string::npos) << why;

  // Host memory, even if mislabelled as device memory.
  Image host(16, 16, 1, ElemType::f32);
  why.clear();
  EXPECT_FALSE(cuda::can_bind_pitch2d(host.view(), &why));
  EXPECT_NE(why.find("host memory"), std::string::npos) << why;
  ImageView liar = host.view();
  liar.location = Location::device;
  why.clear();
  EXPECT_FALSE(cuda::can_bind_pitch2d(liar, &why));
  EXPECT_NE(why.find("not device memory"), std::string::npos) << why;

  // Wider than the device's Pitch2D limit (no memory behind it is needed to refuse).
  ImageView wide = buf.view(64, 32, 1, ElemType::u8);
  wide.width = prop.maxTexture2DLinear[0] + 1;
  wide.pitch = static_cast<std::size_t>(wide.width);
  why.clear();
  EXPECT_FALSE(cuda::can_bind_pitch2d(wide, &why));
  EXPECT_FALSE(why.empty());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(CudaRuntime, ImpossibleAllocationThrowsOutOfMemory) {
  TEXCV_REQUIRE_GPU();
#if defined(TEXCV_HAS_CUDA)
  const HandleCounts start = live_handles();
  try {
    // 2^25 rows of 2^25 bytes: 2^50 bytes, far beyond any GPU.
    cuda::DeviceBuffer huge(std::size_t{1} << 25, std::size_t{1} << 25, "oom_probe");
    FAIL() << "a 2^50-byte allocation succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory) << e.what();
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("oom_probe: cudaMallocPitch(33554432 x 33554432 bytes) failed: "
                        "cudaErrorMemoryAllocation: ",
                        0),
              0u)
        << msg;
  }
  // The failure is not left behind for the next launch check.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  try {
    Image huge(1 << 20, 1 << 20, 4, ElemType::f32, Location::device);  // 16 TiB
    FAIL() << "a 16 TiB device image was allocated";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("Image: cudaMallocPitch(", 0), 0u) << e.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  expect_counts_equal(live_handles(), start, "failed allocations hold nothing");
  // The device still works afterwards.
  cuda::DeviceBuffer small(64, 4);
  EXPECT_NE(small.data(), nullptr);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// Checks that every pixel of owner outside rect r still holds the poison of test::poison.
void expect_poison_outside(const ImageView& owner, const Rect& r) {
  long changed = 0;
  for (int y = 0; y < owner.height; ++y) {
    for (int x = 0; x < owner.width; ++x) {
      if (x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height) continue;
      for (int c = 0; c < owner.channels; ++c) {
        const std::size_t i = static_cast<std::size_t>(x) * owner.channels + c;
        bool poison = false;
        switch (owner.type) {
          case ElemType::u8:
            poison = owner.row<const std::uint8_t>(y)[i] == 0xA5;
            break;
          case ElemType::u16:
            poison = owner.row<const std::uint16_t>(y)[i] == 0xA5A5;
            break;
          case ElemType::f32:
            poison = std::isnan(owner.row<const float>(y)[i]);
            break;
        }
        changed += poison ? 0 : 1;
      }
    }
  }
  EXPECT_EQ(changed, 0) << "elements outside the destination view were written";
}

TEST(CudaRuntime, CopyRoundTripIsExactWithPaddedPitches) {
  TEXCV_REQUIRE_GPU();
  const HandleCounts start = live_handles();
  std::uint32_t seed = 7;
  for (ElemType type : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    for (int channels : {1, 3, 4}) {
      SCOPED_TRACE(std::string(to_string(type)) + " x" + std::to_string(channels));
      const int w = 37, h = 23;
      const Image ref = test::random_image(w, h, channels, type, ++seed);
      // Host source with a padded pitch and an offset.
      Image src_owner;
      const ImageView src = test::padded_view(src_owner, w, h, channels, type, 5, 3, 2);
      copy(ref.view(), src);
      // Device: a region of a larger device image (padded pitch, offset), then a second image.
      Image dev_big(w + 9, h + 4, channels, type, Location::device);
      const ImageView dev_roi = dev_big.view().roi(Rect{4, 3, w, h});
      Image dev2(w, h, channels, type, Location::device);
      copy(src, dev_roi);          // host -> device
      copy(dev_roi, dev2.view());  // device -> device
      Image dst_owner;
      const ImageView dst = test::padded_view(dst_owner, w, h, channels, type, 6, 1, 1);
      copy(dev2.view(), dst);  // device -> host
      const test::Diff d = test::compare(dst, ref.view());
      EXPECT_EQ(d.count, 0) << d.describe();
      expect_poison_outside(dst_owner.view(), Rect{1, 1, w, h});
#if defined(TEXCV_HAS_CUDA)
      // The same through a non-blocking stream of the caller.
      cuda::Stream stream;
      Image dev3(w, h, channels, type, Location::device);
      copy(dev_roi, dev3.view(), stream.get());
      Image back(w, h, channels, type);
      copy(dev3.view(), back.view(), stream.get());  // synchronizes: host side
      const test::Diff d2 = test::compare(back.view(), ref.view());
      EXPECT_EQ(d2.count, 0) << d2.describe();
#endif
    }
  }
  {
    // Mismatched types and overlapping device views are refused.
    Image a(8, 8, 1, ElemType::u8, Location::device);
    Image b(8, 8, 1, ElemType::u16);
    EXPECT_THROW(copy(a.view(), b.view()), Error);
    try {
      copy(a.view().roi(Rect{0, 0, 4, 4}), a.view().roi(Rect{1, 1, 4, 4}));
      FAIL() << "overlapping views were copied";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
      EXPECT_EQ(std::string(e.what()).rfind("copy: source and destination overlap; got ", 0), 0u)
          << e.what();
    }
  }
  expect_counts_equal(live_handles(), start, "copies hold nothing afterwards");
}

}  // namespace
}  // namespace texcv
