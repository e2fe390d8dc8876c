#include "primitives/loop_function/units.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "primitives/algorithm_source.h"
#include "primitives/cpu/wrappers.h"
#include "primitives/cuda/raw_kernel.h"
#include "support/backend_table.h"
#include "support/error.h"

#include <set>
#include <utility>

namespace smelt::primitives::loops {

namespace {

// The macros a segment's block expects (loop_map_openmp.kernel, loop_reduce_openmp.kernel),
// the block, and #undef lines, so the next segment defines them afresh.
std::string segment_block(const std::vector<std::pair<std::string, std::string>> &macros,
                          const std::string &file) {
    std::string out;
    for (const auto &[name, value] : macros)
        out += define_line(name, value);
    out += algorithm_source(file);
    for (const auto &macro : macros)
        out += "#undef " + macro.first.substr(0, macro.first.find('(')) + "\n";
    return out;
}

std::string cpu_entry(const Outlined &o) {
    const codegen::Dialect &d = codegen::cpp_dialect();
    const ir::Module &m = *o.module;
    std::vector<EntryParam> params;
    for (const auto &p : o.shared)
        params.push_back({p->name, p->type});
    CallVars vars;
    std::string out = portable_words(d) + algorithm_source("chunk_split.kernel");
    out += "/* LoopFunction: the segments of the function, in order. */\n";
    out += cpu::entry_head(d, params, vars);
    auto call = [&](const std::string &fn, std::vector<std::string> lead_args) {
        for (const auto &v : vars.params)
            lead_args.push_back(v);
        return codegen::call_function(m, fn, lead_args);
    };
    for (const SegmentCode &s : o.segments) {
        if (s.kind == SegmentKind::Sequential) {
            out += "    " + call(s.body, {}) + ";\n";
            continue;
        }
        const std::string total = codegen::int_literal(d, Scalar::I64, s.total);
        if (s.kind == SegmentKind::Map) {
            out += segment_block({{"SMELT_SEG_TOTAL", total},
                                  {"SMELT_SEG_BODY(smelt_t)", call(s.body, {"smelt_t"})}},
                                 "loop_map_openmp.kernel");
            continue;
        }
        out += segment_block({{"SMELT_SEG_TOTAL", total},
                              {"SMELT_SEG_T", codegen::type_name(d, Type::scalar(s.acc))},
                              {"SMELT_SEG_NEUTRAL", codegen::call_function(m, s.neutral, {})},
                              {"SMELT_SEG_COMBINE(smelt_a, smelt_b)",
                               codegen::call_function(m, s.combine, {"smelt_a", "smelt_b"})},
                              {"SMELT_SEG_TERM(smelt_t)", call(s.body, {"smelt_t"})},
                              {"SMELT_SEG_APPLY(smelt_r)", call(s.apply, {"smelt_r"})}},
                             "loop_reduce_openmp.kernel");
    }
    out += "    (void)smelt_n;\n    (void)smelt_num_threads;\n}\n";
    return out;
}

} // namespace

Unit make_unit(const Outlined &o, const std::string &backend) {
    const ir::Module &m = *o.module;
    Unit unit;
    const BackendRow *row = find_backend_row(backend);
    SMELT_INTERNAL_ASSERT(row, "no backend '" << backend << "' in the backend table");
    const codegen::Dialect &d = row->dialect();
    if (row->work_groups && !row->kernel_wrappers) { // the kernels emitted as __kernel functions
        std::set<std::string> kernels(o.kernels.begin(), o.kernels.end());
        unit.source = codegen::prelude(d, codegen::uses_scalar(m, Scalar::F64), m.bounds_checked) +
                      "\n" + codegen::emit_module(m, d, kernels);
        for (const auto &k : o.kernels)
            unit.symbols.push_back(codegen::function_symbol(m, k));
        return unit;
    }
    if (row->kernel_wrappers) { // __global__ wrappers around the kernels' device functions
        std::string text =
            codegen::prelude(d, true, m.bounds_checked) + "\n" + codegen::emit_module(m, d);
        text += codegen::line_mapping_reset(text, "kernel.cu");
        for (const auto &k : o.kernels) {
            const std::string entry = "smelt_kernel_" + codegen::function_symbol(m, k);
            text += cuda::global_wrapper(m, k, entry);
            unit.symbols.push_back(entry);
        }
        unit.source = std::move(text);
        return unit;
    }
    // No work-groups: one host entry runs the segments over the threads.
    std::string text =
        codegen::prelude(d, true, m.bounds_checked) + "\n" + codegen::emit_module(m, d);
    text += codegen::line_mapping_reset(text, "kernel.cpp");
    text += "\n" + cpu_entry(o);
    unit.source = std::move(text);
    unit.symbols.push_back(cpu::kEntryName);
    return unit;
}

} // namespace smelt::primitives::loops
