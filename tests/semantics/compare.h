// Compares an array the engine produced with the one CPython produced: integers exactly, floats
// within a relative tolerance (NaN equals NaN, infinities must match).
#pragma once

#include "case_spec.h"
#include "npy.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>

namespace smelt::testing {

// float64: a few ulps of the larger magnitude; float32: CPython computes float32 expressions
// with Python float literals in double (NumPy 1.24 promotion) and rounds once when storing, the
// engine rounds at every operation, so allow several float32 ulps.
inline double default_rtol(DType t) {
    return t == DType::Float64 ? 1e-12 : t == DType::Float32 ? 1e-5 : 0.0;
}

inline bool close_enough(double expected, double actual, double rtol) {
    if (std::isnan(expected) || std::isnan(actual))
        return std::isnan(expected) && std::isnan(actual);
    if (std::isinf(expected) || std::isinf(actual)) return expected == actual;
    // Relative to the larger magnitude, and absolute below 1 (results that should be 0 come out
    // as 1e-17 from a different but equally good rounding).
    return std::fabs(expected - actual) <=
           rtol * std::max({1.0, std::fabs(expected), std::fabs(actual)});
}

struct Mismatch {
    size_t index = 0; // first differing element
    size_t count = 0; // how many differ
};

inline std::optional<Mismatch> compare_arrays(const HostArray &expected, const HostArray &actual,
                                              double rtol) {
    Mismatch m;
    bool any = false;
    visit_dtype(expected.dtype, [&]<class T>() {
        for (size_t k = 0; k < expected.size(); ++k) {
            bool same;
            if constexpr (std::is_floating_point_v<T>)
                same = close_enough(expected.at<T>(k), actual.at<T>(k), rtol);
            else
                same = expected.at<T>(k) == actual.at<T>(k);
            if (!same) {
                if (!any) m.index = k;
                any = true;
                ++m.count;
            }
        }
    });
    if (!any) return std::nullopt;
    return m;
}

// "out[37] (work item 5): python -4, smelt -3; 12 of 700 elements differ; inputs at i=5: a=-7 b=2
// n=90"
inline std::string describe_mismatch(const CaseSpec &spec, size_t arg, const Mismatch &m,
                                     const HostArray &expected, const HostArray &actual,
                                     const std::vector<HostArray> &inputs) {
    std::ostringstream os;
    const ArgSpec &a = spec.args[arg];
    os << a.name << "[" << m.index << "]";
    size_t per_item = a.is_scalar() ? 0 : a.length(spec.n) / spec.n;
    bool item_known = per_item > 0 && a.length(spec.n) % spec.n == 0;
    size_t item = item_known ? m.index / per_item : 0;
    if (item_known) os << " (work item i=" << item << ")";
    os << ": python " << expected.str(m.index) << ", smelt " << actual.str(m.index) << "; "
       << m.count << " of " << expected.size() << " elements differ";
    if (item_known) {
        os << "; inputs at i=" << item << ":";
        for (size_t k = 0; k < spec.args.size(); ++k) {
            const ArgSpec &in = spec.args[k];
            if (in.gen == "zeros") continue; // an output: its input says nothing
            if (in.is_scalar())
                os << " " << in.name << "=" << inputs[k].str(0);
            else if (in.length(spec.n) == spec.n)
                os << " " << in.name << "[i]=" << inputs[k].str(item);
        }
    }
    return os.str();
}

} // namespace smelt::testing
