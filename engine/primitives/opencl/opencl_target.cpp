// The OpenCL PrimitiveTarget: OpenCL C wrappers launched over 1-D NDRanges, in one of two
// layouts (layout.h; one target object per layout, chosen per backend by primitive_target).
//
// CPU layout (wrappers.h): work-group size W is the largest power of two <= min(256, the
// kernel's CL_KERNEL_WORK_GROUP_SIZE); the kernels of one primitive that share a split of [0, n)
// use the smallest W among them. Group counts are min(ceil(n / W), kMaxGroups).
// GPU layout (gpu_wrappers.h): groups of kGpuGroupSize, min(ceil(n / kGpuMinTile), compute units
// * kGpuGroupsPerUnit) of them; the final reduction and the scan of group totals run in one group
// of W, as in the CPU layout.
// Either way a given device and n always get the same split, hence the same bits. Scratch buffers
// are allocated per call and released right after the launches are queued (OpenCL frees them once
// those have run).
#include "primitives/opencl/opencl_target.h"

#include "backends/opencl/opencl_backend.h"
#include "codegen/dialect.h"
#include "primitives/opencl/device_sort.h"
#include "primitives/opencl/gpu_wrappers.h"
#include "primitives/opencl/launch.h"
#include "support/error.h"

#include <algorithm>

namespace smelt::primitives::opencl {

namespace {

using smelt::opencl::OpenCLBackend;
using Scratch = ScratchBuffer;

std::vector<KernelArg> with_user_args(std::span<const KernelArg> args) {
    std::vector<KernelArg> out(args.begin(), args.end());
    out.reserve(args.size() + 8);
    return out;
}

constexpr size_t kWidestScalar = 8;

class OpenCLTarget : public PrimitiveTarget {
public:
    explicit OpenCLTarget(Layout layout) : layout_(layout) {}
    const codegen::Dialect &dialect() const override { return codegen::opencl_dialect(); }
    std::string unit_name() const override { return "kernel.cl"; }

    std::string elementwise_wrapper(const ElementwiseWrapper &w) const override {
        return opencl::elementwise_wrapper(dialect(), w);
    }
    int elementwise_items_per_thread(const ElementwiseWrapper &w) const override {
        return w.distinct_arrays && !w.loops ? kElementwiseItems : 1;
    }
    std::vector<std::string> elementwise_entry_points(const ElementwiseWrapper &w) const override {
        if (w.distinct_arrays && !w.loops) return {kElementwiseEntry, kElementwiseEachEntry};
        return {kElementwiseEntry};
    }
    std::string reduction_wrapper(const ReductionWrapper &w) const override {
        return layout_ == Layout::Gpu ? gpu_reduction_wrapper(dialect(), w)
                                      : opencl::reduction_wrapper(dialect(), w);
    }
    std::string scan_wrapper(const ScanWrapper &w) const override {
        return layout_ == Layout::Gpu ? gpu_scan_wrapper(dialect(), w)
                                      : opencl::scan_wrapper(dialect(), w);
    }
    std::vector<std::string> entry_points(const std::string &primitive) const override {
        if (primitive == "reduction") return {kReduceGroupsEntry, kReduceFinalEntry};
        if (primitive == "scan") return {kScanUpEntry, kScanGroupsEntry, kScanDownEntry};
        return {kElementwiseEntry};
    }

    void run_elementwise(Backend &backend, const CompiledKernel &k, int64_t n,
                         std::span<const KernelArg> args) const override {
        if (n <= 0) return;
        OpenCLBackend &b = as_opencl(backend);
        const auto w = static_cast<int64_t>(group_size(b, k.entries[0]));
        std::vector<KernelArg> all = with_user_args(args);
        all.push_back(KernelArg::of(n));
        const int64_t tile = w * k.items_per_thread; // items of one work-group
        // On a GPU, tiled work-items fewer than the device holds at once (estimated as two
        // maximal work-groups per compute unit): one item per work-item instead, so every unit
        // has work to switch between while loads are in flight.
        if (layout_ == Layout::Gpu && k.items_per_thread > 1 && k.entries.size() > 1) {
            const int64_t capacity =
                int64_t(b.device().compute_units) * 2 * int64_t(b.device().max_work_group_size);
            if ((n + k.items_per_thread - 1) / k.items_per_thread < capacity) {
                const auto we = static_cast<int64_t>(group_size(b, k.entries[1]));
                backend.launch(k.entries[1], LaunchDims::linear((n + we - 1) / we * we, we), all);
                return;
            }
        }
        backend.launch(k.entries[0], LaunchDims::linear((n + tile - 1) / tile * w, w), all);
    }

    void run_reduction(Backend &backend, const CompiledKernel &k, int64_t n,
                       std::span<const KernelArg> args, const Buffer &result) const override {
        if (layout_ == Layout::Gpu) return run_gpu_reduction(backend, k, n, args, result);
        OpenCLBackend &b = as_opencl(backend);
        const size_t elem = result.bytes; // one element of the accumulator type
        const size_t w1 = group_size(b, k.entries[0]);
        const int64_t groups = n > 0 ? group_count(n, static_cast<int64_t>(w1)) : 0;
        Scratch gv(backend, static_cast<size_t>(groups) * elem);
        Scratch gf(backend, static_cast<size_t>(groups));
        if (n > 0) {
            std::vector<KernelArg> all = with_user_args(args);
            all.push_back(KernelArg::of(n));
            all.push_back(KernelArg::of(gv.buffer));
            all.push_back(KernelArg::of(gf.buffer));
            all.push_back(KernelArg::local_memory(w1 * elem));
            all.push_back(KernelArg::local_memory(w1));
            backend.launch(
                k.entries[0],
                LaunchDims::linear(groups * static_cast<int64_t>(w1), static_cast<int64_t>(w1)),
                all);
        }
        launch_reduce_final(backend, k, groups, gv, gf, elem, result);
    }

    void run_scan(Backend &backend, const CompiledKernel &k, int64_t n,
                  std::span<const KernelArg> args) const override {
        if (n <= 0) return;
        if (layout_ == Layout::Gpu) return run_gpu_scan(backend, k, n, args);
        OpenCLBackend &b = as_opencl(backend);
        // The accumulator's size is not passed in; room for the widest (8 bytes) fits every
        // dtype, in local memory too (the kernels index by their own type).
        const size_t elem = kWidestScalar;
        const size_t w = std::min(group_size(b, k.entries[0]), group_size(b, k.entries[2]));
        const size_t wg = group_size(b, k.entries[1]);
        const int64_t groups = group_count(n, static_cast<int64_t>(w));
        const auto items = static_cast<size_t>(groups) * w;
        Scratch pv(backend, items * elem), pf(backend, items);
        Scratch gv(backend, (static_cast<size_t>(groups) + 1) * elem),
            gf(backend, static_cast<size_t>(groups) + 1);
        const auto global = static_cast<int64_t>(items), local = static_cast<int64_t>(w);

        std::vector<KernelArg> up = with_user_args(args);
        for (const KernelArg &a :
             {KernelArg::of(n), KernelArg::of(pv.buffer), KernelArg::of(pf.buffer),
              KernelArg::of(gv.buffer), KernelArg::of(gf.buffer)})
            up.push_back(a);
        std::vector<KernelArg> down = up;
        up.push_back(KernelArg::local_memory(w * elem));
        up.push_back(KernelArg::local_memory(w));
        backend.launch(k.entries[0], LaunchDims::linear(global, local), up);

        const KernelArg mid[] = {KernelArg::of(groups), KernelArg::of(gv.buffer),
                                 KernelArg::of(gf.buffer), KernelArg::local_memory(wg * elem),
                                 KernelArg::local_memory(wg)};
        backend.launch(k.entries[1],
                       LaunchDims::linear(static_cast<int64_t>(wg), static_cast<int64_t>(wg)), mid);
        backend.launch(k.entries[2], LaunchDims::linear(global, local), down);
    }

private:
    Layout layout_;

    // smelt_reduce_final (both layouts): one work-group folds the `groups` group results in
    // gv/gf into `result`.
    void launch_reduce_final(Backend &backend, const CompiledKernel &k, int64_t groups,
                             const Scratch &gv, const Scratch &gf, size_t elem,
                             const Buffer &result) const {
        const size_t w2 = group_size(as_opencl(backend), k.entries[1]);
        const KernelArg final_args[] = {
            KernelArg::of(groups),       KernelArg::of(gv.buffer),
            KernelArg::of(gf.buffer),    KernelArg::local_memory(w2 * elem),
            KernelArg::local_memory(w2), KernelArg::of(result)};
        backend.launch(k.entries[1],
                       LaunchDims::linear(static_cast<int64_t>(w2), static_cast<int64_t>(w2)),
                       final_args);
    }

    // GPU layout: G groups of kGpuGroupSize over the tiles (gpu_wrappers.h), then one group
    // over the G group results.
    void run_gpu_reduction(Backend &backend, const CompiledKernel &k, int64_t n,
                           std::span<const KernelArg> args, const Buffer &result) const {
        OpenCLBackend &b = as_opencl(backend);
        const size_t elem = result.bytes;
        const int64_t groups = n > 0 ? gpu_group_count(b, n) : 0;
        Scratch gv(backend, static_cast<size_t>(groups) * elem);
        Scratch gf(backend, static_cast<size_t>(groups));
        if (n > 0) {
            std::vector<KernelArg> all = with_user_args(args);
            all.push_back(KernelArg::of(n));
            all.push_back(KernelArg::of(gv.buffer));
            all.push_back(KernelArg::of(gf.buffer));
            backend.launch(k.entries[0], gpu_dims(groups), all);
        }
        launch_reduce_final(backend, k, groups, gv, gf, elem, result);
    }

    void run_gpu_scan(Backend &backend, const CompiledKernel &k, int64_t n,
                      std::span<const KernelArg> args) const {
        OpenCLBackend &b = as_opencl(backend);
        const size_t elem = kWidestScalar;
        const int64_t groups = gpu_group_count(b, n);
        const size_t wg = group_size(b, k.entries[1]);
        Scratch gv(backend, (static_cast<size_t>(groups) + 1) * elem),
            gf(backend, static_cast<size_t>(groups) + 1);
        std::vector<KernelArg> all = with_user_args(args);
        all.push_back(KernelArg::of(n));
        all.push_back(KernelArg::of(gv.buffer));
        all.push_back(KernelArg::of(gf.buffer));
        backend.launch(k.entries[0], gpu_dims(groups), all);
        const KernelArg mid[] = {KernelArg::of(groups), KernelArg::of(gv.buffer),
                                 KernelArg::of(gf.buffer), KernelArg::local_memory(wg * elem),
                                 KernelArg::local_memory(wg)};
        backend.launch(k.entries[1],
                       LaunchDims::linear(static_cast<int64_t>(wg), static_cast<int64_t>(wg)), mid);
        backend.launch(k.entries[2], gpu_dims(groups), all);
    }

    void sort_by_key(Array &keys, Array *values, const SortOptions &options) const override {
        device_sort_by_key(keys, values, layout_, options.key_bits);
    }
    Array argsort(const Array &keys, DType index_dtype, int) const override {
        return device_argsort(keys, index_dtype, layout_);
    }
};

} // namespace

const PrimitiveTarget &opencl_target(Layout layout) {
    static const OpenCLTarget cpu(Layout::Cpu), gpu(Layout::Gpu);
    return layout == Layout::Gpu ? gpu : cpu;
}

} // namespace smelt::primitives::opencl
