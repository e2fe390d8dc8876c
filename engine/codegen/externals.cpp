#include "codegen/externals.h"

#include "codegen/emitter.h"
#include "support/hash.h"

namespace smelt::codegen {

namespace {

std::string guarded(const std::string &kind, const std::string &text, const std::string &body) {
    const std::string guard = "SMELT_EXTERNAL_" + kind + "_" + hash_hex(text).substr(0, 16);
    return "#ifndef " + guard + "\n#define " + guard + "\n" + body + "#endif\n";
}

std::string include_line(const std::string &header) {
    if (header.front() == '<') return "#include " + header + "\n";
    return "#include \"" + header + "\"\n";
}

} // namespace

std::string external_declarations(const ir::Module &m) {
    std::string out;
    for (const ir::ExternalDecl &x : m.externals) {
        if (!x.header.empty()) out += guarded("HEADER", x.header, include_line(x.header));
        if (!x.code.empty()) {
            std::string code = x.code;
            if (code.back() != '\n') code += '\n';
            out += guarded("CODE", x.code,
                           detail::line_directive(1, "<external " + x.name + ">") + "\n" + code);
        }
    }
    return out;
}

} // namespace smelt::codegen
