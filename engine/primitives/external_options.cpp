#include "primitives/external_options.h"

#include "support/backend_table.h"

#include <filesystem>

namespace smelt::primitives {

namespace fs = std::filesystem;

namespace {

std::string absolute(const std::string &path) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
}

bool starts_with(const std::string &s, const char *prefix) {
    return s.rfind(prefix, 0) == 0;
}

} // namespace

std::vector<std::string> link_arguments(const std::vector<std::string> &libs) {
    if (libs.empty()) return {};
    std::vector<std::string> out = {"-Wl,--no-undefined"};
    for (const auto &lib : libs) {
        std::error_code ec;
        if (lib.empty()) continue;
        if (starts_with(lib, "-")) {
            out.push_back(lib);
        } else if (fs::is_directory(lib, ec)) {
            const std::string dir = absolute(lib);
            out.push_back("-L" + dir);
            out.push_back("-Wl,-rpath," + dir);
        } else if (lib.find('/') != std::string::npos || fs::is_regular_file(lib, ec)) {
            out.push_back(absolute(lib));
        } else {
            out.push_back("-l" + lib);
        }
    }
    return out;
}

void apply_external_options(ModuleSource &src, const Options &options, const std::string &backend) {
    const BackendRow *row = find_backend_row(backend);
    const std::string family = row ? row->family : backend;
    for (const auto &dir : options.includes) {
        if (row && row->includes_without_spaces && dir.find_first_of(" \t") != std::string::npos)
            throw UsageError("Options::includes: the directory '" + dir +
                             "' has a space, which the " + family +
                             " backend's build options cannot carry");
        src.include_dirs.push_back(absolute(dir));
    }
    if (!options.libs.empty() && !(row && row->host_libraries))
        throw UsageError("Options::libs applies to the cpu backend only: on " + family +
                         " kernels are device code, which links no host libraries (give the "
                         "function as a header or as source text instead)");
    src.link_args = link_arguments(options.libs);
    src.extra_flags.insert(src.extra_flags.end(), options.extra_flags.begin(),
                           options.extra_flags.end());
}

} // namespace smelt::primitives
