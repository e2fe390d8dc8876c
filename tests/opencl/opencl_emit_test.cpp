// The OpenCL C text (no device needed): where the fp64 pragma appears, the precision switch
// leaving no double, the __kernel entry point, local memory, work-item builtins and bool.
#include "opencl_test_util.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

const char *kSource = R"(
@annotate(x='doublep', n='int')
def scale(x, n):
    i = GID_0 * LDIM_0 + LID_0
    if i < n:
        x[i] = x[i] * 0.5


@annotate(x='intp', flag='bool')
def ints(x, flag):
    buf = declare('LOCAL_MEM matrix(64)')
    buf[LID_0] = 1.0
    local_barrier()
    if flag:
        x[GID_0] = atomic_inc(x[0]) + GDIM_0
)";

std::shared_ptr<ir::Module> lower(const std::string &fn, Precision p = Precision::Double) {
    static auto m = testing_util::parse_text("emit.py", kSource);
    CompileOptions o;
    o.backend = "opencl";
    o.precision = p;
    return build_ir(*m, {KernelRequest{fn, {}, {}}}, o);
}

TEST(EmitOpenCL, Fp64PragmaOnlyWhereDoubleIsUsed) {
    std::string with = emit_source(*lower("scale"), "opencl");
    size_t pragma = with.find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
    ASSERT_NE(pragma, std::string::npos);
    EXPECT_LT(pragma, with.find("double"));
    EXPECT_NE(with.find("SMELT_INLINE void scale(__global double *x, int n)"), std::string::npos)
        << with;

    std::string single = emit_source(*lower("scale", Precision::Single), "opencl");
    EXPECT_EQ(single.find("double"), std::string::npos) << single;
    EXPECT_EQ(single.find("cl_khr_fp64"), std::string::npos);
    EXPECT_NE(single.find("x[i] * 0.5f"), std::string::npos) << single;
}

TEST(EmitOpenCL, KernelEntryLocalMemoryBuiltinsAndBool) {
    auto m = lower("ints", Precision::Single);
    const codegen::Dialect &d = codegen::opencl_dialect();
    std::string text = codegen::emit_module(*m, d, {"ints"});
    EXPECT_NE(text.find("__kernel void ints(__global int *x, uchar flag)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("__local float buf[64];"), std::string::npos) << text;
    EXPECT_NE(text.find("buf[(int)get_local_id(0)]"), std::string::npos) << text;
    EXPECT_NE(text.find("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"), std::string::npos)
        << text;
    EXPECT_NE(text.find("(int)get_num_groups(0)"), std::string::npos) << text;
    EXPECT_NE(text.find("smelt_atomic_inc_i32(&x[0])"), std::string::npos) << text;
    // Without the entry point the same function is an ordinary device function.
    EXPECT_NE(codegen::emit_module(*m, d).find("SMELT_INLINE void ints("), std::string::npos);
    EXPECT_THROW(emit_source(*m, "vulkan"), UsageError);
}

const char *kHelpers = R"(
def fill2(m, v):
    m[0] = v
    m[1] = 2.0 * v


@annotate(x='doublep')
def uses_helpers(x):
    tmp = declare('matrix(2)')
    buf = declare('LOCAL_MEM matrix(8)')
    top = declare('LOCAL_MEM float')
    fill2(tmp, 1.0)
    fill2(buf, 2.0)
    top = tmp[0]
    x[GID_0] = tmp[1] + buf[LID_0] + top
)";

TEST(EmitOpenCL, LocalArraysPassedToHelpersAndLocalScalars) {
    auto m = testing_util::parse_text("helpers.py", kHelpers);
    CompileOptions o;
    o.backend = "opencl";
    auto ir = build_ir(*m, {KernelRequest{"uses_helpers", {}, {}}}, o);
    // A private matrix is an unqualified (private) array parameter, a LOCAL_MEM one a __local
    // one: one specialisation each. A LOCAL_MEM scalar is one element of local memory.
    std::string cl = codegen::emit_module(*ir, codegen::opencl_dialect(), {"uses_helpers"});
    for (const char *s : {"SMELT_INLINE void fill2(double m[2], double v)",
                          "SMELT_INLINE void fill2_v2(__local double m[8], double v)",
                          "__local float top[1];", "top[0] = (float)tmp[0];", "(double)top[0]"})
        EXPECT_NE(cl.find(s), std::string::npos) << s << "\n" << cl;
    // CUDA's __shared__ qualifies variables only: the helper takes a plain array.
    o.backend = "cuda";
    std::string cu = emit_source(*build_ir(*m, {KernelRequest{"uses_helpers", {}, {}}}, o), "cuda");
    for (const char *s : {"void fill2_v2(double m[8], double v)", "__shared__ float top[1];",
                          "__shared__ double buf[8];"})
        EXPECT_NE(cu.find(s), std::string::npos) << s << "\n" << cu;
}

} // namespace
} // namespace smelt
