// Thermodynamic output: the formulas (temperature, pressure, degrees of freedom) and a log that
// writes one line per sample to the console and to a CSV file, flushed so a crash loses nothing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace smelt::apps {

// dim * n, less dim when the total momentum is conserved (periodic box) and was set to zero.
int64_t degrees_of_freedom(int64_t n, int dim, bool momentum_conserved);
// 2 KE / dof (k_B = 1); 0 when dof == 0.
double temperature_from_ke(double ke, int64_t dof);
// Virial pressure P = (2 KE + W) / (dim V), W = sum over pairs of r_ij . f_ij.
double virial_pressure(double ke, double virial, double volume, int dim);

struct ThermoSample {
    int64_t step = 0;
    double time = 0.0;
    double pe = 0.0;
    double ke = 0.0;
    double etotal = 0.0;
    double temperature = 0.0;
    double pressure = 0.0;
};

class ThermoLog {
public:
    // `console` may be null (no console lines); an empty csv_path writes no CSV. The CSV file is
    // created (truncated) here; failure to create it throws std::runtime_error naming the path.
    ThermoLog(std::FILE *console, const std::string &csv_path);
    ~ThermoLog();
    ThermoLog(const ThermoLog &) = delete;
    ThermoLog &operator=(const ThermoLog &) = delete;

    void write(const ThermoSample &s);
    void close();

    // The CSV header and a CSV line (full precision, so values round-trip).
    static std::string csv_header();
    static std::string csv_line(const ThermoSample &s);
    // A console line in fixed-width columns under console_header().
    static std::string console_header();
    static std::string console_line(const ThermoSample &s);

private:
    std::FILE *console_;
    std::FILE *csv_ = nullptr;
    bool header_written_ = false;
};

} // namespace smelt::apps
