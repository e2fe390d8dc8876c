// smelt cache info | clear: the compiled-kernel cache on disk.
#include "cli/commands.h"

#include "cache/disk_cache.h"

#include <CLI/CLI.hpp>

#include <cstdio>

namespace smelt::cli {

namespace {

std::string human_bytes(uintmax_t bytes) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

void print_info() {
    DiskCache cache;
    DiskCache::Info info = cache.info();
    std::printf("cache folder: %s\n", info.root.c_str());
    std::string per;
    for (const auto &[backend, n] : info.entries_per_backend)
        per += (per.empty() ? "" : ", ") + backend + ": " + std::to_string(n);
    std::printf("entries:      %zu%s\n", info.entries,
                per.empty() ? "" : (" (" + per + ")").c_str());
    if (info.failed) std::printf("failed builds kept: %zu\n", info.failed);
    if (info.temporary) std::printf("builds in progress or abandoned: %zu\n", info.temporary);
    std::printf("size:         %s\n", human_bytes(info.bytes).c_str());
}

void clear() {
    DiskCache cache;
    size_t removed = cache.clear();
    std::printf("removed %zu entr%s from %s\n", removed, removed == 1 ? "y" : "ies",
                cache.root().c_str());
}

} // namespace

void add_cache_command(CLI::App &app) {
    CLI::App *cmd = app.add_subcommand(
        "cache", "The compiled-kernel cache (SMELT_CACHE_DIR, else $XDG_CACHE_HOME/smelt or "
                 "~/.cache/smelt)");
    cmd->require_subcommand(1);
    cmd->add_subcommand("info", "Show the cache folder, entry count and size")
        ->callback(print_info);
    cmd->add_subcommand("clear", "Remove every cached kernel")->callback(clear);
}

} // namespace smelt::cli
