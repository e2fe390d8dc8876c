// The checked modes (bounds, finite) of every primitive on the CUDA backend: the cases of
// tests/primitives/checked_modes_cases.h on the GPU (skipped, with the reason, without one), and
// their device code through NVRTC, which needs no GPU.
#include "cuda_units.h"

#ifdef SMELT_HAVE_CUDA

#include "backends/cuda/nvrtc_compiler.h"
#include "ir/passes/bounds_check.h"
#include "primitives/checked_modes_cases.h"

namespace smelt {
namespace {

using namespace testing_util;

TEST(CudaCheckedModes, Helpers) {
    SMELT_REQUIRE_CUDA();
    (void)cuda_dev;
    expect_helper_index_reported("cuda");
    expect_helper_in_range_unchanged("cuda");
    expect_local_pointer_and_matrix_checked("cuda");
}

TEST(CudaCheckedModes, Reduction) {
    SMELT_REQUIRE_CUDA();
    (void)cuda_dev;
    expect_reduction_index_reported("cuda");
    expect_reduction_non_finite_reported("cuda");
}

TEST(CudaCheckedModes, Scan) {
    SMELT_REQUIRE_CUDA();
    (void)cuda_dev;
    expect_scan_index_reported("cuda");
    expect_scan_non_finite_reported("cuda");
}

TEST(CudaCheckedModes, Kernel) {
    SMELT_REQUIRE_CUDA();
    (void)cuda_dev;
    expect_kernel_local_matrix_reported("cuda");
    expect_kernel_local_param_reported("cuda");
    expect_kernel_atomic_and_helper_reported("cuda");
    expect_kernel_non_finite_reported("cuda");
}

void expect_cubin(const std::string &what, const std::string &source) {
    cuda::NvrtcOutput out = cuda::nvrtc_compile(source, "kernel.cu", cuda::nvrtc_options("sm_90"));
    EXPECT_TRUE(out.ok) << what << ": " << out.log << "\n" << cuda_units::after_prelude(source);
    EXPECT_NE(source.find("smelt_checked_index("), std::string::npos) << what;
}

// What SMELT_TEST_BACKEND=cuda compiles for the cases above, built for sm_90 without a device:
// checked Elementwise units (a helper in another file, a pointer variable, a matrix) and checked
// low-level kernels (LOCAL_MEM, LocalMem, atomics, a helper).
TEST(CudaNvrtc, CheckedUnitsCompileForSm90WithoutADevice) {
    const ast::Module &module = *checked_kernels().data().module;
    const Type f64p = Type::pointer(Scalar::F64);
    const std::vector<std::pair<std::string, std::vector<std::optional<Type>>>> elementwise = {
        {"smoothed", {f64p, f64p}},
        {"chosen", {f64p, f64p, f64p, Type::scalar(Scalar::I32)}},
        {"grid_lookup", {std::nullopt, std::nullopt}}};
    for (const auto &[func, given] : elementwise)
        expect_cubin(func,
                     primitives::elementwise_unit(module, func, given, Precision::Double,
                                                  cuda_units::cuda_target(), "cuda", {}, true, true)
                         .source);
    for (const char *func : {"local_shift", "param_shift", "histogram", "gathered", "reciprocal"}) {
        auto m = build_ir(module, {{func, {}, {}}}, cuda_units::cuda_options());
        ir::BoundsChecked c =
            ir::bounds_check(*m, {ir::entry_with_consecutive_slots(*m->find(func))}, true, true);
        expect_cubin(func, primitives::cuda::raw_kernel_unit(*c.module, func).source);
    }
}

} // namespace
} // namespace smelt

#endif
