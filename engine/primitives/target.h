// The backend-specific part of the primitives: the wrapper text around the device functions and
// the launch, and the sort. One PrimitiveTarget per backend (cpu, opencl in two layouts, cuda);
// a backend adds wrappers, launches and a sort, never new primitives. Everything else in
// primitives/ is shared.
#pragma once

#include "array/array.h"
#include "backends/backend.h"
#include "codegen/dialect.h"
#include "primitives/radix_sort.h"
#include "primitives/wrapper_spec.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace smelt::primitives {

// A compiled translation unit with its entry points resolved (in entry_points() order).
struct CompiledKernel {
    std::shared_ptr<Module> module;
    std::vector<void *> entries;
    std::string source;
    int items_per_thread = 1; // elementwise: elementwise_items_per_thread of its wrapper
};

class PrimitiveTarget {
public:
    virtual ~PrimitiveTarget() = default;

    virtual const codegen::Dialect &dialect() const = 0;
    // The name the translation unit is compiled under (for #line directives), e.g. "kernel.cpp".
    virtual std::string unit_name() const = 0;

    // --- wrapper text (appended after the prelude and the device functions) ---
    virtual std::string elementwise_wrapper(const ElementwiseWrapper &w) const = 0;
    // Items each thread of elementwise_wrapper(w) handles (run_elementwise sizes the launch
    // by it, from CompiledKernel::items_per_thread).
    virtual int elementwise_items_per_thread(const ElementwiseWrapper &) const { return 1; }
    virtual std::string reduction_wrapper(const ReductionWrapper &w) const = 0;
    virtual std::string scan_wrapper(const ScanWrapper &w) const = 0;
    // Entry points a wrapper of `primitive` ("elementwise", "reduction", "scan") defines.
    virtual std::vector<std::string> entry_points(const std::string &primitive) const = 0;
    // Entry points of scan_wrapper(w), for a target whose scan kernels depend on the wrapper
    // (CUDA: one single-pass kernel, or three when output takes last_item); run_scan can tell
    // them apart by their number.
    virtual std::vector<std::string> scan_entry_points(const ScanWrapper &) const {
        return entry_points("scan");
    }
    // Entry points of elementwise_wrapper(w) (GPU targets add a one-item-per-thread companion
    // of a multi-item entry, for launches too small to fill the device).
    virtual std::vector<std::string> elementwise_entry_points(const ElementwiseWrapper &) const {
        return entry_points("elementwise");
    }

    // --- launches; `args` are the user arguments in EntryParam order ---
    virtual void run_elementwise(Backend &backend, const CompiledKernel &k, int64_t n,
                                 std::span<const KernelArg> args) const = 0;
    // Writes the result (one element) into `result`.
    virtual void run_reduction(Backend &backend, const CompiledKernel &k, int64_t n,
                               std::span<const KernelArg> args, const Buffer &result) const = 0;
    virtual void run_scan(Backend &backend, const CompiledKernel &k, int64_t n,
                          std::span<const KernelArg> args) const = 0;

    // --- sort: stable, in primitives/radix_sort.h's order (ascending; -0.0 and +0.0 equal,
    // keeping their input order and signs; NaNs last). The caller (radix_sort.cpp) has checked
    // that `values` has the keys' size and backend, and that index_dtype is Int32 (with at
    // most INT32_MAX keys) or Int64. num_threads: the CPU's threads; 0 means the backend's.
    // Sorts `keys` in place and moves `values` (null: none; any dtype) with them; options as in
    // radix_sort.h (key_bits checked to be within the key's width).
    virtual void sort_by_key(Array &keys, Array *values, const SortOptions &options) const = 0;
    // The indices that sort `keys` (keys[i[0]] <= keys[i[1]] <= ...); the keys stay as they are.
    virtual Array argsort(const Array &keys, DType index_dtype, int num_threads) const = 0;
};

// The target for a backend name ("cpu"); UsageError when primitives do not exist for it yet.
const PrimitiveTarget &primitive_target(const std::string &backend_name);
// The target for a backend instance: as by name, except that OpenCL picks the layout of its
// device (primitives/opencl/layout.h).
const PrimitiveTarget &primitive_target(Backend &backend);

} // namespace smelt::primitives
