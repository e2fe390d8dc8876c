// Radix sort (key + value, int32) against std::stable_sort on (key, value) pairs, both measured
// in the same run. Each radix case reports `speedup` = reference time / radix time.
//
//   build/bench/smelt_sort_bench --benchmark_out=sort.json --benchmark_out_format=json
#include "array/dtype.h"
#include "primitives/radix_sort.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

const std::vector<int32_t> &input_keys(size_t n) {
    static std::map<size_t, std::vector<int32_t>> cache;
    auto &keys = cache[n];
    if (keys.empty()) {
        std::mt19937 rng(12345);
        keys.resize(n);
        for (auto &k : keys)
            k = static_cast<int32_t>(rng()); // full range, negatives included
    }
    return keys;
}

std::map<size_t, double> g_reference_seconds;             // n → std::stable_sort time
std::map<std::pair<size_t, int>, double> g_radix_seconds; // (n, threads) → radix time

void bm_std_stable_sort(benchmark::State &state) {
    const size_t n = static_cast<size_t>(state.range(0));
    const auto &keys = input_keys(n);
    std::vector<std::pair<int32_t, int32_t>> base(n), pairs;
    for (size_t i = 0; i < n; ++i)
        base[i] = {keys[i], static_cast<int32_t>(i)};
    double total = 0;
    for (auto _ : state) {
        pairs = base;
        auto t0 = Clock::now();
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        double s = std::chrono::duration<double>(Clock::now() - t0).count();
        state.SetIterationTime(s);
        total += s;
        benchmark::DoNotOptimize(pairs.data());
    }
    g_reference_seconds[n] = total / static_cast<double>(state.iterations());
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}

void bm_radix_sort(benchmark::State &state) {
    const size_t n = static_cast<size_t>(state.range(0));
    const int threads = static_cast<int>(state.range(1));
    const auto &keys = input_keys(n);
    std::vector<int32_t> k, v, base_v(n);
    for (size_t i = 0; i < n; ++i)
        base_v[i] = static_cast<int32_t>(i);
    double total = 0;
    for (auto _ : state) {
        k = keys;
        v = base_v;
        auto t0 = Clock::now();
        smelt::radix_sort_host(smelt::DType::Int32, k.data(), v.data(), sizeof(int32_t), n,
                               threads);
        double s = std::chrono::duration<double>(Clock::now() - t0).count();
        state.SetIterationTime(s);
        total += s;
        benchmark::DoNotOptimize(k.data());
    }
    const double mean = total / static_cast<double>(state.iterations());
    g_radix_seconds[{n, threads}] = mean;
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
    if (auto it = g_reference_seconds.find(n); it != g_reference_seconds.end())
        state.counters["speedup"] = it->second / mean;
    state.counters["threads"] = threads;
}

} // namespace

int main(int argc, char **argv) {
    const int64_t sizes[] = {100000, 1000000, 10000000};
    for (int64_t n : sizes) {
        // The reference runs first for each size, so the radix cases can report the ratio.
        benchmark::RegisterBenchmark("std_stable_sort_pairs/int32", bm_std_stable_sort)
            ->Arg(n)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
        for (int threads : {1, 2})
            benchmark::RegisterBenchmark("radix_sort_by_key/int32", bm_radix_sort)
                ->Args({n, threads})
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();

    std::printf("\n%10s %8s %12s %12s %8s\n", "n", "threads", "radix ms", "std ms", "speedup");
    for (const auto &[key, radix] : g_radix_seconds) {
        auto ref = g_reference_seconds.find(key.first);
        if (ref == g_reference_seconds.end()) continue;
        std::printf("%10zu %8d %12.2f %12.2f %7.2fx\n", key.first, key.second, radix * 1e3,
                    ref->second * 1e3, ref->second / radix);
    }
    return 0;
}
