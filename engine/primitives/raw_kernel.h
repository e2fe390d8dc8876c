// Low-level kernels (Compyle's `Kernel`): one function of a kernel file compiled as a GPU
// kernel and launched with explicit global and local sizes, for algorithms the primitives do
// not cover (work-group reductions, tiling through local memory).
//
//   @annotate(x='doublep', partial='doublep', n='int')
//   def block_sum(x, partial, n):
//       buf = declare('LOCAL_MEM matrix(64)')
//       ...LID_0, GID_0, LDIM_0, local_barrier()...
//
//   RawKernel k(module, "block_sum");                       // compiled for default_backend()
//   k.launch(LaunchDims::linear(n_rounded, 64), {x, partial, int32_t(n)});
//
// One specialisation (the parameter types fixed at construction); smelt::Kernel (smelt.h, in
// kernel_primitive.cpp) is the public face that types parameters from the call's arguments and
// keeps one RawKernel per argument-type list.
//
// OpenCL: the user's function itself becomes the __kernel (no wrapper): OpenCL C 1.2 allows
// __local variables only at the outermost scope of a kernel function, so LOCAL_MEM matrices must
// be declared in the kernel function; one declared in a function the kernel calls is a located
// compile error. CUDA: the function stays a __device__ function called by a generated __global__
// wrapper (primitives/cuda/raw_kernel.h), LOCAL_MEM matrices may be declared anywhere, and
// LocalMem arguments arrive as offsets into dynamic shared memory. Kernel functions return
// nothing. LocalMem(n) arguments give an `l<type>p` parameter n elements of local memory per
// work-group (KernelArg::local_memory). GID_k is the work-group index and GDIM_k the number of
// work-groups (Compyle's and CUDA's meaning), so the global index is GID_0 * LDIM_0 + LID_0.
#pragma once

#include "frontend/ast.h"
#include "ir/ir.h"
#include "ir/passes/bounds_check.h"
#include "smelt.h"

#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>

namespace smelt {

class RawKernel {
public:
    // Types, lowers and compiles `function` of `module` (and what it calls) for `backend`
    // (default: default_backend(); it must be a GPU-style backend: opencl or cuda).
    // `arg_types` types the parameters the source leaves unannotated; `precision` is the
    // precision switch. CompileError for mistakes in the source (located in the .py),
    // UsageError for a CPU backend or double on a device without fp64, BackendError for a
    // failed device build (with the build log and the kept source). `bounds_check` and
    // `check_finite` compile the checked modes of ir/passes/bounds_check.h: each launch then
    // waits for the kernel and throws a UsageError for the first bad index or non-finite store.
    // `external_options`: its includes, libs and extra_flags (primitives/external_options.h).
    RawKernel(std::shared_ptr<const ast::Module> module, const std::string &function,
              std::map<std::string, Type> arg_types = {}, Precision precision = Precision::Double,
              Backend *backend = nullptr, bool fast_math = false, bool bounds_check = false,
              bool check_finite = false, const Options &external_options = {});

    // Enqueues one launch (asynchronous, like every launch; Array reads wait for it). Scalars
    // are converted to their parameter's type as C converts. UsageError when the arguments do
    // not match the parameters in number, kind or dtype, or live on another backend.
    void launch(const LaunchDims &dims, std::span<const LaunchArg> args) const;
    void launch(const LaunchDims &dims, std::initializer_list<LaunchArg> args) const {
        launch(dims, std::span<const LaunchArg>(args.begin(), args.size()));
    }

    const std::string &source() const { return source_; } // the whole translation unit
    const std::string &entry_name() const {
        return entry_;
    } // OpenCL: the __kernel; CUDA: its wrapper
    // The kernel function (in the checked modes, with the table as its last parameter).
    const ir::Function &function() const { return *function_; }
    Backend &backend() const { return *backend_; }

private:
    std::shared_ptr<const ast::Module> module_;
    std::shared_ptr<ir::Module> ir_;
    const ir::Function *function_ = nullptr;
    size_t user_params_ = 0;            // parameters before the checked modes' table
    std::vector<ir::BoundsSite> sites_; // of the checked modes; empty when unchecked
    bool checked_ = false;
    Backend *backend_ = nullptr;
    std::string source_;
    std::string entry_;
    std::shared_ptr<Module> compiled_;
    void *kernel_ = nullptr;
};

} // namespace smelt
