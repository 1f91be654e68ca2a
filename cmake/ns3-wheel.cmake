# The ns-3 of the PyPI wheel `ns3` as imported targets ns3::<module> (and the ${lib<module>}
# variables of ns-3's build_lib() users). Used by cmake/standalone.cmake to build the module, and
# installed next to testbedConfig.cmake so that find_package(testbed) gives user programs the same
# targets. Needs NS3_WHEEL_DIR (site-packages/ns3); sets NS3_INCLUDE_DIR, NS3_LIB_DIR, NS3_VER.
set(NS3_INCLUDE_DIR "${NS3_WHEEL_DIR}/include")
set(NS3_LIB_DIR "${NS3_WHEEL_DIR}/lib64")
if(NOT EXISTS "${NS3_LIB_DIR}")
  set(NS3_LIB_DIR "${NS3_WHEEL_DIR}/lib")
endif()
file(GLOB _ns3_libs "${NS3_LIB_DIR}/libns3*-core*.so")
if(NOT _ns3_libs OR NOT EXISTS "${NS3_INCLUDE_DIR}/ns3/core-module.h")
  message(FATAL_ERROR "testbed: ${NS3_WHEEL_DIR} does not look like an ns-3 installation "
                      "(no lib*/libns3*-core*.so or include/ns3/core-module.h).")
endif()
list(GET _ns3_libs 0 _core)
get_filename_component(_core "${_core}" NAME)
string(REGEX MATCH "^libns([0-9.]+)-" _m "${_core}")
set(NS3_VER "${CMAKE_MATCH_1}")
if(NS3_VER VERSION_LESS 3.37)
  message(FATAL_ERROR "testbed needs ns-3 >= 3.37 (CMake build, cppyy bindings); found ${NS3_VER}")
endif()

# The definitions the wheel's own libraries were compiled with: code that creates the wheel's
# objects (a class with a member under #ifdef NS3_LOG_ENABLE, UdpClient in ns-3.44, has another
# size without it) and wants NS_LOG/NS_ASSERT in its own code compiles with them.
set(NS3_WHEEL_DEFINITIONS NS3_LOG_ENABLE NS3_ASSERT_ENABLE)

# testbed_ns3_imported_targets(DEFS): one imported target ns3::<module> per library of the wheel,
# with the wheel's include directory and the compile definitions DEFS; ${lib<module>} names it.
# NS3_ALL_TARGETS lists them all.
function(testbed_ns3_imported_targets _ns3_defs)
  set(_all "")
  file(GLOB _ns3_all "${NS3_LIB_DIR}/libns${NS3_VER}-*.so")
  foreach(_lib ${_ns3_all})
    get_filename_component(_name "${_lib}" NAME)
    string(REGEX REPLACE "^libns${NS3_VER}-(.*)\\.so$" "\\1" _mod "${_name}")
    if(NOT TARGET ns3::${_mod})
      add_library(ns3::${_mod} SHARED IMPORTED GLOBAL)
      set_target_properties(ns3::${_mod} PROPERTIES
        IMPORTED_LOCATION "${_lib}"
        INTERFACE_INCLUDE_DIRECTORIES "${NS3_INCLUDE_DIR}"
        INTERFACE_COMPILE_DEFINITIONS "${_ns3_defs}")
      set(lib${_mod} ns3::${_mod} PARENT_SCOPE)
      if(NOT _mod STREQUAL "visualizer") # needs libpython; not for C++ programs
        list(APPEND _all ns3::${_mod})
      endif()
    endif()
  endforeach()
  set(NS3_ALL_TARGETS ${_all} PARENT_SCOPE)
endfunction()
