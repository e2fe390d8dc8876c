#include "lower/const_eval.h"

#include <cmath>

namespace smelt::lower {

namespace {

int64_t wrap_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(uint64_t(a) + uint64_t(b));
}
int64_t wrap_sub(int64_t a, int64_t b) {
    return static_cast<int64_t>(uint64_t(a) - uint64_t(b));
}
int64_t wrap_mul(int64_t a, int64_t b) {
    return static_cast<int64_t>(uint64_t(a) * uint64_t(b));
}

int64_t py_floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
int64_t py_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
double py_fmod(double a, double b) {
    double r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    if (r == 0) r = std::copysign(0.0, b);
    return r;
}
double py_ffloordiv(double a, double b) {
    double mod = std::fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
    if (div == 0) return std::copysign(0.0, a / b);
    double fl = std::floor(div);
    if (div - fl > 0.5) fl += 1.0;
    return fl;
}

} // namespace

std::optional<ConstValue> fold_binary(const std::string &op, ConstValue a, ConstValue b,
                                      std::string &error) {
    bool ints = std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b);
    if (ints) {
        int64_t x = std::get<int64_t>(a), y = std::get<int64_t>(b);
        if (op == "+") return wrap_add(x, y);
        if (op == "-") return wrap_sub(x, y);
        if (op == "*") return wrap_mul(x, y);
        if (op == "&") return x & y;
        if (op == "|") return x | y;
        if (op == "^") return x ^ y;
        if (op == "<<" || op == ">>") {
            if (y < 0) {
                error = "negative shift count";
                return std::nullopt;
            }
            if (op == ">>") return y >= 64 ? (x < 0 ? -1 : 0) : (x >> y);
            return y >= 64 ? 0 : static_cast<int64_t>(uint64_t(x) << y);
        }
        if ((op == "//" || op == "%") && y == 0) {
            error = "integer division by zero";
            return std::nullopt;
        }
        if (op == "//") return py_floordiv(x, y);
        if (op == "%") return py_mod(x, y);
        if (op == "**") {
            if (y < 0) return std::pow(double(x), double(y));
            int64_t r = 1;
            for (int64_t k = 0; k < y && k < 64; ++k)
                r = wrap_mul(r, x);
            return r;
        }
        if (op == "/") {
            if (y == 0) {
                error = "division by zero";
                return std::nullopt;
            }
            return double(x) / double(y);
        }
    }
    if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>") {
        error = "bitwise operators need integer operands";
        return std::nullopt;
    }
    double x = as_double(a), y = as_double(b);
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
    if (op == "**") return std::pow(x, y);
    if (y == 0 && (op == "/" || op == "//" || op == "%")) {
        error = "float division by zero";
        return std::nullopt;
    }
    if (op == "/") return x / y;
    if (op == "//") return py_ffloordiv(x, y);
    if (op == "%") return py_fmod(x, y);
    error = "unsupported operator '" + op + "'";
    return std::nullopt;
}

std::optional<ConstValue> fold_unary(const std::string &op, ConstValue a, std::string &error) {
    if (op == "+") return a;
    if (op == "-") {
        if (std::holds_alternative<int64_t>(a)) return wrap_sub(0, std::get<int64_t>(a));
        return -std::get<double>(a);
    }
    if (op == "~") {
        if (std::holds_alternative<int64_t>(a)) return ~std::get<int64_t>(a);
        error = "bitwise operators need integer operands";
        return std::nullopt;
    }
    error = "unsupported operator '" + op + "'";
    return std::nullopt;
}

bool fold_compare(const std::string &op, ConstValue a, ConstValue b) {
    if (std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b)) {
        int64_t x = std::get<int64_t>(a), y = std::get<int64_t>(b);
        if (op == "<") return x < y;
        if (op == "<=") return x <= y;
        if (op == ">") return x > y;
        if (op == ">=") return x >= y;
        if (op == "==") return x == y;
        return x != y;
    }
    double x = as_double(a), y = as_double(b);
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
    if (op == "==") return x == y;
    return x != y;
}

} // namespace smelt::lower
