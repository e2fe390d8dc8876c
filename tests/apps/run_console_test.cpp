// The console side of a run: thermo formulas and log files, the progress display, Ctrl-C.
#include "common/observables.h"
#include "common/progress.h"
#include "common/stop_signal.h"
#include "common/thermo.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace smelt::apps;
namespace fs = std::filesystem;

namespace {

std::string read_stream(std::FILE *f) {
    std::fflush(f);
    std::rewind(f);
    std::string out;
    char buf[4096];
    size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.append(buf, k);
    return out;
}

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

TEST(Thermo, Formulas) {
    EXPECT_EQ(degrees_of_freedom(100, 2, true), 198);
    EXPECT_EQ(degrees_of_freedom(100, 2, false), 200);
    EXPECT_EQ(degrees_of_freedom(1, 3, true), 0);
    EXPECT_DOUBLE_EQ(temperature_from_ke(99.0, 198), 1.0);
    EXPECT_EQ(temperature_from_ke(5.0, 0), 0.0);
    // Ideal gas: W = 0 gives P = N T / V when 2 KE = dof T with dof = dim N.
    EXPECT_DOUBLE_EQ(virial_pressure(100.0, 0.0, 50.0, 2), 2.0);
    EXPECT_DOUBLE_EQ(virial_pressure(100.0, -40.0, 50.0, 2), 1.6);
}

// md2d's columns and formats (the console layout validation scripts and users rely on).
std::vector<ObservableColumn> md_columns() {
    return {{"pe", "potential_energy", 15, 8, 'g'},
            {"ke", "kinetic_energy", 15, 8, 'g'},
            {"etotal", "total_energy", 15, 10, 'g'},
            {"temperature", "temperature", 12, 6, 'g'},
            {"pressure", "pressure", 12, 6, 'g'}};
}

fs::path temp_csv(const std::string &name) {
    return fs::temp_directory_path() /
           ("smelt_thermo_" + std::to_string(getpid()) + "_" + name + ".csv");
}

std::vector<std::string> file_lines(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return lines_of(s.str());
}

TEST(Thermo, CsvRoundTripsAndConsoleHasOneLinePerSample) {
    fs::path csv = temp_csv("roundtrip");
    std::FILE *console = std::tmpfile();
    ObservableSample a{0, 0.0, {-2.5, 1.0, -1.5, 0.98765432109876543, 0.1}};
    ObservableSample b{10, 0.05, {-2.4000000000000004, 0.9, -1.5000000000000004, 0.9, -0.2}};
    {
        ObservableLog log(console, csv.string(), md_columns());
        log.write(a);
        // Flushed per line: the file is complete before the log closes.
        std::ifstream early(csv);
        std::string header, first;
        std::getline(early, header);
        std::getline(early, first);
        EXPECT_EQ(header, "step,time,pe,ke,etotal,temperature,pressure");
        EXPECT_EQ(first, log.csv_line(a));
        log.write(b);
    }
    std::ifstream in(csv);
    std::string header, l1, l2;
    std::getline(in, header);
    std::getline(in, l1);
    std::getline(in, l2);
    EXPECT_EQ(l2, "10,0.050000000000000003,-2.4000000000000004,0.90000000000000002,"
                  "-1.5000000000000004,0.90000000000000002,-0.20000000000000001");
    std::vector<double> v;
    std::istringstream fields(l2);
    for (std::string f; std::getline(fields, f, ',');)
        v.push_back(std::strtod(f.c_str(), nullptr));
    ASSERT_EQ(v.size(), 7u);
    EXPECT_EQ(v[0], 10.0);
    EXPECT_EQ(v[1], b.time);
    EXPECT_EQ(v[2], b.values[0]); // %.17g: exact round trip
    EXPECT_EQ(v[4], b.values[2]);
    EXPECT_EQ(v[6], b.values[4]);
    auto lines = lines_of(read_stream(console));
    ASSERT_EQ(lines.size(), 3u);
    // The fixed-width layout md2d has always printed: "%10s %12s %15s %15s %15s %12s %12s" and
    // "%10lld %12.5f %15.8g %15.8g %15.10g %12.6g %12.6g".
    EXPECT_EQ(lines[0], "      step         time              pe              ke          etotal "
                        " temperature     pressure");
    EXPECT_EQ(lines[2], "        10      0.05000            -2.4             0.9            -1.5 "
                        "         0.9         -0.2");
    std::fclose(console);
    fs::remove(csv);
}

TEST(Thermo, ColumnsOfAnotherAppAndWrongSampleSize) {
    std::FILE *console = std::tmpfile();
    ObservableLog log(console, "", {{"circulation", "circulation", 14, 6, 'e'}});
    EXPECT_EQ(log.csv_header(), "step,time,circulation");
    log.write({3, 1.5, {12.25}});
    EXPECT_THROW(log.write({4, 2.0, {1.0, 2.0}}), std::invalid_argument);
    auto lines = lines_of(read_stream(console));
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "      step         time    circulation");
    EXPECT_EQ(lines[1], "         3      1.50000   1.225000e+01");
    std::fclose(console);
}

// A restart at step 20 keeps the rows of steps < 20 and appends after them.
TEST(Thermo, ResumedCsvDropsRowsFromTheRestartStep) {
    fs::path csv = temp_csv("resume");
    {
        ObservableLog log(nullptr, csv.string(), md_columns());
        for (int64_t s = 0; s <= 30; s += 10)
            log.write({s, 0.1 * double(s), {double(s), 1, 2, 3, 4}});
    }
    {
        ObservableLog log(nullptr, csv.string(), md_columns(), int64_t(20));
        log.write({20, 2.0, {-20, 1, 2, 3, 4}});
    }
    auto lines = file_lines(csv);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0], "step,time,pe,ke,etotal,temperature,pressure");
    EXPECT_EQ(lines[1].substr(0, 4), "0,0,");
    EXPECT_EQ(lines[2].substr(0, 3), "10,");
    EXPECT_EQ(lines[3], "20,2,-20,1,2,3,4");
    EXPECT_FALSE(fs::exists(csv.string() + ".tmp"));
    // A CSV of other columns cannot be continued.
    EXPECT_THROW(ObservableLog(nullptr, csv.string(), {{"x", "x"}}, int64_t(10)),
                 std::runtime_error);
    fs::remove(csv);
}

TEST(Thermo, UnwritableCsvThrows) {
    EXPECT_THROW(ObservableLog(nullptr, "/nonexistent-dir/x.csv", md_columns()),
                 std::runtime_error);
}

TEST(Progress, Formatting) {
    EXPECT_EQ(Progress::format_duration(12.34), "12.3s");
    EXPECT_EQ(Progress::format_duration(185.0), "3m05s");
    EXPECT_EQ(Progress::format_duration(3725.0), "1h02m");
    EXPECT_EQ(Progress::format_rate(50, 10.0), "5 steps/s");
    EXPECT_EQ(Progress::format_rate(12345, 1.0), "12345 steps/s");
    // Half done in 10 s: 10 s to go.
    EXPECT_EQ(Progress::bar_line(50, 100, 10.0, 10),
              "[#####.....]  50.0% 50/100 steps  5 steps/s  ETA 10.0s");
    EXPECT_EQ(Progress::bar_line(0, 100, 0.0, 4), "[....]   0.0% 0/100 steps  - steps/s  ETA ?");
    EXPECT_EQ(Progress::plain_line(25, 100, 5.0),
              "progress:  25.0% 25/100 steps  5 steps/s  ETA 15.0s  elapsed 5.0s");
    // A restart at step 40: 10 steps in 5 s, 50 to go.
    EXPECT_EQ(Progress::plain_line(50, 100, 5.0, 40),
              "progress:  50.0% 50/100 steps  2 steps/s  ETA 25.0s  elapsed 5.0s");
}

TEST(Progress, PlainModePrintsEveryTenthAndTheEnd) {
    std::FILE *f = std::tmpfile();
    Progress p(200, f, Progress::Mode::Plain);
    for (int64_t s = 1; s <= 200; ++s)
        p.update(s);
    p.finish(200);
    auto lines = lines_of(read_stream(f));
    ASSERT_EQ(lines.size(), 10u); // 10%, ..., 90%, then finish
    EXPECT_NE(lines[0].find(" 10.0% 20/200"), std::string::npos) << lines[0];
    EXPECT_NE(lines[9].find("100.0% 200/200"), std::string::npos) << lines[9];
    std::fclose(f);
}

TEST(Progress, AutoModeIsPlainWhenNotATerminal) {
    std::FILE *f = std::tmpfile();
    EXPECT_EQ(Progress(10, f).mode(), Progress::Mode::Plain);
    std::fclose(f);
    EXPECT_EQ(Progress(10, nullptr).mode(), Progress::Mode::Off);
}

TEST(Progress, BarModeRedrawsOneLine) {
    std::FILE *f = std::tmpfile();
    Progress p(10, f, Progress::Mode::Bar);
    p.update(1);
    p.finish(10);
    std::string out = read_stream(f);
    EXPECT_EQ(out.front(), '\r');
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1); // only the final line ends
    EXPECT_NE(out.find("100.0% 10/10"), std::string::npos);
    std::fclose(f);
}

void marker_handler(int) {}

TEST(StopSignal, FirstSignalOnlyAsksToStopAndHandlersAreRestored) {
    struct sigaction mine {
    }, seen{};
    mine.sa_handler = marker_handler;
    sigaction(SIGINT, &mine, nullptr);
    {
        StopSignal stop;
        EXPECT_FALSE(stop.requested());
        EXPECT_THROW(StopSignal(), std::logic_error); // one at a time
        std::raise(SIGINT);                           // returns: the process keeps running
        EXPECT_TRUE(stop.requested());
        EXPECT_EQ(stop.signal_number(), SIGINT);
    }
    sigaction(SIGINT, nullptr, &seen);
    EXPECT_EQ(seen.sa_handler, &marker_handler);
    {
        StopSignal stop; // a new instance starts clear
        EXPECT_FALSE(stop.requested());
        std::raise(SIGTERM);
        EXPECT_EQ(stop.signal_number(), SIGTERM);
    }
    signal(SIGINT, SIG_DFL);
}

} // namespace
