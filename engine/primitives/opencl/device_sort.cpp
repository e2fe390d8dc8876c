// Device LSD radix sort on OpenCL: the entry points, and the host side of the CPU layout
// (layout.h); the GPU layout is device_sort_gpu.cpp. The CPU layout's passes (4-bit digits, one
// contiguous chunk per work-item: count, scan of the counts, stable scatter) are
// primitives/algorithms/radix_chunked.kernel. Keys of w bytes take 2w passes (an even number),
// so the result lands back in the buffers the first pass read. Argsort's first pass writes the
// input positions as values.
#include "primitives/opencl/device_sort.h"

#include "primitives/opencl/device_sort_gpu.h"
#include "primitives/opencl/device_sort_source.h"
#include "primitives/opencl/launch.h"
#include "primitives/opencl/layout.h"
#include "support/error.h"

#include <limits>
#include <string>

namespace smelt::primitives::opencl {

namespace {

using smelt::opencl::OpenCLBackend;

struct SortProgram {
    std::shared_ptr<Module> module;
    void *count, *scatter, *up, *groups, *down;
};

SortProgram sort_program(OpenCLBackend &b, DType key, size_t value_size, bool iota,
                         bool wide_counts) {
    const std::string defs = "#define SMELT_MAX_GROUP " + std::to_string(kMaxGroupSize) + "u\n" +
                             sort_defines(key, value_size, iota, wide_counts);
    ModuleSource src;
    src.source = sort_program_source("Device radix sort (primitives/opencl/device_sort.cpp).", defs,
                                     "radix_chunked.kernel");
    src.symbols = {"smelt_radix_count", "smelt_radix_scatter", "smelt_counts_up",
                   "smelt_counts_groups", "smelt_counts_down"};
    src.primitive = "radix_sort";
    src.signature = sort_signature(key, value_size, iota, wide_counts);
    SortProgram p;
    p.module = b.compile(src);
    p.count = p.module->function(src.symbols[0]);
    p.scatter = p.module->function(src.symbols[1]);
    p.up = p.module->function(src.symbols[2]);
    p.groups = p.module->function(src.symbols[3]);
    p.down = p.module->function(src.symbols[4]);
    return p;
}

// In-place exclusive sum of m counters of `count_bytes` each.
void scan_counts(OpenCLBackend &b, const SortProgram &p, const Buffer &x, int64_t m,
                 size_t count_bytes) {
    const auto w = static_cast<int64_t>(std::min(group_size(b, p.up), group_size(b, p.down)));
    const int64_t groups = group_count(m, w * 16);
    const auto wg = static_cast<int64_t>(group_size(b, p.groups));
    ScratchBuffer pre(b, static_cast<size_t>(groups * w) * count_bytes);
    ScratchBuffer gs(b, static_cast<size_t>(groups) * count_bytes);
    const KernelArg up[] = {KernelArg::of(x), KernelArg::of(m), KernelArg::of(pre.buffer),
                            KernelArg::of(gs.buffer),
                            KernelArg::local_memory(static_cast<size_t>(w) * count_bytes)};
    b.launch(p.up, LaunchDims::linear(groups * w, w), up);
    const KernelArg mid[] = {KernelArg::of(gs.buffer), KernelArg::of(groups),
                             KernelArg::local_memory(static_cast<size_t>(wg) * count_bytes)};
    b.launch(p.groups, LaunchDims::linear(wg, wg), mid);
    const KernelArg down[] = {KernelArg::of(x), KernelArg::of(m), KernelArg::of(pre.buffer),
                              KernelArg::of(gs.buffer)};
    b.launch(p.down, LaunchDims::linear(groups * w, w), down);
}

// Sorts keys `ka` (n keys of dtype `key`) with values `va` (value_size bytes each; 0: none),
// using kb/vb as the other half of each ping-pong pair. `iota`: the first pass writes the input
// positions as values instead of reading va.
void lsd_sort(OpenCLBackend &b, Layout layout, DType key, int64_t n, const Buffer &ka,
              const Buffer &kb, size_t value_size, const Buffer *va, const Buffer *vb, bool iota,
              int key_bits = 0) {
    if (n <= 1 && !iota) return;
    // Whole bytes of the key to pass over: all, or those holding bits [0, key_bits) of integer
    // keys known to lie in [0, 2^key_bits).
    const bool integer = key != DType::Float32 && key != DType::Float64;
    const int key_bytes = integer && key_bits > 0 ? (key_bits + 7) / 8 : int(dtype_size(key));
    if (layout == Layout::Gpu)
        return gpu_lsd_sort(b, key, n, ka, kb, value_size, va, vb, iota, key_bytes);
    const bool wide = n > static_cast<int64_t>(std::numeric_limits<uint32_t>::max());
    const size_t count_bytes = wide ? 8 : 4;
    const SortProgram plain = sort_program(b, key, value_size, false, wide);
    const SortProgram first = iota ? sort_program(b, key, value_size, true, wide) : plain;
    const auto w =
        static_cast<int64_t>(std::min(group_size(b, plain.count), group_size(b, plain.scatter)));
    const int64_t groups = group_count(n, w * 16);
    const int64_t items = groups * w, m = 16 * items;
    ScratchBuffer hist(b, static_cast<size_t>(m) * count_bytes);
    const int passes = 2 * key_bytes;
    for (int pass = 0; pass < passes; ++pass) {
        const SortProgram &p = pass == 0 ? first : plain;
        const Buffer &kin = pass % 2 ? kb : ka, &kout = pass % 2 ? ka : kb;
        const auto shift = static_cast<uint32_t>(4 * pass);
        const KernelArg count[] = {KernelArg::of(kin), KernelArg::of(n), KernelArg::of(shift),
                                   KernelArg::of(hist.buffer)};
        b.launch(p.count, LaunchDims::linear(items, w), count);
        scan_counts(b, p, hist.buffer, m, count_bytes);
        std::vector<KernelArg> scatter = {KernelArg::of(kin), KernelArg::of(kout), KernelArg::of(n),
                                          KernelArg::of(shift), KernelArg::of(hist.buffer)};
        if (value_size) {
            scatter.push_back(KernelArg::of(pass % 2 ? *vb : *va));
            scatter.push_back(KernelArg::of(pass % 2 ? *va : *vb));
        }
        b.launch(p.scatter, LaunchDims::linear(items, w), scatter);
    }
}

} // namespace

void device_sort_by_key(Array &keys, Array *values, Layout layout, int key_bits) {
    OpenCLBackend &b = as_opencl(keys.backend());
    const auto n = static_cast<int64_t>(keys.size());
    if (n <= 1) return;
    ScratchBuffer kb(b, keys.nbytes());
    if (!values)
        return lsd_sort(b, layout, keys.dtype(), n, keys.buffer(), kb.buffer, 0, nullptr, nullptr,
                        false, key_bits);
    ScratchBuffer vb(b, values->nbytes());
    lsd_sort(b, layout, keys.dtype(), n, keys.buffer(), kb.buffer, dtype_size(values->dtype()),
             &values->buffer(), &vb.buffer, false, key_bits);
}

Array device_argsort(const Array &keys, DType index_dtype, Layout layout) {
    OpenCLBackend &b = as_opencl(keys.backend());
    const auto n = static_cast<int64_t>(keys.size());
    Array out(index_dtype, keys.size(), &b);
    if (n == 0) return out;
    ScratchBuffer ka(b, keys.nbytes()), kb(b, keys.nbytes());
    b.copy(ka.buffer, 0, keys.buffer(), 0, keys.nbytes());
    ScratchBuffer vb(b, out.nbytes());
    lsd_sort(b, layout, keys.dtype(), n, ka.buffer, kb.buffer, dtype_size(index_dtype),
             &out.buffer(), &vb.buffer, true);
    return out;
}

} // namespace smelt::primitives::opencl
