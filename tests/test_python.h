// The CPython the tests run (oracles, reference scripts): $SMELT_TEST_PYTHON when set, else the
// interpreter CMake found (SMELT_PYTHON, compiled in). The variable lets one build check the
// oracles under another interpreter or NumPy version without reconfiguring, e.g.
//   SMELT_TEST_PYTHON=/path/to/venv/bin/python build/tests/smelt_tests --gtest_filter='*Semantics*'
#pragma once

#include <cstdlib>
#include <string>

namespace smelt::testing_util {

inline std::string test_python() {
    const char *env = std::getenv("SMELT_TEST_PYTHON");
    return env && *env ? env : SMELT_PYTHON;
}

} // namespace smelt::testing_util
