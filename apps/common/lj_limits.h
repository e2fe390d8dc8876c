// Lennard-Jones inputs with which no run can hold together, rejected with the config (key, file
// and line) instead of a run that blows up. The bounds are far from any useful setting, so they
// catch typos (dt: 10, temperature: 1e6), not borderline choices; the run loop still stops a run
// that blows up anyway (run_loop.h).
#pragma once

#include "common/config_yaml.h"

#include <string_view>

namespace smelt::apps {

// Velocity-Verlet runs use dt of about 0.005 tau, tau = sigma sqrt(m / epsilon) the shortest
// Lennard-Jones time of the system; past 0.1 tau particles jump into each other's cores within a
// few steps.
inline constexpr double kMaxLjTimeStep = 0.1; // [tau]
// A particle at temperature T moves about sqrt(T / m) dt per step; past 0.2 sigma the forces
// are sampled too coarsely for the step to mean anything.
inline constexpr double kMaxThermalStep = 0.2; // [sigma]

// ConfigError at `dt_key` when dt > kMaxLjTimeStep * tau.
void check_lj_time_step(const ConfigSource &source, std::string_view dt_key, double dt, double tau);

// ConfigError at `temperature_key` when sqrt(temperature / mass) * dt > kMaxThermalStep * sigma.
void check_thermal_step(const ConfigSource &source, std::string_view temperature_key,
                        double temperature, double mass, double dt, double sigma);

} // namespace smelt::apps
