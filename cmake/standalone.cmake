# Standalone build of the testbed module on an installed ns-3: the PyPI wheel `ns3` (3.44).
#
# The wheel ships headers (ns3/include), libraries (ns3/lib64/libns3.44-*.so) and a CMake package
# whose imported targets carry include directories from the wheel's build machine (/usr/include/
# gtk-3.0, /opt/python/...) that do not exist here; CMake refuses such targets. So this file does
# not use that package: it defines one imported target ns3::<module> per library found in the
# wheel, with the wheel's own include directory, and the ${lib<module>} variables that ns-3's
# build_lib() users expect. It then provides build_lib() and build_lib_example() with ns-3's
# signatures, so the module's CMakeLists.txt files are the same in both builds.

set(TESTBED_STANDALONE ON)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

# --- locate the wheel ------------------------------------------------------------------------
set(NS3_WHEEL_DIR "" CACHE PATH "Directory of the installed ns3 wheel (site-packages/ns3)")
if(NOT NS3_WHEEL_DIR)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -c
            "import importlib.util as u; s = u.find_spec('ns3'); print(list(s.submodule_search_locations)[0])"
    OUTPUT_VARIABLE _wheel
    OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rc
    ERROR_QUIET)
  if(NOT _rc EQUAL 0 OR NOT _wheel)
    message(FATAL_ERROR
      "testbed: the ns3 Python wheel was not found by ${Python3_EXECUTABLE}.\n"
      "Run ./testbed setup (it installs ns3==3.44.* into .venv), or pass -DNS3_WHEEL_DIR=<site-packages/ns3>, "
      "or build this module in-tree as contrib/testbed of an ns-3 >= 3.37 source tree.")
  endif()
  set(NS3_WHEEL_DIR "${_wheel}" CACHE PATH "Directory of the installed ns3 wheel" FORCE)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/ns3-wheel.cmake)
message(STATUS "testbed: ns-3 ${NS3_VER} from ${NS3_WHEEL_DIR}")

# --- logging, asserts and code generation ---------------------------------------------------
# The wheel was built with logging and asserts enabled (NS3_LOG_ENABLE, NS3_ASSERT_ENABLE). This
# module follows ns-3's build profiles instead: a Release build (what ./testbed build makes, for
# the experiments) compiles NS_LOG and NS_ASSERT out, as ns-3's release and optimized profiles
# do (together 5 % of the run time of the JAXA06 set, see doc/rti.rst); every other build type
# keeps both. ./testbed test also builds the test suites as a Debug build (build-debug/) and runs
# them there, so the module's invariants are checked in CI. -DTESTBED_LOGS=ON and
# -DTESTBED_ASSERTS=ON override the defaults (NS_LOG=<component> needs TESTBED_LOGS).
if(CMAKE_BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
  set(_checks_default OFF)
else()
  set(_checks_default ON)
endif()
option(TESTBED_LOGS "Compile the module's NS_LOG statements" ${_checks_default})
option(TESTBED_ASSERTS "Compile the module's NS_ASSERT checks" ${_checks_default})
set(_ns3_defs "")
if(TESTBED_LOGS)
  list(APPEND _ns3_defs "NS3_LOG_ENABLE")
endif()
if(TESTBED_ASSERTS)
  list(APPEND _ns3_defs "NS3_ASSERT_ENABLE")
endif()
message(STATUS "testbed: ${CMAKE_BUILD_TYPE} build, NS_LOG ${TESTBED_LOGS}, NS_ASSERT ${TESTBED_ASSERTS}")
# Release builds: link-time optimisation of the module, calls inside it bound locally (no ELF
# interposition of its own functions; inline functions not exported) and calls into ns-3 through
# the GOT instead of the PLT: together 5 % of the run time of the JAXA06 set. Results are
# unchanged: no fast-math, no -march (floating point stays IEEE and portable, so the same seed
# gives the same bits on every x86-64 machine).
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  include(CheckIPOSupported)
  check_ipo_supported(RESULT _ipo OUTPUT _ipo_msg LANGUAGES CXX)
  if(_ipo)
    set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
  endif()
  add_compile_options(-fno-semantic-interposition -fvisibility-inlines-hidden -fno-plt)
endif()

# Sanitizers: -DTESTBED_SANITIZE=ON builds the module, its tests and programs with
# AddressSanitizer and UndefinedBehaviorSanitizer (./testbed test's Debug build of the suites is
# one). ns-3's own libraries (the wheel) are not instrumented: ASan still checks every access the
# module makes and intercepts every allocation; std::vector's container-overflow annotations are
# off at run time (ASAN_OPTIONS, set by ./testbed test), since vectors pass between instrumented
# and uninstrumented code. Every UBSan finding is fatal.
option(TESTBED_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
# libFuzzer targets (fuzz/): -DTESTBED_FUZZ=ON with clang; the module is instrumented for coverage
# and built with ASan + UBSan, only the fuzz targets are meant to be built (./testbed fuzz).
option(TESTBED_FUZZ "Build the libFuzzer targets of fuzz/ (clang)" OFF)
if(TESTBED_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "testbed: TESTBED_FUZZ needs clang (CMAKE_CXX_COMPILER=clang++-14)")
  endif()
  set(TESTBED_SANITIZE ON CACHE BOOL "" FORCE)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(TESTBED_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  set(TESTBED_TCMALLOC OFF CACHE BOOL "" FORCE) # ASan brings its own allocator
  message(STATUS "testbed: AddressSanitizer and UndefinedBehaviorSanitizer")
endif()
# A Debug build names its build folder "." in the debug info, so its objects do not depend on where
# the checkout lies: ccache (CCACHE_BASEDIR set, as ./testbed does) then leaves the folder out of
# its key, and a second clone's build-debug/ reuses the first one's objects.
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  add_compile_options(-fdebug-prefix-map=${CMAKE_BINARY_DIR}=.)
endif()

# The experiment programs allocate and free a packet, a header buffer, an event and a callback
# for every simulated frame; gperftools' tcmalloc (Debian libtcmalloc-minimal4, installed by
# ./testbed setup) takes 6 % less time than glibc's malloc on the JAXA06 set with the same
# results (the points are bit-identical). Linked into the example programs only, when present.
option(TESTBED_TCMALLOC "Link the experiment programs with tcmalloc (libtcmalloc_minimal)" ON)
set(TESTBED_MALLOC_LIB "")
if(TESTBED_TCMALLOC)
  find_library(TCMALLOC_MINIMAL_LIB NAMES tcmalloc_minimal libtcmalloc_minimal.so.4)
  if(TCMALLOC_MINIMAL_LIB)
    set(TESTBED_MALLOC_LIB ${TCMALLOC_MINIMAL_LIB})
    message(STATUS "testbed: experiment programs use ${TCMALLOC_MINIMAL_LIB}")
  else()
    message(STATUS "testbed: tcmalloc not found (apt-get install libtcmalloc-minimal4); glibc malloc")
  endif()
endif()

# --- imported targets ns3::<module> ----------------------------------------------------------
# (cmake/ns3-wheel.cmake; the installed package's testbedConfig.cmake makes the same targets.)
testbed_ns3_imported_targets("${_ns3_defs}")

# Run-time search path: the wheel's libraries (they find their bundled gsl/sqlite/xml2 through
# their own $ORIGIN rpath) and our own library directory.
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
set(CMAKE_HEADER_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/include/ns3)
set(CMAKE_BUILD_RPATH "${CMAKE_BINARY_DIR}/lib;${NS3_LIB_DIR}")
add_link_options("-Wl,-rpath-link,${NS3_LIB_DIR}")
add_compile_options(-Wall -Wextra -Wno-unused-parameter)

enable_testing()

# --- build_lib() stand-in --------------------------------------------------------------------
# Builds lib<LIBNAME>.so (named without ns-3's "libns3.xx-" prefix on purpose: the wheel's Python
# loader scans for "libns3*" files and would mistake ours for a second build of ns-3), stages the
# headers as build/include/ns3/<name>.h plus <LIBNAME>-module.h, builds a test runner on
# ns3::TestRunner with one ctest entry per TestSuite, and adds examples/.
function(build_lib)
  cmake_parse_arguments(BLIB "IGNORE_PCH;GENERATE_EXPORT_HEADER" "LIBNAME"
                        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES;DEPRECATED_HEADER_FILES;MODULE_ENABLED_FEATURES;PRIVATE_HEADER_FILES"
                        ${ARGN})
  set(_name ${BLIB_LIBNAME})
  add_library(${_name} SHARED ${BLIB_SOURCE_FILES})
  add_library(ns3::${_name} ALIAS ${_name})
  # The imported targets carry no dependency information: core and network, which every module
  # uses directly, are linked explicitly.
  target_link_libraries(${_name} PUBLIC ${BLIB_LIBRARIES_TO_LINK} ns3::network ns3::core)
  target_compile_definitions(${_name} PRIVATE NS3_MODULE_COMPILATION)
  target_include_directories(${_name} PUBLIC $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>
                                            $<INSTALL_INTERFACE:include>)
  set(lib${_name} ${_name} PARENT_SCOPE)

  # `cmake --install build --prefix P`: lib/lib<LIBNAME>.so, the headers in include/ns3/ and the
  # CMake package lib/cmake/<LIBNAME>/ (find_package(testbed): testbed::testbed and the ns3::
  # targets of the same wheel, with the wheel's compile definitions; cmake/testbedConfig.cmake.in).
  include(GNUInstallDirs)
  set_target_properties(${_name} PROPERTIES INSTALL_RPATH "${NS3_LIB_DIR}")
  install(TARGETS ${_name} EXPORT ${_name}Targets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set(_real_headers "")
  foreach(_h ${BLIB_HEADER_FILES})
    list(APPEND _real_headers ${CMAKE_CURRENT_SOURCE_DIR}/${_h})
  endforeach()
  install(FILES ${_real_headers} ${CMAKE_HEADER_OUTPUT_DIRECTORY}/${_name}-module.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
  set(_pkg ${CMAKE_INSTALL_LIBDIR}/cmake/${_name})
  install(EXPORT ${_name}Targets NAMESPACE ${_name}:: DESTINATION ${_pkg})
  include(CMakePackageConfigHelpers)
  configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/cmake/testbedConfig.cmake.in
                                ${CMAKE_BINARY_DIR}/${_name}Config.cmake INSTALL_DESTINATION ${_pkg})
  write_basic_package_version_file(${CMAKE_BINARY_DIR}/${_name}ConfigVersion.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_BINARY_DIR}/${_name}Config.cmake
                ${CMAKE_BINARY_DIR}/${_name}ConfigVersion.cmake
                ${CMAKE_CURRENT_LIST_DIR}/cmake/ns3-wheel.cmake DESTINATION ${_pkg})
  set(lib${_name} ${_name})

  # Stage headers: build/include/ns3/<file>.h -> a stub including the real header (as ns-3 does).
  file(MAKE_DIRECTORY ${CMAKE_HEADER_OUTPUT_DIRECTORY})
  set(_module_header "// Generated by cmake/standalone.cmake: includes every header of ${_name}.\n")
  string(APPEND _module_header "#ifdef NS3_MODULE_COMPILATION\n#error \"Do not include ns3 module aggregator headers from other modules.\"\n#endif\n")
  string(APPEND _module_header "#ifndef NS3_MODULE_TESTBED\n#define NS3_MODULE_TESTBED\n")
  foreach(_h ${BLIB_HEADER_FILES})
    get_filename_component(_hn ${_h} NAME)
    get_filename_component(_abs ${CMAKE_CURRENT_SOURCE_DIR}/${_h} ABSOLUTE)
    set(_stub "#include \"${_abs}\"\n")
    if(EXISTS ${CMAKE_HEADER_OUTPUT_DIRECTORY}/${_hn})
      file(READ ${CMAKE_HEADER_OUTPUT_DIRECTORY}/${_hn} _old)
    else()
      set(_old "")
    endif()
    if(NOT _old STREQUAL _stub)
      file(WRITE ${CMAKE_HEADER_OUTPUT_DIRECTORY}/${_hn} "${_stub}")
    endif()
    string(APPEND _module_header "#include \"ns3/${_hn}\"\n")
  endforeach()
  string(APPEND _module_header "#endif\n")
  file(CONFIGURE OUTPUT ${CMAKE_HEADER_OUTPUT_DIRECTORY}/${_name}-module.h CONTENT "${_module_header}")

  # Tests: one runner executable; ctest entries are discovered from `runner --list` after each
  # build, so adding a TestSuite needs no CMake change.
  if(BLIB_TEST_SOURCES)
    # Outside `all`: `./testbed build` builds what a user runs; `./testbed test` builds the
    # runner (cmake --build ... --target ${_name}-test-runner).
    add_executable(${_name}-test-runner EXCLUDE_FROM_ALL
                   ${CMAKE_CURRENT_SOURCE_DIR}/test/runner/test-runner.cc ${BLIB_TEST_SOURCES})
    target_link_libraries(${_name}-test-runner PRIVATE ${_name})
    set(_list ${CMAKE_BINARY_DIR}/${_name}-test-suites.txt)
    add_custom_command(TARGET ${_name}-test-runner POST_BUILD
      COMMAND $<TARGET_FILE:${_name}-test-runner> --print-test-name-list > ${_list}
      COMMENT "Listing the ${_name} test suites for ctest")
    set(_include ${CMAKE_BINARY_DIR}/${_name}-ctest.cmake)
    file(WRITE ${_include}.in
      "if(EXISTS \"${_list}\")\n"
      "  file(STRINGS \"${_list}\" _suites)\n"
      "  foreach(_s \${_suites})\n"
      "    add_test(\"\${_s}\" \"$<TARGET_FILE:${_name}-test-runner>\" \"--suite=\${_s}\")\n"
      "  endforeach()\n"
      "else()\n"
      "  add_test(${_name}-test-suites-not-listed \"${CMAKE_COMMAND}\" -E false)\n"
      "endif()\n")
    file(GENERATE OUTPUT ${_include} INPUT ${_include}.in)
    set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY TEST_INCLUDE_FILES ${_include})
  endif()

  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/bench/CMakeLists.txt)
    add_subdirectory(bench)
  endif()
  if(TESTBED_FUZZ)
    add_subdirectory(fuzz)
  endif()
endfunction()

# --- build_lib_example() stand-in: build/examples/<NAME> -------------------------------------
function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "IGNORE_PCH" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                        ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  # The plain signature (no PRIVATE), as ns-3's build_exec uses: examples/CMakeLists.txt adds the
  # study library to the same target afterwards, and CMake refuses a mix of the two signatures.
  target_link_libraries(${BLIB_EXAMPLE_NAME} ${libtestbed} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK}
                        ${TESTBED_MALLOC_LIB})
  set_target_properties(${BLIB_EXAMPLE_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                        ${CMAKE_BINARY_DIR}/examples)
endfunction()
