#include "common/kernel_file.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace smelt::apps {

namespace fs = std::filesystem;

std::string find_kernel_file(const KernelFile &k, const char *argv0) {
    if (const char *env = k.env_var.empty() ? nullptr : std::getenv(k.env_var.c_str());
        env && *env) {
        if (!fs::is_regular_file(env))
            throw std::runtime_error(k.env_var + "=" + env + ": no such file");
        return env;
    }
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) exe = fs::absolute(argv0 ? argv0 : "", ec);
    std::vector<fs::path> tried = {exe.parent_path() / k.file_name};
    if (!k.share_dir.empty())
        tried.push_back(exe.parent_path() / "../share/smelt" / k.share_dir / k.file_name);
    if (!k.source_default.empty()) tried.push_back(k.source_default);
    std::string list;
    for (const fs::path &p : tried) {
        if (fs::is_regular_file(p, ec)) return fs::weakly_canonical(p, ec).string();
        list += "\n  " + p.string();
    }
    throw std::runtime_error(k.file_name + " not found; looked in:" + list +
                             (k.env_var.empty() ? "" : "\nset " + k.env_var + " to its path"));
}

std::vector<std::string> shared_kernel_path(const std::string &kernel_file) {
    const fs::path dir = fs::absolute(kernel_file).parent_path();
    std::vector<std::string> out;
    std::error_code ec;
    for (const fs::path &p : {dir / ".." / "common" / "kernels", dir / ".." / "kernels"})
        if (fs::is_directory(p, ec)) out.push_back(fs::weakly_canonical(p, ec).string());
    return out;
}

smelt::Program load_kernel_program(const std::string &kernel_file,
                                   const std::map<std::string, smelt::ConstantValue> &constants) {
    smelt::ProgramOptions options;
    options.kernel_path = shared_kernel_path(kernel_file);
    options.constants = constants;
    return smelt::Program::from_file(kernel_file, options);
}

} // namespace smelt::apps
