// Kernel-library test trees: small kernel files written into a temporary directory.
#pragma once

#include "runtime/runtime_test_util.h"

#include <filesystem>
#include <string>

namespace smelt::testing_util {

// A temporary directory to write kernel files into, by path relative to it.
class KernelTree {
public:
    // Writes `text` to `rel` (creating folders) and returns the full path.
    std::string write(const std::string &rel, const std::string &text) const {
        std::filesystem::path p = dir_.path() / rel;
        std::filesystem::create_directories(p.parent_path());
        spew(p, text);
        return p.string();
    }
    std::string path(const std::string &rel = "") const {
        return rel.empty() ? dir_.path().string() : (dir_.path() / rel).string();
    }

private:
    TempDir dir_;
};

// A periodic-box library: the minimum image of a separation and a squared pair distance.
// `sq` is box.py's own helper; other files may define another `sq`.
inline const char *box_py() {
    return "from math import floor\n"
           "\n"
           "HALF = 0.5\n"
           "\n"
           "def sq(x):\n"
           "    return x * x\n"
           "\n"
           "def min_image(dx, L):\n"
           "    return dx - L * floor(dx / L + HALF)\n"
           "\n"
           "def pair_dist2(x, y, i, j, L):\n"
           "    dx = min_image(x[j] - x[i], L)\n"
           "    dy = min_image(y[j] - y[i], L)\n"
           "    return sq(dx) + sq(dy)\n";
}

} // namespace smelt::testing_util
