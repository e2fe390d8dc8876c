#include "cache/header_deps.h"

#include "support/hash.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace smelt {

namespace fs = std::filesystem;

namespace {

// The name in `#include "name"` (spaces allowed around '#'), or "" when `line` is none.
std::string quoted_include(const std::string &line) {
    size_t k = line.find_first_not_of(" \t");
    if (k == std::string::npos || line[k] != '#') return "";
    k = line.find_first_not_of(" \t", k + 1);
    if (k == std::string::npos || line.compare(k, 7, "include") != 0) return "";
    k = line.find_first_not_of(" \t", k + 7);
    if (k == std::string::npos || line[k] != '"') return "";
    size_t end = line.find('"', k + 1);
    return end == std::string::npos ? "" : line.substr(k + 1, end - k - 1);
}

} // namespace

std::string header_dependencies(const std::string &source,
                                const std::vector<std::string> &include_dirs) {
    std::istringstream lines(source);
    std::string line, out;
    while (std::getline(lines, line)) {
        const std::string name = quoted_include(line);
        if (name.empty()) continue;
        std::string found = " not found";
        // An absolute name is itself the file.
        std::vector<std::string> dirs = include_dirs;
        if (fs::path(name).is_absolute()) dirs = {"/"};
        for (const auto &dir : dirs) {
            fs::path p = fs::path(dir) / name;
            std::error_code ec;
            if (!fs::is_regular_file(p, ec)) continue;
            std::ifstream in(p, std::ios::binary);
            std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
            found = " " + p.string() + " " + hash_hex(text);
            break;
        }
        out += name + found + "\n";
    }
    return out;
}

} // namespace smelt
