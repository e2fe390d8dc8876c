#!/usr/bin/env bash
# The engine's test suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build
# folder (build-asan): every C++ test on the cpu backend, and the frontend corpus through the
# fuzz target. Any report fails the run (halt_on_error, and UBSan made fatal).
#
#   bash scripts/sanitize.sh                      # engine tests (cpu)
#   FILTER='Md*:Vortex*' bash scripts/sanitize.sh # another gtest filter (the apps' tests)
#   JOBS=8 bash scripts/sanitize.sh
#
# Kernels the tests compile at run time are ordinary shared objects loaded into the sanitised
# process; they are not themselves instrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-asan}
JOBS=${JOBS:-2}
# The engine suites; the app suites (Md*, Vortex*) and the OpenCL ones (PoCL's own allocator
# trips ASan's interceptors) are run by asking for them with FILTER.
FILTER=${FILTER:-'-Md*:Vortex*:OpenCL*:*/OpenCL*:Cuda*:*/Cuda*'}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_C_FLAGS="$SAN" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DSMELT_WITH_CUDA=OFF -DSMELT_WITH_PYTHON=OFF
cmake --build "$BUILD" -j "$JOBS" --target smelt_tests smelt smelt_fuzz_frontend
export SMELT_CACHE_DIR=${SMELT_CACHE_DIR:-$PWD/$BUILD/test-cache}
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export SMELT_TEST_BACKEND=cpu
start=$(date +%s)
"$BUILD/tests/smelt_tests" --gtest_filter="$FILTER" --gtest_brief=1
"$BUILD/tests/smelt_fuzz_frontend" tests apps examples
echo "sanitize.sh: clean in $(( $(date +%s) - start )) s (filter $FILTER)"
