// OpenMP's waiting default for libgomp instances loaded while the process runs (see
// support/openmp_defaults.cpp for the reason and for executables that load libgomp at start).
#pragma once

namespace smelt {

// Sets OMP_WAIT_POLICY=passive in the environment unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is
// set, so that a libgomp loaded afterwards (with the first CPU kernel, in a process that did not
// load it at start) waits passively. A libgomp already running is not affected. Once per process;
// the CPU backend calls it before it loads a kernel.
void default_openmp_wait_policy();

} // namespace smelt
