// The checked modes (bounds, finite) of every primitive on the CUDA backend: the cases of
// tests/primitives/checked_modes_cases.h on the GPU (skipped, with the reason, without one).
#include "cuda_test_util.h"

#ifdef SMELT_HAVE_CUDA

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

} // namespace
} // namespace smelt

#endif
