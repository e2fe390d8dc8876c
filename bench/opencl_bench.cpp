// The primitives on OpenCL against a device-to-device copy (clEnqueueCopyBuffer) of the same
// bytes, measured in the same run: elementwise y = a*sin(x)+b, sum reduction and inclusive scan
// at n = 2^20, 2^24, 2^27 in float32 and float64, and the radix sort of 2^27 int32 keys with
// int32 values. Each primitive case reports
//   GBps        bytes it must move (elementwise and scan: read x + write y; reduction: read x)
//               per second
//   copy_GBps   a copy of as many bytes as the case reads (read + write both counted)
//   ratio       GBps / copy_GBps (1 = as fast as the copy engine moves memory)
//
//   build/bench/smelt_opencl_bench --benchmark_out=ocl.json --benchmark_out_format=json
//   SMELT_BENCH_MAX_LOG2N=20 build/bench/smelt_opencl_bench     (cap n, e.g. for PoCL)
//   SMELT_OPENCL_DEVICE=1 ...                                     (choose the device)
// On a CPU device (PoCL), or with SMELT_BENCH_CPU_REFERENCE=1, each case also runs on Smelt's own
// CPU backend in the same process and reports cpu_GBps and ratio_to_cpu (OpenCL / CPU speed; for
// the sort, cpu_Mkeys_per_s and ratio_to_cpu).
// Without an OpenCL device it says so and exits 0.
#include "array/array_ops.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/registry.h"
#include "primitives/radix_sort.h"
#include "smelt.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using smelt::Array;
using smelt::DType;

smelt::Backend *g_backend = nullptr;
smelt::Backend *g_cpu = nullptr; // the CPU backend, when it is measured as the reference

const char *kKernels = R"(from math import sin

def axpb(i, x, y, a, b):
    y[i] = a * sin(x[i]) + b

def ident(i, x):
    return x[i]

def store_item(i, item, y):
    y[i] = item
)";

const smelt::Program &program() {
    static const smelt::Program p = smelt::Program::from_source("opencl_bench.py", kKernels);
    return p;
}

smelt::Options options() {
    return smelt::Options{"opencl"};
}

template <class T> Array random_array(size_t n, unsigned seed, smelt::Backend *on = g_backend) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<T> v(n);
    for (auto &x : v)
        x = static_cast<T>(dist(rng));
    return Array::from_vector(v, on);
}

// Seconds per call of `op` on the CPU backend: a warm-up call, then the mean of `reps` calls.
template <class Op> double cpu_seconds(Op &&op, int64_t reps) {
    op();
    auto t0 = Clock::now();
    for (int64_t k = 0; k < reps; ++k)
        op();
    g_cpu->synchronize();
    return std::chrono::duration<double>(Clock::now() - t0).count() / double(reps);
}

// Bandwidth of clEnqueueCopyBuffer moving `bytes` (read + write counted), best of a few runs.
double copy_gbps(size_t bytes) {
    smelt::Buffer src = g_backend->allocate(bytes), dst = g_backend->allocate(bytes);
    g_backend->copy(dst, 0, src, 0, bytes); // first touch
    g_backend->synchronize();
    double best = 1e30;
    for (int k = 0; k < 5; ++k) {
        auto t0 = Clock::now();
        g_backend->copy(dst, 0, src, 0, bytes);
        g_backend->synchronize();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    g_backend->release(src);
    g_backend->release(dst);
    return 2.0 * double(bytes) / best / 1e9;
}

// True (and the case skipped) for double on a device without fp64.
template <class T> bool lacks_type(benchmark::State &state) {
    auto *b = dynamic_cast<smelt::opencl::OpenCLBackend *>(g_backend);
    if (!std::is_same_v<T, double> || !b || b->has_fp64()) return false;
    state.SkipWithError("the device has no fp64");
    return true;
}

// Runs `op` per iteration with a synchronize, and sets the bandwidth counters; with a
// `cpu_op` (the same primitive on the CPU backend), also the ratio to it.
template <class Op>
void timed(benchmark::State &state, double bytes_moved, size_t copy_bytes, Op &&op,
           const std::function<void()> &cpu_op = {}) {
    op(); // compile and warm up
    g_backend->synchronize();
    double total = 0;
    for (auto _ : state) {
        auto t0 = Clock::now();
        op();
        g_backend->synchronize();
        double s = std::chrono::duration<double>(Clock::now() - t0).count();
        state.SetIterationTime(s);
        total += s;
    }
    const double gbps = bytes_moved * double(state.iterations()) / total / 1e9;
    const double copy = copy_gbps(copy_bytes);
    state.counters["GBps"] = gbps;
    state.counters["copy_GBps"] = copy;
    state.counters["ratio"] = gbps / copy;
    if (cpu_op) {
        const double cpu_gbps =
            bytes_moved / cpu_seconds(cpu_op, std::max<int64_t>(3, state.iterations() / 4)) / 1e9;
        state.counters["cpu_GBps"] = cpu_gbps;
        state.counters["ratio_to_cpu"] = gbps / cpu_gbps;
    }
    state.SetBytesProcessed(int64_t(bytes_moved) * state.iterations());
}

smelt::Options cpu_options() {
    return smelt::Options{"cpu"};
}

template <class T> void bm_elementwise(benchmark::State &state) {
    if (lacks_type<T>(state)) return;
    const size_t n = size_t(1) << state.range(0);
    Array x = random_array<T>(n, 1), y = smelt::zeros(n, smelt::dtype_of<T>(), g_backend);
    smelt::Elementwise ew(program(), "axpb", options());
    const double bytes = 2.0 * double(n * sizeof(T));
    Array cx, cy;
    std::optional<smelt::Elementwise> cew;
    std::function<void()> cpu_op;
    if (g_cpu) {
        cx = random_array<T>(n, 1, g_cpu);
        cy = smelt::zeros(n, smelt::dtype_of<T>(), g_cpu);
        cew.emplace(program(), "axpb", cpu_options());
        cpu_op = [&] { (*cew)({cx, cy, T(1.5), T(0.25)}); };
    }
    timed(
        state, bytes, n * sizeof(T),
        [&] {
            ew({x, y, T(1.5), T(0.25)});
        },
        cpu_op);
}

template <class T> void bm_reduction(benchmark::State &state) {
    if (lacks_type<T>(state)) return;
    const size_t n = size_t(1) << state.range(0);
    Array x = random_array<T>(n, 2);
    smelt::Reduction sum(nullptr, "a+b", "", smelt::dtype_of<T>(), "0", options());
    T result = 0;
    Array cx;
    std::optional<smelt::Reduction> csum;
    std::function<void()> cpu_op;
    if (g_cpu) {
        cx = random_array<T>(n, 2, g_cpu);
        csum.emplace(nullptr, "a+b", "", smelt::dtype_of<T>(), "0", cpu_options());
        cpu_op = [&] { result = (*csum)({cx}).template as<T>(); };
    }
    // A copy of n elements reads n and writes n: compare with the copy of half the bytes so
    // both read n * sizeof(T).
    timed(
        state, double(n * sizeof(T)), n * sizeof(T) / 2,
        [&] { result = sum({x}).template as<T>(); }, cpu_op);
    benchmark::DoNotOptimize(result);
}

template <class T> void bm_scan(benchmark::State &state) {
    if (lacks_type<T>(state)) return;
    const size_t n = size_t(1) << state.range(0);
    Array x = random_array<T>(n, 3), y = smelt::zeros(n, smelt::dtype_of<T>(), g_backend);
    smelt::Scan scan(program(), "ident", "store_item", "a+b", smelt::dtype_of<T>(), "0", "",
                     options());
    Array cx, cy;
    std::optional<smelt::Scan> cscan;
    std::function<void()> cpu_op;
    if (g_cpu) {
        cx = random_array<T>(n, 3, g_cpu);
        cy = smelt::zeros(n, smelt::dtype_of<T>(), g_cpu);
        cscan.emplace(program(), "ident", "store_item", "a+b", smelt::dtype_of<T>(), "0", "",
                      cpu_options());
        cpu_op = [&] { (*cscan)({{"x", cx}, {"y", cy}}); };
    }
    timed(
        state, 2.0 * double(n * sizeof(T)), n * sizeof(T),
        [&] {
            scan({{"x", x}, {"y", y}});
        },
        cpu_op);
}

void bm_radix_sort_kv(benchmark::State &state) {
    const size_t n = size_t(1) << state.range(0);
    std::mt19937 rng(12345);
    std::vector<int32_t> k(n);
    for (auto &v : k)
        v = static_cast<int32_t>(rng());
    Array keys0 = Array::from_vector(k, g_backend);
    Array keys(DType::Int32, n, g_backend), values(DType::Int32, n, g_backend);
    Array values0 = smelt::arange(int64_t(n), DType::Int32, g_backend);
    // One untimed sort first: it builds the sort's programs, which would otherwise land in the
    // first timed iteration (and, at a few iterations, in the result).
    g_backend->copy(keys.buffer(), 0, keys0.buffer(), 0, n * 4);
    g_backend->copy(values.buffer(), 0, values0.buffer(), 0, n * 4);
    smelt::sort_by_key(keys, &values);
    g_backend->synchronize();
    double total = 0;
    for (auto _ : state) {
        g_backend->copy(keys.buffer(), 0, keys0.buffer(), 0, n * 4);
        g_backend->copy(values.buffer(), 0, values0.buffer(), 0, n * 4);
        g_backend->synchronize();
        auto t0 = Clock::now();
        smelt::sort_by_key(keys, &values);
        g_backend->synchronize();
        double s = std::chrono::duration<double>(Clock::now() - t0).count();
        state.SetIterationTime(s);
        total += s;
    }
    state.counters["Mkeys_per_s"] = double(n) * double(state.iterations()) / total / 1e6;
    if (g_cpu) {
        // The same sort on the CPU backend; the copies that restore its input are not timed.
        Array ck0 = Array::from_vector(k, g_cpu), ck(DType::Int32, n, g_cpu);
        Array cv0 = smelt::arange(int64_t(n), DType::Int32, g_cpu), cv(DType::Int32, n, g_cpu);
        double cpu_total = 0;
        const int reps = 3;
        for (int r = 0; r <= reps; ++r) {
            g_cpu->copy(ck.buffer(), 0, ck0.buffer(), 0, n * 4);
            g_cpu->copy(cv.buffer(), 0, cv0.buffer(), 0, n * 4);
            g_cpu->synchronize();
            auto t0 = Clock::now();
            smelt::sort_by_key(ck, &cv);
            g_cpu->synchronize();
            if (r > 0) cpu_total += std::chrono::duration<double>(Clock::now() - t0).count();
        }
        const double cpu_mkeys = double(n) * reps / cpu_total / 1e6;
        state.counters["cpu_Mkeys_per_s"] = cpu_mkeys;
        state.counters["ratio_to_cpu"] = state.counters["Mkeys_per_s"] / cpu_mkeys;
    }
    state.SetItemsProcessed(int64_t(n) * state.iterations());
}

int max_log2n() {
    const char *env = std::getenv("SMELT_BENCH_MAX_LOG2N");
    return env && *env ? std::atoi(env) : 27;
}

template <class F> void add(const std::string &name, F f, std::initializer_list<int> log2ns) {
    for (int e : log2ns) {
        if (e > max_log2n()) continue;
        benchmark::RegisterBenchmark(name.c_str(), f)
            ->Arg(e)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
}

} // namespace

int main(int argc, char **argv) {
    benchmark::Initialize(&argc, argv);
    try {
        g_backend = &smelt::get_backend("opencl");
    } catch (const std::exception &e) {
        std::printf("no OpenCL device, nothing to measure: %s\n", e.what());
        return 0;
    }
    for (const auto &d : g_backend->devices())
        std::fprintf(stderr, "OpenCL device: %s (%s)\n", d.name.c_str(), d.detail.c_str());
    auto *ocl = dynamic_cast<smelt::opencl::OpenCLBackend *>(g_backend);
    const char *want_cpu = std::getenv("SMELT_BENCH_CPU_REFERENCE");
    if ((ocl && !ocl->device().summary.is_gpu) || (want_cpu && *want_cpu == '1')) {
        g_cpu = &smelt::get_backend("cpu");
        std::fprintf(stderr, "reference: Smelt's CPU backend in the same run\n");
    }
    const int cap = max_log2n();
    add("elementwise/f32", bm_elementwise<float>, {20, 24, 27});
    add("elementwise/f64", bm_elementwise<double>, {20, 24, 27});
    add("reduction_sum/f32", bm_reduction<float>, {20, 24, 27});
    add("reduction_sum/f64", bm_reduction<double>, {20, 24, 27});
    add("scan/f32", bm_scan<float>, {20, 24, 27});
    add("scan/f64", bm_scan<double>, {20, 24, 27});
    add("radix_sort_kv/i32", bm_radix_sort_kv, {cap < 27 ? cap : 27});
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
