// The backend the engine tests run on: $SMELT_TEST_BACKEND ("cpu", "cpu:serial", later "opencl",
// "cuda"), default "cpu". Tests that use these helpers run unchanged on every backend.
#pragma once

#include "backends/registry.h"
#include "smelt.h"

#include <cstdlib>
#include <string>

namespace smelt::testing_util {

inline std::string test_backend() {
    const char *env = std::getenv("SMELT_TEST_BACKEND");
    return env && *env ? env : "cpu";
}

inline Backend &test_device() {
    return get_backend(test_backend());
}

inline Options test_options(Precision precision = Precision::Double) {
    return Options{test_backend(), precision};
}

} // namespace smelt::testing_util
