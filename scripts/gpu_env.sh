# Source this on the H100 test machine (see /work/shared/guide/GPU.md) before building or
# running there:   source scripts/gpu_env.sh; gpu_configure build-gpu && ninja -C build-gpu
#
# - puts nvcc on PATH and registers NVIDIA's OpenCL driver with the ICD loader (it is installed
#   there but not registered);
# - uses the python3 on PATH (that machine's has numpy, pytest and pybind11; Debian's
#   /usr/bin/python3 there has none of them), so the CPython-oracle suites run on the GPU too;
# - that machine lacks CLI11 and Google Benchmark: when a folder .deps/ (ignored by git, carried
#   to the machine) holds their headers/library and CMake config shims, they are used from there.
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/smelt-icd
echo /usr/lib/libnvidia-opencl.so.1 >/tmp/smelt-icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/smelt-icd
export SMELT_CACHE_DIR=${SMELT_CACHE_DIR:-/tmp/smelt-cache}
export PYTHONUNBUFFERED=1
SMELT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -d "$SMELT_ROOT/.deps/lib" ]; then
    export LD_LIBRARY_PATH="$SMELT_ROOT/.deps/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    [ -e "$SMELT_ROOT/.deps/lib/libbenchmark.so.1debian" ] ||
        ln -sf libbenchmark.so.1.7.1 "$SMELT_ROOT/.deps/lib/libbenchmark.so.1debian" 2>/dev/null
fi

# gpu_configure BUILD_DIR [extra cmake args]: a Release build with CUDA (sm_90) and OpenCL.
gpu_configure() {
    local build=${1:?usage: gpu_configure BUILD_DIR [cmake args]}
    shift
    local deps=()
    if [ -d "$SMELT_ROOT/.deps/cmake" ]; then
        deps=(-DCMAKE_PREFIX_PATH="$SMELT_ROOT/.deps/cmake"
            -DCLI11_DIR="$SMELT_ROOT/.deps/cmake/CLI11"
            -Dbenchmark_DIR="$SMELT_ROOT/.deps/cmake/benchmark")
    fi
    cmake -S "$SMELT_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DSMELT_WITH_VTK=OFF \
        -DPython3_EXECUTABLE="$(command -v python3)" \
        -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)" "${deps[@]}" "$@"
}
