// The CUDA side of low-level kernels (Compyle's Kernel: LID_0/GID_0/LDIM_0/GDIM_0, LOCAL_MEM,
// local_barrier, atomics, explicit launch geometry).
//
// The user's function stays a __device__ function; a generated __global__ wrapper calls it.
// The wrapper takes the function's parameters in order, except that a local-memory pointer
// parameter (l<type>p) arrives as a uint64_t byte offset into the block's dynamic shared
// memory — the CUDA backend's encoding of KernelArg::local_memory (backends/cuda/cuda_backend.h)
// — and is turned back into a pointer there. So a launch is simply
//
//     backend.launch(module->function(unit.entry), dims, args)
//
// with KernelArg::of(array.buffer()) for arrays, KernelArg::of(value) for scalars (of the
// parameter's type) and KernelArg::local_memory(bytes) for LocalMem. LOCAL_MEM matrices
// declared inside any function become __shared__ arrays (CUDA allows them in device functions).
//
// Plugging into RawKernel (primitives/raw_kernel.h, OpenCL branch): where it emits the __kernel
// for OpenCL, emit raw_kernel_unit(*ir, function) for the "cuda" backend and use .source and
// .entry; its launch() already passes LocalMem as KernelArg::local_memory.
#pragma once

#include "ir/ir.h"

#include <string>

namespace smelt::primitives::cuda {

struct RawKernelUnit {
    std::string source; // prelude + device functions + wrapper: one NVRTC translation unit
    std::string entry;  // the __global__ wrapper's name
};

// The __global__ wrapper `entry` of module function `function` (emitted by emit_module(m, ...)
// before it): what raw_kernel_unit appends, for units with several kernels (LoopFunction).
std::string global_wrapper(const ir::Module &m, const std::string &function,
                           const std::string &entry);

// InternalError when `function` is not in `m`.
RawKernelUnit raw_kernel_unit(const ir::Module &m, const std::string &function);

} // namespace smelt::primitives::cuda
