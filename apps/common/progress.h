// Run progress on the console: a redrawn bar with steps/s and ETA when the stream is a terminal,
// plain lines at every 10% otherwise (logs and CI stay readable).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace smelt::apps {

class Progress {
public:
    enum class Mode { Auto, Bar, Plain, Off };

    // Auto picks Bar when isatty(stream) and Plain otherwise. `first_step`: where the run
    // starts (a restart); rates and the ETA count the steps from there.
    explicit Progress(int64_t total_steps, std::FILE *stream = stderr, Mode mode = Mode::Auto,
                      int64_t first_step = 0);

    // Call after each step with the number of steps done; cheap when nothing is drawn.
    void update(int64_t steps_done);
    // Draws the final state and ends the bar's line.
    void finish(int64_t steps_done);
    Mode mode() const { return mode_; }

    // Pure formatting, used by update() and by the tests.
    static std::string format_duration(double seconds);            // "12.3s", "3m05s", "1h02m"
    static std::string format_rate(int64_t steps, double seconds); // "1234 steps/s"
    static std::string bar_line(int64_t done, int64_t total, double elapsed, int width,
                                int64_t first = 0);
    static std::string plain_line(int64_t done, int64_t total, double elapsed, int64_t first = 0);

private:
    double elapsed() const;

    int64_t total_;
    int64_t first_;
    std::FILE *stream_;
    Mode mode_;
    std::chrono::steady_clock::time_point start_;
    double last_draw_ = -1.0;
    int64_t last_decile_ = 0;
};

} // namespace smelt::apps
