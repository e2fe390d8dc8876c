// Module constants given values when a program is made (smelt::ProgramOptions::constants; the
// Python package's specialize does the same from Python): compile-time numbers such as a loop
// bound, a matrix extent or a cutoff, set without editing the kernel file.
#pragma once

#include "frontend/ast.h"

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>

namespace smelt {

// A number for a module constant: an integer or a float, as Python's int and float. bool gives
// the integer 0 or 1, as in Python.
class ConstantValue {
public:
    template <class T>
    requires std::is_integral_v<T> ConstantValue(T v) : is_int_(true), int_(int64_t(v)) {}
    template <class T>
    requires std::is_floating_point_v<T> ConstantValue(T v) : is_int_(false), float_(double(v)) {}

    bool is_int() const { return is_int_; }
    int64_t int_value() const { return int_; }
    double float_value() const { return float_; }

private:
    bool is_int_;
    int64_t int_ = 0;
    double float_ = 0.0;
};

namespace frontend {

// Gives the module constants of `main` (the program's own file) the values in `values`, as if
// the file said NAME = value: a constant the file defines gets the new value at its own place;
// one it imports from a kernel library is shadowed in this file only (the library's own
// functions keep its value, as in Python). UsageError naming a name that is neither.
void override_constants(ast::Module &main, const std::map<std::string, ConstantValue> &values);

} // namespace frontend
} // namespace smelt
