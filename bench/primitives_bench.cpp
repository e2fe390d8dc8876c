// Primitives against hand-written OpenMP loops compiled with the kernels' flags, launch overhead,
// and compile / cache-load times.
//
//   smelt_bench_primitives --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
//       --benchmark_out=bench.json
//   SMELT_BENCH_LARGE=1 adds n = 1e8 (about 2.4 GB of arrays).
//
// Throughput benchmarks alternate one Smelt call and one reference call per iteration (so a busy
// shared machine slows both alike); the reported time is Smelt's, counter `ratio` is Smelt's
// total time over the reference's, `ref_ms` the reference's time per call.
#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "primitives/elementwise_unit.h"
#include "primitives/program_data.h"
#include "primitives/target.h"
#include "smelt.h"

#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

namespace {

using namespace smelt;
using Clock = std::chrono::steady_clock;

const Program &program() {
    static const Program p = Program::from_file(SMELT_BENCH_DIR "/bench_kernels.py");
    return p;
}

cpu::CpuBackend &cpu_backend() {
    return dynamic_cast<cpu::CpuBackend &>(get_backend("cpu"));
}

void set_threads(int t) {
    omp_set_num_threads(t);
    cpu_backend().set_num_threads(t);
}

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

template <class S, class R> void compare(benchmark::State &state, S &&smelt_call, R &&ref_call) {
    smelt_call(); // compile (or load) and touch the pages first
    ref_call();
    double ts = 0, tr = 0;
    for (auto _ : state) {
        auto t0 = Clock::now();
        smelt_call();
        auto t1 = Clock::now();
        ref_call();
        auto t2 = Clock::now();
        state.SetIterationTime(seconds(t1 - t0));
        ts += seconds(t1 - t0);
        tr += seconds(t2 - t1);
    }
    state.counters["ref_ms"] = tr / static_cast<double>(state.iterations()) * 1e3;
    state.counters["ratio"] = ts / tr;
}

// --- reference loops --------------------------------------------------------------------------

__attribute__((noinline)) void ref_axpb(const double *x, double *y, double a, double b, int64_t n) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i)
        y[i] = a * std::sin(x[i]) + b;
}

__attribute__((noinline)) double ref_sum(const double *x, int64_t n) {
    double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (int64_t i = 0; i < n; ++i)
        s += x[i];
    return s;
}

__attribute__((noinline)) double ref_max(const double *x, int64_t n) {
    double m = -std::numeric_limits<double>::infinity();
#pragma omp parallel for schedule(static) reduction(max : m)
    for (int64_t i = 0; i < n; ++i)
        m = x[i] > m ? x[i] : m;
    return m;
}

// The classic hand-written two-pass scan: chunk sums, a barrier, then each thread rescans its
// chunk from the sum of the chunks before it. (`omp scan` in GCC 12 is several times slower.)
__attribute__((noinline)) void ref_cumsum(const double *x, double *y, int64_t n) {
    double part[256] = {};
#pragma omp parallel
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
        double s = 0;
        for (int64_t i = lo; i < hi; ++i)
            s += x[i];
        part[t] = s;
#pragma omp barrier
        double carry = 0;
        for (int k = 0; k < t; ++k)
            carry += part[k];
        for (int64_t i = lo; i < hi; ++i) {
            carry += x[i];
            y[i] = carry;
        }
    }
}

// --- throughput -------------------------------------------------------------------------------

struct Data {
    explicit Data(int64_t n) : x(linspace(0.0, 1.0, size_t(n))), y(zeros(size_t(n))) {}
    Array x, y;
    const double *xp() const { return x.data<double>(); }
    double *yp() { return y.data<double>(); }
};

void BM_Elementwise(benchmark::State &state) {
    const int64_t n = state.range(0);
    set_threads(int(state.range(1)));
    Data d(n);
    Elementwise ew(program(), "axpb", Options{"cpu"});
    compare(
        state,
        [&] {
            ew({d.x, d.y, 2.0, 1.0});
        },
        [&] { ref_axpb(d.xp(), d.yp(), 2.0, 1.0, n); });
}

void BM_Sum(benchmark::State &state) {
    const int64_t n = state.range(0);
    set_threads(int(state.range(1)));
    Data d(n);
    Reduction sum(nullptr, "a+b", "", DType::Float64, "0", Options{"cpu"});
    double a = 0, b = 0;
    compare(
        state, [&] { a = sum({d.x}).as<double>(); }, [&] { b = ref_sum(d.xp(), n); });
    benchmark::DoNotOptimize(a + b);
}

void BM_Max(benchmark::State &state) {
    const int64_t n = state.range(0);
    set_threads(int(state.range(1)));
    Data d(n);
    Reduction mx(nullptr, "max(a, b)", "", DType::Float64, "-inf", Options{"cpu"});
    double a = 0, b = 0;
    compare(
        state, [&] { a = mx({d.x}).as<double>(); }, [&] { b = ref_max(d.xp(), n); });
    benchmark::DoNotOptimize(a + b);
}

void BM_Cumsum(benchmark::State &state) {
    const int64_t n = state.range(0);
    set_threads(int(state.range(1)));
    Data d(n);
    Scan scan(program(), "ident", "store_item", "a+b", DType::Float64, "0", "", Options{"cpu"});
    compare(
        state,
        [&] {
            scan({{"x", d.x}, {"y", d.y}});
        },
        [&] { ref_cumsum(d.xp(), d.yp(), n); });
}

// --- overheads --------------------------------------------------------------------------------

void BM_LaunchOverhead(benchmark::State &state) {
    set_threads(int(state.range(0)));
    Data d(1);
    Elementwise ew(program(), "axpb", Options{"cpu"});
    ew({d.x, d.y, 2.0, 1.0});
    for (auto _ : state)
        ew({d.x, d.y, 2.0, 1.0});
}

void BM_ReductionLaunchOverhead(benchmark::State &state) {
    set_threads(int(state.range(0)));
    Data d(1);
    Reduction sum(nullptr, "a+b", "", DType::Float64, "0", Options{"cpu"});
    double s = 0;
    for (auto _ : state)
        s += sum({d.x}).as<double>();
    benchmark::DoNotOptimize(s);
}

std::filesystem::path fresh_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "smelt-bench-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    return tmpl;
}

ModuleSource axpb_unit() {
    const auto &target = primitives::primitive_target("cpu");
    auto unit =
        primitives::elementwise_unit(*program().data().module, "axpb",
                                     {Type::pointer(Scalar::F64), Type::pointer(Scalar::F64),
                                      Type::scalar(Scalar::F64), Type::scalar(Scalar::F64)},
                                     Precision::Double, target, "cpu");
    return {unit.source, target.entry_points("elementwise"), "elementwise", unit.signature, {}};
}

// Frontend, code generation and the C++ build of one elementwise module into an empty cache.
void BM_ColdCompile(benchmark::State &state) {
    for (auto _ : state) {
        auto dir = fresh_dir();
        {
            cpu::CpuBackend b({}, DiskCache(dir));
            ModuleSource src = axpb_unit();
            benchmark::DoNotOptimize(b.compile(src));
        }
        state.PauseTiming();
        std::filesystem::remove_all(dir);
        state.ResumeTiming();
    }
}

// A new loader (as in a new process) finding the module in the disk cache: generation of the
// unit (to compute its key), key, lookup, verification and dlopen.
void BM_WarmLoad(benchmark::State &state) {
    static const std::filesystem::path dir = [] {
        auto d = fresh_dir();
        cpu::CpuBackend b({}, DiskCache(d));
        b.compile(axpb_unit());
        return d;
    }();
    for (auto _ : state) {
        cpu::CpuBackend b({}, DiskCache(dir));
        ModuleSource src = axpb_unit();
        benchmark::DoNotOptimize(b.compile(src)->function("smelt_entry"));
    }
}

void BM_FrontendAndCodegen(benchmark::State &state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(axpb_unit());
}

} // namespace

int main(int argc, char **argv) {
    std::vector<int64_t> sizes = {100000, 1000000, 10000000};
    if (const char *big = std::getenv("SMELT_BENCH_LARGE"); big && *big == '1')
        sizes.push_back(100000000);
    using Fn = void (*)(benchmark::State &);
    const std::pair<const char *, Fn> throughput[] = {{"Elementwise_axpb", BM_Elementwise},
                                                      {"Reduction_sum", BM_Sum},
                                                      {"Reduction_max", BM_Max},
                                                      {"Scan_cumsum", BM_Cumsum}};
    for (auto [name, fn] : throughput) {
        auto *b = benchmark::RegisterBenchmark(name, fn);
        for (int64_t n : sizes)
            for (int t : {1, 2})
                b->Args({n, t});
        b->ArgNames({"n", "threads"})->UseManualTime()->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark("LaunchOverhead_elementwise_n1", BM_LaunchOverhead)
        ->Arg(1)
        ->Arg(2)
        ->ArgName("threads");
    benchmark::RegisterBenchmark("LaunchOverhead_reduction_n1", BM_ReductionLaunchOverhead)
        ->Arg(1)
        ->Arg(2)
        ->ArgName("threads");
    benchmark::RegisterBenchmark("FrontendAndCodegen_axpb", BM_FrontendAndCodegen)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("ColdCompile_axpb", BM_ColdCompile)
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("WarmLoad_axpb", BM_WarmLoad)->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
