// Array factories and data-movement operations (host loops over the arrays' host views; a GPU
// backend pulls, computes and pushes until primitives provide device versions).
#pragma once

#include "array/array.h"

#include <vector>

namespace smelt {

Array empty(size_t n, DType dtype = DType::Float64, Backend *backend = nullptr);
Array zeros(size_t n, DType dtype = DType::Float64, Backend *backend = nullptr);
Array ones(size_t n, DType dtype = DType::Float64, Backend *backend = nullptr);
Array full(size_t n, double value, DType dtype = DType::Float64, Backend *backend = nullptr);

// [0, n): exact for every integer dtype.
Array arange(int64_t n, DType dtype = DType::Int64, Backend *backend = nullptr);
// NumPy's arange: ceil((stop - start) / step) values start + i * step, computed in double and
// converted to dtype (toward zero for integers). UsageError when step is 0.
Array arange(double start, double stop, double step, DType dtype = DType::Float64,
             Backend *backend = nullptr);
// NumPy's linspace: `num` evenly spaced values; with `endpoint` the last one is exactly `stop`.
// Integer dtypes take the floor of each value (as NumPy 2 does).
Array linspace(double start, double stop, size_t num, DType dtype = DType::Float64,
               bool endpoint = true, Backend *backend = nullptr);

// out[i] = src[indices[i]] (a gather). `indices` has an integer dtype; an index outside
// [0, src.size()) is a UsageError naming the position.
Array take(const Array &src, const Array &indices);
// take() applied to each array: reorders several arrays by one permutation (e.g. argsort's).
std::vector<Array> align(const std::vector<Array> &arrays, const Array &indices);

// out[i] = cond[i] != 0 ? a[i] : b[i]. All three have the same length, a and b the same dtype.
Array where(const Array &cond, const Array &a, const Array &b);

} // namespace smelt
