// A system too large for the machine is a config error, found by `check` and before a run
// allocates anything, instead of a bare std::bad_alloc after the setup.
#pragma once

#include "common/config_yaml.h"

#include <cstdint>
#include <string_view>

namespace smelt::apps {

// The machine's physical memory in bytes (0 when unknown). SMELT_APPS_MEMORY_BYTES overrides it
// (tests; a job limit below the machine's memory).
uint64_t physical_memory_bytes();

// ConfigError at `key_path` (the key that sets the particle count) when `n` particles at
// `bytes_per_particle` (a lower bound of what the app allocates per particle: state, forces,
// neighbour lists, frame copies) need more than the physical memory.
// `items` names them in the message ("particles", "vortices").
void check_fits_memory(const ConfigSource &source, std::string_view key_path, int64_t n,
                       double bytes_per_particle, const char *items = "particles");

} // namespace smelt::apps
