#include "lower/builtins.h"

#include <cmath>
#include <map>

namespace smelt::types {

namespace {

const std::map<std::string, BuiltinInfo> &table() {
    using K = BuiltinKind;
    static const std::map<std::string, BuiltinInfo> t = [] {
        std::map<std::string, BuiltinInfo> m;
        for (const char *n :
             {"sin",   "cos",   "tan",   "asin",  "acos",  "atan",  "sinh",  "cosh", "tanh",
              "asinh", "acosh", "atanh", "exp",   "expm1", "log",   "log10", "log2", "log1p",
              "sqrt",  "cbrt",  "fabs",  "floor", "ceil",  "trunc", "erf",   "erfc"})
            m[n] = {K::MathUnary, 1, 1};
        for (const char *n : {"atan2", "pow", "hypot", "fmod", "copysign"})
            m[n] = {K::MathBinary, 2, 2};
        for (const char *n : {"isnan", "isinf", "isfinite"})
            m[n] = {K::Classify, 1, 1};
        m["abs"] = {K::Abs, 1, 1};
        m["min"] = {K::MinMax, 2, -1};
        m["max"] = {K::MinMax, 2, -1};
        m["int"] = {K::IntConv, 1, 1};
        m["float"] = {K::FloatConv, 1, 1};
        m["cast"] = {K::Cast, 2, 2};
        m["declare"] = {K::Declare, 1, 2};
        m["atomic_inc"] = {K::Atomic, 1, 1};
        m["atomic_dec"] = {K::Atomic, 1, 1};
        m["atomic_add"] = {K::Atomic, 2, 2};
        m["local_barrier"] = {K::Barrier, 0, 0};
        m["len"] = {K::Len, 1, 1};
        return m;
    }();
    return t;
}

} // namespace

std::optional<BuiltinInfo> find_builtin(const std::string &name) {
    auto it = table().find(name);
    if (it == table().end()) return std::nullopt;
    return it->second;
}

std::optional<double> builtin_float_constant(const std::string &name) {
    if (name == "pi" || name == "M_PI") return M_PI;
    if (name == "e") return M_E;
    if (name == "inf" || name == "INFINITY") return INFINITY;
    if (name == "nan" || name == "NAN") return NAN;
    return std::nullopt;
}

bool is_work_item_name(const std::string &name) {
    for (const char *p : {"LID_", "GID_", "LDIM_", "GDIM_"}) {
        std::string s(p);
        if (name.size() == s.size() + 1 && name.compare(0, s.size(), s) == 0 &&
            name.back() >= '0' && name.back() <= '2')
            return true;
    }
    return false;
}

bool is_math_name(const std::string &name) {
    auto b = find_builtin(name);
    return (b && (b->kind == BuiltinKind::MathUnary || b->kind == BuiltinKind::MathBinary ||
                  b->kind == BuiltinKind::Classify)) ||
           builtin_float_constant(name).has_value();
}

} // namespace smelt::types
