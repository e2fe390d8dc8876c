#include "codegen/prelude.h"

#include "codegen/c_like.h"

#include <cstdint>

namespace smelt::codegen {

namespace {

const char *kCommon =
#include "codegen/prelude_common.inc"
    ;

const Scalar kIntegers[] = {Scalar::I8,  Scalar::U8,  Scalar::I16, Scalar::U16,
                            Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64};

// The unsigned type the same width as s (s: an integer or float type).
Scalar unsigned_of_width(Scalar s) {
    switch (scalar_bits(s)) {
    case 8:
        return Scalar::U8;
    case 16:
        return Scalar::U16;
    case 32:
        return Scalar::U32;
    default:
        return Scalar::U64;
    }
}

std::string instance(const std::string &macro, const std::vector<std::string> &args) {
    std::string out = macro + "(";
    for (size_t i = 0; i < args.size(); ++i)
        out += (i ? ", " : "") + args[i];
    return out + ")\n";
}

} // namespace

std::string prelude(const Dialect &d, bool with_f64, bool bounds_checked) {
    std::string out = "/* ---- smelt prelude (" + d.name + ") ---- */\n";
    if (with_f64) out += d.f64_enable;
    out += d.prelude_head;
    out += kCommon;
    out += "\n";
    for (Scalar s : kIntegers) {
        // Arithmetic on 8- and 16-bit values happens in (unsigned) int after C's promotion.
        Scalar wide = scalar_bits(s) < 32 ? Scalar::U32 : unsigned_of_width(s);
        out += instance(scalar_is_signed(s) ? "SMELT_SIGNED_OPS" : "SMELT_UNSIGNED_OPS",
                        {d.type(s), d.type(wide), scalar_suffix(s)});
    }
    for (Scalar s : {Scalar::F32, Scalar::F64}) {
        if (s == Scalar::F64 && !with_f64) continue;
        out += instance("SMELT_FLOAT_OPS",
                        {d.type(s), scalar_suffix(s), d.math_function("fmod", s),
                         d.math_function("floor", s), d.math_function("copysign", s)});
    }
    for (Scalar f : {Scalar::F32, Scalar::F64}) {
        if (f == Scalar::F64 && !with_f64) continue;
        for (Scalar s : kIntegers) {
            const int bits = scalar_bits(s);
            int64_t lo = 0, hi = -1; // u64: all ones, bit-cast
            if (scalar_is_signed(s)) {
                lo = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
                hi = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
            } else if (bits < 64) {
                hi = (int64_t(1) << bits) - 1;
            }
            out +=
                instance("SMELT_F2I_OPS", {d.type(f), scalar_suffix(f), d.type(s), scalar_suffix(s),
                                           int_literal(d, s, lo), int_literal(d, s, hi)});
        }
    }
    // Infinity and NaN by type; INFINITY and NAN are float constants in every C dialect.
    out += "#define SMELT_INF_F32 INFINITY\n#define SMELT_NAN_F32 NAN\n";
    if (with_f64) {
        out += "#define SMELT_INF_F64 ((" + d.type(Scalar::F64) + ")INFINITY)\n";
        out += "#define SMELT_NAN_F64 ((" + d.type(Scalar::F64) + ")NAN)\n";
        // For wrappers and hand-written code; generated code spells constants as literals.
        out += "#ifndef M_PI\n#define M_PI 3.14159265358979323846\n#endif\n";
        out += "#ifndef M_E\n#define M_E 2.7182818284590452354\n#endif\n";
    }
    out += "\n";
    out += d.prelude_atomics;
    for (Scalar s :
         {Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64, Scalar::F32, Scalar::F64}) {
        if (s == Scalar::F64 && !with_f64) continue;
        out += instance(scalar_is_float(s) ? "SMELT_ATOMIC_FLOAT_OPS" : "SMELT_ATOMIC_INT_OPS",
                        {d.type(s), d.type(unsigned_of_width(s)), scalar_suffix(s)});
    }
    if (bounds_checked) {
        // The first index outside [0, len) is recorded (count, site, index, len) and replaced
        // by 0; the host raises the error after the launch (ir/passes/bounds_check.h).
        const std::string l = d.type(Scalar::I64);
        out += "SMELT_INLINE " + l + " smelt_checked_index(" + l + " i, " + l +
               " len, SMELT_GLOBAL " + l + " *t, " + l +
               " site) {\n    if (i >= 0 && i < len) return i;\n" +
               "    if (smelt_atomic_add_i64(t, (" + l + ")1) == 0) {\n        t[1] = site;\n" +
               "        t[2] = i;\n        t[3] = len;\n    }\n    return 0;\n}\n";
        // The first NaN or infinity stored is recorded: site, index, 1 NaN / 2 +inf / 3 -inf.
        for (Scalar f : {Scalar::F32, Scalar::F64}) {
            if (f == Scalar::F64 && !with_f64) continue;
            const std::string t = d.type(f), sfx = scalar_suffix(f);
            out += "SMELT_INLINE " + t + " smelt_checked_finite_" + sfx + "(" + t + " v, " + l +
                   " i, SMELT_GLOBAL " + l + " *t, " + l + " site) {\n" +
                   "    if (!smelt_isfinite_" + sfx + "(v) && smelt_atomic_add_i64(t, (" + l +
                   ")1) == 0) {\n        t[1] = site;\n        t[2] = i;\n" +
                   "        t[3] = v != v ? 1 : v > 0 ? 2 : 3;\n    }\n    return v;\n}\n";
        }
    }
    out += "/* ---- end of smelt prelude ---- */\n";
    return out;
}

} // namespace smelt::codegen
