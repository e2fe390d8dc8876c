// The engine's exception types. User mistakes (CompileError, UsageError), toolchain failures
// (BackendError) and engine bugs (InternalError) are kept apart so callers can tell them apart.
#pragma once

#include "support/source.h"

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt {

struct Diagnostic {
    std::string file;
    SourceLoc loc;
    std::string message;
    std::string source_line;
    std::string rendered; // "file:line:col: error: message" + source line + caret
};

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One or more errors in the user's kernel source, each with a location.
class CompileError : public Error {
public:
    explicit CompileError(std::vector<Diagnostic> diagnostics);
    const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
    // True when every diagnostic came from the lexer/parser (Python binds these to SyntaxError).
    bool is_syntax_error() const { return syntax_; }
    void set_syntax_error(bool v) { syntax_ = v; }

private:
    std::vector<Diagnostic> diagnostics_;
    bool syntax_ = false;
};

// Wrong use of the API at run time: mismatched array lengths, unknown function, bad dtype...
class UsageError : public Error {
public:
    using Error::Error;
};

// A toolchain (C++ compiler, OpenCL build, NVRTC) or driver failure. Carries the tool's log and
// the path where the generated source was kept for inspection.
class BackendError : public Error {
public:
    BackendError(const std::string &what, std::string log, std::string kept_source);
    const std::string &log() const { return log_; }
    const std::string &kept_source() const { return kept_source_; }

private:
    std::string log_;
    std::string kept_source_;
};

// A broken engine invariant: a bug in Smelt, never the user's fault.
class InternalError : public Error {
public:
    using Error::Error;
};

// Puts diagnostics in reading order: those of `main_file` first, then each other file's (in the
// order the files first appear), each file's by line and column.
void sort_diagnostics(std::vector<Diagnostic> &diags, const std::string &main_file);

// Collects located errors so one run can report all of them (smelt check).
class DiagnosticSink {
public:
    // `file`: where locations without a file of their own are shown.
    explicit DiagnosticSink(std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {}
    void error(SourceLoc loc, const std::string &message);
    bool has_errors() const { return !diagnostics_.empty(); }
    const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
    std::vector<Diagnostic> take() { return std::move(diagnostics_); }
    const SourceFile &file() const { return *file_; }
    // Throws CompileError with everything collected so far, if anything was.
    void throw_if_errors(bool syntax = false);

private:
    std::shared_ptr<const SourceFile> file_;
    std::vector<Diagnostic> diagnostics_;
};

namespace detail {
[[noreturn]] void throw_internal(const char *file, int line, const char *cond,
                                 const std::string &msg);
}

} // namespace smelt

// INTERNAL_ASSERT(cond) << "details"; throws InternalError with file/line when cond is false.
#define SMELT_INTERNAL_ASSERT(cond, msg)                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::ostringstream smelt_os_;                                                          \
            smelt_os_ << msg;                                                                      \
            ::smelt::detail::throw_internal(__FILE__, __LINE__, #cond, smelt_os_.str());           \
        }                                                                                          \
    } while (0)
