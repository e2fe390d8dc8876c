#include "support/openmp_wait_policy.h"

#include <cstdlib>
#include <mutex>

namespace smelt {

void default_openmp_wait_policy() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (!std::getenv("OMP_WAIT_POLICY") && !std::getenv("GOMP_SPINCOUNT"))
            ::setenv("OMP_WAIT_POLICY", "passive", 0);
    });
}

} // namespace smelt
