// Observables with named columns: what an app samples every thermo_interval steps (md2d: pe, ke,
// etotal, temperature, pressure; a vortex app: circulation, impulse, ...), and the log that
// writes each sample as a console line and a CSV row, flushed so a crash loses nothing.
//
//   console:  "      step         time              pe ..."  fixed-width columns
//   CSV:      "step,time,pe,ke,..."                         full precision (%.17g), round-trips
//
// A resumed log (restart) keeps the CSV rows of the steps before the restart step and appends.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace smelt::apps {

struct ObservableColumn {
    std::string name;      // CSV header and console header: "pe"
    std::string h5md_name; // /observables/<h5md_name> in the H5MD file: "potential_energy"
    int width = 15;        // console field width
    int precision = 8;     // console printf precision
    char conversion = 'g'; // console printf conversion: 'g', 'f' or 'e'
    std::string unit;      // H5MD unit string of the value ("epsilon"), "" = none
};

// One sample: the values in the order of the columns.
struct ObservableSample {
    int64_t step = 0;
    double time = 0.0;
    std::vector<double> values;
};

class ObservableLog {
public:
    // `console` may be null (no console lines); an empty csv_path writes no CSV. The CSV file is
    // created (truncated) here, or with `resume_step` opened for appending after its rows of
    // steps < resume_step (the rest dropped; the file is rewritten through a temporary and a
    // rename). Errors throw std::runtime_error naming the path (also a CSV whose header is not
    // this log's).
    ObservableLog(std::FILE *console, const std::string &csv_path,
                  std::vector<ObservableColumn> columns,
                  std::optional<int64_t> resume_step = std::nullopt);
    ~ObservableLog();
    ObservableLog(const ObservableLog &) = delete;
    ObservableLog &operator=(const ObservableLog &) = delete;

    // std::invalid_argument when the sample has not one value per column.
    void write(const ObservableSample &s);
    void close();

    const std::vector<ObservableColumn> &columns() const { return columns_; }

    // "step,time,<names>" and a CSV row (full precision, so values round-trip).
    std::string csv_header() const;
    std::string csv_line(const ObservableSample &s) const;
    // A console line in fixed-width columns under console_header(): step %10lld, time %12.5f,
    // then each column's own format.
    std::string console_header() const;
    std::string console_line(const ObservableSample &s) const;

private:
    std::vector<ObservableColumn> columns_;
    std::FILE *console_;
    std::FILE *csv_ = nullptr;
    bool console_header_written_ = false;
};

} // namespace smelt::apps
