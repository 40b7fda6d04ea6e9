# The ctest test install.consumer (tests/CMakeLists.txt): installs the current build into a fresh
# prefix, checks the installed files and the installed texcv command, then configures, builds and
# runs tests/consumer (find_package(texcv CONFIG REQUIRED)) against that prefix only, with the
# same generator and compiler. Every step fails the test with its output.
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_SOURCE=... -DIMAGE=... -DCONFIG=...
#         -DGENERATOR=... -DMAKE_PROGRAM=... -DCXX_COMPILER=... -DLIBDIR=... -DHAS_CLI=ON|OFF
#         [-DEXPECT=text the consumer must print]
#         -P run_install_test.cmake
foreach(v BUILD_DIR WORK_DIR CONSUMER_SOURCE IMAGE GENERATOR CXX_COMPILER LIBDIR)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "run_install_test.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()
set(prefix ${WORK_DIR}/prefix)
set(cbuild ${WORK_DIR}/consumer-build)
set(out ${WORK_DIR}/out)

function(run_step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "install.consumer: step '${name}' failed (${rc}):\n  ${cmd}\n${o}\n${e}")
  endif()
  message(STATUS "install.consumer: ${name}: ok")
  set(step_output "${o}${e}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${out})

# 1. The library and command must be built (a no-op after a full build), then installed.
set(targets texcv)
if(HAS_CLI)
  list(APPEND targets texcv_cli)
endif()
run_step("build ${targets}" ${CMAKE_COMMAND} --build ${BUILD_DIR} --config ${CONFIG} --target ${targets})
run_step("install into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --config ${CONFIG} --prefix ${prefix})
foreach(f include/texcv/texcv.hpp include/texcv/image.hpp ${LIBDIR}/libtexcv.a
          ${LIBDIR}/cmake/texcv/texcvConfig.cmake ${LIBDIR}/cmake/texcv/texcvConfigVersion.cmake
          ${LIBDIR}/cmake/texcv/texcvTargets.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install.consumer: ${prefix}/${f} was not installed")
  endif()
endforeach()
file(STRINGS ${prefix}/${LIBDIR}/cmake/texcv/texcvTargets.cmake leaked REGEX "texcv_warnings|-Wall")
if(leaked)
  message(FATAL_ERROR "install.consumer: the exported targets name the build's warnings: ${leaked}")
endif()

# 2. The installed command runs.
if(HAS_CLI)
  run_step("${prefix}/bin/texcv ops" ${prefix}/bin/texcv ops)
  if(NOT step_output MATCHES "resize")
    message(FATAL_ERROR "install.consumer: 'texcv ops' did not list resize:\n${step_output}")
  endif()
  run_step("${prefix}/bin/texcv info" ${prefix}/bin/texcv info)
endif()

# 3. The consumer project, against the installed prefix only.
set(make_program)
if(MAKE_PROGRAM)
  set(make_program -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
run_step("configure the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${cbuild} -G ${GENERATOR}
         ${make_program} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${CONFIG}
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
string(FIND "${step_output}" "from ${prefix}/${LIBDIR}/cmake/texcv" at)
if(at EQUAL -1)
  message(FATAL_ERROR "install.consumer: the consumer did not use ${prefix}:\n${step_output}")
endif()
run_step("build the consumer" ${CMAKE_COMMAND} --build ${cbuild} --config ${CONFIG})
set(exe ${cbuild}/texcv_consumer)
if(NOT EXISTS ${exe} AND EXISTS ${cbuild}/${CONFIG}/texcv_consumer)
  set(exe ${cbuild}/${CONFIG}/texcv_consumer)  # multi-config generators
endif()
run_step("run the consumer" ${exe} ${IMAGE} ${out})
message("${step_output}")
if(NOT step_output MATCHES "\nOK\n")
  message(FATAL_ERROR "install.consumer: the consumer did not print OK")
endif()
if(EXPECT)
  string(FIND "${step_output}" "${EXPECT}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "install.consumer: the consumer's output lacks '${EXPECT}'")
  endif()
endif()
