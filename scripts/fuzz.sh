#!/usr/bin/env bash
# A bounded fuzz campaign of the kernel frontend (parse, check, lower, emit): the target is
# tests/fuzz/frontend_target.cpp, the seed corpus every .py file of the repository.
#
#   bash scripts/fuzz.sh                 # plain mutation driver, 180 s, in ./build
#   SECONDS_BUDGET=600 SEED=7 bash scripts/fuzz.sh
#   ENGINE=libfuzzer bash scripts/fuzz.sh   # coverage-guided: clang + libFuzzer + ASan/UBSan,
#                                           # in ./build-fuzz (builds the engine once more)
#
# A crash leaves its input in $CRASH_DIR (default build*/fuzz-crashes) and exits non-zero: keep
# it as tests/fuzz/crashers/NAME.py (ctest's fuzz.corpus then runs it on every build) and fix
# the bug.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_BUDGET=${SECONDS_BUDGET:-180}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
ENGINE=${ENGINE:-mutation}
CORPUS=(tests apps examples python/smelt bench validation)

if [ "$ENGINE" = libfuzzer ]; then
  # libFuzzer comes with clang (Debian: apt install clang); say so rather than fail in CMake.
  probe=$(mktemp -d)
  printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }\n' \
    >"$probe/probe.cpp"
  if ! command -v clang++ >/dev/null; then
    echo "scripts/fuzz.sh: ENGINE=libfuzzer needs clang++ (Debian: apt install clang), which is not" \
         "installed; run without ENGINE= for the plain mutation driver" >&2
    rm -rf "$probe"; exit 2
  fi
  if ! clang++ -fsanitize=fuzzer,address "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/log"; then
    echo "scripts/fuzz.sh: $(clang++ --version | head -n1) cannot link -fsanitize=fuzzer" \
         "(libFuzzer's runtime is missing):" >&2
    cat "$probe/log" >&2
    rm -rf "$probe"; exit 2
  fi
  rm -rf "$probe"
  BUILD=${BUILD:-build-fuzz}
  FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
        -DSMELT_FUZZ_LIBFUZZER=ON -DSMELT_WITH_CUDA=OFF -DSMELT_WITH_PYTHON=OFF \
        -DSMELT_WITH_HDF5=OFF -DSMELT_WITH_VTK=OFF
  cmake --build "$BUILD" -j "$JOBS" --target smelt_fuzz_frontend
  CRASH_DIR=${CRASH_DIR:-$BUILD/fuzz-crashes}
  WORK=$BUILD/fuzz-corpus
  mkdir -p "$CRASH_DIR" "$WORK"
  # libFuzzer grows $WORK from the seeds; -max_len fits the long-chain seeds.
  seeds=()
  for d in "${CORPUS[@]}"; do [ -d "$d" ] && seeds+=("$d"); done
  mkdir -p "$WORK/seeds"
  find "${seeds[@]}" -name '*.py' -size -200k -exec cp -t "$WORK/seeds" {} + 2>/dev/null || true
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$BUILD/tests/smelt_fuzz_frontend" \
    -max_total_time="$SECONDS_BUDGET" -seed="$SEED" -max_len=65536 -timeout=20 \
    -artifact_prefix="$CRASH_DIR/" -print_final_stats=1 "$WORK" "$WORK/seeds"
else
  BUILD=${BUILD:-build}
  cmake -S . -B "$BUILD" -G Ninja >/dev/null
  cmake --build "$BUILD" -j "$JOBS" --target smelt_fuzz_frontend
  CRASH_DIR=${CRASH_DIR:-$BUILD/fuzz-crashes}
  mkdir -p "$CRASH_DIR"
  "$BUILD/tests/smelt_fuzz_frontend" --seconds "$SECONDS_BUDGET" --seed "$SEED" \
    --crash-dir "$CRASH_DIR" "${CORPUS[@]}"
fi
