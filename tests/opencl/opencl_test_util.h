// Helpers for tests that need an OpenCL device: the process-wide backend (or the reason there is
// none, for GTEST_SKIP), and parsing kernel text held in a test.
#pragma once

#include "backends/registry.h"
#include "pipeline.h"
#include "support/error.h"

#ifdef SMELT_HAVE_OPENCL
#include "backends/opencl/opencl_backend.h"
#endif

#include <memory>
#include <string>

namespace smelt::testing_util {

#ifdef SMELT_HAVE_OPENCL
// get_backend("opencl") (device from SMELT_OPENCL_DEVICE, cache from SMELT_CACHE_DIR, so reruns
// hit the disk cache), or nullptr with `why` set when this machine has no OpenCL device.
inline opencl::OpenCLBackend *opencl_backend(std::string &why) {
    try {
        return &dynamic_cast<opencl::OpenCLBackend &>(get_backend("opencl"));
    } catch (const Error &e) {
        why = e.what();
        return nullptr;
    }
}
#endif

// Skips the test unless an OpenCL device is found; binds `var` to the backend. (Test files that
// use it are compiled only with SMELT_HAVE_OPENCL.)
#ifdef SMELT_HAVE_OPENCL
#define SMELT_OPENCL_OR_SKIP(var)                                                                  \
    std::string smelt_skip_why_;                                                                   \
    ::smelt::opencl::OpenCLBackend *var = ::smelt::testing_util::opencl_backend(smelt_skip_why_);  \
    if (!var) GTEST_SKIP() << "no OpenCL device: " << smelt_skip_why_
#endif

inline std::shared_ptr<const ast::Module> parse_text(const std::string &name,
                                                     const std::string &text) {
    return parse_source(std::make_shared<SourceFile>(name, text));
}

} // namespace smelt::testing_util
