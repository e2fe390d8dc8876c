#include "support/debug.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace smelt::debug {

namespace {

std::mutex g_mutex; // one line (or block) at a time, also when several threads compile
int g_forced_level = -1;
std::function<void(std::string_view)> g_sink;

int env_level() {
    static const int value = [] {
        const char *s = std::getenv("SMELT_DEBUG");
        if (!s || !*s) return 0;
        char *end = nullptr;
        long v = std::strtol(s, &end, 10);
        return (end && *end == '\0' && v > 0) ? static_cast<int>(v) : 0;
    }();
    return value;
}

void emit(const std::string &text) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_sink) {
        g_sink(text);
        return;
    }
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

} // namespace

int level() {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (g_forced_level >= 0) return g_forced_level;
    }
    return env_level();
}

void log(int min_level, std::string_view message) {
    if (level() < min_level) return;
    std::string line = "smelt: ";
    line += message;
    line += '\n';
    emit(line);
}

void dump(std::string_view stage, std::string_view text) {
    std::string block = "=== ";
    block += stage;
    block += " ===\n";
    block += text;
    if (!text.empty() && text.back() != '\n') block += '\n';
    block += "=== end ";
    block += stage;
    block += " ===\n";
    emit(block);
}

void set_level_for_testing(int level) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_forced_level = level;
}

void set_sink_for_testing(std::function<void(std::string_view)> sink) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_sink = std::move(sink);
}

} // namespace smelt::debug
