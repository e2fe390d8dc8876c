// The CPU PrimitiveTarget: C++ dialect wrappers (wrappers.h) launched through the CPU backend's
// entry ABI, with the backend's thread count.
#include "primitives/cpu/cpu_target.h"

#include "primitives/cpu/sort.h"
#include "primitives/cpu/wrappers.h"

#include "codegen/dialect.h"

namespace smelt::primitives::cpu {

namespace {

class CpuTarget : public PrimitiveTarget {
public:
    const codegen::Dialect &dialect() const override { return codegen::cpp_dialect(); }
    std::string unit_name() const override { return "kernel.cpp"; }

    std::string elementwise_wrapper(const ElementwiseWrapper &w) const override {
        return cpu::elementwise_wrapper(dialect(), w);
    }
    std::string reduction_wrapper(const ReductionWrapper &w) const override {
        return cpu::reduction_wrapper(dialect(), w);
    }
    std::string scan_wrapper(const ScanWrapper &w) const override {
        return cpu::scan_wrapper(dialect(), w);
    }
    std::vector<std::string> entry_points(const std::string &) const override {
        return {kEntryName};
    }

    void run_elementwise(Backend &backend, const CompiledKernel &k, int64_t n,
                         std::span<const KernelArg> args) const override {
        backend.launch(k.entries[0], LaunchDims::linear(n), args);
    }
    void run_reduction(Backend &backend, const CompiledKernel &k, int64_t n,
                       std::span<const KernelArg> args, const Buffer &result) const override {
        KernelArg small[16];
        std::vector<KernelArg> big;
        KernelArg *all = small;
        if (args.size() + 1 > std::size(small)) {
            big.resize(args.size() + 1);
            all = big.data();
        }
        std::copy(args.begin(), args.end(), all);
        all[args.size()] = KernelArg::of(result);
        backend.launch(k.entries[0], LaunchDims::linear(n), {all, args.size() + 1});
    }
    void run_scan(Backend &backend, const CompiledKernel &k, int64_t n,
                  std::span<const KernelArg> args) const override {
        backend.launch(k.entries[0], LaunchDims::linear(n), args);
    }

    void sort_by_key(Array &keys, Array *values, const SortOptions &options) const override {
        cpu::sort_by_key(keys, values, options.num_threads);
    }
    Array argsort(const Array &keys, DType index_dtype, int num_threads) const override {
        return cpu::argsort(keys, index_dtype, num_threads);
    }
};

} // namespace

const PrimitiveTarget &cpu_target() {
    static const CpuTarget target;
    return target;
}

} // namespace smelt::primitives::cpu
