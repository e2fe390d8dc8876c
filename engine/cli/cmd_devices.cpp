// smelt devices: the backends, whether each is available, and its devices.
#include "cli/commands.h"

#include "backends/registry.h"
#include "support/error.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace smelt::cli {

namespace {

void print_devices() {
    const char *env = std::getenv("SMELT_BACKEND");
    const std::string chosen = env && *env ? env : "cpu";
    for (const BackendStatus &b : list_backends()) {
        std::printf("%-11s %s%s\n", b.name.c_str(), b.available ? "available" : "unavailable: ",
                    b.available ? (" (" + b.note + ")").c_str() : b.note.c_str());
        if (!b.available) continue;
        try {
            for (const DeviceInfo &d : get_backend(b.name).devices())
                std::printf("    %s: %s\n", d.name.c_str(), d.detail.c_str());
        } catch (const Error &e) { // e.g. SMELT_OPENCL_DEVICE names no device: say so, go on
            std::printf("    cannot open: %s\n", e.what());
        }
    }
    bool chosen_available = false;
    for (const BackendStatus &b : list_backends())
        chosen_available |= b.available && b.name == chosen;
    std::printf("default backend: %s%s%s\n", chosen.c_str(),
                env && *env ? " (from SMELT_BACKEND)" : " (set SMELT_BACKEND to change)",
                chosen_available ? "" : " -- NOT AVAILABLE: kernels will fail to run");
}

} // namespace

void add_devices_command(CLI::App &app) {
    CLI::App *cmd = app.add_subcommand("devices", "List backends and their devices");
    cmd->callback(print_devices);
}

} // namespace smelt::cli
