// The CUDA PrimitiveTarget: wrapper text (always available, so sources can be generated and
// checked without a GPU) and launches through the CUDA backend (only in builds with CUDA).
//
// Grid sizes are functions of n and the device alone (SM count and the kernel's occupancy),
// never of timing, so the reduction's combine order and the chunking of the three-kernel scan
// are the same on every run. (The single-pass scan's look-back folds whatever its
// predecessors have published: see scan_single_pass.cpp.)
#include "primitives/cuda/cuda_target.h"

#include "codegen/dialect.h"
#include "primitives/cuda/geometry.h"
#include "primitives/cuda/sort.h"
#include "primitives/cuda/wrappers.h"
#include "support/error.h"

#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#endif

#include <algorithm>

namespace smelt::primitives::cuda {

namespace {

#ifdef SMELT_HAVE_CUDA

smelt::cuda::CudaBackend &as_cuda(Backend &backend) {
    auto *b = dynamic_cast<smelt::cuda::CudaBackend *>(&backend);
    SMELT_INTERNAL_ASSERT(b, "CUDA primitive launched on backend " << backend.name());
    return *b;
}

// [first..., args..., last...] without a heap allocation for the usual argument counts.
class ArgList {
public:
    ArgList(std::initializer_list<KernelArg> first, std::span<const KernelArg> args,
            std::initializer_list<KernelArg> last) {
        size_ = first.size() + args.size() + last.size();
        if (size_ > std::size(small_)) big_.resize(size_);
        KernelArg *out = data();
        out = std::copy(first.begin(), first.end(), out);
        out = std::copy(args.begin(), args.end(), out);
        std::copy(last.begin(), last.end(), out);
    }
    std::span<const KernelArg> span() { return {data(), size_}; }

private:
    KernelArg *data() { return big_.empty() ? small_ : big_.data(); }
    KernelArg small_[24];
    std::vector<KernelArg> big_;
    size_t size_ = 0;
};

// The most blocks of `function` the device holds at once.
int64_t resident(smelt::cuda::CudaBackend &b, void *function, int block) {
    return int64_t(b.resident_blocks(function, block)) * b.multiprocessors();
}

#endif

class CudaTarget : public PrimitiveTarget {
public:
    const codegen::Dialect &dialect() const override { return codegen::cuda_dialect(); }
    std::string unit_name() const override { return "kernel.cu"; }

    std::string elementwise_wrapper(const ElementwiseWrapper &w) const override {
        return cuda::elementwise_wrapper(dialect(), w);
    }
    int elementwise_items_per_thread(const ElementwiseWrapper &w) const override {
        return w.distinct_arrays && !w.loops ? kElementwiseItems : 1;
    }
    std::vector<std::string> elementwise_entry_points(const ElementwiseWrapper &w) const override {
        if (w.distinct_arrays && !w.loops) return {kElementwiseEntry, kElementwiseEachEntry};
        return {kElementwiseEntry};
    }
    std::string reduction_wrapper(const ReductionWrapper &w) const override {
        return cuda::reduction_wrapper(dialect(), w);
    }
    std::string scan_wrapper(const ScanWrapper &w) const override {
        return w.output_uses_last_item ? cuda::scan_wrapper(dialect(), w)
                                       : single_pass_scan_wrapper(dialect(), w);
    }
    std::vector<std::string> entry_points(const std::string &primitive) const override {
        if (primitive == "reduction") return {kReduceBlocks, kReduceFinal};
        if (primitive == "scan") return {kScanUpsweep, kScanSpine, kScanDownsweep};
        return {kElementwiseEntry};
    }
    std::vector<std::string> scan_entry_points(const ScanWrapper &w) const override {
        if (w.output_uses_last_item) return entry_points("scan");
        return {kScanSinglePass};
    }

    // CUB's radix sort (sort.h); in a build without CUDA no array lives on a CUDA backend.
    void sort_by_key(Array &keys, Array *values, const SortOptions &options) const override {
        cuda::sort_by_key(keys, values, options.key_bits);
    }
    Array argsort(const Array &keys, DType index_dtype, int) const override {
        return cuda::argsort(keys, index_dtype);
    }

#ifdef SMELT_HAVE_CUDA
    void run_elementwise(Backend &backend, const CompiledKernel &k, int64_t n,
                         std::span<const KernelArg> args) const override {
        if (n <= 0) return;
        ArgList all({KernelArg::of(n)}, args, {});
        const int64_t per = k.items_per_thread;
        // Tiled threads fewer than the device holds at once: one item per thread instead, so
        // every multiprocessor has warps to switch between while loads are in flight.
        if (per > 1 && k.entries.size() > 1 &&
            (n + per - 1) / per <
                resident(as_cuda(backend), k.entries[1], kElementwiseBlock) * kElementwiseBlock) {
            backend.launch(k.entries[1], LaunchDims::linear(n, kElementwiseBlock), all.span());
            return;
        }
        backend.launch(k.entries[0], LaunchDims::linear((n + per - 1) / per, kElementwiseBlock),
                       all.span());
    }

    void run_reduction(Backend &backend, const CompiledKernel &k, int64_t n,
                       std::span<const KernelArg> args, const Buffer &result) const override {
        auto &b = as_cuda(backend);
        const int64_t blocks = reduction_blocks(n, resident(b, k.entries[0], kReduceBlock));
        // Partials of at most 8 bytes each (the accumulator is a scalar).
        const CUdeviceptr partials = b.scratch(size_t(std::max<int64_t>(blocks, 1)) * 8);
        if (blocks > 0) {
            ArgList stage1({KernelArg::of(n)}, args, {KernelArg::of(partials)});
            backend.launch(k.entries[0], LaunchDims::linear(blocks * kReduceBlock, kReduceBlock),
                           stage1.span());
        }
        const KernelArg stage2[] = {KernelArg::of(blocks), KernelArg::of(partials),
                                    KernelArg::of(result)};
        backend.launch(k.entries[1], LaunchDims::linear(kReduceBlock, kReduceBlock), stage2);
    }

    void run_scan(Backend &backend, const CompiledKernel &k, int64_t n,
                  std::span<const KernelArg> args) const override {
        if (n <= 0) return;
        auto &b = as_cuda(backend);
        if (k.entries.size() == 1) { // the single-pass scan (scan_entry_points)
            const int64_t tiles = (n + kScanTile - 1) / kScanTile;
            const SinglePassScratch layout = single_pass_scratch(tiles);
            const CUdeviceptr base = b.scratch(layout.bytes);
            // The tile counter and the status words start at zero; one tile uses neither.
            if (tiles > 1) b.zero(base, layout.bytes);
            ArgList all(
                {KernelArg::of(n)}, args,
                {KernelArg::of(base + layout.counter), KernelArg::of(base + layout.status)});
            backend.launch(k.entries[0], LaunchDims::linear(tiles * kScanBlock, kScanBlock),
                           all.span());
            return;
        }
        const ScanGeometry g = scan_geometry(n, resident(b, k.entries[2], kScanBlock));
        const int64_t blocks = g.blocks, per_block = g.per_block;
        const ScanScratch layout = scan_scratch(blocks);
        const CUdeviceptr base = b.scratch(layout.bytes);
        const CUdeviceptr agg_v = base + layout.agg_v, agg_f = base + layout.agg_f,
                          carry_v = base + layout.carry_v, last = base + layout.last;
        const LaunchDims grid = LaunchDims::linear(blocks * kScanBlock, kScanBlock);
        ArgList up({KernelArg::of(n)}, args,
                   {KernelArg::of(agg_v), KernelArg::of(agg_f), KernelArg::of(per_block)});
        backend.launch(k.entries[0], grid, up.span());
        const KernelArg spine[] = {KernelArg::of(blocks), KernelArg::of(agg_v),
                                   KernelArg::of(agg_f), KernelArg::of(carry_v),
                                   KernelArg::of(last)};
        backend.launch(k.entries[1], LaunchDims::linear(kSpineBlock, kSpineBlock), spine);
        ArgList down({KernelArg::of(n)}, args,
                     {KernelArg::of(carry_v), KernelArg::of(last), KernelArg::of(per_block)});
        backend.launch(k.entries[2], grid, down.span());
    }
#else
    [[noreturn]] static void unavailable() {
        throw UsageError("this smelt was built without CUDA: the CUDA primitives can generate "
                         "source but not run");
    }
    void run_elementwise(Backend &, const CompiledKernel &, int64_t,
                         std::span<const KernelArg>) const override {
        unavailable();
    }
    void run_reduction(Backend &, const CompiledKernel &, int64_t, std::span<const KernelArg>,
                       const Buffer &) const override {
        unavailable();
    }
    void run_scan(Backend &, const CompiledKernel &, int64_t,
                  std::span<const KernelArg>) const override {
        unavailable();
    }
#endif
};

} // namespace

const PrimitiveTarget &cuda_target() {
    static const CudaTarget target;
    return target;
}

} // namespace smelt::primitives::cuda
