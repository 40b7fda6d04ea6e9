# Install rules and the CMake package config, included from src/CMakeLists.txt (after the texcv
# target and its dependencies are set up). `cmake --install build --prefix P` installs:
#   P/include/texcv/*.hpp and P/include/texcv/ops/*.hpp (one header per operation, which the area
#   headers include), P/lib/libtexcv.a, P/bin/texcv (tools/texcv/CMakeLists.txt),
#   P/lib/cmake/texcv/{texcvConfig,texcvConfigVersion,texcvTargets*}.cmake
# so that another project can use find_package(texcv CONFIG REQUIRED) and texcv::texcv.
# The library is static: its private link dependencies are exported as $<LINK_ONLY:...> and
# texcvConfig.cmake finds them again with find_dependency (cmake/texcvConfig.cmake.in).

# The Python package installs only its extension module (pyproject.toml, python/CMakeLists.txt).
if(TEXCV_BUILD_PYTHON)
  set(TEXCV_INSTALL_DEFAULT OFF)
else()
  set(TEXCV_INSTALL_DEFAULT ON)
endif()
option(TEXCV_INSTALL "Install the C++ package (headers, library, CMake config)" ${TEXCV_INSTALL_DEFAULT})
if(NOT TEXCV_INSTALL)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(TEXCV_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/texcv CACHE STRING
    "Where texcvConfig.cmake is installed, relative to the prefix")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/texcv
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(TARGETS texcv EXPORT texcvTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT texcvTargets NAMESPACE texcv:: DESTINATION ${TEXCV_INSTALL_CMAKEDIR})

# What the config needs to find the same dependencies again (texcvConfig.cmake.in).
set(TEXCV_CONFIG_HAS_OPENMP ${OpenMP_CXX_FOUND})
set(TEXCV_CONFIG_HAS_HWY ${TEXCV_HAS_HWY})
# The Highway package texcv was built with, found again by consumers that name none (a Highway
# outside the system prefixes, as the GPU machine's carried one, is otherwise not found).
set(TEXCV_CONFIG_HWY_DIR "")
if(TEXCV_HAS_HWY AND hwy_DIR)
  set(TEXCV_CONFIG_HWY_DIR "${hwy_DIR}")
endif()
set(TEXCV_CONFIG_HAS_TIFF ${TEXCV_HAS_TIFF})
set(TEXCV_CONFIG_HAS_CUDA ${TEXCV_HAS_CUDA})
set(TEXCV_CONFIG_CUDA_ROOT "")
if(TEXCV_HAS_CUDA AND CUDAToolkit_BIN_DIR)
  get_filename_component(TEXCV_CONFIG_CUDA_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
endif()
# A static libtiff with TEXCV_TIFF_EXTRA_LIBS (src/CMakeLists.txt): the config points FindTIFF at
# the same library and appends the same extra libraries, as absolute paths or names of this build
# machine (a consumer elsewhere passes -DTIFF_LIBRARY=... -DTIFF_INCLUDE_DIR=... itself).
set(TEXCV_CONFIG_TIFF_EXTRA_LIBS "")
set(TEXCV_CONFIG_TIFF_LIBRARY "")
set(TEXCV_CONFIG_TIFF_INCLUDE_DIR "")
if(TEXCV_HAS_TIFF AND TEXCV_TIFF_EXTRA_LIBS)
  set(TEXCV_CONFIG_TIFF_EXTRA_LIBS "${TEXCV_TIFF_EXTRA_LIBS}")
  list(LENGTH TIFF_LIBRARIES _texcv_tiff_n)
  if(_texcv_tiff_n EQUAL 1)
    set(TEXCV_CONFIG_TIFF_LIBRARY "${TIFF_LIBRARIES}")
  endif()
  set(TEXCV_CONFIG_TIFF_INCLUDE_DIR "${TIFF_INCLUDE_DIR}")
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/texcvConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/texcvConfig.cmake
  INSTALL_DESTINATION ${TEXCV_INSTALL_CMAKEDIR})
# 0.x: minor versions may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/texcvConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/texcvConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/texcvConfigVersion.cmake
        DESTINATION ${TEXCV_INSTALL_CMAKEDIR})
