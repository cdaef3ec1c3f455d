# Included after project() by the package build (debian/rules:
# -DCMAKE_PROJECT_INCLUDE). rxecc-traffic compiles in the directory of its
# named flow size distributions (--dist websearch), the source tree's
# tools/traffic/cdf; the package installs them to
# /usr/share/rxe-cc-tools/cdf, so that is the directory compiled in. The
# target is defined later, hence the deferred call at the end of the
# top-level CMakeLists.txt.
set(RXECC_DEB_CDF_DIR "/usr/share/rxe-cc-tools/cdf")

function(rxecc_deb_cdf_dir)
  if(NOT TARGET rxecc_traffic)
    message(FATAL_ERROR "packaging/cmake/deb.cmake: no target rxecc_traffic")
  endif()
  set(found FALSE)
  foreach(prop COMPILE_DEFINITIONS INTERFACE_COMPILE_DEFINITIONS)
    get_target_property(defs rxecc_traffic ${prop})
    if(defs)
      list(FIND defs "RXECC_TRAFFIC_CDF_DIR=\"${PROJECT_SOURCE_DIR}/tools/traffic/cdf\"" i)
      if(i GREATER -1)
        list(TRANSFORM defs REPLACE "^RXECC_TRAFFIC_CDF_DIR=.*$"
             "RXECC_TRAFFIC_CDF_DIR=\"${RXECC_DEB_CDF_DIR}\"")
        set_property(TARGET rxecc_traffic PROPERTY ${prop} "${defs}")
        set(found TRUE)
      endif()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "packaging/cmake/deb.cmake: rxecc_traffic does not define "
                        "RXECC_TRAFFIC_CDF_DIR as tools/traffic/cdf any more; update it")
  endif()
  message(STATUS "rxecc-traffic: flow size distributions in ${RXECC_DEB_CDF_DIR}")
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL rxecc_deb_cdf_dir)
