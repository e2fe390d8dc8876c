#include "thermo.h"

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <stdexcept>

namespace smelt::apps {

namespace {

std::string printf_string(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

std::string printf_string(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

} // namespace

int64_t degrees_of_freedom(int64_t n, int dim, bool momentum_conserved) {
    int64_t dof = dim * n - (momentum_conserved ? dim : 0);
    return dof > 0 ? dof : 0;
}

double temperature_from_ke(double ke, int64_t dof) {
    return dof > 0 ? 2.0 * ke / static_cast<double>(dof) : 0.0;
}

double virial_pressure(double ke, double virial, double volume, int dim) {
    return (2.0 * ke + virial) / (static_cast<double>(dim) * volume);
}

ThermoLog::ThermoLog(std::FILE *console, const std::string &csv_path) : console_(console) {
    if (!csv_path.empty()) {
        csv_ = std::fopen(csv_path.c_str(), "w");
        if (!csv_)
            throw std::runtime_error("cannot create " + csv_path + ": " + std::strerror(errno));
    }
}

ThermoLog::~ThermoLog() {
    close();
}

void ThermoLog::close() {
    if (csv_) std::fclose(csv_);
    csv_ = nullptr;
}

std::string ThermoLog::csv_header() {
    return "step,time,pe,ke,etotal,temperature,pressure";
}

std::string ThermoLog::csv_line(const ThermoSample &s) {
    return printf_string("%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", static_cast<long long>(s.step),
                         s.time, s.pe, s.ke, s.etotal, s.temperature, s.pressure);
}

std::string ThermoLog::console_header() {
    return printf_string("%10s %12s %15s %15s %15s %12s %12s", "step", "time", "pe", "ke", "etotal",
                         "temperature", "pressure");
}

std::string ThermoLog::console_line(const ThermoSample &s) {
    return printf_string("%10lld %12.5f %15.8g %15.8g %15.10g %12.6g %12.6g",
                         static_cast<long long>(s.step), s.time, s.pe, s.ke, s.etotal,
                         s.temperature, s.pressure);
}

void ThermoLog::write(const ThermoSample &s) {
    if (!header_written_) {
        if (console_) std::fprintf(console_, "%s\n", console_header().c_str());
        if (csv_) std::fprintf(csv_, "%s\n", csv_header().c_str());
        header_written_ = true;
    }
    if (console_) {
        std::fprintf(console_, "%s\n", console_line(s).c_str());
        std::fflush(console_);
    }
    if (csv_) {
        std::fprintf(csv_, "%s\n", csv_line(s).c_str());
        std::fflush(csv_);
    }
}

} // namespace smelt::apps
