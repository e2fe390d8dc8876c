# `cmake --install build [--prefix DIR]`: the engine library with a find_package(smelt) config,
# the `smelt` command, the apps with their kernel files, the converter and the configs.
#
#   bin/smelt, bin/md2d, bin/md3d, bin/vortex
#   include/smelt/...                       the engine's headers (#include "smelt.h")
#   lib/libsmelt_engine.a, lib/cmake/smelt/ smeltConfig.cmake, smeltTargets.cmake, version
#   share/smelt/<app>/*.py                  each app's kernels: physics.py (found from bin/<app>
#                                           at run time) and the files it imports
#   share/smelt/kernels/*.py                the kernels the apps import (apps/common/kernels)
#   share/smelt/convert.py                  `smelt convert` (python/smelt/convert.py)
#   share/smelt/configs/                    the shipped configurations (configs/)
include(CMakePackageConfigHelpers)
set(SMELT_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/smelt)
set(SMELT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/smelt)

install(TARGETS smelt_engine EXPORT smeltTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/smelt
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp"
        PATTERN "cli" EXCLUDE PATTERN "python" EXCLUDE)
install(EXPORT smeltTargets NAMESPACE smelt:: DESTINATION ${SMELT_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/smeltConfig.cmake.in
  ${PROJECT_BINARY_DIR}/smeltConfig.cmake INSTALL_DESTINATION ${SMELT_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR SMELT_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/smeltConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/smeltConfig.cmake ${PROJECT_BINARY_DIR}/smeltConfigVersion.cmake
        DESTINATION ${SMELT_INSTALL_CMAKEDIR})

if(TARGET smelt)
  install(TARGETS smelt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/python/smelt/convert.py DESTINATION ${SMELT_INSTALL_DATADIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${SMELT_INSTALL_DATADIR}/configs)

# An app's binary finds <bin>/../share/smelt/<app>/physics.py, which imports from its own folder
# (md3d: physics_mixed.py) and from share/smelt/kernels (apps/common/kernel_file.h).
foreach(app md2d md3d vortex)
  if(TARGET ${app})
    install(TARGETS ${app} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    file(GLOB app_kernel_files ${PROJECT_SOURCE_DIR}/apps/${app}/*.py)
    install(FILES ${app_kernel_files} DESTINATION ${SMELT_INSTALL_DATADIR}/${app})
  endif()
endforeach()
if(TARGET md2d OR TARGET md3d OR TARGET vortex)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/apps/common/kernels/
          DESTINATION ${SMELT_INSTALL_DATADIR}/kernels FILES_MATCHING PATTERN "*.py")
endif()
