// SourceFile and SourceLoc: where a piece of kernel text came from, and how to show it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace smelt {

class SourceFile;

// A position in the user's file. `line` is already shifted by the buffer's line offset, so it
// is the line the user sees in their editor (1-based); `col` is 1-based, in bytes. `file` is
// the file the position is in (set by the lexer; null for positions made up by the engine):
// a program's functions may come from several files (kernel libraries), and each diagnostic
// and #line directive must name the right one. The file outlives the position: it is owned by
// the parsed module, which the IR and every primitive keep alive.
struct SourceLoc {
    int line = 0;
    int col = 0;
    const SourceFile *file = nullptr;
    bool valid() const { return line > 0; }
    // The same place of the same file.
    bool same_place(const SourceLoc &o) const {
        return line == o.line && col == o.col && file == o.file;
    }
};

// The text of one kernel file (or of a fragment taken from a file, e.g. by inspect.getsource,
// in which case `line_offset` is the number of lines before the fragment's first line).
class SourceFile {
public:
    SourceFile(std::string name, std::string text, int line_offset = 0);

    const std::string &name() const { return name_; }
    const std::string &text() const { return text_; }
    int line_offset() const { return line_offset_; }

    // The text of a line given in file numbering (as stored in SourceLoc), without newline.
    std::string_view line_text(int file_line) const;

    // Renders "name:LINE:COL: SEVERITY: MESSAGE\n<source line>\n<caret>".
    std::string render(SourceLoc loc, std::string_view severity, std::string_view message) const;

private:
    std::string name_;
    std::string text_;
    int line_offset_;
    std::vector<size_t> line_starts_;
};

} // namespace smelt
