#include "primitives/algorithm_source.h"

#include "support/error.h"

namespace smelt::primitives {

std::string algorithm_source(const std::string &name) {
    for (const AlgorithmFile *f = kAlgorithmFiles; f->name != nullptr; ++f)
        if (name == f->name) return f->text;
    SMELT_INTERNAL_ASSERT(false, "no algorithm file primitives/algorithms/" + name);
    return {};
}

std::string portable_words(const codegen::Dialect &d) {
    std::string out =
        "/* ---- portable words of the primitive algorithms (" + d.name + ") ---- */\n";
    auto define = [&](const std::string &word, const std::string &spelling) {
        // #ifndef takes the macro's name alone: "SMELT_GROUP_BARRIER", not "...BARRIER()".
        const std::string name = word.substr(0, word.find('('));
        out += "#ifndef " + name + "\n#define " + word + " " + spelling + "\n#endif\n";
    };
    auto builtin = [&](const std::string &word, const std::string &key) {
        auto it = d.gpu_builtins.find(key);
        if (it != d.gpu_builtins.end()) define(word, "((smelt_u32)" + it->second + ")");
    };
    out += "typedef " + d.type(Scalar::I64) + " smelt_i64;\n";
    out += "typedef " + d.type(Scalar::U64) + " smelt_u64;\n";
    out += "typedef " + d.type(Scalar::I32) + " smelt_i32;\n";
    out += "typedef " + d.type(Scalar::U32) + " smelt_u32;\n";
    out += "typedef " + d.type(Scalar::U8) + " smelt_u8;\n";
    out += "typedef " + d.type(Scalar::U16) + " smelt_u16;\n";
    define("SMELT_KERNEL", d.entry_qualifier);
    define("SMELT_GLOBAL", d.global_pointer_space);
    if (!d.local_array_space.empty()) {
        define("SMELT_LOCAL", d.local_pointer_space);
        define("SMELT_LOCAL_ARRAY", d.local_array_space);
    }
    builtin("SMELT_LOCAL_ID", "LID_0");
    builtin("SMELT_GROUP_ID", "GID_0");
    builtin("SMELT_LOCAL_SIZE", "LDIM_0");
    builtin("SMELT_NUM_GROUPS", "GDIM_0");
    if (!d.group_barrier.empty()) define("SMELT_GROUP_BARRIER()", d.group_barrier);
    return out;
}

std::string define_line(const std::string &name, const std::string &value) {
    SMELT_INTERNAL_ASSERT(value.find('\n') == std::string::npos,
                          "#define " + name + " spans lines: " + value);
    return "#define " + name + " " + value + "\n";
}

} // namespace smelt::primitives
