#include "support/error.h"

#include <algorithm>

namespace smelt {

static std::string join_rendered(const std::vector<Diagnostic> &diags) {
    std::string out;
    for (const auto &d : diags) {
        if (!out.empty()) out += "\n";
        out += d.rendered;
    }
    return out;
}

CompileError::CompileError(std::vector<Diagnostic> diagnostics)
    : Error(join_rendered(diagnostics)), diagnostics_(std::move(diagnostics)) {}

BackendError::BackendError(const std::string &what, std::string log, std::string kept_source)
    : Error(what + (log.empty() ? "" : "\n" + log) +
            (kept_source.empty() ? "" : "\ngenerated source kept at: " + kept_source)),
      log_(std::move(log)), kept_source_(std::move(kept_source)) {}

void DiagnosticSink::error(SourceLoc loc, const std::string &message) {
    // One message per location is enough; a cascade at the same spot only adds noise.
    for (const auto &d : diagnostics_)
        if (d.loc.same_place(loc)) return;
    // A location from another file (a function imported from a kernel library) is shown in
    // that file.
    const SourceFile &file = loc.file ? *loc.file : *file_;
    Diagnostic d;
    d.file = file.name();
    d.loc = loc;
    d.message = message;
    d.source_line = std::string(file.line_text(loc.line));
    d.rendered = file.render(loc, "error", message);
    diagnostics_.push_back(std::move(d));
}

void sort_diagnostics(std::vector<Diagnostic> &diags, const std::string &main_file) {
    // Files in the order their first diagnostic came, the main file first.
    std::vector<std::string> files{main_file};
    for (const auto &d : diags)
        if (std::find(files.begin(), files.end(), d.file) == files.end()) files.push_back(d.file);
    auto rank = [&](const Diagnostic &d) {
        return std::find(files.begin(), files.end(), d.file) - files.begin();
    };
    std::stable_sort(diags.begin(), diags.end(), [&](const Diagnostic &a, const Diagnostic &b) {
        if (rank(a) != rank(b)) return rank(a) < rank(b);
        return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
    });
}

void DiagnosticSink::throw_if_errors(bool syntax) {
    if (diagnostics_.empty()) return;
    CompileError err(take());
    err.set_syntax_error(syntax);
    throw err;
}

namespace detail {
void throw_internal(const char *file, int line, const char *cond, const std::string &msg) {
    throw InternalError(std::string("internal error (a bug in Smelt) at ") + file + ":" +
                        std::to_string(line) + ": " + cond + (msg.empty() ? "" : ": " + msg));
}
} // namespace detail

} // namespace smelt
