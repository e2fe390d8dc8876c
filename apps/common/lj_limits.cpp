#include "common/lj_limits.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace smelt::apps {

namespace {

std::string short_number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

} // namespace

void check_lj_time_step(const ConfigSource &source, std::string_view dt_key, double dt,
                        double tau) {
    if (!(dt > kMaxLjTimeStep * tau)) return;
    fail_at_path(source, dt_key,
                 "a time step of " + short_number(dt / tau) +
                     " tau (tau = sigma sqrt(m / epsilon) = " + short_number(tau) +
                     ") makes the run blow up; it must be <= " + format_number(kMaxLjTimeStep) +
                     " tau (Lennard-Jones runs use about 0.005 tau)");
}

void check_thermal_step(const ConfigSource &source, std::string_view temperature_key,
                        double temperature, double mass, double dt, double sigma) {
    const double step = std::sqrt(temperature / mass) * dt;
    if (!(step > kMaxThermalStep * sigma)) return;
    fail_at_path(source, temperature_key,
                 "at this temperature a particle moves sqrt(T / m) dt = " + short_number(step) +
                     " sigma per step (dt " + format_number(dt) +
                     "), which blows the run up; it must stay <= " +
                     format_number(kMaxThermalStep) + " sigma: lower the temperature or dt");
}

} // namespace smelt::apps
