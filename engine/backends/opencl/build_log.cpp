// See build_log.h. A pure text function: no OpenCL calls.
#include "backends/opencl/build_log.h"

#include <cctype>
#include <optional>
#include <string_view>
#include <vector>

namespace smelt::opencl {

namespace {

struct Directive {
    long at = 0;   // 1-based line of the directive in the generated text
    long line = 0; // the line number it gives to the next line
    std::string file;
};

bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// `#line N` or `#line N "file"` (with \" and \\ escapes, as codegen writes them).
std::optional<Directive> parse_directive(std::string_view text, long at,
                                         const std::string &inherited) {
    size_t p = text.find_first_not_of(" \t");
    if (p == std::string_view::npos || text.substr(p, 5) != "#line") return std::nullopt;
    p = text.find_first_not_of(" \t", p + 5);
    if (p == std::string_view::npos || !is_digit(text[p])) return std::nullopt;
    Directive d{at, 0, inherited};
    for (; p < text.size() && is_digit(text[p]); ++p)
        d.line = d.line * 10 + (text[p] - '0');
    p = text.find_first_not_of(" \t", p);
    if (p != std::string_view::npos && text[p] == '"') {
        d.file.clear();
        for (++p; p < text.size() && text[p] != '"'; ++p) {
            if (text[p] == '\\' && p + 1 < text.size()) ++p;
            d.file += text[p];
        }
    }
    return d;
}

std::vector<Directive> directives(const std::string &source) {
    std::vector<Directive> out;
    long line = 1;
    size_t start = 0;
    while (start <= source.size()) {
        size_t end = source.find('\n', start);
        if (end == std::string::npos) end = source.size();
        const std::string inherited = out.empty() ? std::string() : out.back().file;
        if (auto d = parse_directive(std::string_view(source).substr(start, end - start), line,
                                     inherited))
            out.push_back(*d);
        start = end + 1;
        ++line;
    }
    return out;
}

// "file.py:L'" for line L of the generated text; nullopt above the first directive.
std::optional<std::string> mapped(const std::vector<Directive> &ds, long line) {
    const Directive *last = nullptr;
    for (const Directive &d : ds) {
        if (d.at >= line) break;
        last = &d;
    }
    if (!last || last->file.empty()) return std::nullopt;
    return last->file + ":" + std::to_string(last->line + (line - last->at - 1));
}

// Length of ":L:" or ":L:C" at text[p] (p on the first ':'), and L; 0 if there is none.
size_t location_at(std::string_view text, size_t p, long &line) {
    if (p >= text.size() || text[p] != ':') return 0;
    size_t q = p + 1;
    line = 0;
    if (q >= text.size() || !is_digit(text[q])) return 0;
    for (; q < text.size() && is_digit(text[q]); ++q)
        line = line * 10 + (text[q] - '0');
    if (q >= text.size() || text[q] != ':') return 0;
    return q - p; // ":L" (the column, if any, stays in place after it)
}

} // namespace

std::string map_log_locations(const std::string &log, const std::string &source) {
    const std::vector<Directive> ds = directives(source);
    if (ds.empty()) return log;
    static const std::string_view kNames[] = {"<kernel>", "<source>"};
    std::string out;
    out.reserve(log.size());
    size_t line_start = 0;
    for (size_t p = 0; p < log.size();) {
        if (log[p] == '\n') {
            out += log[p++];
            line_start = p;
            continue;
        }
        // A bare ":L:C" only where a location starts a line (after indentation): elsewhere a
        // colon follows a file name that is already right.
        size_t name = 0;
        for (std::string_view n : kNames)
            if (std::string_view(log).substr(p, n.size()) == n) name = n.size();
        const bool line_head = log.find_first_not_of(" \t", line_start) == p && log[p] == ':';
        long line = 0;
        size_t len = (name || line_head) ? location_at(log, p + name, line) : 0;
        if (len) {
            if (auto m = mapped(ds, line)) {
                out += *m;
                p += name + len;
                continue;
            }
        }
        out += log[p++];
    }
    return out;
}

} // namespace smelt::opencl
