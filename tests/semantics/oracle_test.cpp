// The CPython side of the semantics suite, without the engine: every case's spec parses, the
// C++-generated inputs survive the trip through .npy files, the oracle runs the kernel on them
// without raising (no division by zero, no out-of-range index, declared types match the
// generated dtypes) and hands back arrays of the right dtype and length. Also checks npy.h
// against NumPy directly, and runs oracle_selftest.py (purepy's meaning against hand-written
// expectations).
#include "case_spec.h"
#include "compare.h"
#include "npy.h"
#include "oracle_run.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>

namespace smelt::testing {
namespace {

namespace fs = std::filesystem;

bool python_missing(const OracleResult &r) {
    return r.status == OracleResult::Status::Skip;
}

class OracleCase : public ::testing::TestWithParam<std::string> {};

TEST_P(OracleCase, RunsOnGeneratedInputs) {
    CaseSpec spec = parse_case_spec(GetParam());
    std::vector<HostArray> inputs;
    for (size_t k = 0; k < spec.args.size(); ++k)
        inputs.push_back(generate_input(spec, k));
    OracleResult r = run_oracle(spec, inputs);
    if (python_missing(r)) GTEST_SKIP() << r.message;
    ASSERT_EQ(r.status, OracleResult::Status::Ok) << r.message;
    ASSERT_EQ(r.outputs.size(), inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
        EXPECT_EQ(r.outputs[k].dtype, inputs[k].dtype) << spec.args[k].name;
        EXPECT_EQ(r.outputs[k].size(), inputs[k].size()) << spec.args[k].name;
        EXPECT_EQ(r.outputs[k].scalar, inputs[k].scalar) << spec.args[k].name;
    }
}

TEST_P(OracleCase, InputsAreDeterministicAndFollowTheSpec) {
    CaseSpec spec = parse_case_spec(GetParam());
    for (size_t k = 0; k < spec.args.size(); ++k) {
        const ArgSpec &a = spec.args[k];
        HostArray x = generate_input(spec, k), y = generate_input(spec, k);
        EXPECT_EQ(x.bytes, y.bytes) << a.name;
        EXPECT_EQ(x.size(), a.is_scalar() ? 1 : a.length(spec.n)) << a.name;
        if (a.gen != "ints" && a.gen != "floats" && a.gen != "grid") continue;
        double lo = std::stod(a.params[0]), hi = std::stod(a.params[1]);
        visit_dtype(a.dtype, [&]<class T>() {
            for (size_t j = 0; j < x.size(); ++j) {
                double v = static_cast<double>(x.at<T>(j));
                ASSERT_TRUE(v >= lo && v <= hi) << a.name << "[" << j << "] = " << v;
                if (a.nonzero) ASSERT_NE(v, 0.0) << a.name << "[" << j << "]";
            }
        });
    }
}

std::vector<std::string> case_names() {
    return case_files();
}

INSTANTIATE_TEST_SUITE_P(Cases, OracleCase, ::testing::ValuesIn(case_names()),
                         [](const auto &info) { return case_name(info.param); });

// A file npy.h writes is what NumPy reads (values, dtype, 0-d shape), and back.
TEST(Npy, RoundTripsThroughNumPy) {
    fs::path dir = fs::temp_directory_path() / ("smelt_npy_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write_npy(dir / "a.npy", HostArray::of(std::vector<int8_t>{-128, 0, 127}));
    write_npy(dir / "b.npy", HostArray::of(std::vector<uint32_t>{0, 4294967295u}));
    write_npy(dir / "c.npy", HostArray::of(std::vector<double>{-0.5, 1e300}));
    write_npy(dir / "d.npy", HostArray::of(std::vector<int64_t>{-5}, true));
    std::string script =
        "import numpy as np, sys; d = sys.argv[1]\n"
        "a, b, c, s = (np.load(d + '/' + n + '.npy') for n in 'abcd')\n"
        "ok = (a.dtype == np.int8 and a.tolist() == [-128, 0, 127] and b.dtype == np.uint32\n"
        "      and b.tolist() == [0, 4294967295] and c.tolist() == [-0.5, 1e300]\n"
        "      and s.shape == () and s.dtype == np.int64 and int(s) == -5)\n"
        "np.save(d + '/e.npy', np.array([1.5, -2.25], dtype=np.float32))\n"
        "np.save(d + '/f.npy', np.int16(-3))\n"
        "sys.exit(0 if ok else 1)\n";
    ProcessResult p = run_process({smelt::testing_util::test_python(), "-c", script, dir.string()});
    if (!p.started || p.output.find("No module named 'numpy'") != std::string::npos)
        GTEST_SKIP() << "python3 with NumPy is not available: " << p.output;
    EXPECT_EQ(p.exit_status, 0) << p.output;
    HostArray e = read_npy(dir / "e.npy");
    EXPECT_EQ(e.dtype, DType::Float32);
    EXPECT_EQ(e.values<float>(), (std::vector<float>{1.5f, -2.25f}));
    HostArray f = read_npy(dir / "f.npy");
    EXPECT_TRUE(f.scalar);
    EXPECT_EQ(f.values<int16_t>(), std::vector<int16_t>{-3});
    fs::remove_all(dir);
}

TEST(Compare, TolerancesAndSpecialValues) {
    EXPECT_TRUE(close_enough(1.0, 1.0 + 1e-13, 1e-12));
    EXPECT_FALSE(close_enough(1.0, 1.0 + 1e-11, 1e-12));
    EXPECT_TRUE(close_enough(1e20, 1e20 * (1 + 1e-13), 1e-12));
    EXPECT_TRUE(close_enough(NAN, NAN, 1e-12));
    EXPECT_FALSE(close_enough(NAN, 0.0, 1e-12));
    EXPECT_FALSE(close_enough(INFINITY, -INFINITY, 1e-12));
    EXPECT_FALSE(close_enough(INFINITY, 1e308, 1e-5));
    auto a = HostArray::of(std::vector<int32_t>{1, 2, 3, 4}),
         b = HostArray::of(std::vector<int32_t>{1, 5, 3, 6});
    auto m = compare_arrays(a, b, 0);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->index, 1u);
    EXPECT_EQ(m->count, 2u);
    EXPECT_FALSE(compare_arrays(a, a, 0).has_value());
}

TEST(PurePy, SelfTest) {
    ProcessResult p = run_process(
        {smelt::testing_util::test_python(), (semantics_dir() / "oracle_selftest.py").string()});
    if (!p.started || p.exit_status == 77)
        GTEST_SKIP() << "python3 with NumPy is not available: " << p.output;
    EXPECT_EQ(p.exit_status, 0) << p.output;
}

} // namespace
} // namespace smelt::testing
