// The kernel language's types and the one promotion table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smelt::ir {

enum class Scalar : uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

// Where memory lives. Pointers are Global or Local; matrices are Private (a kernel's own
// declare('matrix(...)')), Local (LOCAL_MEM) or Global (an array parameter given a shaped
// argument: device memory whose extents are fixed at specialisation).
enum class AddrSpace : uint8_t { Global, Local, Private };

struct Type {
    enum class Kind : uint8_t { Void, Scalar, Pointer, Matrix };
    Kind kind = Kind::Void;
    Scalar elem = Scalar::I32;           // Scalar: the type; Pointer/Matrix: element type
    AddrSpace space = AddrSpace::Global; // Pointer and Matrix (see AddrSpace)
    std::vector<int64_t> dims;           // Matrix: fixed extents, row-major

    static Type void_() { return {}; }
    static Type scalar(Scalar s) {
        Type t;
        t.kind = Kind::Scalar;
        t.elem = s;
        return t;
    }
    static Type pointer(Scalar s, AddrSpace sp = AddrSpace::Global) {
        Type t;
        t.kind = Kind::Pointer;
        t.elem = s;
        t.space = sp;
        return t;
    }
    static Type matrix(Scalar s, std::vector<int64_t> dims, AddrSpace sp = AddrSpace::Private) {
        Type t;
        t.kind = Kind::Matrix;
        t.elem = s;
        t.dims = std::move(dims);
        t.space = sp;
        return t;
    }

    bool is_void() const { return kind == Kind::Void; }
    bool is_scalar() const { return kind == Kind::Scalar; }
    bool is_pointer() const { return kind == Kind::Pointer; }
    bool is_matrix() const { return kind == Kind::Matrix; }
    // A matrix in global memory: an array parameter of rank >= 2 (emitted as a flat pointer).
    bool is_global_matrix() const { return is_matrix() && space == AddrSpace::Global; }
    // Memory passed to a function by address: a pointer or a global matrix.
    bool is_buffer() const { return is_pointer() || is_global_matrix(); }
    bool is_bool() const { return is_scalar() && elem == Scalar::Bool; }
    bool is_integer() const; // scalar integer, bool excluded
    bool is_float() const;   // scalar f32/f64
    bool is_numeric() const { return is_integer() || is_float(); }

    bool operator==(const Type &o) const {
        return kind == o.kind &&
               (kind == Kind::Void || (elem == o.elem && space == o.space && dims == o.dims));
    }
    bool operator!=(const Type &o) const { return !(*this == o); }

    // The spelling users write: "int", "gdoublep", "ldoublep", "matrix((2, 2), 'int')"...
    std::string str() const;
};

bool scalar_is_integer(Scalar s);
bool scalar_is_signed(Scalar s);
bool scalar_is_float(Scalar s);
int scalar_bits(Scalar s);
const char *scalar_name(Scalar s); // kernel-language name: "int", "ulong", "double", ...

// Parses a kernel-language type name: scalars ("int", "double", "int_", "float_"...), pointers
// ("intp", "gdoublep", "lfloatp"). Matrices come from declare() and are parsed there.
std::optional<Type> parse_type_name(const std::string &name);

// C-style usual arithmetic conversion between two numeric scalars (bool counts as integer):
// float wins over integer, wider wins, and at equal width unsigned wins.
Scalar promote(Scalar a, Scalar b);

// Single-precision switch: f64 → f32 everywhere in a type.
Type demote_to_single(const Type &t);

} // namespace smelt::ir

namespace smelt {

// The types are the vocabulary of every later stage and of the public API (smelt.h's Value and
// Arg name Scalar), so they are also names of smelt itself.
using ir::AddrSpace;
using ir::demote_to_single;
using ir::parse_type_name;
using ir::promote;
using ir::Scalar;
using ir::scalar_bits;
using ir::scalar_is_float;
using ir::scalar_is_integer;
using ir::scalar_is_signed;
using ir::scalar_name;
using ir::Type;

} // namespace smelt
