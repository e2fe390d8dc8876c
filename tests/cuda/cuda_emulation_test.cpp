// The generated CUDA reduction and scan kernels, run on the CPU under a small emulator of
// blocks, warps, shuffles and barriers (cuda_emulation.h), against hand-written loops. This
// checks the kernels' logic — ordering, tiles, partial warps and blocks, segment flags, the
// spine, the launch geometry of primitives/cuda/geometry.h — on machines without a GPU.
// The grids are small (few blocks) so that multi-tile blocks and partial last blocks occur at
// modest sizes.
#include "cuda_units.h"

#include "primitives/cuda/geometry.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace smelt {
namespace {

using namespace testing_util;
using namespace testing_util::cuda_units;
namespace pc = primitives::cuda;

constexpr int64_t kEmulatedMaxBlocks = 3; // "resident blocks" of the emulated device

struct Unit {
    std::string ns;   // namespace the unit is compiled in
    std::string text; // the translation unit
};

// Compiles `units` (each in its own namespace) with `driver` (a main()) and runs the program;
// returns its output. The program prints "ALL OK" when every check passed.
std::string compile_and_run(const std::vector<Unit> &units, const std::string &driver) {
    std::string program = "#include \"cuda_emulation.h\"\n#include <cstdio>\n#include <vector>\n";
    for (const Unit &u : units) {
        // C linkage would make the kernels of different namespaces one symbol.
        std::string text = u.text;
        for (size_t p = text.find("extern \"C\" "); p != std::string::npos;
             p = text.find("extern \"C\" ", p))
            text.erase(p, 11);
        program += "namespace " + u.ns + " {\n" + text + "\n} // namespace " + u.ns + "\n";
    }
    program += driver;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("smelt-cuda-emu-" + std::to_string(::getpid()) + "-" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
    const auto src = dir / "emulated.cpp", exe = dir / "emulated";
    std::ofstream(src) << program;
    ProcessResult built = run_process({SMELT_CXX, "-std=c++20", "-O1", "-pthread", "-w",
                                       "-I" + std::string(SMELT_TEST_DATA_DIR) + "/cuda",
                                       src.string(), "-o", exe.string()});
    if (built.exit_status != 0) return "COMPILE FAILED (" + src.string() + ")\n" + built.output;
    ProcessResult ran = run_process({exe.string()});
    std::filesystem::remove_all(dir);
    return ran.output;
}

std::string case_list(const std::vector<int64_t> &ns, bool scan) {
    std::string out = "struct Case { long long n, blocks, per_block; };\nconst Case cases[] = {";
    for (int64_t n : ns) {
        int64_t blocks = 0, per = 0;
        if (scan) {
            auto g = pc::scan_geometry(n, kEmulatedMaxBlocks);
            blocks = g.blocks;
            per = g.per_block;
        } else {
            blocks = pc::reduction_blocks(n, kEmulatedMaxBlocks);
        }
        out += "{" + std::to_string(n) + ", " + std::to_string(blocks) + ", " +
               std::to_string(per) + "}, ";
    }
    return out + "};\n";
}

// Deterministic small integers in [-range, range], zero about every `zero_every` items.
const char *kDriverData = R"(
template <class T> std::vector<T> data(long long n, int range, int zero_every) {
    std::vector<T> v(n);
    unsigned s = 12345u + unsigned(n);
    for (auto &x : v) {
        s = s * 1664525u + 1013904223u;
        x = T(int((s >> 8) % unsigned(2 * range + 1)) - range);
        if (zero_every && (s >> 20) % unsigned(zero_every) == 0) x = T(0);
    }
    return v;
}
)";

TEST(CudaEmulation, ReductionKernels) {
    const std::vector<int64_t> ns = {0, 1, 2, 31, 32, 33, 255, 256, 257, 769, 1000, 5000, 70001};
    std::vector<Unit> units = {
        {"sum_i64", reduction_source(Scalar::I64, "a+b", "0", false)},
        {"min_f64", reduction_source(Scalar::F64, "min(a, b)", "inf", false)},
        {"sq_f64", reduction_source(Scalar::F64, "a+b", "0", true)},
        // A neutral element that is no identity: it must never be combined in (n > 0).
        {"sum_n7", reduction_source(Scalar::I64, "a+b", "7", false)}};
    std::string driver = kDriverData + case_list(ns, false);
    driver += R"(
template <class T, class K1, class K2, class Op>
int check(const char *what, K1 blocks_kernel, K2 final_kernel, T neutral, Op op, bool square) {
    int bad = 0;
    for (const Case &c : cases) {
        auto x = data<T>(c.n, 1000, 0);
        std::vector<T> partials(c.blocks > 0 ? c.blocks : 1, T(-77));
        T out = T(-99);
        if (c.blocks > 0) emu::launch(blocks_kernel, c.blocks, 256, c.n, x.data(), partials.data());
        emu::launch(final_kernel, 1, 256, c.blocks, partials.data(), &out);
        T want = neutral;
        for (long long i = 0; i < c.n; ++i) {
            const T v = square ? x[i] * x[i] : x[i];
            want = i == 0 ? v : op(want, v);
        }
        if (!(out == want)) {
            std::printf("FAIL %s n=%lld blocks=%lld: got %.17g want %.17g\n", what, c.n, c.blocks,
                        double(out), double(want));
            ++bad;
        }
    }
    return bad;
}

int main() {
    int bad = 0;
    bad += check<sum_i64::int64_t>("sum_i64", sum_i64::smelt_reduce_blocks,
                                   sum_i64::smelt_reduce_final, 0,
                                   [](auto a, auto b) { return a + b; }, false);
    bad += check<double>("min_f64", min_f64::smelt_reduce_blocks, min_f64::smelt_reduce_final,
                         INFINITY, [](double a, double b) { return b < a ? b : a; }, false);
    bad += check<double>("sq_f64", sq_f64::smelt_reduce_blocks, sq_f64::smelt_reduce_final, 0.0,
                         [](double a, double b) { return a + b; }, true);
    bad += check<sum_n7::int64_t>("sum_n7", sum_n7::smelt_reduce_blocks,
                                  sum_n7::smelt_reduce_final, 7,
                                  [](auto a, auto b) { return a + b; }, false);
    std::printf(bad ? "SOME FAILED\n" : "ALL OK\n");
}
)";
    const std::string out = compile_and_run(units, driver);
    EXPECT_NE(out.find("ALL OK"), std::string::npos) << out;
}

TEST(CudaEmulation, ScanKernels) {
    const std::vector<int64_t> ns = {1, 2, 31, 33, 223, 224, 225, 1791, 1792, 1793, 3585, 12543};
    // "b if b != 0 else a" (the last non-zero so far) is associative but not commutative: any
    // fold out of index order shows.
    std::vector<Unit> units = {
        {"plain", scan_source(Scalar::I32, false)},
        {"seg", scan_source(Scalar::I32, true)},
        {"lastnz", scan_source(Scalar::I32, true, Precision::Double, "b if b != 0 else a", "0")},
        // A neutral element that is no identity: only prev_item at segment starts shows it.
        {"seg7", scan_source(Scalar::I32, true, Precision::Double, "a+b", "7")},
        {"plainf", scan_source(Scalar::F64, false)}};
    std::string driver = kDriverData + case_list(ns, true);
    driver += R"(
template <bool segmented, class T, class Up, class Spine, class Down, class Op>
int check(const char *what, Up up, Spine spine, Down down, Op op, T neutral = T(0)) {
    int bad = 0;
    for (const Case &c : cases) {
        auto x = data<T>(c.n, 9, 3);
        auto flags = data<int>(c.n, 20, 0);
        for (auto &f : flags) f = f == 0; // segments of about 40 items
        std::vector<T> y(c.n, T(-1)), yp(c.n, T(-1)), last(c.n, T(-1)), agg(c.blocks),
            carry(c.blocks);
        std::vector<unsigned char> aggf(c.blocks);
        T lastv = T(-5);
        if constexpr (segmented) {
            emu::launch(up, c.blocks, 256, c.n, x.data(), y.data(), yp.data(), last.data(),
                        flags.data(), agg.data(), aggf.data(), c.per_block);
            emu::launch(spine, 1, 256, c.blocks, agg.data(), aggf.data(), carry.data(), &lastv);
            emu::launch(down, c.blocks, 256, c.n, x.data(), y.data(), yp.data(), last.data(),
                        flags.data(), carry.data(), &lastv, c.per_block);
        } else {
            emu::launch(up, c.blocks, 256, c.n, x.data(), y.data(), yp.data(), last.data(),
                        agg.data(), aggf.data(), c.per_block);
            emu::launch(spine, 1, 256, c.blocks, agg.data(), aggf.data(), carry.data(), &lastv);
            emu::launch(down, c.blocks, 256, c.n, x.data(), y.data(), yp.data(), last.data(),
                        carry.data(), &lastv, c.per_block);
        }
        T acc = T(0);
        long long wrong = -1;
        std::vector<T> item(c.n), prev(c.n);
        for (long long i = 0; i < c.n; ++i) {
            const bool start = i == 0 || (segmented && flags[i] != 0);
            prev[i] = start ? neutral : acc;
            acc = start ? x[i] : op(acc, x[i]);
            item[i] = acc;
        }
        for (long long i = 0; i < c.n && wrong < 0; ++i)
            if (!(y[i] == item[i] && yp[i] == prev[i] && last[i] == acc)) wrong = i;
        if (wrong >= 0) {
            std::printf("FAIL %s n=%lld blocks=%lld per_block=%lld at %lld: item %g/%g prev %g/%g "
                        "last %g/%g\n", what, c.n, c.blocks, c.per_block, wrong, double(y[wrong]),
                        double(item[wrong]), double(yp[wrong]), double(prev[wrong]),
                        double(last[wrong]), double(acc));
            ++bad;
        }
    }
    return bad;
}

int main() {
    int bad = 0;
    auto sum = [](auto a, auto b) { return a + b; };
    bad += check<false, int>("plain", plain::smelt_scan_upsweep, plain::smelt_scan_spine,
                             plain::smelt_scan_downsweep, sum);
    bad += check<true, int>("segmented", seg::smelt_scan_upsweep, seg::smelt_scan_spine,
                            seg::smelt_scan_downsweep, sum);
    bad += check<true, int>("last non-zero", lastnz::smelt_scan_upsweep, lastnz::smelt_scan_spine,
                            lastnz::smelt_scan_downsweep,
                            [](int a, int b) { return b != 0 ? b : a; });
    bad += check<true, int>("segmented, neutral 7", seg7::smelt_scan_upsweep,
                            seg7::smelt_scan_spine, seg7::smelt_scan_downsweep, sum, 7);
    bad += check<false, double>("plain f64", plainf::smelt_scan_upsweep,
                                plainf::smelt_scan_spine, plainf::smelt_scan_downsweep, sum);
    std::printf(bad ? "SOME FAILED\n" : "ALL OK\n");
}
)";
    const std::string out = compile_and_run(units, driver);
    EXPECT_NE(out.find("ALL OK"), std::string::npos) << out;
}

// The single-pass scan (look-back). Blocks run one after another here, so a plain launch only
// ever finds its predecessor's inclusive prefix; further launches per case therefore start at
// tile s with tiles [0, s) set up as running blocks could have left them: aggregates, with
// inclusive prefixes only where a tile holds a segment start (s = tiles - 1: the look-back folds
// aggregates across windows back to tile 0) or also at every 7th tile (s = tiles - 3). Segments
// are about 3000 items long, so some tiles hold a start and most do not.
TEST(CudaEmulation, SinglePassScanKernel) {
    // Up to two look-back windows past the last tile (kScanLookBack tiles per lane).
    const int64_t tile = pc::kScanTile, window = 32 * pc::kScanLookBack;
    const std::vector<int64_t> ns = {1, tile, tile + 1, 7 * tile + 3, (window + 5) * tile + 1};
    const auto single = [](Scalar s, bool seg, const std::string &expr = "a+b",
                           const std::string &neutral = "0") {
        return scan_source(s, seg, Precision::Double, expr, neutral, false);
    };
    std::vector<Unit> units = {{"plain", single(Scalar::I32, false)},
                               {"seg", single(Scalar::I32, true)},
                               {"lastnz", single(Scalar::I32, true, "b if b != 0 else a")},
                               {"seg7", single(Scalar::I32, true, "a+b", "7")},
                               {"plainf", single(Scalar::F64, false)},
                               {"lastnz64", single(Scalar::I64, true, "b if b != 0 else a")}};
    std::string driver = kDriverData;
    driver +=
        "const long long kTile = " + std::to_string(pc::kScanTile) + ";\nconst long long ns[] = {";
    for (int64_t n : ns)
        driver += std::to_string(n) + ", ";
    driver += "};\n";
    driver += R"(
template <bool segmented, class T, class K, class Op>
int check(const char *what, K kernel, Op op, T neutral = T(0)) {
    int bad = 0;
    for (long long n : ns) {
        const long long tiles = (n + kTile - 1) / kTile;
        auto x = data<T>(n, 9, 3);
        auto flags = data<int>(n, 1500, 0);
        for (auto &f : flags) f = f == 0;
        std::vector<T> item(n), prev(n);
        T acc = T(0);
        for (long long i = 0; i < n; ++i) {
            const bool start = i == 0 || (segmented && flags[i] != 0);
            prev[i] = start ? neutral : acc;
            acc = start ? x[i] : op(acc, x[i]);
            item[i] = acc;
        }
        for (long long s : {0LL, tiles - 1, tiles - 3}) {
            if (s < 0 || (s > 0 && tiles < 2) || (s == 0 && tiles > 8)) continue; // time
            const bool dense = s == tiles - 3;
            constexpr int kWords = sizeof(T) > 4 ? 2 : 1; // 8-byte values: two halves
            std::vector<unsigned long long> status(tiles * kWords, 0);
            std::vector<T> y(n, T(-1)), yp(n, T(-1)), last(n, T(-1));
            for (long long j = 0; j < s; ++j) { // tiles [0, s) as running blocks leave them
                T av = T(0);
                bool af = false;
                for (long long i = j * kTile; i < (j + 1) * kTile; ++i) {
                    const bool start = i == 0 || (segmented && flags[i] != 0);
                    av = (i == j * kTile || start) ? x[i] : op(av, x[i]);
                    af = af || start;
                }
                const bool inclusive = af || (dense && j % 7 == 3);
                const T v = inclusive ? item[(j + 1) * kTile - 1] : av;
                const unsigned long long st = inclusive ? 2 : 1;
                unsigned bits[2] = {0, 0};
                std::memcpy(bits, &v, sizeof(T));
                for (int h = 0; h < kWords; ++h)
                    status[h * tiles + j] = (static_cast<unsigned long long>(bits[h]) << 32) | st;
            }
            unsigned counter = unsigned(s);
            if constexpr (segmented)
                emu::launch(kernel, unsigned(tiles - s), 256, n, x.data(), y.data(), yp.data(),
                            last.data(), flags.data(), &counter, status.data());
            else
                emu::launch(kernel, unsigned(tiles - s), 256, n, x.data(), y.data(), yp.data(),
                            last.data(), &counter, status.data());
            long long wrong = -1;
            for (long long i = 0; i < n && wrong < 0; ++i) {
                const bool mine = i >= s * kTile;
                if (mine ? !(y[i] == item[i] && yp[i] == prev[i])
                         : !(y[i] == T(-1) && yp[i] == T(-1)))
                    wrong = i;
            }
            if (wrong >= 0) {
                std::printf("FAIL %s n=%lld from tile %lld at %lld: item %g/%g prev %g/%g\n",
                            what, n, s, wrong, double(y[wrong]), double(item[wrong]),
                            double(yp[wrong]), double(prev[wrong]));
                ++bad;
            }
        }
    }
    return bad;
}

int main() {
    int bad = 0;
    auto sum = [](auto a, auto b) { return a + b; };
    auto lastnz = [](auto a, auto b) { return b != 0 ? b : a; };
    bad += check<false, int>("plain", plain::smelt_scan_single, sum);
    bad += check<true, int>("segmented", seg::smelt_scan_single, sum);
    bad += check<true, int>("last non-zero", lastnz::smelt_scan_single, lastnz);
    bad += check<true, int>("segmented, neutral 7", seg7::smelt_scan_single, sum, 7);
    bad += check<false, double>("plain f64", plainf::smelt_scan_single, sum);
    bad += check<true, long long>("last non-zero i64", lastnz64::smelt_scan_single, lastnz);
    std::printf(bad ? "SOME FAILED\n" : "ALL OK\n");
}
)";
    const std::string out = compile_and_run(units, driver);
    EXPECT_NE(out.find("ALL OK"), std::string::npos) << out;
}

TEST(CudaEmulation, GeometryCoversEveryItemOnce) {
    for (int64_t n : {int64_t(1), int64_t(1791), int64_t(1792), int64_t(1793), int64_t(1) << 27,
                      (int64_t(1) << 27) + 5})
        for (int64_t max_blocks : {1, 3, 132 * 8}) {
            auto g = pc::scan_geometry(n, max_blocks);
            EXPECT_LE(g.blocks, max_blocks);
            EXPECT_GE(g.blocks * g.per_block * pc::kScanTile, n);       // all items covered
            EXPECT_LT((g.blocks - 1) * g.per_block * pc::kScanTile, n); // no empty block
            const int64_t r = pc::reduction_blocks(n, max_blocks);
            EXPECT_LE(r, max_blocks);
            EXPECT_LT((r - 1) * pc::kReduceBlock, n); // every block owns an item
        }
    EXPECT_EQ(pc::reduction_blocks(0, 10), 0);
    EXPECT_EQ(pc::scan_geometry(0, 10).blocks, 0);
}

} // namespace
} // namespace smelt
