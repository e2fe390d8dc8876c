// Integer min/max for code that NVIDIA's ptxas compiles (CUDA, and OpenCL on NVIDIA's driver).
#include "codegen/dialect.h"

namespace smelt::codegen {

const char *nvidia_int_minmax() {
    return R"(
/* Integer min and max of 32 bits or fewer as an explicit compare-and-select in PTX. ptxas of
   CUDA 13.0 for sm_90 fuses min(min(x, -y), z) into one three-input VIMNMX3 and loses the
   negation of y: min(42, -(-32), 0) gave -32 on the H100, through NVRTC and through NVIDIA's
   OpenCL alike (tests/semantics/cases/min_max_abs.py found it). The select keeps the meaning;
   64-bit values are not affected and keep the plain form. */
SMELT_INLINE int smelt_nv_min_s32(int a, int b) {
    int r;
    asm("{.reg .pred p; setp.lt.s32 p, %2, %1; selp.b32 %0, %2, %1, p;}" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
SMELT_INLINE int smelt_nv_max_s32(int a, int b) {
    int r;
    asm("{.reg .pred p; setp.gt.s32 p, %2, %1; selp.b32 %0, %2, %1, p;}" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
SMELT_INLINE unsigned smelt_nv_min_u32(unsigned a, unsigned b) {
    unsigned r;
    asm("{.reg .pred p; setp.lt.u32 p, %2, %1; selp.b32 %0, %2, %1, p;}" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
SMELT_INLINE unsigned smelt_nv_max_u32(unsigned a, unsigned b) {
    unsigned r;
    asm("{.reg .pred p; setp.gt.u32 p, %2, %1; selp.b32 %0, %2, %1, p;}" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
#define SMELT_SIGNED_MINMAX_OPS(T, S) \
    SMELT_INLINE T smelt_min_##S(T a, T b) { \
        return sizeof(T) == 8 ? ((b < a) ? b : a) : (T)smelt_nv_min_s32((int)a, (int)b); \
    } \
    SMELT_INLINE T smelt_max_##S(T a, T b) { \
        return sizeof(T) == 8 ? ((b > a) ? b : a) : (T)smelt_nv_max_s32((int)a, (int)b); \
    }
#define SMELT_UNSIGNED_MINMAX_OPS(T, S) \
    SMELT_INLINE T smelt_min_##S(T a, T b) { \
        return sizeof(T) == 8 ? ((b < a) ? b : a) : (T)smelt_nv_min_u32((unsigned)a, (unsigned)b); \
    } \
    SMELT_INLINE T smelt_max_##S(T a, T b) { \
        return sizeof(T) == 8 ? ((b > a) ? b : a) : (T)smelt_nv_max_u32((unsigned)a, (unsigned)b); \
    }
)";
}

} // namespace smelt::codegen
