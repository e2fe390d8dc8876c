#include "primitives/loop_function/units.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "primitives/cpu/wrappers.h"
#include "primitives/cuda/raw_kernel.h"
#include "support/backend_table.h"
#include "support/error.h"

#include <set>

namespace smelt::primitives::loops {

namespace {

std::string cpu_entry(const Outlined &o) {
    const codegen::Dialect &d = codegen::cpp_dialect();
    const ir::Module &m = *o.module;
    std::vector<EntryParam> params;
    for (const auto &p : o.shared)
        params.push_back({p->name, p->type});
    CallVars vars;
    std::string out = "/* LoopFunction: the segments of the function, in order. */\n";
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
            out += "    {\n";
            out += "#pragma omp parallel for schedule(static) num_threads(smelt_num_threads) "
                   "if (smelt_num_threads > 1 && " +
                   total + " > 1)\n";
            out += "        for (int64_t smelt_t = 0; smelt_t < " + total + "; ++smelt_t)\n";
            out += "            " + call(s.body, {"smelt_t"}) + ";\n";
            out += "    }\n";
            continue;
        }
        const std::string T = codegen::type_name(d, Type::scalar(s.acc));
        const std::string neutral = codegen::call_function(m, s.neutral, {});
        out += "    {\n";
        out += "        const int32_t smelt_team = " + total + " > 1 ? smelt_num_threads : 1;\n";
        out += "        " + T + " *smelt_parts = (" + T + " *)malloc(sizeof(" + T +
               ") * (size_t)smelt_team);\n";
        out += "        for (int32_t smelt_k = 0; smelt_k < smelt_team; ++smelt_k) "
               "smelt_parts[smelt_k] = " +
               neutral + ";\n";
        out += "#pragma omp parallel num_threads(smelt_team) if (smelt_team > 1)\n";
        out += "        {\n";
        out += "            int32_t smelt_th = 0, smelt_nt = 1;\n";
        out += "#ifdef _OPENMP\n";
        out += "            smelt_th = omp_get_thread_num();\n";
        out += "            smelt_nt = omp_get_num_threads();\n";
        out += "#endif\n";
        out += "            const int64_t smelt_base = " + total +
               " / smelt_nt, smelt_rem = " + total + " % smelt_nt;\n";
        out +=
            "            const int64_t smelt_lo = smelt_th * smelt_base + (smelt_th < smelt_rem ? "
            "smelt_th : smelt_rem);\n";
        out += "            const int64_t smelt_hi = smelt_lo + smelt_base + (smelt_th < smelt_rem "
               "? 1 : 0);\n";
        out += "            " + T + " smelt_p = " + neutral + ";\n";
        out += "            for (int64_t smelt_t = smelt_lo; smelt_t < smelt_hi; ++smelt_t)\n";
        out += "                smelt_p = " +
               codegen::call_function(m, s.combine, {"smelt_p", call(s.body, {"smelt_t"})}) + ";\n";
        out += "            smelt_parts[smelt_th] = smelt_p;\n";
        out += "        }\n";
        out += "        " + T + " smelt_r = " + neutral + ";\n";
        out += "        for (int32_t smelt_k = 0; smelt_k < smelt_team; ++smelt_k)\n";
        out += "            smelt_r = " +
               codegen::call_function(m, s.combine, {"smelt_r", "smelt_parts[smelt_k]"}) + ";\n";
        out += "        free(smelt_parts);\n";
        out += "        " + call(s.apply, {"smelt_r"}) + ";\n";
        out += "    }\n";
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
