// The hand-written CUDA vortex kernels bench/vortex_bench.cpp compares Smelt's tiled Kernel with
// (vortex_cuda_reference.h).
#include "vortex_cuda_reference.h"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#ifndef BENCH_REF_NS
#define BENCH_REF_NS bench_ref
#endif

namespace BENCH_REF_NS {

namespace {

constexpr double kInvTwoPi = 0.15915494309189533577;

template <class T> T *p(CUdeviceptr d) {
    return reinterpret_cast<T *>(static_cast<uintptr_t>(d));
}

void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T>
__global__ void naive_kernel(const T *__restrict__ x, const T *__restrict__ y,
                             const T *__restrict__ g, T *__restrict__ u, T *__restrict__ v, int n,
                             T d2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const T xi = x[i], yi = y[i];
    T us = 0, vs = 0;
    for (int j = 0; j < n; ++j) {
        const T dx = xi - x[j], dy = yi - y[j];
        const T w = g[j] / (dx * dx + dy * dy + d2);
        us -= w * dy;
        vs += w * dx;
    }
    u[i] = us * T(kInvTwoPi);
    v[i] = vs * T(kInvTwoPi);
}

template <class T, int TILE>
__global__ void tiled_kernel(const T *__restrict__ x, const T *__restrict__ y,
                             const T *__restrict__ g, T *__restrict__ u, T *__restrict__ v, int n,
                             T d2) {
    __shared__ T xs[TILE], ys[TILE], gs[TILE];
    const int t = threadIdx.x;
    const int i = blockIdx.x * TILE + t;
    const T xi = i < n ? x[i] : T(0), yi = i < n ? y[i] : T(0);
    T us = 0, vs = 0;
    for (int base = 0; base < n; base += TILE) {
        const int src = base + t;
        xs[t] = src < n ? x[src] : T(0);
        ys[t] = src < n ? y[src] : T(0);
        gs[t] = src < n ? g[src] : T(0); // padding sources have no circulation
        __syncthreads();
#pragma unroll 8
        for (int j = 0; j < TILE; ++j) {
            const T dx = xi - xs[j], dy = yi - ys[j];
            const T w = gs[j] / (dx * dx + dy * dy + d2);
            us -= w * dy;
            vs += w * dx;
        }
        __syncthreads();
    }
    if (i < n) {
        u[i] = us * T(kInvTwoPi);
        v[i] = vs * T(kInvTwoPi);
    }
}

template <class T>
void naive_t(CUdeviceptr x, CUdeviceptr y, CUdeviceptr g, CUdeviceptr u, CUdeviceptr v, int n,
             double d2, int block, CUstream s) {
    const int grid = (n + block - 1) / block;
    naive_kernel<T><<<grid, block, 0, reinterpret_cast<cudaStream_t>(s)>>>(
        p<const T>(x), p<const T>(y), p<const T>(g), p<T>(u), p<T>(v), n, T(d2));
    check(cudaGetLastError(), "vortex naive kernel");
}

template <class T, int TILE>
void tiled_launch(CUdeviceptr x, CUdeviceptr y, CUdeviceptr g, CUdeviceptr u, CUdeviceptr v, int n,
                  double d2, CUstream s) {
    const int grid = (n + TILE - 1) / TILE;
    tiled_kernel<T, TILE><<<grid, TILE, 0, reinterpret_cast<cudaStream_t>(s)>>>(
        p<const T>(x), p<const T>(y), p<const T>(g), p<T>(u), p<T>(v), n, T(d2));
    check(cudaGetLastError(), "vortex tiled kernel");
}

template <class T>
void tiled_t(CUdeviceptr x, CUdeviceptr y, CUdeviceptr g, CUdeviceptr u, CUdeviceptr v, int n,
             double d2, int block, CUstream s) {
    switch (block) {
    case 64:
        return tiled_launch<T, 64>(x, y, g, u, v, n, d2, s);
    case 128:
        return tiled_launch<T, 128>(x, y, g, u, v, n, d2, s);
    case 256:
        return tiled_launch<T, 256>(x, y, g, u, v, n, d2, s);
    case 512:
        return tiled_launch<T, 512>(x, y, g, u, v, n, d2, s);
    default:
        throw std::invalid_argument("vortex tiled reference: block must be 64 ... 512");
    }
}

} // namespace

void vortex_naive(bool f64, CUdeviceptr x, CUdeviceptr y, CUdeviceptr gamma, CUdeviceptr u,
                  CUdeviceptr v, int n, double delta2, int block, CUstream stream) {
    if (f64)
        naive_t<double>(x, y, gamma, u, v, n, delta2, block, stream);
    else
        naive_t<float>(x, y, gamma, u, v, n, delta2, block, stream);
}

void vortex_tiled(bool f64, CUdeviceptr x, CUdeviceptr y, CUdeviceptr gamma, CUdeviceptr u,
                  CUdeviceptr v, int n, double delta2, int block, CUstream stream) {
    if (f64)
        tiled_t<double>(x, y, gamma, u, v, n, delta2, block, stream);
    else
        tiled_t<float>(x, y, gamma, u, v, n, delta2, block, stream);
}

} // namespace BENCH_REF_NS
