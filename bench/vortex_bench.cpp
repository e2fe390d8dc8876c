// vortex throughput: pair interactions per second (N^2 / time) of one velocity evaluation, Smelt's
// kernels from apps/vortex/physics.py against hand-written code run in the same process on the
// same data. Writes JSON.
//
//   build/bench/vortex_bench [--n 10000,20000,65536] [--reps 3] [--threads 0]
//                            [--cuda-n 262144,1048576] [--cuda-reps 3] [--tile 128]
//                            [--skip-cpu] [--skip-cuda] [--general] [--out vortex_bench.json]
//
// State: N Krasny blobs (delta = 0.01) uniformly in the unit disc with circulations 1/N, unbounded
// (std::mt19937_64, seed 1); float64 and float32 (Smelt's single precision).
//   cpu   Smelt's Elementwise `velocity` on the cpu backend, compiled as the driver compiles it
//         (specialised to Krasny blobs, unbounded: vortex::specialised_physics), against a direct
//         sum written in C++ with an OpenMP loop over targets, compiled with the flags the cpu
//         backend gives its kernels (-O3 -march=native -fopenmp), on the same number of threads.
//         The ratio is reference time / Smelt time (> 1: Smelt faster). --general also times the
//         kernel without that specialisation (regularisation and periodicity as run-time
//         arguments: "smelt_elementwise_general").
//   cuda  (built with SMELT_WITH_CUDA, run when a GPU is present) Smelt's tiled Kernel
//         `velocity_tiled` (and the Elementwise, for comparison) against two CUDA kernels written
//         for this benchmark (vortex_cuda_reference.cu): naive (sources from global memory) and
//         shared-memory tiled, device time by CUDA events on the backend's stream.
// Each time is the median of --reps evaluations after one warm-up call (compilation excluded).
// Every record also gives the largest difference between Smelt's velocities and the reference's,
// relative to the largest velocity.
#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "common/kernel_file.h"
#include "smelt.h"
#include "vortex/simulation.h"

#include <CLI/CLI.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if SMELT_VORTEX_BENCH_CUDA
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/driver_api.h"
#include "vortex_cuda_reference.h"
#endif

using namespace smelt;

namespace {

constexpr double kDelta = 0.01;
constexpr int32_t kKrasny = 1; // physics.py's KRASNY
constexpr double kPi = 3.14159265358979323846;

struct Record {
    std::string backend, code, dtype, reference;
    int64_t n = 0;
    int threads = 0;
    double seconds = 0, reference_seconds = 0, max_rel_diff = 0;
    double pairs_per_second() const { return double(n) * double(n) / seconds; }
    double ratio() const { return seconds > 0 ? reference_seconds / seconds : 0; }
};

std::vector<Record> g_records;

void print(const Record &r) {
    std::printf("%-5s %-22s %-8s n=%-8lld %10.4f s %10.4g pairs/s", r.backend.c_str(),
                r.code.c_str(), r.dtype.c_str(), (long long)r.n, r.seconds, r.pairs_per_second());
    if (!r.reference.empty())
        std::printf("  | %s %.4f s, ratio %.3f, max rel diff %.2g", r.reference.c_str(),
                    r.reference_seconds, r.ratio(), r.max_rel_diff);
    std::printf("\n");
    std::fflush(stdout);
}

void write_json(const std::string &path, const std::string &cuda_note) {
    std::ostringstream os;
    os.precision(9);
    os << "{\n  \"benchmark\": \"vortex velocity evaluation, Krasny blobs, pairs/s = N^2 / "
          "seconds\",\n";
    if (!cuda_note.empty()) os << "  \"cuda\": \"" << cuda_note << "\",\n";
    os << "  \"results\": [";
    for (size_t i = 0; i < g_records.size(); ++i) {
        const Record &r = g_records[i];
        os << (i ? "," : "") << "\n    {\"backend\": \"" << r.backend << "\", \"code\": \""
           << r.code << "\", \"dtype\": \"" << r.dtype << "\", \"n\": " << r.n
           << ", \"threads\": " << r.threads << ", \"seconds\": " << r.seconds
           << ", \"pairs_per_second\": " << r.pairs_per_second() << ", \"reference\": \""
           << r.reference << "\", \"reference_seconds\": " << r.reference_seconds
           << ", \"ratio\": " << r.ratio() << ", \"max_rel_diff\": " << r.max_rel_diff << "}";
    }
    os << "\n  ]\n}\n";
    std::ofstream(path) << os.str();
}

// N vortices uniform in the unit disc, circulation 1/N each.
struct State {
    std::vector<double> x, y, g;
};

State make_state(int64_t n) {
    State s;
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    while (int64_t(s.x.size()) < n) {
        const double px = uni(rng), py = uni(rng);
        if (px * px + py * py >= 1.0) continue;
        s.x.push_back(px);
        s.y.push_back(py);
        s.g.push_back(1.0 / double(n));
    }
    return s;
}

template <class T> std::vector<T> as(const std::vector<double> &v) {
    return std::vector<T>(v.begin(), v.end());
}

template <class T> std::vector<double> host(const Array &a) {
    auto v = a.to_vector<T>();
    return std::vector<double>(v.begin(), v.end());
}

double median_seconds(int reps, const std::function<void()> &op) {
    op(); // warm-up: compiles, first touch
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        op();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// max_k |du_k| + |dv_k| over max_k |u_k| + |v_k| of the reference.
double max_rel_diff(const std::vector<double> &u, const std::vector<double> &v,
                    const std::vector<double> &ur, const std::vector<double> &vr) {
    double diff = 0, size = 0;
    for (size_t k = 0; k < u.size(); ++k) {
        diff = std::max(diff, std::abs(u[k] - ur[k]) + std::abs(v[k] - vr[k]));
        size = std::max(size, std::abs(ur[k]) + std::abs(vr[k]));
    }
    return size > 0 ? diff / size : diff;
}

// ---- cpu ------------------------------------------------------------------------------------

// The hand-written direct sum: one OpenMP thread team over the targets.
template <class T> void direct_sum(const T *x, const T *y, const T *g, T *u, T *v, int n, T d2) {
    const T inv_two_pi = T(1.0 / (2.0 * kPi));
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
        const T xi = x[i], yi = y[i];
        T us = 0, vs = 0;
        for (int j = 0; j < n; ++j) {
            const T dx = xi - x[j], dy = yi - y[j];
            const T w = g[j] / (dx * dx + dy * dy + d2);
            us -= w * dy;
            vs += w * dx;
        }
        u[i] = us * inv_two_pi;
        v[i] = vs * inv_two_pi;
    }
}

template <class T>
void bench_cpu(const Program &physics, const char *code, int64_t n, int threads, int reps,
               const char *dtype) {
    const Precision precision = sizeof(T) == 8 ? Precision::Double : Precision::Single;
    Backend &cpu = get_backend("cpu");
    const State s = make_state(n);
    Array x = Array::from_vector(as<T>(s.x), &cpu), y = Array::from_vector(as<T>(s.y), &cpu),
          g = Array::from_vector(as<T>(s.g), &cpu);
    Array u = zeros(size_t(n), x.dtype(), &cpu), v = zeros(size_t(n), x.dtype(), &cpu);
    Elementwise velocity(physics, "velocity", {"cpu", precision});
    Record r{"cpu", code, dtype, "openmp_direct_sum"};
    r.n = n;
    r.threads = threads;
    r.seconds = median_seconds(reps, [&] {
        velocity({x, y, g, u, v, int32_t(n), kKrasny, kDelta, int32_t(0), 1.0});
        cpu.synchronize();
    });
    const auto xs = as<T>(s.x), ys = as<T>(s.y), gs = as<T>(s.g);
    std::vector<T> ur(static_cast<size_t>(n)), vr(static_cast<size_t>(n));
    omp_set_num_threads(threads);
    r.reference_seconds = median_seconds(reps, [&] {
        direct_sum<T>(xs.data(), ys.data(), gs.data(), ur.data(), vr.data(), int(n),
                      T(kDelta * kDelta));
    });
    r.max_rel_diff = max_rel_diff(host<T>(u), host<T>(v), std::vector<double>(ur.begin(), ur.end()),
                                  std::vector<double>(vr.begin(), vr.end()));
    print(r);
    g_records.push_back(r);
}

// ---- cuda -----------------------------------------------------------------------------------

#if SMELT_VORTEX_BENCH_CUDA

CUdeviceptr dptr(const Array &a) {
    return reinterpret_cast<CUdeviceptr>(a.buffer().handle);
}

// Median device time of `op` over `reps` calls, CUDA events on the backend's stream.
double device_seconds(cuda::CudaBackend &b, int reps, const std::function<void()> &op) {
    const cuda::DriverApi &api = cuda::driver();
    b.make_current();
    CUevent start, stop;
    cuda::check(api.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    cuda::check(api.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
    op(); // warm-up: compiles
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

template <class T>
void bench_cuda(cuda::CudaBackend &b, const Program &physics, int64_t n, int64_t tile, int reps,
                const char *dtype) {
    const bool f64 = sizeof(T) == 8;
    const Precision precision = f64 ? Precision::Double : Precision::Single;
    const State s = make_state(n);
    Array x = Array::from_vector(as<T>(s.x), &b), y = Array::from_vector(as<T>(s.y), &b),
          g = Array::from_vector(as<T>(s.g), &b);
    Array u = zeros(size_t(n), x.dtype(), &b), v = zeros(size_t(n), x.dtype(), &b);
    Array ur = zeros(size_t(n), x.dtype(), &b), vr = zeros(size_t(n), x.dtype(), &b);
    const Options on_gpu{"cuda", precision};
    Options fast_gpu = on_gpu;
    fast_gpu.fast_math = true;
    Kernel tiled(physics, "velocity_tiled", on_gpu);
    Kernel tiled_fast(physics, "velocity_tiled", fast_gpu);
    Elementwise elementwise(physics, "velocity", on_gpu);
    const int64_t global = (n + tile - 1) / tile * tile;
    const auto local = size_t(tile);
    auto smelt_tiled = [&] {
        tiled(global, tile,
              {x, y, g, u, v, LocalMem(local), LocalMem(local), LocalMem(local), int32_t(n),
               kKrasny, kDelta, int32_t(0), 1.0});
    };
    auto smelt_elementwise = [&] {
        elementwise({x, y, g, u, v, int32_t(n), kKrasny, kDelta, int32_t(0), 1.0});
    };
    const double d2 = kDelta * kDelta;
    auto naive = [&] {
        bench_ref::vortex_naive(f64, dptr(x), dptr(y), dptr(g), dptr(ur), dptr(vr), int(n), d2,
                                int(tile), b.stream());
    };
    auto hand_tiled = [&] {
        bench_ref::vortex_tiled(f64, dptr(x), dptr(y), dptr(g), dptr(ur), dptr(vr), int(n), d2,
                                int(tile), b.stream());
    };
    auto smelt_tiled_fast = [&] {
        tiled_fast(global, tile,
                   {x, y, g, u, v, LocalMem(local), LocalMem(local), LocalMem(local), int32_t(n),
                    kKrasny, kDelta, int32_t(0), 1.0});
    };
    auto hand_tiled_fast = [&] {
        bench_ref_fast::vortex_tiled(f64, dptr(x), dptr(y), dptr(g), dptr(ur), dptr(vr), int(n), d2,
                                     int(tile), b.stream());
    };
    const std::string tag = "_t" + std::to_string(tile);
    const double t_tiled = device_seconds(b, reps, smelt_tiled);
    const auto us = host<T>(u), vs = host<T>(v);
    const double t_naive = device_seconds(b, reps, naive);
    const auto un = host<T>(ur), vn = host<T>(vr);
    const double t_hand = device_seconds(b, reps, hand_tiled);
    const auto uh = host<T>(ur), vh = host<T>(vr);
    const double t_ew = device_seconds(b, reps, smelt_elementwise);
    const auto ue = host<T>(u), ve = host<T>(v);
    const double t_tiled_fast = device_seconds(b, reps, smelt_tiled_fast);
    const auto uf = host<T>(u), vf = host<T>(v);
    const double t_hand_fast = device_seconds(b, reps, hand_tiled_fast);
    const auto uhf = host<T>(ur), vhf = host<T>(vr);
    auto record = [&](const std::string &code, double t, const std::string &ref, double rt,
                      double diff) {
        Record r{"cuda", code, dtype, ref};
        r.n = n;
        r.seconds = t;
        r.reference_seconds = rt;
        r.max_rel_diff = diff;
        print(r);
        g_records.push_back(r);
    };
    record("smelt_tiled" + tag, t_tiled, "cuda_naive", t_naive, max_rel_diff(us, vs, un, vn));
    record("smelt_tiled" + tag, t_tiled, "cuda_shared_tiled" + tag, t_hand,
           max_rel_diff(us, vs, uh, vh));
    record("smelt_elementwise", t_ew, "cuda_shared_tiled" + tag, t_hand,
           max_rel_diff(ue, ve, uh, vh));
    // Fast math on both sides; the difference column is against the exact hand-tiled result,
    // i.e. how far fast math moves the velocities.
    record("smelt_tiled_fast_math" + tag, t_tiled_fast, "cuda_shared_tiled_fast_math" + tag,
           t_hand_fast, max_rel_diff(uf, vf, uh, vh));
    record("cuda_shared_tiled_fast_math" + tag, t_hand_fast, "cuda_shared_tiled" + tag, t_hand,
           max_rel_diff(uhf, vhf, uh, vh));
}

#endif

std::vector<int64_t> parse_sizes(const std::string &list) {
    std::vector<int64_t> out;
    std::stringstream s(list);
    for (std::string item; std::getline(s, item, ',');)
        if (!item.empty()) out.push_back(std::stoll(item));
    return out;
}

} // namespace

int main(int argc, char **argv) {
    CLI::App cli{"vortex velocity evaluation: Smelt against hand-written C++/OpenMP and CUDA"};
    std::string n_list = "10000,20000,65536", cuda_list = "262144,1048576";
    std::string out = "vortex_bench.json";
    std::string physics_path = SMELT_VORTEX_PHYSICS_DEFAULT;
    int reps = 3, cuda_reps = 3, threads = 0;
    int64_t tile = 128;
    bool skip_cpu = false, skip_cuda = false, with_general = false;
    cli.add_option("--n", n_list, "cpu sizes (comma-separated)");
    cli.add_option("--cuda-n", cuda_list, "cuda sizes (comma-separated)");
    cli.add_option("--reps", reps, "timed evaluations per case (median)")
        ->check(CLI::PositiveNumber);
    cli.add_option("--cuda-reps", cuda_reps, "timed evaluations per cuda case")
        ->check(CLI::PositiveNumber);
    cli.add_option("--threads", threads, "cpu threads (0: the cpu backend's default)");
    cli.add_option("--tile", tile, "work-group size of the tiled kernels (64 ... 512)");
    cli.add_option("--physics", physics_path, "apps/vortex/physics.py");
    cli.add_flag("--skip-cpu", skip_cpu);
    cli.add_flag("--general", with_general,
                 "also time the cpu kernel without the driver's specialisation");
    cli.add_flag("--skip-cuda", skip_cuda);
    cli.add_option("--out", out, "JSON output");
    CLI11_PARSE(cli, argc, argv);

    const Program general = apps::load_kernel_program(physics_path);
    apps::vortex::PhysicsConfig krasny;
    krasny.regularisation = apps::vortex::Regularisation::Krasny;
    krasny.delta = kDelta;
    const Program physics = apps::vortex::specialised_physics(general, krasny);
    std::string cuda_note;
    try {
        if (!skip_cpu) {
            auto &cpu = dynamic_cast<cpu::CpuBackend &>(get_backend("cpu"));
            if (threads > 0) cpu.set_num_threads(threads);
            threads = cpu.num_threads();
            std::printf("cpu: %d threads (Smelt and the OpenMP reference)\n", threads);
            for (int64_t n : parse_sizes(n_list)) {
                bench_cpu<double>(physics, "smelt_elementwise", n, threads, reps, "float64");
                bench_cpu<float>(physics, "smelt_elementwise", n, threads, reps, "float32");
                if (!with_general) continue;
                const char *code = "smelt_elementwise_general";
                bench_cpu<double>(general, code, n, threads, reps, "float64");
                bench_cpu<float>(general, code, n, threads, reps, "float32");
            }
        }
#if SMELT_VORTEX_BENCH_CUDA
        if (!skip_cuda) {
            cuda::CudaBackend *b = nullptr;
            try {
                b = &dynamic_cast<cuda::CudaBackend &>(get_backend("cuda"));
            } catch (const Error &e) {
                cuda_note = std::string("skipped: no CUDA device (") + e.what() + ")";
            }
            if (b)
                for (int64_t n : parse_sizes(cuda_list)) {
                    bench_cuda<double>(*b, physics, n, tile, cuda_reps, "float64");
                    bench_cuda<float>(*b, physics, n, tile, cuda_reps, "float32");
                }
        }
#else
        cuda_note = "not built (SMELT_WITH_CUDA off)";
#endif
    } catch (const std::exception &e) {
        std::fprintf(stderr, "vortex_bench: error: %s\n", e.what());
        write_json(out, cuda_note);
        return 1;
    }
    for (char &c : cuda_note)
        if (c == '"' || c == '\\' || c == '\n') c = ' ';
    if (!cuda_note.empty()) std::printf("cuda: %s\n", cuda_note.c_str());
    write_json(out, cuda_note);
    std::printf("wrote %s\n", out.c_str());
    return 0;
}
