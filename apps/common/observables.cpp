#include "common/observables.h"

#include "common/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace smelt::apps {

namespace {

std::string format_value(const char *fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string column_format(const ObservableColumn &c) {
    return "%" + std::to_string(c.width) + "." + std::to_string(c.precision) + c.conversion;
}

std::string padded(const std::string &text, int width) {
    return text.size() >= size_t(width) ? text
                                        : std::string(size_t(width) - text.size(), ' ') + text;
}

// The step of a CSV row: the digits before its first comma.
std::optional<int64_t> row_step(const std::string &line) {
    const size_t comma = line.find(',');
    if (comma == 0 || comma == std::string::npos) return std::nullopt;
    try {
        size_t used = 0;
        const long long v = std::stoll(line.substr(0, comma), &used);
        if (used != comma) return std::nullopt;
        return v;
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

// Keeps the header and the rows of steps < resume_step (rows are in step order), rewriting the
// file through a temporary so a crash leaves either the old or the new file.
void truncate_csv(const std::string &path, const std::string &header, int64_t resume_step) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot resume " + path + ": " + std::strerror(errno));
    std::string line, kept;
    if (!std::getline(in, line) || line != header)
        throw std::runtime_error("cannot resume " + path + ": its header is not '" + header + "'");
    kept = line + "\n";
    while (std::getline(in, line)) {
        auto step = row_step(line);
        if (!step)
            throw std::runtime_error("cannot resume " + path + ": malformed row '" + line + "'");
        if (*step >= resume_step) break;
        kept += line + "\n";
    }
    in.close();
    write_file_atomically(path, kept);
}

} // namespace

ObservableLog::ObservableLog(std::FILE *console, const std::string &csv_path,
                             std::vector<ObservableColumn> columns,
                             std::optional<int64_t> resume_step)
    : columns_(std::move(columns)), console_(console) {
    if (csv_path.empty()) return;
    if (resume_step && std::filesystem::exists(csv_path)) {
        truncate_csv(csv_path, csv_header(), *resume_step);
        csv_ = std::fopen(csv_path.c_str(), "a");
    } else {
        csv_ = std::fopen(csv_path.c_str(), "w");
        if (csv_) std::fprintf(csv_, "%s\n", csv_header().c_str());
    }
    if (!csv_) throw std::runtime_error("cannot create " + csv_path + ": " + std::strerror(errno));
    std::fflush(csv_);
}

ObservableLog::~ObservableLog() {
    close();
}

void ObservableLog::close() {
    if (csv_) std::fclose(csv_);
    csv_ = nullptr;
}

std::string ObservableLog::csv_header() const {
    std::string s = "step,time";
    for (const ObservableColumn &c : columns_)
        s += "," + c.name;
    return s;
}

std::string ObservableLog::csv_line(const ObservableSample &s) const {
    std::string line = std::to_string(s.step) + "," + format_value("%.17g", s.time);
    for (double v : s.values)
        line += "," + format_value("%.17g", v);
    return line;
}

std::string ObservableLog::console_header() const {
    std::string s = padded("step", 10) + " " + padded("time", 12);
    for (const ObservableColumn &c : columns_)
        s += " " + padded(c.name, c.width);
    return s;
}

std::string ObservableLog::console_line(const ObservableSample &s) const {
    char step[32];
    std::snprintf(step, sizeof step, "%10lld", static_cast<long long>(s.step));
    std::string line = std::string(step) + " " + format_value("%12.5f", s.time);
    for (size_t k = 0; k < columns_.size(); ++k)
        line += " " + format_value(column_format(columns_[k]).c_str(), s.values[k]);
    return line;
}

void ObservableLog::write(const ObservableSample &s) {
    if (s.values.size() != columns_.size())
        throw std::invalid_argument("observable sample has " + std::to_string(s.values.size()) +
                                    " values for " + std::to_string(columns_.size()) + " columns");
    if (console_) {
        if (!console_header_written_) std::fprintf(console_, "%s\n", console_header().c_str());
        console_header_written_ = true;
        std::fprintf(console_, "%s\n", console_line(s).c_str());
        std::fflush(console_);
    }
    if (csv_) {
        std::fprintf(csv_, "%s\n", csv_line(s).c_str());
        std::fflush(csv_);
    }
}

} // namespace smelt::apps
