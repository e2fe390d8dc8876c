// Shared pieces of the primitive tests: the kernel file, the edge sizes, deterministic data.
#pragma once

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "smelt.h"
#include "test_backend.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace smelt::testing_util {

inline const Program &kernels() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/kernels.py");
    return p;
}

// Sizes around powers of two, chunk and vector widths, and one beyond a million.
inline const std::vector<size_t> &edge_sizes() {
    static const std::vector<size_t> s = {0,   1,   2,    31,   32,   33,    255,
                                          256, 257, 1023, 1024, 1025, 65537, (size_t(1) << 20) + 3};
    return s;
}

// Small integers in [lo, hi] as T: sums of up to 2^20 of them are exact in every tested dtype
// (float32 included), so any summation order gives the oracle's bits.
template <class T> std::vector<T> small_values(size_t n, int lo, int hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<T> v(n);
    for (auto &x : v)
        x = static_cast<T>(dist(gen));
    return v;
}

template <class T> Array to_device(const std::vector<T> &v) {
    return Array::from_vector(v, &test_device());
}

// How the test backend's generated code spells a type: "int32_t" / "double *" in C++,
// "int" / "__global double *" in OpenCL C (for checks on Elementwise::source() and the like).
inline std::string spelled(const Type &t) {
    return codegen::type_name(codegen::dialect_for_backend(test_backend()), t);
}

// How the test backend's generated code names the Elementwise entry point: on GPU targets the
// name the per-call header gives the entry of the algorithm file (SMELT_EACH_ENTRY or
// SMELT_TILED_ENTRY), on the CPU the OpenMP entry file's definition.
inline std::string elementwise_entry_text() {
    if (test_backend().rfind("opencl", 0) == 0) return "_ENTRY smelt_elementwise\n";
    if (test_backend().rfind("cuda", 0) == 0) return "_ENTRY smelt_entry\n";
    return "SMELT_KERNEL void smelt_entry(";
}

// The name of the one-item-per-thread entry beside the tiled one (GPU targets, distinct arrays).
inline std::string elementwise_each_entry() {
    return test_backend().rfind("cuda", 0) == 0 ? "smelt_entry_each" : "smelt_elementwise_each";
}

} // namespace smelt::testing_util
