// Python arithmetic on untyped literals (int64 / double), used to fold weak constants while
// typing (2 * 3 stays a weak literal) and to evaluate module constants.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace smelt::lower {

using ConstValue = std::variant<int64_t, double>;

// Applies a binary operator spelled as in Python ("+", "//", "**", "<<", ...). Returns nullopt
// with `error` set when Python would raise (division by zero, negative shift) or the result is
// not representable; integer results wrap at 64 bits.
std::optional<ConstValue> fold_binary(const std::string &op, ConstValue a, ConstValue b,
                                      std::string &error);
std::optional<ConstValue> fold_unary(const std::string &op, ConstValue a, std::string &error);
// Comparison: "<", "<=", "==", ...
bool fold_compare(const std::string &op, ConstValue a, ConstValue b);

inline double as_double(ConstValue v) {
    return std::holds_alternative<int64_t>(v) ? static_cast<double>(std::get<int64_t>(v))
                                              : std::get<double>(v);
}

} // namespace smelt::lower
