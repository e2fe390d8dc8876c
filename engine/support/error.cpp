#include "support/error.h"

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
        if (d.loc.line == loc.line && d.loc.col == loc.col) return;
    Diagnostic d;
    d.file = file_->name();
    d.loc = loc;
    d.message = message;
    d.source_line = std::string(file_->line_text(loc.line));
    d.rendered = file_->render(loc, "error", message);
    diagnostics_.push_back(std::move(d));
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
