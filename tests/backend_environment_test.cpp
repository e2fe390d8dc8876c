// When SMELT_TEST_BACKEND names a backend this machine cannot run (e.g. "cuda" on a machine
// without a GPU, as in CI), every test is skipped with the reason, instead of each engine test
// failing on its first launch.
#include "test_backend.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

class BackendEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        const std::string wanted = testing_util::test_backend();
        const std::string base = wanted.substr(0, wanted.find(':'));
        if (base == "cpu") return; // always there; and probing GPUs costs time per process
        for (const BackendStatus &b : list_backends())
            if ((b.name == wanted || b.name == base) && !b.available)
                GTEST_SKIP() << "SMELT_TEST_BACKEND=" << wanted
                             << " is not available on this machine (" << b.note
                             << "): skipping every test";
    }
};

[[maybe_unused]] ::testing::Environment *const g_environment =
    ::testing::AddGlobalTestEnvironment(new BackendEnvironment);

} // namespace
} // namespace smelt
