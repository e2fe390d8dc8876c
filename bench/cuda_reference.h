// CUB references for bench/cuda_bench.cpp (cuda_reference.cu). Each returns the temporary
// storage it needs; called with temp == 0 it only reports that size.
#pragma once

#include <cuda.h>

#include <cstddef>

namespace bench_ref {

size_t sum(bool f64, CUdeviceptr in, CUdeviceptr out, int n, CUdeviceptr temp, size_t bytes,
           CUstream s);
size_t inclusive_sum(bool f64, CUdeviceptr in, CUdeviceptr out, int n, CUdeviceptr temp,
                     size_t bytes, CUstream s);
size_t sort_pairs_i32(CUdeviceptr keys_in, CUdeviceptr keys_out, CUdeviceptr values_in,
                      CUdeviceptr values_out, int n, CUdeviceptr temp, size_t bytes, CUstream s);

} // namespace bench_ref
