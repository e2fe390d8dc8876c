// Device LSD radix sort on OpenCL in the GPU layout (layout.h), the host side: 8-bit digits,
// work-groups of 256 over tiles of 256 * ITEMS keys; group g of G owns a contiguous run of
// tiles, G = min(tiles, compute units * kSortGroupsPerUnit). Each pass launches count, spine
// and scatter (primitives/algorithms/radix_tiled.kernel). Keys of w bytes take w passes; when w
// is odd the result is copied back into the buffers the first pass read. Argsort's first pass
// writes the input positions as values.
#include "primitives/opencl/device_sort_gpu.h"

#include "primitives/opencl/device_sort_source.h"
#include "primitives/opencl/launch.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace smelt::primitives::opencl {

namespace {

using smelt::opencl::OpenCLBackend;

constexpr int64_t kSortGroupSize = 256;
// Work-groups per compute unit: enough resident groups to hide the memory latency (a group's
// local memory, about 26 KiB, allows eight per H100 multiprocessor).
constexpr int64_t kSortGroupsPerUnit = 8;

struct GpuSortProgram {
    std::shared_ptr<Module> module;
    void *count, *spine, *scatter;
};

// Keys per work-item and tile. Eight keep a work-item's registers few enough for several
// groups per GPU multiprocessor, and a group's local memory near 26 KiB.
int64_t items_per_work_item(DType, size_t) {
    return 8;
}

GpuSortProgram gpu_sort_program(OpenCLBackend &b, DType key, size_t value_size, bool iota,
                                bool wide_counts) {
    const size_t buffer_bytes = std::max(dtype_size(key), value_size);
    std::string defs = sort_defines(key, value_size, iota, wide_counts);
    defs += "#define ITEMS " + std::to_string(items_per_work_item(key, value_size)) + "u\n";
    defs += "#define BT " + std::string(unsigned_type(buffer_bytes)) + "\n";
    // The kernels assume work-groups of exactly 256 (one work-item per 8-bit digit value);
    // fixing the size at compile time lets the compiler size registers for it.
    defs += "#define SMELT_GROUP_OF_W __attribute__((reqd_work_group_size(" +
            std::to_string(kSortGroupSize) + ", 1, 1)))\n";
    // OpenCL C's atomic increment of a local counter (the digit counts are order-free).
    defs += "#define SMELT_LOCAL_INC(p) atomic_inc(p)\n";
    ModuleSource src;
    src.source = sort_program_source(
        "Device radix sort, GPU layout (primitives/opencl/device_sort_gpu.cpp).", defs,
        "radix_tiled.kernel");
    src.symbols = {"smelt_gsort_count", "smelt_gsort_spine", "smelt_gsort_scatter"};
    src.primitive = "radix_sort_gpu";
    src.signature = sort_signature(key, value_size, iota, wide_counts);
    GpuSortProgram p;
    p.module = b.compile(src);
    p.count = p.module->function(src.symbols[0]);
    p.spine = p.module->function(src.symbols[1]);
    p.scatter = p.module->function(src.symbols[2]);
    return p;
}

} // namespace

void gpu_lsd_sort(OpenCLBackend &b, DType key, int64_t n, const Buffer &ka, const Buffer &kb,
                  size_t value_size, const Buffer *va, const Buffer *vb, bool iota, int key_bytes) {
    const bool wide = n > static_cast<int64_t>(std::numeric_limits<uint32_t>::max());
    const size_t count_bytes = wide ? 8 : 4;
    const GpuSortProgram plain = gpu_sort_program(b, key, value_size, false, wide);
    const GpuSortProgram first = iota ? gpu_sort_program(b, key, value_size, true, wide) : plain;
    const int64_t tile = kSortGroupSize * items_per_work_item(key, value_size);
    const int64_t most =
        std::max<int64_t>(1, static_cast<int64_t>(b.device().compute_units) * kSortGroupsPerUnit);
    const int64_t groups = std::clamp<int64_t>((n + tile - 1) / tile, 1, most);
    const LaunchDims dims = LaunchDims::linear(groups * kSortGroupSize, kSortGroupSize);
    ScratchBuffer counts(b, static_cast<size_t>(groups * kSortGroupSize) * count_bytes);
    ScratchBuffer totals(b, static_cast<size_t>(kSortGroupSize) * count_bytes);
    const LaunchDims spine_dims = LaunchDims::linear(256 * kSortGroupSize, kSortGroupSize);
    // The scatter's local memory, in its parameter order (radix_tiled.kernel).
    const auto t = static_cast<size_t>(tile);
    const size_t counters = 16 * 256 + 16 * 256 / 32; // CPAD(16 * W)
    const KernelArg locals[] = {KernelArg::local_memory(t * std::max(dtype_size(key), value_size)),
                                KernelArg::local_memory(256 * count_bytes),
                                KernelArg::local_memory(counters * 2),
                                KernelArg::local_memory(256 * 4),
                                KernelArg::local_memory(t),
                                KernelArg::local_memory(t * 2),
                                KernelArg::local_memory(2 * 256 * 2)};
    const int passes = key_bytes;
    for (int pass = 0; pass < passes; ++pass) {
        const GpuSortProgram &p = pass == 0 ? first : plain;
        const Buffer &kin = pass % 2 ? kb : ka, &kout = pass % 2 ? ka : kb;
        const auto shift = static_cast<uint32_t>(8 * pass);
        const KernelArg count[] = {KernelArg::of(kin), KernelArg::of(n), KernelArg::of(shift),
                                   KernelArg::of(counts.buffer), KernelArg::local_memory(256 * 4)};
        b.launch(p.count, dims, count);
        const KernelArg spine[] = {KernelArg::of(counts.buffer), KernelArg::of(totals.buffer),
                                   KernelArg::of(groups),
                                   KernelArg::local_memory(256 * count_bytes)};
        b.launch(p.spine, spine_dims, spine);
        std::vector<KernelArg> scatter = {
            KernelArg::of(kin),   KernelArg::of(kout),          KernelArg::of(n),
            KernelArg::of(shift), KernelArg::of(counts.buffer), KernelArg::of(totals.buffer)};
        scatter.insert(scatter.end(), std::begin(locals), std::end(locals));
        if (value_size) {
            scatter.push_back(KernelArg::of(pass % 2 ? *vb : *va));
            scatter.push_back(KernelArg::of(pass % 2 ? *va : *vb));
        }
        b.launch(p.scatter, dims, scatter);
    }
    if (passes % 2) { // the last pass wrote kb/vb
        b.copy(ka, 0, kb, 0, static_cast<size_t>(n) * dtype_size(key));
        if (value_size) b.copy(*va, 0, *vb, 0, static_cast<size_t>(n) * value_size);
    }
}

} // namespace smelt::primitives::opencl
