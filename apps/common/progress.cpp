#include "progress.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace smelt::apps {

namespace {

constexpr double kRedrawSeconds = 0.1; // bar refresh limit: drawing costs more than a small step

std::string printf_string(const char *fmt, double a, double b = 0, double c = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

} // namespace

Progress::Progress(int64_t total_steps, std::FILE *stream, Mode mode, int64_t first_step)
    : total_(total_steps), first_(first_step), stream_(stream), mode_(mode),
      start_(std::chrono::steady_clock::now()),
      last_decile_(first_step * 10 / std::max<int64_t>(total_steps, 1)) {
    if (!stream_) mode_ = Mode::Off;
    if (mode_ == Mode::Auto) mode_ = isatty(fileno(stream_)) ? Mode::Bar : Mode::Plain;
}

double Progress::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::format_duration(double s) {
    if (!std::isfinite(s) || s < 0) return "?";
    if (s < 60.0) return printf_string("%.1fs", s);
    auto total = static_cast<long long>(std::llround(s));
    char buf[48];
    if (total < 3600)
        std::snprintf(buf, sizeof buf, "%lldm%02llds", total / 60, total % 60);
    else
        std::snprintf(buf, sizeof buf, "%lldh%02lldm", total / 3600, (total % 3600) / 60);
    return buf;
}

std::string Progress::format_rate(int64_t steps, double seconds) {
    if (seconds <= 0.0) return "- steps/s";
    double r = static_cast<double>(steps) / seconds;
    return printf_string(r >= 100.0 ? "%.0f steps/s" : "%.3g steps/s", r);
}

namespace {

double fraction(int64_t done, int64_t total) {
    if (total <= 0) return 1.0;
    return std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0);
}

// "45.0% 4500/10000 steps  1234 steps/s  ETA 4.5s"; the rate counts the steps since `first`.
std::string status(int64_t done, int64_t total, double elapsed, int64_t first) {
    std::string eta = "?";
    const int64_t made = done - first;
    if (made > 0 && elapsed > 0.0)
        eta = Progress::format_duration(elapsed * static_cast<double>(total - done) /
                                        static_cast<double>(made));
    return printf_string("%5.1f%% ", 100.0 * fraction(done, total)) + std::to_string(done) + "/" +
           std::to_string(total) + " steps  " + Progress::format_rate(made, elapsed) + "  ETA " +
           eta;
}

} // namespace

std::string Progress::bar_line(int64_t done, int64_t total, double elapsed, int width,
                               int64_t first) {
    int filled = static_cast<int>(fraction(done, total) * width);
    return "[" + std::string(static_cast<size_t>(filled), '#') +
           std::string(static_cast<size_t>(width - filled), '.') + "] " +
           status(done, total, elapsed, first);
}

std::string Progress::plain_line(int64_t done, int64_t total, double elapsed, int64_t first) {
    return "progress: " + status(done, total, elapsed, first) + "  elapsed " +
           format_duration(elapsed);
}

void Progress::update(int64_t done) {
    if (mode_ == Mode::Off || total_ <= 0) return;
    if (mode_ == Mode::Plain) {
        int64_t decile = done * 10 / total_;
        if (decile <= last_decile_ || decile >= 10) return; // 100% is printed by finish()
        last_decile_ = decile;
        std::fprintf(stream_, "%s\n", plain_line(done, total_, elapsed(), first_).c_str());
        std::fflush(stream_);
        return;
    }
    double t = elapsed();
    if (last_draw_ >= 0.0 && t - last_draw_ < kRedrawSeconds) return;
    last_draw_ = t;
    std::fprintf(stream_, "\r%s\033[K", bar_line(done, total_, t, 30, first_).c_str());
    std::fflush(stream_);
}

void Progress::finish(int64_t done) {
    if (mode_ == Mode::Off) return;
    if (mode_ == Mode::Bar) {
        std::fprintf(stream_, "\r%s\033[K\n",
                     bar_line(done, total_, elapsed(), 30, first_).c_str());
    } else {
        std::fprintf(stream_, "%s\n", plain_line(done, total_, elapsed(), first_).c_str());
    }
    std::fflush(stream_);
}

} // namespace smelt::apps
