// Shared pieces of the CUDA tests. Tests that need a GPU start with SMELT_REQUIRE_CUDA(), which
// skips them with the reason (no driver, no device, built without CUDA) on machines without one.
#pragma once

#include "backends/registry.h"
#include "smelt.h"

#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#endif

#include <gtest/gtest.h>

#include <string>

namespace smelt::testing_util {

#ifdef SMELT_HAVE_CUDA
// The "cuda" backend, or nullptr with the reason in `why`.
inline cuda::CudaBackend *cuda_backend_or_null(std::string *why) {
    if (!cuda::device_present(why)) return nullptr;
    return dynamic_cast<cuda::CudaBackend *>(&get_backend("cuda"));
}
#endif

inline const Program &cuda_kernels() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/cuda/kernels.py");
    return p;
}

} // namespace smelt::testing_util

#ifdef SMELT_HAVE_CUDA
// Declares `cuda_dev` (smelt::cuda::CudaBackend &) or skips the test.
#define SMELT_REQUIRE_CUDA()                                                                       \
    std::string smelt_no_cuda_why_;                                                                \
    ::smelt::cuda::CudaBackend *smelt_cuda_ptr_ =                                                  \
        ::smelt::testing_util::cuda_backend_or_null(&smelt_no_cuda_why_);                          \
    if (!smelt_cuda_ptr_) GTEST_SKIP() << "no CUDA device: " << smelt_no_cuda_why_;                \
    ::smelt::cuda::CudaBackend &cuda_dev = *smelt_cuda_ptr_
#endif
