#include "frontend/imports.h"

#include "frontend/parser.h"
#include "support/error.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace smelt::frontend {

namespace fs = std::filesystem;

std::vector<std::string> kernel_search_path(const std::vector<std::string> &given) {
    std::vector<std::string> out = given;
    if (const char *env = std::getenv("SMELT_KERNEL_PATH")) {
        std::stringstream ss(env);
        std::string dir;
        while (std::getline(ss, dir, ':'))
            if (!dir.empty()) out.push_back(dir);
    }
    return out;
}

bool is_python_only_module(const std::string &module) {
    static const char *const kPythonOnly[] = {"smelt", "compyle", "numpy",
                                              "math",  "cmath",   "__future__"};
    const std::string first = module.substr(0, module.find('.'));
    for (const char *m : kPythonOnly)
        if (first == m) return true;
    return false;
}

namespace {

// The directory a file's own imports are looked for in ("" is the current directory), or
// nullopt for text with no file ("<string>", "<reduce_expr>").
std::optional<fs::path> directory_of(const SourceFile &file) {
    if (file.name().empty() || file.name()[0] == '<') return std::nullopt;
    return fs::path(file.name()).parent_path();
}

std::string shown(const fs::path &dir) {
    return dir.empty() ? "." : dir.string();
}

// A key that is the same for every spelling of one file's path.
std::string identity(const fs::path &path) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    return ec ? fs::absolute(path).lexically_normal().string() : canonical.string();
}

// `importer`: the file whose import names `path` (where the error is shown).
std::shared_ptr<const SourceFile> read_file(const fs::path &path, const ast::Import &imp,
                                            std::shared_ptr<const SourceFile> importer) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        DiagnosticSink sink(std::move(importer));
        sink.error(imp.loc, "cannot read the kernel file '" + path.string() + "' of module '" +
                                imp.module + "'");
        sink.throw_if_errors();
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return std::make_shared<SourceFile>(path.string(), ss.str());
}

struct Loader {
    const std::vector<std::string> &search_path;
    std::shared_ptr<ast::Module> main;
    std::map<std::string, ast::Module *> by_identity;
    std::deque<ast::Module *> todo;

    // The directories module `imp` is looked for in, from a file in `dir`.
    std::vector<fs::path> directories(const std::optional<fs::path> &dir,
                                      const ast::Import &imp) const {
        std::vector<fs::path> out;
        if (imp.level > 0) {
            if (!dir) return out;
            fs::path d = *dir;
            for (int up = 1; up < imp.level; ++up)
                d = d.empty() ? fs::path("..") : (d / "..").lexically_normal();
            out.push_back(d);
            return out;
        }
        if (dir) out.push_back(*dir);
        for (const auto &p : search_path)
            out.push_back(p);
        return out;
    }

    void resolve(ast::Module &m, ast::Import &imp) {
        const std::vector<fs::path> dirs = directories(directory_of(*m.source), imp);
        for (const auto &d : dirs)
            imp.searched.push_back(shown(d));
        // `from . import box` names a package, never a kernel file.
        if (imp.module.empty() || (imp.level == 0 && is_python_only_module(imp.module))) return;
        fs::path rel;
        size_t start = 0;
        while (true) {
            size_t dot = imp.module.find('.', start);
            std::string part = imp.module.substr(start, dot - start);
            rel /= dot == std::string::npos ? part + ".py" : part;
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        for (const auto &d : dirs) {
            fs::path candidate = (d / rel).lexically_normal();
            std::error_code ec;
            if (!fs::is_regular_file(candidate, ec)) continue;
            auto [it, fresh] = by_identity.try_emplace(identity(candidate), nullptr);
            if (fresh) {
                auto parsed = parse(read_file(candidate, imp, m.source));
                it->second = parsed.get();
                main->imported_modules.push_back(parsed);
                todo.push_back(parsed.get());
            }
            imp.resolved = it->second;
            return;
        }
    }
};

// True when `name` is bound at the top level of `m` (for `from m import name`), as far as the
// parser can see: a function, a constant, an import, or a name of the file's other top-level
// Python. A star import in `m` may bind anything, so it makes every name acceptable here.
bool binds(const ast::Module &m, const std::string &name) {
    if (m.find_function(name) || m.find_constant(name) || m.other_names.count(name)) return true;
    for (const auto &n : m.imported_names)
        if (n == name || n == "*") return true;
    return false;
}

} // namespace

std::shared_ptr<ast::Module> load_program(std::shared_ptr<const SourceFile> main,
                                          const std::vector<std::string> &search_path) {
    Loader loader{search_path, parse(main), {}, {}};
    if (auto dir = directory_of(*main)) {
        std::error_code ec;
        if (fs::is_regular_file(main->name(), ec))
            loader.by_identity[identity(main->name())] = loader.main.get();
    }
    loader.todo.push_back(loader.main.get());
    while (!loader.todo.empty()) {
        ast::Module *m = loader.todo.front();
        loader.todo.pop_front();
        for (auto &imp : m->imports)
            loader.resolve(*m, imp);
    }
    DiagnosticSink errors(main);
    for (const ast::Module *m : loader.main->program_modules())
        for (const auto &imp : m->imports) {
            if (!imp.resolved) continue;
            for (const auto &n : imp.names)
                if (!binds(*imp.resolved, n.name))
                    errors.error(n.loc, "cannot import name '" + n.name + "' from '" + imp.module +
                                            "': " + imp.resolved->source->name() +
                                            " defines no function or constant of that name");
        }
    errors.throw_if_errors();
    return loader.main;
}

} // namespace smelt::frontend
