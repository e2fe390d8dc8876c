// CUDA benchmark: smelt's primitives against the device-to-device copy and CUB, measured in the
// same run on the same stream with CUDA events (median of several repetitions). Writes JSON.
//
//   build/bench/smelt_cuda_bench [--out cuda_bench.json] [--max-log2 27] [--reps 20]
//                                [--only elementwise,reduction,scan,sort,launch,compile]
//
// Cases (n = 2^20, 2^24, 2^27; float32 and float64):
//   copy         cuMemcpyDtoDAsync of n elements         bytes = 2 n s (read + write)
//   elementwise  y[i] = a*sin(x[i]) + b                   target >= 95% of copy bandwidth
//   reduction    sum: smelt's two kernels (device time)   target >= 95% of CUB DeviceReduce::Sum
//   scan         inclusive sum, GB/s = 2 n s / t          target 2.3 TB/s at 2^27 float64 (single
//                                                        pass); CUB DeviceScan::InclusiveSum as
//                                                        reference
//   sort         2^27 int32 keys + values                 target <= 1.1 x CUB DeviceRadixSort
//   launch       one tiny Elementwise call, host time     target <= 5 us
//   compile      cold NVRTC build of a module, warm load from the disk cache (<= 0.5 s, <= 5 ms)
// Without a GPU it prints why and writes {"skipped": ...}.
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/driver_api.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "backends/registry.h"
#include "cuda_reference.h"
#include "primitives/combine.h"
#include "primitives/program_data.h"
#include "primitives/target.h"
#include "primitives/translation_unit.h"
#include "smelt.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace smelt;

namespace {

struct Record {
    std::string name, dtype;
    int64_t n = 0;
    double seconds = 0, gbps = 0;
    std::string reference; // what `ratio` compares with
    double reference_seconds = 0, ratio = 0;
    std::string target;
    bool meets = true;
};

std::vector<Record> g_records;
int g_reps = 20;
std::string g_only; // comma-separated case names; empty: all

bool wanted(const std::string &name) {
    return g_only.empty() || ("," + g_only + ",").find("," + name + ",") != std::string::npos;
}

std::string json_escape(const std::string &s) {
    std::string o;
    for (char c : s)
        o += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return o;
}

void write_json(const std::string &path, const std::string &device, const std::string &skipped) {
    std::ostringstream os;
    os.precision(9);
    os << "{\n  \"device\": \"" << json_escape(device) << "\",\n";
    if (!skipped.empty()) os << "  \"skipped\": \"" << json_escape(skipped) << "\",\n";
    os << "  \"results\": [";
    for (size_t i = 0; i < g_records.size(); ++i) {
        const Record &r = g_records[i];
        os << (i ? "," : "") << "\n    {\"name\": \"" << r.name << "\", \"dtype\": \"" << r.dtype
           << "\", \"n\": " << r.n << ", \"seconds\": " << r.seconds << ", \"gbps\": " << r.gbps
           << ", \"reference\": \"" << r.reference
           << "\", \"reference_seconds\": " << r.reference_seconds << ", \"ratio\": " << r.ratio
           << ", \"target\": \"" << json_escape(r.target)
           << "\", \"meets_target\": " << (r.meets ? "true" : "false") << "}";
    }
    os << "\n  ]\n}\n";
    std::ofstream(path) << os.str();
}

void print(const Record &r) {
    std::printf("%-22s %-8s n=%-10lld %10.3f us %9.1f GB/s", r.name.c_str(), r.dtype.c_str(),
                static_cast<long long>(r.n), r.seconds * 1e6, r.gbps);
    if (!r.reference.empty())
        std::printf("  %s %.3f us ratio %.3f", r.reference.c_str(), r.reference_seconds * 1e6,
                    r.ratio);
    if (!r.target.empty()) std::printf("  [%s: %s]", r.target.c_str(), r.meets ? "met" : "MISSED");
    std::printf("\n");
    std::fflush(stdout);
}

// Median device time of `op` (one call) over g_reps calls, with events on the backend's stream.
double device_seconds(cuda::CudaBackend &b, const std::function<void()> &op, int reps = 0) {
    const cuda::DriverApi &api = cuda::driver();
    if (reps <= 0) reps = g_reps;
    b.make_current();
    CUevent start, stop;
    cuda::check(api.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    cuda::check(api.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
    op(); // warm-up: compiles, allocates scratch
    b.synchronize();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        cuda::check(api.cuEventRecord(start, b.stream()), "cuEventRecord");
        op();
        cuda::check(api.cuEventRecord(stop, b.stream()), "cuEventRecord");
        cuda::check(api.cuEventSynchronize(stop), "cuEventSynchronize");
        float ms = 0;
        cuda::check(api.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
        t.push_back(ms * 1e-3);
    }
    api.cuEventDestroy(start);
    api.cuEventDestroy(stop);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

CUdeviceptr dptr(const Array &a) {
    return reinterpret_cast<CUdeviceptr>(a.buffer().handle);
}

const char *kKernels = R"(
from math import sin


def axpb(i, x, y, a, b):
    y[i] = a * sin(x[i]) + b


def ident(i, x):
    return x[i]


def store_item(i, item, y):
    y[i] = item


def touch(i, x):
    x[i] = x[i] + 1
)";

Program &kernels() {
    static Program p = Program::from_source("cuda_bench.py", kKernels);
    return p;
}

// The smelt reduction's own two kernels, without the host read that Reduction::operator() adds
// (its device time is what compares with CUB's); assembled exactly as api/reduction.cpp.
struct DeviceSum {
    primitives::CompiledKernel kernel;
    Buffer result;
};

DeviceSum device_sum(cuda::CudaBackend &b, DType dt) {
    const Scalar acc = dtype_to_scalar(dt);
    CompileOptions o;
    o.backend = "cuda";
    auto combine = primitives::compile_combine("a+b", "<reduce_expr>", "0", acc, nullptr, o);
    primitives::ReductionWrapper w;
    w.out = acc;
    w.ops = combine.symbols;
    w.params = {{"ary", Type::pointer(acc)}};
    w.array_param = 0;
    const auto &target = primitives::primitive_target("cuda");
    DeviceSum s;
    s.kernel = primitives::compile_unit(
        b, target,
        primitives::assemble_unit(target, {combine.combine.get(), combine.neutral.get()},
                                  target.reduction_wrapper(w)),
        "reduction", std::string("bench sum ") + dtype_name(dt), smelt::Options{});
    s.result = b.allocate(8);
    return s;
}

// Reduction: smelt's kernels vs CUB, device time; plus the whole API call (host latency).
void bench_reduction(cuda::CudaBackend &b, int64_t n, DType dt, const Array &x) {
    const size_t es = dtype_size(dt);
    const bool f64 = dt == DType::Float64;
    const std::string dn = dtype_name(dt);
    const Options on_gpu{"cuda", Precision::Double};
    const int ni = static_cast<int>(n);
    DeviceSum sum = device_sum(b, dt);
    const auto &target = primitives::primitive_target("cuda");
    const KernelArg arg[] = {KernelArg::of(x.buffer())};
    Record red{"reduction_sum", dn, n};
    red.seconds =
        device_seconds(b, [&] { target.run_reduction(b, sum.kernel, n, arg, sum.result); });
    red.gbps = double(n) * es / red.seconds * 1e-9;
    const size_t cub_temp = bench_ref::sum(f64, 0, 0, ni, 0, 0, b.stream());
    Buffer temp = b.allocate(std::max<size_t>(cub_temp, 16)), out = b.allocate(8);
    red.reference = "cub_device_reduce_sum";
    red.reference_seconds = device_seconds(b, [&] {
        bench_ref::sum(f64, dptr(x), reinterpret_cast<CUdeviceptr>(out.handle), ni,
                       reinterpret_cast<CUdeviceptr>(temp.handle), cub_temp, b.stream());
    });
    red.ratio = red.reference_seconds / red.seconds;
    red.target = "speed >= 95% of CUB";
    red.meets = red.ratio >= 0.95;
    print(red);
    g_records.push_back(red);
    {
        Reduction api_sum(nullptr, "a+b", "", dt, "0", on_gpu);
        api_sum({x});
        const int reps = 10;
        auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r)
            api_sum({x});
        Record whole{"reduction_sum_call", dn, n};
        whole.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
        whole.gbps = double(n) * es / whole.seconds * 1e-9;
        whole.target = "informational: whole call incl. result read-back";
        print(whole);
        g_records.push_back(whole);
    }
    b.release(sum.result);
    b.release(temp);
    b.release(out);
}

// Scan: inclusive sum (single pass) vs CUB, device time.
void bench_scan(cuda::CudaBackend &b, int64_t n, DType dt, const Array &x, const Array &y) {
    const size_t es = dtype_size(dt);
    const bool f64 = dt == DType::Float64;
    const std::string dn = dtype_name(dt);
    const Options on_gpu{"cuda", Precision::Double};
    const int ni = static_cast<int>(n);
    const double bytes2 = 2.0 * double(n) * double(es);
    Scan scan(kernels(), "ident", "store_item", "a+b", dt, "0", "", on_gpu);
    Record sc{"scan_inclusive_sum", dn, n};
    sc.seconds = device_seconds(b, [&] { scan({{"x", x}, {"y", y}}); });
    sc.gbps = bytes2 / sc.seconds * 1e-9;
    const size_t scan_temp = bench_ref::inclusive_sum(f64, 0, 0, ni, 0, 0, b.stream());
    Buffer temp = b.allocate(std::max<size_t>(scan_temp, 16));
    sc.reference = "cub_device_scan_inclusive_sum";
    sc.reference_seconds = device_seconds(b, [&] {
        bench_ref::inclusive_sum(f64, dptr(x), dptr(y), ni,
                                 reinterpret_cast<CUdeviceptr>(temp.handle), scan_temp, b.stream());
    });
    sc.ratio = sc.reference_seconds / sc.seconds;
    sc.target = n == (int64_t(1) << 27) && f64 ? "2.3 TB/s (single pass, decoupled look-back)" : "";
    sc.meets = sc.target.empty() || sc.gbps >= 2300;
    print(sc);
    g_records.push_back(sc);
    b.release(temp);
}

void bench_size(cuda::CudaBackend &b, int64_t n, DType dt) {
    const size_t es = dtype_size(dt);
    const bool f64 = dt == DType::Float64;
    const std::string dn = dtype_name(dt);
    const Options on_gpu{"cuda", Precision::Double};
    Array x = empty(n, dt, &b), y = empty(n, dt, &b);
    {
        std::mt19937 gen(1);
        std::uniform_int_distribution<int> d(-8, 8);
        if (f64)
            for (int64_t i = 0; i < n; ++i)
                x.data<double>()[i] = d(gen) * 0.25;
        else
            for (int64_t i = 0; i < n; ++i)
                x.data<float>()[i] = float(d(gen) * 0.25);
        x.push();
    }
    const double bytes2 = 2.0 * double(n) * double(es);

    Record copy{"copy_dtod", dn, n};
    copy.seconds = device_seconds(b, [&] { b.copy(y.buffer(), 0, x.buffer(), 0, n * es); });
    copy.gbps = bytes2 / copy.seconds * 1e-9;
    print(copy);
    g_records.push_back(copy);

    if (wanted("elementwise")) {
        Elementwise axpb(kernels(), "axpb", on_gpu);
        Record ew{"elementwise_axpb", dn, n};
        ew.seconds = device_seconds(b, [&] {
            if (f64)
                axpb({x, y, 2.0, 1.0});
            else
                axpb({x, y, 2.0f, 1.0f});
        });
        ew.gbps = bytes2 / ew.seconds * 1e-9;
        ew.reference = "copy_dtod";
        ew.reference_seconds = copy.seconds;
        ew.ratio = copy.seconds / ew.seconds;
        ew.target = "bandwidth >= 95% of copy";
        ew.meets = ew.ratio >= 0.95;
        print(ew);
        g_records.push_back(ew);
    }
    if (wanted("reduction")) bench_reduction(b, n, dt, x);
    if (wanted("scan")) bench_scan(b, n, dt, x, y);
}

void bench_sort(cuda::CudaBackend &b, int64_t n) {
    const int ni = static_cast<int>(n);
    std::vector<int32_t> k(n), v(n);
    std::mt19937 gen(12345);
    for (int64_t i = 0; i < n; ++i) {
        k[i] = static_cast<int32_t>(gen());
        v[i] = static_cast<int32_t>(i);
    }
    Array k0 = Array::from_vector(k, &b), v0 = Array::from_vector(v, &b);
    Array keys = empty(n, DType::Int32, &b), vals = empty(n, DType::Int32, &b);
    auto restore = [&] {
        b.copy(keys.buffer(), 0, k0.buffer(), 0, n * 4);
        b.copy(vals.buffer(), 0, v0.buffer(), 0, n * 4);
    };
    Record cp{"sort_input_copy", "int32", n};
    cp.seconds = device_seconds(b, restore, 10);
    cp.target = "informational: included in both sort times";
    print(cp);
    g_records.push_back(cp);

    Record s{"sort_pairs", "int32", n};
    s.seconds = device_seconds(
        b,
        [&] {
            restore();
            sort_by_key(keys, &vals);
        },
        10);
    s.gbps = double(n) * 8 / s.seconds * 1e-9;
    const size_t temp_bytes = bench_ref::sort_pairs_i32(0, 0, 0, 0, ni, 0, 0, b.stream());
    Buffer temp = b.allocate(temp_bytes), ko = b.allocate(n * 4), vo = b.allocate(n * 4);
    s.reference = "cub_device_radix_sort_pairs";
    s.reference_seconds = device_seconds(
        b,
        [&] {
            restore();
            bench_ref::sort_pairs_i32(dptr(keys), reinterpret_cast<CUdeviceptr>(ko.handle),
                                      dptr(vals), reinterpret_cast<CUdeviceptr>(vo.handle), ni,
                                      reinterpret_cast<CUdeviceptr>(temp.handle), temp_bytes,
                                      b.stream());
        },
        10);
    s.ratio = s.seconds / s.reference_seconds; // time ratio: <= 1.1 wanted
    s.target = "time <= 1.1 x CUB";
    s.meets = s.ratio <= 1.1;
    print(s);
    g_records.push_back(s);
    // Correctness spot check of the benchmarked call.
    restore();
    sort_by_key(keys, &vals);
    auto got = keys.to_vector<int32_t>();
    if (!std::is_sorted(got.begin(), got.end())) std::printf("ERROR: sort result not sorted\n");
    b.release(temp);
    b.release(ko);
    b.release(vo);
}

void bench_launch(cuda::CudaBackend &b) {
    Elementwise touch(kernels(), "touch", {"cuda", Precision::Double});
    Array x = zeros(1, DType::Float64, &b);
    touch({x});
    b.synchronize();
    const int calls = 20000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i)
        touch({x});
    b.synchronize();
    Record r{"launch_overhead", "float64", 1};
    r.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls;
    r.target = "<= 5 us per call";
    r.meets = r.seconds <= 5e-6;
    print(r);
    g_records.push_back(r);
    if (x.to_vector<double>()[0] != calls + 1) std::printf("ERROR: launch results wrong\n");
}

void bench_compile(cuda::CudaBackend &b) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("smelt-cuda-bench-cache-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    // A module no cache holds yet: the axpb elementwise unit with a fresh comment.
    Elementwise axpb(kernels(), "axpb", {"cuda", Precision::Double});
    Array x = zeros(4, DType::Float64, &b), y = zeros(4, DType::Float64, &b);
    axpb({x, y, 1.0, 2.0});
    ModuleSource src;
    src.source = axpb.source() + "\n/* bench " + std::to_string(::getpid()) + " */\n";
    src.symbols = {"smelt_entry"};
    src.primitive = "elementwise";
    src.signature = "bench";
    double cold = 0, warm = 1e9;
    {
        cuda::CudaBackend fresh(0, DiskCache(dir));
        auto t0 = std::chrono::steady_clock::now();
        fresh.compile(src);
        cold = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    for (int r = 0; r < 5; ++r) {
        cuda::CudaBackend again(0, DiskCache(dir));
        auto t0 = std::chrono::steady_clock::now();
        again.compile(src);
        warm = std::min(
            warm, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    Record c{"compile_cold_nvrtc", "-", 0};
    c.seconds = cold;
    c.target = "<= 0.5 s per module";
    c.meets = cold <= 0.5;
    print(c);
    g_records.push_back(c);
    Record w{"load_warm_disk_cache", "-", 0};
    w.seconds = warm;
    w.target = "<= 5 ms";
    w.meets = warm <= 5e-3;
    print(w);
    g_records.push_back(w);
    std::filesystem::remove_all(dir);
}

} // namespace

int main(int argc, char **argv) {
    std::string out = "cuda_bench.json";
    int max_log2 = 27;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--out" && i + 1 < argc)
            out = argv[++i];
        else if (a == "--max-log2" && i + 1 < argc)
            max_log2 = std::atoi(argv[++i]);
        else if (a == "--reps" && i + 1 < argc)
            g_reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--only" && i + 1 < argc)
            g_only = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: %s [--out FILE] [--max-log2 N] [--reps N] [--only "
                         "elementwise,reduction,scan,sort,launch,compile]\n",
                         argv[0]);
            return 2;
        }
    }
    std::string why;
    if (!cuda::device_present(&why)) {
        std::printf("skipped: no CUDA device: %s\n", why.c_str());
        write_json(out, "", "no CUDA device: " + why);
        return 0;
    }
    try {
        auto &b = dynamic_cast<cuda::CudaBackend &>(get_backend("cuda"));
        const std::string device = b.device_name() + " (" + b.devices()[0].detail + ")";
        std::printf("device: %s\n", device.c_str());
        for (int lg : {20, 24, 27}) {
            if (lg > max_log2) continue;
            for (DType dt : {DType::Float32, DType::Float64})
                bench_size(b, int64_t(1) << lg, dt);
        }
        if (wanted("sort")) bench_sort(b, int64_t(1) << std::min(27, max_log2));
        if (wanted("launch")) bench_launch(b);
        if (wanted("compile")) bench_compile(b);
        write_json(out, device, "");
        std::printf("wrote %s\n", out.c_str());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        write_json(out, "", std::string("error: ") + e.what());
        return 1;
    }
    return 0;
}
