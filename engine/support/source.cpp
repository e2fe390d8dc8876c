#include "support/source.h"

namespace smelt {

SourceFile::SourceFile(std::string name, std::string text, int line_offset)
    : name_(std::move(name)), text_(std::move(text)), line_offset_(line_offset) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
}

std::string_view SourceFile::line_text(int file_line) const {
    int idx = file_line - line_offset_ - 1;
    if (idx < 0 || idx >= static_cast<int>(line_starts_.size())) return {};
    size_t begin = line_starts_[idx];
    size_t end = text_.find('\n', begin);
    if (end == std::string::npos) end = text_.size();
    if (end > begin && text_[end - 1] == '\r') --end;
    return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceFile::render(SourceLoc loc, std::string_view severity,
                               std::string_view message) const {
    std::string out = name_;
    if (loc.valid()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    out += ": ";
    out += severity;
    out += ": ";
    out += message;
    if (!loc.valid()) return out;
    std::string_view line = line_text(loc.line);
    out += "\n";
    out += line;
    out += "\n";
    // Keep tabs in the caret line so the caret lines up under tab-indented source.
    for (int i = 0; i + 1 < loc.col && i < static_cast<int>(line.size()); ++i)
        out += line[i] == '\t' ? '\t' : ' ';
    out += "^";
    return out;
}

} // namespace smelt
