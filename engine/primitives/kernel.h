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
// The user's function itself becomes the __kernel (no wrapper): OpenCL C 1.2 allows __local
// variables only at the outermost scope of a kernel function, so LOCAL_MEM matrices must be
// declared in the kernel function; one declared in a function the kernel calls is a located
// compile error. Kernel functions return nothing. LocalMem(n, dtype) arguments give an
// `l<type>p` parameter n elements of local memory per work-group (KernelArg::local_memory).
// GID_k is the work-group index and GDIM_k the number of work-groups (Compyle's and CUDA's
// meaning), so the global index is GID_0 * LDIM_0 + LID_0.
#pragma once

#include "array/array.h"
#include "frontend/ast.h"
#include "ir/ir.h"
#include "pipeline.h"

#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>

namespace smelt {

// Local memory for one launch: `count` elements of `dtype` per work-group.
struct LocalMem {
    size_t count = 0;
    DType dtype = DType::Float64;
    LocalMem(size_t count, DType dtype = DType::Float64) : count(count), dtype(dtype) {}
    size_t bytes() const { return count * dtype_size(dtype); }
};

// One launch argument: an Array (for a global pointer parameter), a number (converted to the
// parameter's scalar type, as a Python int or float would be), or LocalMem.
class KernelArgument {
public:
    enum class Kind : uint8_t { Array, Integer, Float, Local };

    KernelArgument(const Array &a) : kind_(Kind::Array), array_(&a) {}
    KernelArgument(LocalMem m) : kind_(Kind::Local), local_(m) {}
    template <class T>
    requires std::is_arithmetic_v<T> KernelArgument(T v) {
        if constexpr (std::is_floating_point_v<T>) {
            kind_ = Kind::Float;
            float_ = static_cast<double>(v);
        } else {
            kind_ = Kind::Integer;
            int_ = static_cast<int64_t>(v);
        }
    }

    Kind kind() const { return kind_; }
    const Array &array() const { return *array_; }
    int64_t integer() const { return int_; }
    double floating() const { return float_; }
    const LocalMem &local() const { return local_; }

private:
    Kind kind_ = Kind::Integer;
    const Array *array_ = nullptr;
    int64_t int_ = 0;
    double float_ = 0;
    LocalMem local_{0};
};

class RawKernel {
public:
    // Types, lowers and compiles `function` of `module` (and what it calls) for `backend`
    // (default: default_backend(); it must be a GPU-style backend, i.e. not the CPU).
    // `arg_types` types the parameters the source leaves unannotated; `precision` is the
    // precision switch. CompileError for mistakes in the source (located in the .py),
    // UsageError for a CPU backend or double on a device without fp64, BackendError for a
    // failed device build (with the build log and the kept source).
    RawKernel(std::shared_ptr<const ast::Module> module, const std::string &function,
              std::map<std::string, Type> arg_types = {}, Precision precision = Precision::Double,
              Backend *backend = nullptr);

    // Enqueues one launch (asynchronous, like every launch; Array reads wait for it).
    // UsageError when the arguments do not match the parameters in number, kind or dtype.
    void launch(const LaunchDims &dims, std::span<const KernelArgument> args) const;
    void launch(const LaunchDims &dims, std::initializer_list<KernelArgument> args) const {
        launch(dims, std::span<const KernelArgument>(args.begin(), args.size()));
    }

    const std::string &source() const { return source_; }    // the whole translation unit
    const std::string &entry_name() const { return entry_; } // the __kernel's C name
    const ir::Function &function() const { return *function_; }
    Backend &backend() const { return *backend_; }

private:
    std::shared_ptr<const ast::Module> module_;
    std::shared_ptr<ir::Module> ir_;
    const ir::Function *function_ = nullptr;
    Backend *backend_ = nullptr;
    std::string source_;
    std::string entry_;
    std::shared_ptr<Module> compiled_;
    void *kernel_ = nullptr;
};

} // namespace smelt
