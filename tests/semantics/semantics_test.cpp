// The semantics suite: every kernel in tests/semantics/cases runs through smelt::Elementwise on
// the backend named by SMELT_TEST_BACKEND (default "cpu") and in CPython (oracle.py, the
// executable meaning of the language), on the same deterministic inputs; every array argument
// must then hold the same values: integers exactly, floats within a relative tolerance
// (compare.h; a case may widen it per argument with rtol=). A failure names the first differing
// element, its work item, the inputs there and both results.
//
// Cases whose names say what they test and that fail are compiler bugs, listed in
// docs/LANGUAGE.md ("How the meaning is tested"); they stay failing until fixed.
#include "case_spec.h"
#include "compare.h"
#include "npy.h"
#include "oracle_run.h"

#include <gtest/gtest.h>

#if __has_include("smelt.h")
#include "array/array.h"
#include "backends/registry.h"
#include "smelt.h"
#include "support/error.h"

#include <algorithm>
#include <cstdlib>

namespace smelt::testing {
namespace {

std::string test_backend() {
    const char *b = std::getenv("SMELT_TEST_BACKEND");
    return b && *b ? b : "cpu";
}

// A scalar argument as the Arg the primitive takes; only the four scalar types Arg accepts.
Arg scalar_arg(const HostArray &h, const std::string &name) {
    switch (h.dtype) {
    case DType::Int32:
        return Arg(h.at<int32_t>(0));
    case DType::Int64:
        return Arg(h.at<int64_t>(0));
    case DType::Float32:
        return Arg(h.at<float>(0));
    case DType::Float64:
        return Arg(h.at<double>(0));
    default:
        throw std::runtime_error("scalar argument '" + name +
                                 "' must be int32, int64, float32 or float64, not " +
                                 dtype_name(h.dtype));
    }
}

Array to_array(const HostArray &h, Backend &backend) {
    Array out;
    visit_dtype(h.dtype, [&]<class T>() { out = Array::from_vector(h.values<T>(), &backend); });
    return out;
}

HostArray from_array(const Array &a) {
    HostArray out;
    visit_dtype(a.dtype(), [&]<class T>() { out = HostArray::of(a.to_vector<T>()); });
    return out;
}

// "opencl:1" → "opencl", "cpu:serial" → "cpu".
std::string backend_family(const std::string &name) {
    return name.substr(0, name.find(':'));
}

class Semantics : public ::testing::TestWithParam<std::string> {};

TEST_P(Semantics, MatchesCPython) {
    CaseSpec spec = parse_case_spec(GetParam());
    std::vector<HostArray> inputs;
    for (size_t k = 0; k < spec.args.size(); ++k)
        inputs.push_back(generate_input(spec, k));

    OracleResult oracle = run_oracle(spec, inputs);
    if (oracle.status == OracleResult::Status::Skip)
        GTEST_SKIP() << "no CPython oracle: " << oracle.message;
    ASSERT_EQ(oracle.status, OracleResult::Status::Ok) << oracle.message;

    const std::string backend_name = test_backend();
    Backend &backend = get_backend(backend_name);
    std::vector<Array> arrays(spec.args.size());
    std::vector<Arg> args;
    for (size_t k = 0; k < spec.args.size(); ++k) {
        if (spec.args[k].is_scalar()) {
            args.push_back(scalar_arg(inputs[k], spec.args[k].name));
        } else {
            arrays[k] = to_array(inputs[k], backend);
            args.emplace_back(arrays[k]);
        }
    }
    const bool rejected = std::find(spec.rejected_on.begin(), spec.rejected_on.end(),
                                    backend_family(backend_name)) != spec.rejected_on.end();
    try {
        Options options;
        options.backend = backend_name;
        Elementwise kernel(Program::from_file(spec.path), spec.kernel, options);
        kernel(static_cast<int64_t>(spec.n), args);
        if (rejected) FAIL() << spec.name << " ran on " << backend_name << ", which must reject it";
    } catch (const CompileError &e) {
        if (rejected) {
            // The case header says this backend cannot run it: a located error is the answer.
            ASSERT_FALSE(e.diagnostics().empty());
            EXPECT_NE(e.diagnostics()[0].rendered.find(spec.name + ".py:"), std::string::npos)
                << e.diagnostics()[0].rendered;
            GTEST_SKIP() << spec.name << " is rejected on " << backend_name
                         << " as the language says: " << e.diagnostics()[0].message;
        }
        std::string all;
        for (const auto &d : e.diagnostics())
            all += d.rendered + "\n";
        FAIL() << "the engine rejects " << spec.name << ", which CPython runs:\n" << all;
    } catch (const BackendError &e) {
        FAIL() << "backend error for " << spec.name << ": " << e.what() << "\n"
               << e.log() << "\nsource kept at " << e.kept_source();
    } catch (const std::exception &e) {
        FAIL() << "engine error for " << spec.name << ": " << e.what();
    }

    for (size_t k = 0; k < spec.args.size(); ++k) {
        if (spec.args[k].is_scalar()) continue;
        HostArray actual = from_array(arrays[k]);
        ASSERT_EQ(actual.size(), oracle.outputs[k].size()) << spec.args[k].name;
        double rtol = spec.args[k].rtol.value_or(default_rtol(actual.dtype));
        if (auto m = compare_arrays(oracle.outputs[k], actual, rtol))
            ADD_FAILURE() << spec.name << " on " << backend_name << ": "
                          << describe_mismatch(spec, k, *m, oracle.outputs[k], actual, inputs);
    }
}

INSTANTIATE_TEST_SUITE_P(Cases, Semantics, ::testing::ValuesIn(case_files()),
                         [](const auto &info) { return case_name(info.param); });

} // namespace
} // namespace smelt::testing

#else // the public API (engine/smelt.h) is not in this tree yet

TEST(Semantics, NeedsThePublicApi) {
    GTEST_SKIP() << "engine/smelt.h (Program, Elementwise, Arg) is not in this tree yet; "
                    "oracle_test.cpp and compile_test.cpp cover what runs without it";
}

#endif
