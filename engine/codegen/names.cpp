#include "codegen/names.h"

#include "lower/builtins.h"

#include <cctype>
#include <cstdio>
#include <unordered_set>

namespace smelt::codegen {

namespace {

// Keywords of C11, C++20, OpenCL C and CUDA; type and macro names the dialects' headers
// define; the GPU functions generated code calls. The kernel builtins a dialect predefines and
// the math functions generated code calls come from the builtin table
// (lower::builtin_reserved_c_names). A user variable may shadow any other library function (we
// never call it), so those are not listed.
const char *const kReserved[] = {
    // C
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
    "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "_Bool", "_Complex", "_Imaginary", "_Alignas",
    "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert", "_Thread_local",
    // C++
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t",
    "char16_t", "char32_t", "class", "compl", "concept", "consteval", "constexpr", "constinit",
    "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "false", "final", "friend", "import", "module", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "override", "private",
    "protected", "public", "reinterpret_cast", "requires", "static_assert", "static_cast",
    "template", "this", "thread_local", "throw", "true", "try", "typeid", "typename", "using",
    "virtual", "wchar_t", "xor", "xor_eq", "std", "main",
    // OpenCL C
    "kernel", "global", "local", "constant", "__kernel", "__global", "__local", "__constant",
    "__private", "read_only", "write_only", "read_write", "uniform", "pipe", "half", "uchar",
    "ushort", "uint", "ulong", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "event_t",
    "sampler_t", "image1d_t", "image2d_t", "image3d_t", "image1d_array_t", "image2d_array_t",
    "image1d_buffer_t", "get_global_id", "get_local_id", "get_group_id", "get_global_size",
    "get_local_size", "get_num_groups", "get_work_dim", "get_global_offset", "barrier", "mem_fence",
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "atomic_sub", "atomic_cmpxchg", "atomic_xchg",
    "atom_add", "atom_inc", "atom_dec", "atom_cmpxchg", "as_int", "as_uint", "as_long", "as_ulong",
    "as_float", "as_double",
    // CUDA
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "atomicAdd", "atomicCAS",
    "atomicSub", "atomicInc", "atomicDec", "atomicExch",
    // <stdint.h>
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    // macros of <math.h>, <limits.h>, <float.h>, <stddef.h> and OpenCL
    "HUGE_VAL", "HUGE_VALF", "MAXFLOAT", "NULL", "EOF", "M_E", "M_PI_2", "M_PI_4", "M_1_PI",
    "M_2_PI", "M_2_SQRTPI", "M_SQRT2", "M_SQRT1_2", "M_LN2", "M_LN10", "M_LOG2E", "M_LOG10E",
    "M_PI_F", "M_E_F", "FLT_MAX", "FLT_MIN", "FLT_EPSILON", "DBL_MAX", "DBL_MIN", "DBL_EPSILON",
    "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "ULONG_MAX", "CHAR_BIT", "isnormal",
    "signbit", "fpclassify", "isgreater", "isgreaterequal", "isless", "islessequal",
    "islessgreater", "isunordered", "assert", "errno", "offsetof"};

const std::unordered_set<std::string> &reserved_set() {
    static const std::unordered_set<std::string> set = [] {
        std::unordered_set<std::string> s(std::begin(kReserved), std::end(kReserved));
        const char *vec_bases[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                   "long", "ulong", "float", "double", "half", "bool"};
        for (const char *b : vec_bases)
            for (int n : {2, 3, 4, 8, 16})
                s.insert(std::string(b) + std::to_string(n));
        for (const std::string &n : lower::builtin_reserved_c_names())
            s.insert(n);
        return s;
    }();
    return set;
}

bool is_identifier(const std::string &s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// Python allows non-ASCII identifiers; C dialects differ on them, so each other byte
// becomes _xHH.
std::string sanitize(const std::string &s) {
    if (is_identifier(s)) return s;
    std::string out = s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) ? "v" : "";
    for (char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            out += c;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "_x%02X", static_cast<unsigned char>(c));
            out += buf;
        }
    }
    return out;
}

} // namespace

bool is_reserved_identifier(const std::string &name) {
    if (reserved_set().count(name)) return true;
    if (name.rfind("smelt_", 0) == 0 || name.rfind("SMELT_", 0) == 0) return true;
    if (name.rfind("__", 0) == 0) return true;
    return name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1]));
}

std::vector<std::string> choose_names(const std::vector<std::string> &wanted,
                                      const std::set<std::string> &taken) {
    std::set<std::string> used = taken;
    std::vector<std::string> out(wanted.size());
    auto usable = [&](const std::string &n) {
        return !is_reserved_identifier(n) && !used.count(n);
    };
    // Valid names first, so a renamed `int` (→ int_) never takes a user's own `int_`.
    for (size_t i = 0; i < wanted.size(); ++i) {
        if (is_identifier(wanted[i]) && usable(wanted[i])) {
            out[i] = wanted[i];
            used.insert(wanted[i]);
        }
    }
    for (size_t i = 0; i < wanted.size(); ++i) {
        if (!out[i].empty()) continue;
        std::string base = sanitize(wanted[i]);
        // A reserved prefix (smelt_, __, _X) survives any suffix, so such names get a prefix.
        if (is_reserved_identifier(base + "_")) base = "v" + base;
        std::string cand = base;
        if (!usable(cand)) cand = base + "_";
        for (int k = 2; !usable(cand); ++k)
            cand = base + "_" + std::to_string(k);
        out[i] = cand;
        used.insert(cand);
    }
    return out;
}

// C library functions the dialects' headers declare (<math.h>, <stdlib.h>, <string.h>,
// <stdio.h>, OpenCL and CUDA built-ins). A user *function* must not take one of these names: a
// `def round(x)` would redeclare the library's round. Variables may shadow them freely.
const std::set<std::string> &library_function_names() {
    static const std::set<std::string> names = [] {
        std::set<std::string> s;
        const char *base[] = {"round",
                              "lround",
                              "llround",
                              "rint",
                              "lrint",
                              "llrint",
                              "nearbyint",
                              "exp2",
                              "exp10",
                              "fmin",
                              "fmax",
                              "fdim",
                              "fma",
                              "frexp",
                              "ldexp",
                              "modf",
                              "remainder",
                              "remquo",
                              "scalbn",
                              "scalbln",
                              "ilogb",
                              "logb",
                              "nan",
                              "nextafter",
                              "nexttoward",
                              "tgamma",
                              "lgamma",
                              "j0",
                              "j1",
                              "jn",
                              "y0",
                              "y1",
                              "yn",
                              "sincos",
                              "significand",
                              "gamma",
                              "drem",
                              "finite",
                              "abs",
                              "labs",
                              "llabs",
                              "div",
                              "ldiv",
                              "rand",
                              "srand",
                              "malloc",
                              "calloc",
                              "realloc",
                              "free",
                              "exit",
                              "abort",
                              "atexit",
                              "atoi",
                              "atol",
                              "atof",
                              "strtod",
                              "strtol",
                              "qsort",
                              "bsearch",
                              "getenv",
                              "system",
                              "memcpy",
                              "memmove",
                              "memset",
                              "memcmp",
                              "strlen",
                              "strcpy",
                              "strcmp",
                              "strcat",
                              "printf",
                              "fprintf",
                              "sprintf",
                              "snprintf",
                              "puts",
                              "putchar",
                              "mad",
                              "mix",
                              "clamp",
                              "sign",
                              "step",
                              "smoothstep",
                              "degrees",
                              "radians",
                              "native_sin",
                              "native_cos",
                              "native_exp",
                              "rsqrt",
                              "rcbrt",
                              "sinpi",
                              "cospi",
                              "tanpi",
                              "exp10",
                              "powr",
                              "pown",
                              "rootn",
                              "fract",
                              "max",
                              "min",
                              "select",
                              "dot",
                              "cross",
                              "length",
                              "distance",
                              "normalize",
                              "popcount",
                              "clz",
                              "rotate",
                              "upsample",
                              "mul24",
                              "mad24",
                              "hadd",
                              "rhadd",
                              "isordered",
                              "__syncthreads",
                              "__threadfence",
                              "saturate",
                              "sqrtf",
                              "fabsf"};
        for (const char *b : base) {
            s.insert(b);
            s.insert(std::string(b) + "f");
            s.insert(std::string(b) + "l");
        }
        return s;
    }();
    return names;
}

ModuleNames name_module(const ir::Module &m) {
    ModuleNames names;
    std::vector<std::string> fn_names;
    for (const auto &f : m.functions)
        fn_names.push_back(f->name);
    auto fn_c = choose_names(fn_names, library_function_names());
    std::set<std::string> fn_taken(fn_c.begin(), fn_c.end());
    for (size_t i = 0; i < m.functions.size(); ++i)
        names.functions[fn_names[i]] = fn_c[i];

    for (const auto &f : m.functions) {
        std::vector<const ir::Var *> vars;
        std::vector<std::string> wanted;
        for (const auto &v : f->params)
            vars.push_back(v.get());
        for (const auto &v : f->locals)
            vars.push_back(v.get());
        for (const auto *v : vars)
            wanted.push_back(v->name);
        // Variables never take a function's name, so calls are never shadowed.
        auto chosen = choose_names(wanted, fn_taken);
        auto &map = names.vars[f.get()];
        for (size_t i = 0; i < vars.size(); ++i)
            map[vars[i]] = chosen[i];
    }
    return names;
}

} // namespace smelt::codegen
