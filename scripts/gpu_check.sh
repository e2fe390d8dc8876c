#!/usr/bin/env bash
# The CUDA batch for a GPU machine (see /work/shared/guide/GPU.md): configure, build, run the
# CUDA tests and the CUDA benchmark, and leave logs and JSON in one folder.
#
#   scripts/gpu_check.sh OUT_DIR [all|build|test|bench]     (default: all)
#
# Phases, so that each fits a time-limited remote command (the build folder is kept between
# calls): build ≈ 3-5 min on 16 cores (two nvcc compiles of CUB take most of it), test ≈ 2-4 min,
# bench ≈ 1-2 min.
#
# Files written to OUT_DIR (at most 7):
#   build.log          cmake configure + ninja build
#   tests_cuda.log     smelt_tests on SMELT_TEST_BACKEND=cuda: the CUDA suites and the engine
#   tests_cuda.json      primitive suites (Elementwise, Reduction, Scan) — gtest JSON report
#   ctest_cuda.log     the whole suite through ctest with SMELT_TEST_BACKEND=cuda
#   bench_cuda.log     smelt_cuda_bench output (human readable)
#   bench_cuda.json    the benchmark records (bench/cuda_bench.cpp says what each one is)
#   summary.txt        nvidia-smi, `smelt devices`, pass/fail counts, benchmark targets
#
# Environment: BUILD (default build-gpu), JOBS (default nproc).
set -uo pipefail

OUT=${1:?usage: scripts/gpu_check.sh OUT_DIR [all|build|test|bench]}
PHASE=${2:-all}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-$(nproc)}
# PATH, the OpenCL ICD, python3 and the .deps/ shims: scripts/gpu_env.sh.
source scripts/gpu_env.sh
# Kernel binaries cached by the runs below stay in the build folder, not in $HOME.
export SMELT_CACHE_DIR="$PWD/$BUILD/kernel-cache"
SUMMARY="$OUT/summary.txt"

note() { echo "$*" | tee -a "$SUMMARY"; }

phase_build() {
    {
        echo "== configure"
        gpu_configure "$BUILD" -DSMELT_BUILD_TESTS=ON -DSMELT_BUILD_BENCH=ON
        echo "== build"
        # -k 0: build everything that can be built even if one target fails.
        ninja -C "$BUILD" -k 0 -j "$JOBS"
    } >"$OUT/build.log" 2>&1
    note "build: exit $? (see build.log)"
    for bin in tests/smelt_tests bench/smelt_cuda_bench engine/smelt; do
        [ -x "$BUILD/$bin" ] && note "  built $bin" || note "  MISSING $bin"
    done
}

phase_test() {
    {
        echo "== nvidia-smi"
        nvidia-smi 2>&1 || true
        echo "== smelt devices"
        "$BUILD/engine/smelt" devices 2>&1 || true
    } >>"$SUMMARY"
    # The CUDA suites and the engine primitive suites on the GPU, in one process.
    SMELT_TEST_BACKEND=cuda timeout 600 "$BUILD/tests/smelt_tests" \
        --gtest_filter='Cuda*:Elementwise*:Reduction*:Scan*:Kernel.*' \
        --gtest_output="json:$OUT/tests_cuda.json" >"$OUT/tests_cuda.log" 2>&1
    note "smelt_tests (Cuda*, Elementwise*, Reduction*, Scan*, Kernel.*) on cuda: exit $?"
    grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests_cuda.log" | sort | uniq -c | tee -a "$SUMMARY"
    # Everything else too, through ctest (one process per test).
    SMELT_TEST_BACKEND=cuda ctest --test-dir "$BUILD" -j "$JOBS" --timeout 300 \
        --output-on-failure >"$OUT/ctest_cuda.log" 2>&1
    note "ctest on cuda: exit $?"
    grep -E 'tests passed|tests failed|\(Failed\)|\(Timeout\)' "$OUT/ctest_cuda.log" | tee -a "$SUMMARY"
}

phase_bench() {
    timeout 900 "$BUILD/bench/smelt_cuda_bench" --out "$OUT/bench_cuda.json" \
        >"$OUT/bench_cuda.log" 2>&1
    note "smelt_cuda_bench: exit $?"
    grep -E 'MISSED|met\]|skipped|ERROR|error' "$OUT/bench_cuda.log" | tee -a "$SUMMARY"
}

note "== gpu_check $PHASE $(date -u +%FT%TZ) in $PWD (build: $BUILD)"
case "$PHASE" in
all) phase_build && phase_test && phase_bench ;;
build) phase_build ;;
test) phase_test ;;
bench) phase_bench ;;
*)
    echo "unknown phase '$PHASE' (all|build|test|bench)" >&2
    exit 2
    ;;
esac
