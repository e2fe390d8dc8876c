// The checked modes in Reduction, Scan, Kernel and in helper functions, on SMELT_TEST_BACKEND
// (ctest runs CheckedModes.* on cpu and, as opencl.CheckedModes.*, on OpenCL). The cases are in
// checked_modes_cases.h; tests/cuda/cuda_checked_modes_test.cpp runs them on a GPU.
#include "checked_modes_cases.h"

namespace smelt {
namespace {

using namespace testing_util;

bool work_groups(const std::string &backend) {
    return backend.rfind("opencl", 0) == 0 || backend.rfind("cuda", 0) == 0;
}

#define SMELT_WORK_GROUPS_OR_SKIP()                                                                \
    if (!work_groups(test_backend()))                                                              \
    GTEST_SKIP() << "Kernel needs work-groups (opencl or cuda); SMELT_TEST_BACKEND is "            \
                 << test_backend()

TEST(CheckedModes, HelperInAnotherFileReportsItsOwnLine) {
    expect_helper_index_reported(test_backend());
}

TEST(CheckedModes, InRangeHelperCallsGiveTheUncheckedResults) {
    expect_helper_in_range_unchanged(test_backend());
}

TEST(CheckedModes, PointerVariablesAndMatrixDimensions) {
    expect_local_pointer_and_matrix_checked(test_backend());
}

TEST(CheckedModes, ReductionMapIndexThroughAHelper) {
    expect_reduction_index_reported(test_backend());
}

TEST(CheckedModes, ReductionMapValueNonFinite) {
    expect_reduction_non_finite_reported(test_backend());
}

TEST(CheckedModes, ScanOutputIndex) {
    expect_scan_index_reported(test_backend());
}

TEST(CheckedModes, ScanOutputStoreNonFinite) {
    expect_scan_non_finite_reported(test_backend());
}

TEST(CheckedModes, KernelLocalMemMatrix) {
    SMELT_WORK_GROUPS_OR_SKIP();
    expect_kernel_local_matrix_reported(test_backend());
}

TEST(CheckedModes, KernelLocalMemParameter) {
    SMELT_WORK_GROUPS_OR_SKIP();
    expect_kernel_local_param_reported(test_backend());
}

TEST(CheckedModes, KernelAtomicIndexAndHelper) {
    SMELT_WORK_GROUPS_OR_SKIP();
    expect_kernel_atomic_and_helper_reported(test_backend());
}

TEST(CheckedModes, KernelStoreNonFinite) {
    SMELT_WORK_GROUPS_OR_SKIP();
    expect_kernel_non_finite_reported(test_backend());
}

} // namespace
} // namespace smelt
