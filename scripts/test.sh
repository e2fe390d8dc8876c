#!/usr/bin/env bash
# Builds Smelt and runs every test: the README's test command, also what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD" -j "$JOBS"
# Kernels compiled by the tests go to a private cache so runs never share stale entries.
export SMELT_CACHE_DIR=${SMELT_CACHE_DIR:-$PWD/$BUILD/test-cache}
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure
