#include "primitives/per_call_header.h"

#include "codegen/c_like.h"
#include "primitives/call_spelling.h"

namespace smelt::primitives {

std::string define_macro(const std::string &name, const std::string &value) {
    std::string out = "#define " + name;
    if (value.find('\n') == std::string::npos) {
        const size_t first = value.find_first_not_of(' ');
        return out + " " + (first == std::string::npos ? "" : value.substr(first)) + "\n";
    }
    // One statement per line: every line but the last ends in a backslash.
    size_t start = 0;
    while (start < value.size()) {
        size_t end = value.find('\n', start);
        if (end == std::string::npos) end = value.size();
        out += " \\\n" + value.substr(start, end - start);
        start = end + 1;
    }
    return out + "\n";
}

std::string user_param_macros(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                              CallVars &vars) {
    std::string decls, names;
    vars.params.clear();
    for (size_t k = 0; k < params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        decls += codegen::declaration(d, params[k].type, var) + " /* " + params[k].name + " */, ";
        names += var + ", ";
        vars.params.push_back(var);
    }
    return define_macro("SMELT_PARAMS", decls) + define_macro("SMELT_ARGS", names);
}

std::string combine_macros(const codegen::Dialect &d, Scalar acc, const CombineSymbols &ops) {
    const std::string T = codegen::type_name(d, Type::scalar(acc));
    return define_macro("SMELT_T", T) +
           define_macro("SMELT_COMBINE(smelt_a, smelt_b)",
                        "((" + T + ")" + ops.combine + "(smelt_a, smelt_b))") +
           define_macro("SMELT_NEUTRAL", "((" + T + ")" + ops.neutral + "())");
}

std::string reduce_macros(const codegen::Dialect &d, const ReductionWrapper &w,
                          const CallVars &vars) {
    const Type acc = Type::scalar(w.out);
    std::string item; // the value at smelt_i, as the accumulator type
    if (w.map) {
        item = convert(d, spell_call(d, *w.map, vars, w.params), w.map->result, acc);
    } else {
        const Type &arr = w.params.at(w.array_param).type;
        item = convert(d, vars.params.at(w.array_param) + "[smelt_i]", Type::scalar(arr.elem), acc);
    }
    return combine_macros(d, w.out, w.ops) + define_macro("SMELT_ITEM(smelt_i)", "(" + item + ")");
}

std::string scan_macros(const codegen::Dialect &d, const ScanWrapper &w, const CallVars &vars) {
    const Type acc = Type::scalar(w.dtype);
    std::string out = combine_macros(d, w.dtype, w.ops);
    out += define_macro(
        "SMELT_INPUT(smelt_i)",
        "(" + convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc) +
            ")");
    out += define_macro("SMELT_OUTPUT(smelt_i, smelt_item, smelt_prev, smelt_last)",
                        spell_call(d, w.output, vars, w.params, w.dtype));
    if (w.segment)
        out += define_macro("SMELT_SEGMENT(smelt_i)",
                            "(" + spell_call(d, *w.segment, vars, w.params, w.dtype) + ")");
    return out;
}

std::string
elementwise_macros(const codegen::Dialect &d, const ElementwiseWrapper &w, const CallVars &vars,
                   bool tiled, const std::string &entry, const std::string &each_entry, int items,
                   const std::function<std::string(size_t k, const std::string &index)> &preload) {
    std::string out = define_macro("SMELT_CALL(smelt_i)", spell_call(d, w.func, vars, w.params));
    if (!tiled) return out + define_macro("SMELT_EACH_ENTRY", entry);
    out += define_macro("SMELT_TILED_ENTRY", entry);
    out += define_macro("SMELT_EACH_ENTRY", each_entry);
    out += define_macro("SMELT_ITEMS", std::to_string(items));
    // The index as the call passes it, so a load ahead and the call's own load are the same
    // address.
    const Type &index_type = w.func.args.at(0).type;
    const std::string index = convert(d, "smelt_i", Type::scalar(Scalar::I64), index_type);
    std::string loads;
    for (size_t k = 0; k < w.params.size(); ++k)
        if (k < w.preload.size() && w.preload[k]) loads += preload(k, index);
    if (loads.empty()) return out;
    loads.pop_back(); // the macro's last line ends without a backslash
    out += define_macro("SMELT_PRELOAD(smelt_i)", loads);
    const std::string fits = index_fits(index_type, "smelt_n");
    if (!fits.empty()) out += define_macro("SMELT_INDEX_FITS", "(" + fits + ")");
    return out;
}

} // namespace smelt::primitives
