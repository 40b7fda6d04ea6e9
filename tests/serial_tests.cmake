# Included by ctest after the discovered GoogleTest lists: tests that measure the whole GPU
# (free device memory) must not share it with other test processes. test_cuda defines them in
# every build (they skip with a message where no GPU is).
set_tests_properties(CudaRuntime.TextureObjectCreateDestroyDoesNotLeak PROPERTIES RUN_SERIAL TRUE)
