// The console side of a run: thermo formulas and log files, the progress display, Ctrl-C.
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

TEST(Thermo, CsvRoundTripsAndConsoleHasOneLinePerSample) {
    fs::path csv =
        fs::temp_directory_path() / ("smelt_thermo_" + std::to_string(getpid()) + ".csv");
    std::FILE *console = std::tmpfile();
    ThermoSample a{0, 0.0, -2.5, 1.0, -1.5, 0.98765432109876543, 0.1};
    ThermoSample b{10, 0.05, -2.4000000000000004, 0.9, -1.5000000000000004, 0.9, -0.2};
    {
        ThermoLog log(console, csv.string());
        log.write(a);
        // Flushed per line: the file is complete before the log closes.
        std::ifstream early(csv);
        std::string header, first;
        std::getline(early, header);
        std::getline(early, first);
        EXPECT_EQ(header, "step,time,pe,ke,etotal,temperature,pressure");
        EXPECT_EQ(first, ThermoLog::csv_line(a));
        log.write(b);
    }
    std::ifstream in(csv);
    std::string header, l1, l2;
    std::getline(in, header);
    std::getline(in, l1);
    std::getline(in, l2);
    EXPECT_EQ(l2, ThermoLog::csv_line(b));
    std::vector<double> v;
    std::istringstream fields(l2);
    for (std::string f; std::getline(fields, f, ',');)
        v.push_back(std::strtod(f.c_str(), nullptr));
    ASSERT_EQ(v.size(), 7u);
    EXPECT_EQ(v[0], 10.0);
    EXPECT_EQ(v[1], b.time);
    EXPECT_EQ(v[2], b.pe); // %.17g: exact round trip
    EXPECT_EQ(v[4], b.etotal);
    EXPECT_EQ(v[6], b.pressure);
    auto lines = lines_of(read_stream(console));
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], ThermoLog::console_header());
    EXPECT_NE(lines[2].find("10"), std::string::npos);
    std::fclose(console);
    fs::remove(csv);
}

TEST(Thermo, UnwritableCsvThrows) {
    EXPECT_THROW(ThermoLog(nullptr, "/nonexistent-dir/x.csv"), std::runtime_error);
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
