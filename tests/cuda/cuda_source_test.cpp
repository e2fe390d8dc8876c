// The generated CUDA source, checked without a GPU: golden text of device functions and wrappers,
// spellings of GPU builtins and atomics, single precision, and NVRTC compiles to CUBIN and PTX for
// sm_90 (NVRTC needs no device). Golden files: tests/cuda/golden/ (SMELT_UPDATE_GOLDEN=1
// rewrites them; review the diff).
#include "cuda_units.h"

#include "primitives/cuda/wrappers.h"

#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/nvrtc_compiler.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#endif

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>

namespace smelt {
namespace {

using namespace testing_util;
using namespace testing_util::cuda_units;

// Compares with tests/cuda/golden/<name>, or rewrites it under SMELT_UPDATE_GOLDEN=1. Line
// numbers of the translation unit itself ("#line 171 \"kernel.cu\"") depend on the prelude's
// length, so they are written as N.
void expect_golden(const std::string &name, const std::string &generated) {
    static const std::regex unit_line(R"(#line [0-9]+ "kernel\.cu")");
    const std::string text = std::regex_replace(generated, unit_line, "#line N \"kernel.cu\"");
    const std::string path = kData + "/cuda/golden/" + name;
    const char *update = std::getenv("SMELT_UPDATE_GOLDEN");
    if (update && *update) {
        std::filesystem::create_directories(kData + "/cuda/golden");
        std::ofstream(path) << text;
        return;
    }
    ASSERT_TRUE(std::filesystem::exists(path))
        << path << " missing; run with SMELT_UPDATE_GOLDEN=1";
    EXPECT_EQ(text, read_text(path)) << "generated text differs from " << path;
}

TEST(CudaSource, GoldenDeviceFunctions) {
    for (const char *name : {"axpb", "control_flow", "matrices_and_calls"}) {
        auto m = parse_named(kData + "/golden/" + name + ".py");
        expect_golden(std::string(name) + ".cu",
                      codegen::emit_module(*annotated_ir(*m), codegen::cuda_dialect()));
        expect_golden(
            std::string(name) + ".single.cu",
            codegen::emit_module(*annotated_ir(*m, Precision::Single), codegen::cuda_dialect()));
    }
}

TEST(CudaSource, GoldenWrappers) {
    expect_golden("axpb.elementwise.cu",
                  wrapper_part(elementwise_source("axpb", {ptr(Scalar::F64), ptr(Scalar::F64),
                                                           ptr(Scalar::F64), ptr(Scalar::F64)})));
    expect_golden("sum_f64.reduction.cu",
                  wrapper_part(reduction_source(Scalar::F64, "a+b", "0", false)));
    expect_golden(
        "axpb_distinct.elementwise.cu",
        wrapper_part(elementwise_source(
            "axpb", {ptr(Scalar::F64), ptr(Scalar::F64), ptr(Scalar::F64), ptr(Scalar::F64)},
            Precision::Double, distinct(4))));
    expect_golden("segmented_i32.scan.cu", wrapper_part(scan_source(Scalar::I32, true)));
    expect_golden(
        "segmented_i32.single_pass.scan.cu",
        wrapper_part(scan_source(Scalar::I32, true, Precision::Double, "a+b", "0", false)));
    expect_golden("block_sum.kernel.cu", after_prelude(raw_unit("block_sum").source));
}

// Restrict pointers and loads ahead only for distinct arrays; a load ahead only for arrays
// the function reads at its own index and that hold n items.
TEST(CudaSource, ElementwiseVariantFollowsTheArgumentLayout) {
    const std::vector<std::optional<Type>> f64 = {ptr(Scalar::F64), ptr(Scalar::F64),
                                                  ptr(Scalar::F64), ptr(Scalar::F64)};
    const std::string aliasing = wrapper_part(elementwise_source("axpb", f64));
    EXPECT_EQ(aliasing.find("__restrict__"), std::string::npos) << aliasing;
    EXPECT_EQ(aliasing.find("smelt_v"), std::string::npos) << aliasing;

    const std::string tiled =
        wrapper_part(elementwise_source("axpb", f64, Precision::Double, distinct(4)));
    EXPECT_NE(tiled.find("double *__restrict__ smelt_p1 /* y */"), std::string::npos) << tiled;
    // ... and a one-item-per-thread entry with the same restrict pointers, for small launches
    // (both entries take SMELT_ENTRY_PARAMS).
    EXPECT_NE(tiled.find("#define SMELT_EACH_ENTRY smelt_entry_each\n"), std::string::npos)
        << tiled;
    const size_t params = tiled.find("#define SMELT_ENTRY_PARAMS const int64_t smelt_n, ");
    ASSERT_NE(params, std::string::npos) << tiled;
    EXPECT_NE(tiled.find("double *__restrict__ smelt_p1 /* y */", params), std::string::npos)
        << tiled;
    EXPECT_EQ(aliasing.find("smelt_entry_each"), std::string::npos) << aliasing;
    // axpb reads x, a and b at [i] and only writes y.
    for (const char *s : {"const double smelt_v0 = smelt_p0[(int32_t)(smelt_i)];",
                          "asm volatile(\"\" :: \"d\"(smelt_v2));", "smelt_v3"})
        EXPECT_NE(tiled.find(s), std::string::npos) << s << "\n" << tiled;
    EXPECT_EQ(tiled.find("smelt_v1"), std::string::npos) << tiled;

    auto layout = distinct(4);
    layout.covers_n[2] = false; // a holds fewer than n items
    const std::string short_a =
        wrapper_part(elementwise_source("axpb", f64, Precision::Double, layout));
    EXPECT_EQ(short_a.find("smelt_v2"), std::string::npos) << short_a;
    EXPECT_NE(short_a.find("smelt_v3"), std::string::npos) << short_a;

    // copy_head reads t[i] only where i < m: still a load of the item's own element.
    const std::string head = wrapper_part(elementwise_source(
        "copy_head", {ptr(Scalar::F64), ptr(Scalar::F64), Type::scalar(Scalar::I64)},
        Precision::Double, distinct(3)));
    EXPECT_NE(head.find("smelt_v1 = smelt_p1[smelt_i]"), std::string::npos) << head;
}

TEST(CudaSource, ScanWithoutLastItemIsSinglePass) {
    const std::string single =
        wrapper_part(scan_source(Scalar::F64, false, Precision::Double, "a+b", "0", false));
    EXPECT_NE(single.find("smelt_scan_single("), std::string::npos);
    EXPECT_EQ(single.find("smelt_scan_upsweep"), std::string::npos);
    // 8-byte values: two status words per tile, each with a half; 4-byte values: one word
    // (scan_single_pass.kernel writes the second word only under SMELT_STATUS_WORDS == 2).
    EXPECT_NE(single.find("#define SMELT_STATUS_WORDS 2\n"), std::string::npos) << single;
    EXPECT_NE(
        single.find("smelt_status[1 * smelt_tiles + smelt_t] = ((unsigned long long)c.u[1] << 32)"),
        std::string::npos)
        << single;
    const std::string f32 =
        wrapper_part(scan_source(Scalar::F32, false, Precision::Double, "a+b", "0", false));
    EXPECT_NE(f32.find("#define SMELT_STATUS_WORDS 1\n"), std::string::npos) << f32;
    EXPECT_NE(f32.find("smelt_status[0 * smelt_tiles + smelt_t] ="), std::string::npos) << f32;
    // Plain volatile 8-byte words: no fences.
    EXPECT_EQ(single.find("__threadfence"), std::string::npos);
    EXPECT_NE(wrapper_part(scan_source(Scalar::F64, false)).find("smelt_scan_upsweep("),
              std::string::npos); // last_item: three kernels
    primitives::ScanWrapper w;
    w.output_uses_last_item = false;
    EXPECT_EQ(cuda_target().scan_entry_points(w), std::vector<std::string>{"smelt_scan_single"});
    w.output_uses_last_item = true;
    EXPECT_EQ(cuda_target().scan_entry_points(w).size(), 3u);
}

TEST(CudaSource, EmitSourceForCudaIsPreludeThenDeviceFunctions) {
    auto m = parse_named(kData + "/golden/axpb.py");
    const std::string src = emit_source(*annotated_ir(*m), "cuda");
    EXPECT_EQ(src.rfind("/* ---- smelt prelude (cuda) ---- */", 0), 0u) << src.substr(0, 200);
    EXPECT_NE(src.find("#define SMELT_INLINE static __device__ inline"), std::string::npos);
    EXPECT_NE(src.find("typedef long long int64_t;"), std::string::npos);
    EXPECT_NE(src.find("#line 6 \"axpb.py\"\nSMELT_INLINE void axpb(int32_t i, double *x"),
              std::string::npos)
        << src;
    // No CUDA runtime header or host-only library is needed.
    EXPECT_EQ(src.find("#include"), std::string::npos);
}

TEST(CudaSource, GpuBuiltinsBarriersSharedMemoryAndAtomics) {
    const std::string sum = raw_unit("block_sum").source;
    for (const char *s : {"(int32_t)threadIdx.x", "(int32_t)blockIdx.x", "(int32_t)blockDim.x",
                          "__syncthreads();", "__shared__ double buf[64];",
                          "extern \"C\" __global__ void smelt_kernel_block_sum(double *smelt_p0"})
        EXPECT_NE(sum.find(s), std::string::npos) << s << "\n" << sum;
    EXPECT_EQ(sum.find("smelt_dynamic_shared"), std::string::npos); // no LocalMem parameter

    const std::string two = raw_unit("two_local").source;
    for (const char *s :
         {"extern __shared__ __align__(16) unsigned char smelt_dynamic_shared[];",
          "const uint64_t smelt_p0 /* a */", "(float *)(smelt_dynamic_shared + smelt_p0)",
          "(double *)(smelt_dynamic_shared + smelt_p1)", "smelt_atomic_inc_i32(&counter[0])",
          "smelt_atomic_add_f32(&total[0]", "smelt_atomic_add_f64(&dtotal[0]",
          "return (T)atomicAdd((UT *)p, (UT)1);"})
        EXPECT_NE(two.find(s), std::string::npos) << s << "\n" << after_prelude(two);
}

TEST(CudaSource, SinglePrecisionUnitsHaveNoDoubleAfterThePrelude) {
    const std::string units[] = {
        elementwise_source("axpb", {std::nullopt, std::nullopt, std::nullopt, std::nullopt},
                           Precision::Single),
        reduction_source(Scalar::F32, "a+b", "0", true, Scalar::F32, Precision::Single),
        scan_source(Scalar::F32, true, Precision::Single)};
    for (const auto &u : units) {
        const std::string tail = after_prelude(u);
        EXPECT_EQ(tail.find("double"), std::string::npos) << tail;
        EXPECT_NE(tail.find("float"), std::string::npos);
    }
}

#ifdef SMELT_HAVE_CUDA

using cuda::nvrtc_compile;
using cuda::nvrtc_options;

void expect_cubin(const std::string &what, const std::string &source) {
    cuda::NvrtcOutput out = nvrtc_compile(source, "kernel.cu", nvrtc_options("sm_90"));
    ASSERT_TRUE(out.ok) << what << ": " << out.log << "\n" << after_prelude(source);
    ASSERT_GE(out.binary.size(), 4u);
    EXPECT_EQ(out.binary.substr(0, 4), std::string("\x7f"
                                                   "ELF"))
        << what;
}

std::string ptx_of(const std::string &source) {
    cuda::NvrtcOutput out = nvrtc_compile(source, "kernel.cu", nvrtc_options("compute_90"));
    EXPECT_TRUE(out.ok) << out.log;
    return out.binary;
}

TEST(CudaNvrtc, VersionIsKnown) {
    const std::string v = cuda::nvrtc_version();
    EXPECT_NE(v.find('.'), std::string::npos) << v;
}

TEST(CudaNvrtc, ElementwiseUnitsCompileForSm90WithoutADevice) {
    expect_cubin("axpb", elementwise_source(
                             "axpb", {std::nullopt, std::nullopt, std::nullopt, std::nullopt}));
    for (Scalar s : {Scalar::F64, Scalar::F32, Scalar::I32, Scalar::I64, Scalar::U32})
        expect_cubin(
            std::string("scale_shift ") + scalar_name(s),
            elementwise_source("scale_shift", {ptr(s), ptr(s), Type::scalar(s), Type::scalar(s)}));
    expect_cubin("kernel (renamed)", elementwise_source("kernel", {ptr(Scalar::I32)}));
    const std::string ptx =
        ptx_of(elementwise_source("fill_index", {ptr(Scalar::F64), std::nullopt}));
    EXPECT_NE(ptx.find(".entry smelt_entry"), std::string::npos) << ptx;
    for (Scalar s : {Scalar::F64, Scalar::F32, Scalar::I32, Scalar::I64, Scalar::U16})
        expect_cubin(std::string("scale_shift distinct ") + scalar_name(s),
                     elementwise_source("scale_shift",
                                        {ptr(s), ptr(s), Type::scalar(s), Type::scalar(s)},
                                        Precision::Double, distinct(4)));
    expect_cubin("copy_head distinct",
                 elementwise_source("copy_head",
                                    {ptr(Scalar::F64), ptr(Scalar::F64), Type::scalar(Scalar::I64)},
                                    Precision::Double, distinct(3)));
}

// The most loads in a row (no store between) in PTX text.
size_t longest_load_run(const std::string &ptx) {
    size_t run = 0, best = 0;
    std::istringstream in(ptx);
    for (std::string line; std::getline(in, line);) {
        if (line.find("ld.global") != std::string::npos) best = std::max(best, ++run);
        if (line.find("st.global") != std::string::npos) run = 0;
    }
    return best;
}

// What the restrict kernel is for: with distinct arrays the loads of all items of a thread are
// issued before the first store, even through sinf's branches; with arrays that may alias,
// each item's loads wait for the previous item's store.
TEST(CudaNvrtc, DistinctArraysLoadEveryItemBeforeTheFirstStore) {
    const std::vector<std::optional<Type>> args = {std::nullopt, std::nullopt, std::nullopt,
                                                   std::nullopt};
    const std::string tiled =
        ptx_of(elementwise_source("axpb", args, Precision::Single, distinct(4)));
    const size_t items = primitives::cuda::kElementwiseItems;
    EXPECT_GE(longest_load_run(tiled), 3 * items) << tiled; // x, a, b of every item
    EXPECT_NE(tiled.find("ld.global.nc.f32"), std::string::npos);
    const std::string plain = ptx_of(elementwise_source("axpb", args, Precision::Single));
    EXPECT_LT(longest_load_run(plain), 3 * items) << plain;
}

TEST(CudaNvrtc, ReductionUnitsCompileForSm90WithoutADevice) {
    for (Scalar s :
         {Scalar::I32, Scalar::I64, Scalar::U32, Scalar::F32, Scalar::F64, Scalar::I8, Scalar::U16})
        expect_cubin(std::string("sum ") + scalar_name(s), reduction_source(s, "a+b", "0", false));
    expect_cubin("min f64", reduction_source(Scalar::F64, "min(a, b)", "inf", false));
    expect_cubin("map sq", reduction_source(Scalar::F64, "a+b", "0", true));
    const std::string ptx = ptx_of(reduction_source(Scalar::F64, "a+b", "0", true));
    EXPECT_NE(ptx.find(".entry smelt_reduce_blocks"), std::string::npos);
    EXPECT_NE(ptx.find(".entry smelt_reduce_final"), std::string::npos);
    EXPECT_NE(ptx.find("shfl.sync.down"), std::string::npos); // warp shuffles, not volatile tricks
    EXPECT_NE(ptx.find("bar.sync"), std::string::npos);
}

// ptxas of CUDA 13.0 fuses min(min(x, -y), z) on 32-bit integers into one VIMNMX3 and drops the
// negation (seen on the H100; tests/semantics/cases/min_max_abs.py). The prelude therefore spells
// integer min/max of <= 32 bits as inline compare-and-select, so no min.s32/max.s32 reaches ptxas.
TEST(CudaNvrtc, IntegerMinMaxReachPtxasAsCompareAndSelect) {
    const std::string unit = codegen::prelude(codegen::cuda_dialect()) + R"(
extern "C" __global__ void t(const int32_t *a, const int32_t *b, int32_t *o, int64_t *w) {
    const int i = threadIdx.x;
    o[2 * i] = smelt_min_i32(smelt_min_i32(smelt_mul_i32(a[i], 2), smelt_neg_i32(b[i])), 0);
    o[2 * i + 1] = smelt_max_i32(smelt_max_i32(a[i], smelt_neg_i32(b[i])), 0);
    w[i] = smelt_min_i64(smelt_min_i64((int64_t)a[i], smelt_neg_i64((int64_t)b[i])), 0);
}
)";
    const std::string ptx = ptx_of(unit);
    EXPECT_EQ(ptx.find("min.s32"), std::string::npos) << ptx;
    EXPECT_EQ(ptx.find("max.s32"), std::string::npos) << ptx;
    EXPECT_NE(ptx.find("selp.b32"), std::string::npos) << ptx;
    // 64-bit integers are not affected and keep the min instruction.
    EXPECT_NE(ptx.find("min.s64"), std::string::npos) << ptx;
    expect_cubin("min/max of int32 and int64", unit);
}

TEST(CudaNvrtc, ScanUnitsCompileForSm90WithoutADevice) {
    for (Scalar s : {Scalar::I32, Scalar::I64, Scalar::U32, Scalar::F32, Scalar::F64})
        for (bool seg : {false, true})
            for (bool last : {true, false})
                expect_cubin(std::string(seg ? "segmented " : "") + "scan " + scalar_name(s) +
                                 (last ? " (last_item)" : " (single pass)"),
                             scan_source(s, seg, Precision::Double, "a+b", "0", last));
    for (Scalar s : {Scalar::I8, Scalar::U16})
        expect_cubin(std::string("max scan ") + scalar_name(s),
                     scan_source(s, true, Precision::Double, "max(a, b)", "0", false));
    const std::string ptx = ptx_of(scan_source(Scalar::F64, true));
    for (const char *e : {".entry smelt_scan_upsweep", ".entry smelt_scan_spine",
                          ".entry smelt_scan_downsweep", "shfl.sync.up"})
        EXPECT_NE(ptx.find(e), std::string::npos) << e;
    const std::string single =
        ptx_of(scan_source(Scalar::F64, true, Precision::Double, "a+b", "0", false));
    for (const char *e : {".entry smelt_scan_single", "atom.global.add.u32", "vote.sync.ballot",
                          "ld.volatile.global.u64", "shfl.sync.down"})
        EXPECT_NE(single.find(e), std::string::npos) << e;
}

TEST(CudaNvrtc, LowLevelKernelsCompileForSm90WithoutADevice) {
    for (const char *k : {"block_sum", "reverse_blocks", "two_local", "factorials", "mixed_math"}) {
        auto unit = raw_unit(k);
        expect_cubin(k, unit.source);
        EXPECT_EQ(unit.entry, std::string("smelt_kernel_") + k);
    }
}

// The functions of smelt::Kernel's tests (tests/primitives/kernel_test.cpp), specialised as
// those tests call them, build for sm_90: what `SMELT_TEST_BACKEND=cuda ... Kernel.*` compiles.
TEST(CudaNvrtc, KernelTestFunctionsCompileForSm90WithoutADevice) {
    const auto module = parse_named(kData + "/primitives/low_level_kernels.py");
    auto ptr = [](Scalar s, AddrSpace sp = AddrSpace::Global) { return Type::pointer(s, sp); };
    const Type i32 = Type::scalar(Scalar::I32);
    const std::vector<std::pair<std::string, std::map<std::string, Type>>> cases = {
        {"group_sum", {{"x", ptr(Scalar::F64)}, {"partial", ptr(Scalar::F64)}, {"n", i32}}},
        {"group_sum", {{"x", ptr(Scalar::F32)}, {"partial", ptr(Scalar::F32)}, {"n", i32}}},
        {"reverse_groups", {}},
        {"reverse_groups_untyped",
         {{"x", ptr(Scalar::I32)},
          {"y", ptr(Scalar::I32)},
          {"buf", ptr(Scalar::I32, AddrSpace::Local)},
          {"n", i32}}},
        {"count_above", {}},
        {"geometry", {}},
        {"fill", {{"x", ptr(Scalar::F64)}, {"value", Type::scalar(Scalar::F64)}}}};
    for (const auto &[func, types] : cases) {
        auto m = build_ir(*module, {{func, types, {}}}, cuda_options());
        expect_cubin(func, primitives::cuda::raw_kernel_unit(*m, func).source);
    }
}

// Single precision: the generated PTX has no 64-bit floating-point instruction at all. (CUDA's
// own sinf/cosf/tanf do use a few double operations in their slow-path argument reduction for
// |x| > 105615, so the elementwise case here uses the rest of the math: //, %, **, min, max,
// abs, sqrt, floor, exp, log, int-to-float division.)
TEST(CudaNvrtc, SinglePrecisionPtxHasNoDoubleArithmetic) {
    auto m = build_ir(*cuda_kernels().data().module, {{"mixed_math", {}, {}}},
                      cuda_options(Precision::Single));
    auto mixed = primitives::cuda::raw_kernel_unit(*m, "mixed_math");
    const std::string units[] = {
        mixed.source,
        reduction_source(Scalar::F32, "a+b", "0", true, Scalar::F32, Precision::Single),
        reduction_source(Scalar::F32, "max(a, b)", "-inf", false, Scalar::F32, Precision::Single),
        scan_source(Scalar::F32, true, Precision::Single)};
    for (const auto &u : units) {
        EXPECT_EQ(after_prelude(u).find("double"), std::string::npos) << after_prelude(u);
        const std::string ptx = ptx_of(u);
        ASSERT_FALSE(ptx.empty());
        EXPECT_EQ(ptx.find(".f64"), std::string::npos) << ptx;
    }
    // The oracle works: the same kernel in double precision does use f64.
    auto md = build_ir(*cuda_kernels().data().module, {{"mixed_math", {}, {}}}, cuda_options());
    const std::string dptx = ptx_of(primitives::cuda::raw_kernel_unit(*md, "mixed_math").source);
    EXPECT_NE(dptx.find(".f64"), std::string::npos);
}

TEST(CudaNvrtc, ErrorsPointAtThePythonFile) {
    // The generated source keeps #line directives to the .py file; NVRTC honours them and
    // map_log turns "axpb.py(7): error" into "axpb.py:7: error".
    auto m = parse_named(kData + "/golden/axpb.py");
    std::string src = emit_source(*annotated_ir(*m), "cuda");
    const size_t at = src.find("sin(x[i])");
    ASSERT_NE(at, std::string::npos);
    src.replace(at, 3, "sinx"); // an identifier NVRTC does not know, on the .py's line 7
    cuda::NvrtcOutput out = nvrtc_compile(src, "kernel.cu", nvrtc_options("sm_90"));
    EXPECT_FALSE(out.ok);
    EXPECT_NE(out.log.find("axpb.py:7: error: identifier \"sinx\" is undefined"), std::string::npos)
        << out.log;
    EXPECT_NE(out.command.find("--gpu-architecture=sm_90"), std::string::npos);
    EXPECT_EQ(cuda::map_log("a.py(3): warning: x\nplain line\n"),
              "a.py:3: warning: x\nplain line\n");
}

// Shaped array parameters (tests/primitives/nd_kernels.py, as NdArrays.* specialises them):
// flat pointers indexed in 64 bits, through helpers, in the checked form and in a raw kernel.
TEST(CudaNvrtc, ShapedArrayParametersCompileForSm90WithoutADevice) {
    const auto m = parse_named(kData + "/primitives/nd_kernels.py");
    const Type a = Type::matrix(Scalar::F64, {37, 19}, AddrSpace::Global);
    const Type t3 = Type::matrix(Scalar::F32, {4, 3, 5}, AddrSpace::Global);
    auto unit = [&](const std::string &func, std::vector<std::optional<Type>> given,
                    bool checked = false, bool distinct_arrays = false) {
        primitives::ElementwiseArgLayout layout;
        layout.distinct_arrays = distinct_arrays;
        layout.covers_n.assign(given.size(), distinct_arrays);
        return primitives::elementwise_unit(*m, func, given, Precision::Double, cuda_target(),
                                            "cuda", layout, checked, checked)
            .source;
    };
    const std::string mv = unit("matvec", {a, ptr(Scalar::F64), ptr(Scalar::F64)});
    EXPECT_NE(mv.find("a[(int64_t)(i) * 19LL + (j)]"), std::string::npos) << after_prelude(mv);
    expect_cubin("matvec", mv);
    expect_cubin("matvec distinct",
                 unit("matvec", {a, ptr(Scalar::F64), ptr(Scalar::F64)}, false, true));
    expect_cubin("weighted_planes", unit("weighted_planes", {t3, ptr(Scalar::F64)}));
    expect_cubin("scale_rows checked", unit("scale_rows", {a, ptr(Scalar::F64)}, true));
    auto raw = build_ir(
        *m, {{"gid_matvec", {{"a", a}, {"x", ptr(Scalar::F64)}, {"y", ptr(Scalar::F64)}}, {}}},
        cuda_options());
    expect_cubin("gid_matvec", primitives::cuda::raw_kernel_unit(*raw, "gid_matvec").source);
}

#endif

} // namespace
} // namespace smelt
