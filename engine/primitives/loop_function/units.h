// The translation unit of an outlined loop function (outline.h) for each backend:
//   cpu     prelude + functions + one C++ entry (primitives/cpu's ABI) that runs the segments
//           in order: sequential ones called directly, Map as `omp parallel for` over the
//           collapsed index space (primitives/algorithms/loop_map_openmp.kernel), Reduce as one
//           chunk per thread combined in thread order (loop_reduce_openmp.kernel);
//   opencl  prelude + functions, the kernels qualified __kernel;
//   cuda    prelude + functions + a __global__ wrapper per kernel (primitives/cuda/raw_kernel).
#pragma once

#include "primitives/loop_function/outline.h"

#include <string>
#include <vector>

namespace smelt::primitives::loops {

struct Unit {
    std::string source;
    std::vector<std::string> symbols; // cpu: the entry; GPUs: per kernel of o.kernels, in order
};

Unit make_unit(const Outlined &o, const std::string &backend);

} // namespace smelt::primitives::loops
