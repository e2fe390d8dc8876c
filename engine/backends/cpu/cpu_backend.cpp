#include "backends/cpu/cpu_backend.h"

#include "backends/cpu/compiler.h"
#include "backends/cpu/module.h"
#include "support/error.h"
#include "support/hash.h"
#include "support/openmp_wait_policy.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <thread>

namespace smelt::cpu {

namespace {

constexpr std::align_val_t kAlignment{64}; // a cache line: no false sharing at array starts

int parse_threads(const char *s) {
    if (!s || !*s) return 0;
    char *end = nullptr;
    long v = std::strtol(s, &end, 10); // OMP_NUM_THREADS may be a list "4,2": first entry
    return (end != s && v > 0 && v < 1 << 16) ? static_cast<int>(v) : 0;
}

void check_range(const Buffer &b, size_t offset, size_t bytes, const char *what) {
    SMELT_INTERNAL_ASSERT(offset <= b.bytes && bytes <= b.bytes - offset,
                          what << ": " << bytes << " bytes at offset " << offset
                               << " outside a buffer of " << b.bytes << " bytes");
}

std::string flags_text(const std::vector<std::string> &flags) {
    std::string out;
    for (const auto &f : flags)
        out += (out.empty() ? "" : " ") + f;
    return out;
}

} // namespace

int default_num_threads() {
    if (int n = parse_threads(std::getenv("SMELT_NUM_THREADS"))) return n;
    if (int n = parse_threads(std::getenv("OMP_NUM_THREADS"))) return n;
    unsigned hw = std::thread::hardware_concurrency();
    return hw ? static_cast<int>(hw) : 1;
}

std::string cpu_model_key() {
    static const std::string key = [] {
        std::ifstream in("/proc/cpuinfo");
        std::string line, model = "unknown cpu", flags;
        while (std::getline(in, line)) {
            auto value = [&] {
                auto colon = line.find(':');
                return colon == std::string::npos ? std::string() : line.substr(colon + 2);
            };
            if (line.rfind("model name", 0) == 0 && model == "unknown cpu") model = value();
            if (line.rfind("flags", 0) == 0 && flags.empty()) flags = value();
        }
        return model + " [isa " + hash_hex(flags).substr(0, 12) + "]";
    }();
    return key;
}

CpuBackend::CpuBackend(CpuOptions options, std::optional<DiskCache> cache)
    : options_(options), loader_(*this, cache ? std::move(*cache) : DiskCache()) {
    if (options_.num_threads <= 0) options_.num_threads = default_num_threads();
}

std::vector<DeviceInfo> CpuBackend::devices() const {
    std::string detail = options_.serial ? "serial (no OpenMP), 1 thread"
                                         : "OpenMP, " + std::to_string(num_threads()) + " threads";
    detail += " of " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
    CxxToolchain tc = find_toolchain();
    detail += "; compiler " + tc.resolved + " (" + tc.version + ")";
    return {{cpu_model_key(), detail}};
}

Buffer CpuBackend::allocate(size_t bytes) {
    if (bytes == 0) return {};
    // Rounded up to whole cache lines so vectorised tails never touch another allocation.
    size_t padded = (bytes + 63) / 64 * 64;
    return {::operator new(padded, kAlignment), bytes};
}

void CpuBackend::release(Buffer &buffer) {
    if (buffer.handle) ::operator delete(buffer.handle, kAlignment);
    buffer = {};
}

void CpuBackend::write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) {
    check_range(dst, dst_offset, bytes, "write");
    if (bytes) std::memmove(static_cast<char *>(dst.handle) + dst_offset, src, bytes);
}

void CpuBackend::read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) {
    check_range(src, src_offset, bytes, "read");
    if (bytes) std::memmove(dst, static_cast<const char *>(src.handle) + src_offset, bytes);
}

void CpuBackend::copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
                      size_t bytes) {
    check_range(dst, dst_offset, bytes, "copy (destination)");
    check_range(src, src_offset, bytes, "copy (source)");
    if (bytes)
        std::memmove(static_cast<char *>(dst.handle) + dst_offset,
                     static_cast<const char *>(src.handle) + src_offset, bytes);
}

std::vector<std::string> CpuBackend::flags(const ModuleSource &src) const {
    std::vector<std::string> extra;
    for (const auto &dir : src.include_dirs)
        extra.push_back("-I" + dir);
    extra.insert(extra.end(), src.extra_flags.begin(), src.extra_flags.end());
    return cxx_flags(!options_.serial, extra, src.fast_math);
}

ToolchainKey CpuBackend::toolchain_key(const ModuleSource &src) const {
    CxxToolchain tc = find_toolchain();
    std::string text = flags_text(flags(src));
    if (!src.link_args.empty()) text += " (link) " + flags_text(src.link_args);
    return {tc.resolved, tc.version, text, cpu_model_key()};
}

BuildResult CpuBackend::build(const std::filesystem::path &source_path,
                              const std::filesystem::path &binary_path, const ModuleSource &src) {
    return compile_shared_object(find_toolchain(), flags(src), source_path, binary_path,
                                 src.link_args);
}

std::shared_ptr<Module> CpuBackend::load(const std::filesystem::path &binary_path) {
    default_openmp_wait_policy(); // before the kernel may bring libgomp in
    return std::make_shared<SharedObjectModule>(binary_path);
}

std::shared_ptr<Module> CpuBackend::compile(const ModuleSource &src) {
    return loader_.compile_or_load(src);
}

void CpuBackend::launch(void *function, const LaunchDims &dims, std::span<const KernelArg> args) {
    SMELT_INTERNAL_ASSERT(function != nullptr, "launch of a null function");
    std::vector<void *> pointers;
    pointers.reserve(args.size());
    for (const auto &a : args) {
        switch (a.kind) {
        case KernelArg::Kind::Buffer:
            pointers.push_back(const_cast<void **>(&a.buffer->handle));
            break;
        case KernelArg::Kind::Value:
            pointers.push_back(const_cast<unsigned char *>(a.value));
            break;
        case KernelArg::Kind::LocalMemory:
            throw UsageError("local-memory kernel arguments need a GPU backend (opencl or cuda)");
        }
    }
    auto entry = reinterpret_cast<EntryFunction>(function);
    entry(dims.global[0], num_threads(), pointers.data());
}

void CpuBackend::set_num_threads(int n) {
    if (n < 1) throw UsageError("the thread count must be at least 1, not " + std::to_string(n));
    options_.num_threads = n;
}

} // namespace smelt::cpu
