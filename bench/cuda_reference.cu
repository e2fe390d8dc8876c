// The CUB calls the CUDA benchmark compares against, compiled by nvcc into the same binary:
// DeviceReduce::Sum, DeviceScan::InclusiveSum (float and double) and DeviceRadixSort::SortPairs
// (int32 keys and values), each timed on the same stream as smelt's kernels.
#include "cuda_reference.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <stdexcept>
#include <string>

namespace bench_ref {

namespace {

void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

cudaStream_t rt(CUstream s) {
    return reinterpret_cast<cudaStream_t>(s);
}

template <class T> T *p(CUdeviceptr d) {
    return reinterpret_cast<T *>(static_cast<uintptr_t>(d));
}

template <class T>
size_t sum_t(CUdeviceptr in, CUdeviceptr out, int n, CUdeviceptr temp, size_t bytes, CUstream s) {
    check(cub::DeviceReduce::Sum(temp ? p<void>(temp) : nullptr, bytes, p<const T>(in), p<T>(out),
                                 n, rt(s)),
          "cub::DeviceReduce::Sum");
    return bytes;
}

template <class T>
size_t scan_t(CUdeviceptr in, CUdeviceptr out, int n, CUdeviceptr temp, size_t bytes, CUstream s) {
    check(cub::DeviceScan::InclusiveSum(temp ? p<void>(temp) : nullptr, bytes, p<const T>(in),
                                        p<T>(out), n, rt(s)),
          "cub::DeviceScan::InclusiveSum");
    return bytes;
}

} // namespace

size_t sum(bool f64, CUdeviceptr in, CUdeviceptr out, int n, CUdeviceptr temp, size_t bytes,
           CUstream s) {
    return f64 ? sum_t<double>(in, out, n, temp, bytes, s)
               : sum_t<float>(in, out, n, temp, bytes, s);
}

size_t inclusive_sum(bool f64, CUdeviceptr in, CUdeviceptr out, int n, CUdeviceptr temp,
                     size_t bytes, CUstream s) {
    return f64 ? scan_t<double>(in, out, n, temp, bytes, s)
               : scan_t<float>(in, out, n, temp, bytes, s);
}

size_t sort_pairs_i32(CUdeviceptr keys_in, CUdeviceptr keys_out, CUdeviceptr values_in,
                      CUdeviceptr values_out, int n, CUdeviceptr temp, size_t bytes, CUstream s) {
    check(cub::DeviceRadixSort::SortPairs(
              temp ? p<void>(temp) : nullptr, bytes, p<const int>(keys_in), p<int>(keys_out),
              p<const int>(values_in), p<int>(values_out), n, 0, 32, rt(s)),
          "cub::DeviceRadixSort::SortPairs");
    return bytes;
}

} // namespace bench_ref
