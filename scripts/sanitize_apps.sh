#!/usr/bin/env bash
# The apps (md2d, md3d, vortex and the kit in apps/common) and their tests under AddressSanitizer
# + UndefinedBehaviorSanitizer, on the CPU backend. Builds in its own folder (build-asan) so the
# normal build is untouched; any sanitizer report fails the run (UBSan does not recover).
#
#   scripts/sanitize_apps.sh                  build and run every app test
#   FILTER='Md2d*' scripts/sanitize_apps.sh   a gtest filter of your own
#   JOBS=2 BUILD=build-asan CCACHE=1          parallel jobs, build folder, compile through ccache
#
# The kernels the engine compiles at run time (shared libraries built by the system compiler)
# are not instrumented; the engine and app code that prepares, launches and reads them is.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-asan}
JOBS=${JOBS:-$(nproc)}
# smelt_app_tests holds exactly the tests of tests/apps; the OpenCL ones are left out (the GPU and
# PoCL are not sanitised here).
FILTER=${FILTER:-'-OpenCL*:*/OpenCL*'}

SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# Debug (-O0, assertions on): the host code is checked as written; the heavy work is in the
# kernels, which the engine compiles with its own flags either way.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS="$SAN_FLAGS" -DCMAKE_C_FLAGS="$SAN_FLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS="$SAN_FLAGS" -DCMAKE_SHARED_LINKER_FLAGS="$SAN_FLAGS" \
    -DSMELT_WITH_OPENCL=OFF -DSMELT_WITH_CUDA=OFF -DSMELT_WITH_PYTHON=OFF \
    -DSMELT_BUILD_BENCH=OFF ${CCACHE:+-DCMAKE_CXX_COMPILER_LAUNCHER=ccache} \
    ${CCACHE:+-DCMAKE_C_COMPILER_LAUNCHER=ccache}
ninja -C "$BUILD" -j "$JOBS" smelt_app_tests md2d md3d vortex

export SMELT_CACHE_DIR=${SMELT_CACHE_DIR:-$PWD/$BUILD/test-cache}
# halt_on_error: the first report fails the test; abort_on_error gives a core-style exit the
# test harness sees. Leak checking is on: a leak is a failure too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
"$BUILD/tests/smelt_app_tests" --gtest_filter="$FILTER" --gtest_brief=1
echo "sanitize_apps: clean (ASan + UBSan, filter $FILTER)"
