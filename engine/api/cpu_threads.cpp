// smelt::cpu_threads / set_cpu_threads: the CPU backend's thread count, for applications that
// should not need the backend's own header.
#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "smelt.h"

namespace smelt {

namespace {

cpu::CpuBackend &cpu_backend() {
    auto *cpu = dynamic_cast<cpu::CpuBackend *>(&get_backend("cpu"));
    SMELT_INTERNAL_ASSERT(cpu, "the \"cpu\" backend is not a CpuBackend");
    return *cpu;
}

} // namespace

int cpu_threads() {
    return cpu_backend().num_threads();
}

void set_cpu_threads(int n) {
    if (n < 0)
        throw UsageError("set_cpu_threads: the thread count must be 0 (the default) or positive, "
                         "not " +
                         std::to_string(n));
    cpu_backend().set_num_threads(n == 0 ? cpu::default_num_threads() : n);
}

} // namespace smelt
