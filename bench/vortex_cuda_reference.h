// Hand-written CUDA references for bench/vortex_bench.cpp (vortex_cuda_reference.cu): one
// velocity evaluation of N Krasny blobs, u_k = -(1/2pi) sum_j G_j dy / (r^2 + d^2) and
// v_k = (1/2pi) sum_j G_j dx / (r^2 + d^2), the same sums as physics.py's `velocity`.
//   naive: one thread per target, sources read from global memory (through the caches);
//   tiled: sources staged through shared memory in tiles of the block size (the classic
//          N-body kernel), the layout of physics.py's `velocity_tiled`.
// Launched on `stream` with blocks of `block` threads (tiled: 64, 128, 256 or 512).
//
// The same source is compiled twice: bench_ref with exact arithmetic (`--fmad=false`, the
// arithmetic Smelt's CUDA kernels get by default: no contraction), and bench_ref_fast with
// `--use_fast_math` (vortex_cuda_reference_fast.cu), the reference for Smelt's fast_math option.
#pragma once

#include <cuda.h>

#define SMELT_VORTEX_REFERENCE_DECLARATIONS                                                        \
    void vortex_naive(bool f64, CUdeviceptr x, CUdeviceptr y, CUdeviceptr gamma, CUdeviceptr u,    \
                      CUdeviceptr v, int n, double delta2, int block, CUstream stream);            \
    void vortex_tiled(bool f64, CUdeviceptr x, CUdeviceptr y, CUdeviceptr gamma, CUdeviceptr u,    \
                      CUdeviceptr v, int n, double delta2, int block, CUstream stream);

namespace bench_ref {
SMELT_VORTEX_REFERENCE_DECLARATIONS
} // namespace bench_ref

namespace bench_ref_fast {
SMELT_VORTEX_REFERENCE_DECLARATIONS
} // namespace bench_ref_fast
