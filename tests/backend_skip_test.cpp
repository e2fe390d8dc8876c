// When SMELT_TEST_BACKEND names a backend this machine cannot open (opencl without a device),
// every test of the run is skipped with the reason, instead of failing at its first array.
#include "test_backend.h"

#include <gtest/gtest.h>

namespace smelt::testing_util {
namespace {

class TestBackendEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        if (test_backend().rfind("cpu", 0) == 0) return;
        try {
            (void)test_device();
        } catch (const Error &e) {
            GTEST_SKIP() << "SMELT_TEST_BACKEND=" << test_backend()
                         << " is not available here: " << e.what();
        }
    }
};

const auto *const registered = ::testing::AddGlobalTestEnvironment(new TestBackendEnvironment);

} // namespace
} // namespace smelt::testing_util
