// Translation units of the CUDA target built without a device, for the CPU-side CUDA tests
// (cuda_source_test.cpp, cuda_emulation_test.cpp): assembled the way primitives/*.cpp assemble
// them, from tests/primitives/kernels.py and tests/cuda/kernels.py.
#pragma once

#include "cuda_test_util.h"
#include "primitives/primitive_test_util.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "pipeline.h"
#include "primitives/combine.h"
#include "primitives/cuda/cuda_target.h"
#include "primitives/cuda/raw_kernel.h"
#include "primitives/elementwise_unit.h"
#include "primitives/program_data.h"
#include "primitives/translation_unit.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace smelt::testing_util::cuda_units {

using primitives::cuda::cuda_target;

inline const std::string kData = SMELT_TEST_DATA_DIR;

inline std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The module of a kernel file named by its file name only (so #line text is stable).
inline std::shared_ptr<const ast::Module> parse_named(const std::string &path) {
    auto file = std::make_shared<SourceFile>(std::filesystem::path(path).filename().string(),
                                             read_text(path));
    return parse_source(file);
}

inline CompileOptions cuda_options(Precision p = Precision::Double) {
    CompileOptions o;
    o.precision = p;
    o.backend = "cuda";
    return o;
}

inline std::shared_ptr<ir::Module> annotated_ir(const ast::Module &m,
                                                Precision p = Precision::Double) {
    std::vector<KernelRequest> requests;
    for (const auto &fn : m.functions)
        if (fn->is_annotated()) requests.push_back({fn->name, {}, {}});
    return build_ir(m, requests, cuda_options(p));
}

inline const ast::Module &prim_module() {
    return *kernels().data().module;
}

// Everything after the prelude (device functions and wrappers).
inline std::string after_prelude(const std::string &unit) {
    const std::string end = "---- end of smelt prelude ---- */";
    size_t at = unit.find(end);
    EXPECT_NE(at, std::string::npos);
    return at == std::string::npos ? unit : unit.substr(at + end.size());
}

// From the #line directive that hands numbering back to kernel.cu: the wrapper.
inline std::string wrapper_part(const std::string &unit) {
    const size_t name = unit.rfind("\"kernel.cu\"");
    EXPECT_NE(name, std::string::npos);
    if (name == std::string::npos) return unit;
    return unit.substr(unit.rfind('\n', name) + 1);
}

inline Type ptr(Scalar s) {
    return Type::pointer(s);
}

inline std::string elementwise_source(const std::string &func,
                                      std::vector<std::optional<Type>> given,
                                      Precision p = Precision::Double,
                                      const primitives::ElementwiseArgLayout &layout = {}) {
    return primitives::elementwise_unit(prim_module(), func, given, p, cuda_target(), "cuda",
                                        layout)
        .source;
}

// The layout of distinct arrays, each holding n items.
inline primitives::ElementwiseArgLayout distinct(size_t args) {
    return {true, std::vector<bool>(args, true)};
}

// A reduction unit as api/reduction.cpp assembles it: over an array of `acc`, or over
// map `sq(i, x)` with x of type x_elem.
inline std::string reduction_source(Scalar acc, const std::string &expr, const std::string &neutral,
                                    bool with_map, Scalar x_elem = Scalar::F64,
                                    Precision p = Precision::Double) {
    auto combine = primitives::compile_combine(expr, "<reduce_expr>", neutral, acc, &prim_module(),
                                               cuda_options(p));
    primitives::ReductionWrapper w;
    w.out = acc;
    w.ops = combine.symbols;
    std::vector<const ir::Module *> modules;
    std::shared_ptr<ir::Module> m;
    if (with_map) {
        m = build_ir(prim_module(),
                     {{"sq", {{"i", Type::scalar(Scalar::I64)}, {"x", ptr(x_elem)}}, {}}},
                     cuda_options(p));
        const ir::Function *f = m->find("sq");
        primitives::Call call;
        call.symbol = codegen::function_symbol(*m, "sq");
        call.result = f->return_type;
        call.args = {{primitives::CallArg::Kind::Index, -1, f->params[0]->type},
                     {primitives::CallArg::Kind::Param, 0, f->params[1]->type}};
        w.params = {{"x", f->params[1]->type}};
        w.map = call;
        modules.push_back(m.get());
    } else {
        w.params = {{"ary", ptr(acc)}};
        w.array_param = 0;
    }
    modules.push_back(combine.combine.get());
    modules.push_back(combine.neutral.get());
    return primitives::assemble_unit(cuda_target(), modules, cuda_target().reduction_wrapper(w));
}

// A scan unit: input ident(i, x), output store_all(i, item, prev_item, last_item, y, yp, last)
// (the three-kernel scan) or, without last_item, store_item_prev(i, item, prev_item, y, yp) (the
// single-pass scan; `last` is then an unused parameter, so both take the same arguments),
// optionally segment seg_start(i, flags), as api/scan.cpp assembles it.
inline std::string scan_source(Scalar acc, bool segmented, Precision p = Precision::Double,
                               const std::string &expr = "a+b", const std::string &neutral = "0",
                               bool last_item = true) {
    using K = primitives::CallArg::Kind;
    const Type a = Type::scalar(acc), i64 = Type::scalar(Scalar::I64);
    std::vector<KernelRequest> requests = {{"ident", {{"i", i64}, {"x", ptr(acc)}}, {}}};
    if (last_item)
        requests.push_back({"store_all",
                            {{"i", i64},
                             {"item", a},
                             {"prev_item", a},
                             {"last_item", a},
                             {"y", ptr(acc)},
                             {"yp", ptr(acc)},
                             {"last", ptr(acc)}},
                            {}});
    else
        requests.push_back(
            {"store_item_prev",
             {{"i", i64}, {"item", a}, {"prev_item", a}, {"y", ptr(acc)}, {"yp", ptr(acc)}},
             {}});
    if (segmented) requests.push_back({"seg_start", {{"i", i64}, {"flags", ptr(Scalar::I32)}}, {}});
    auto m = build_ir(prim_module(), requests, cuda_options(p));
    auto combine = primitives::compile_combine(expr, "<scan_expr>", neutral, acc, &prim_module(),
                                               cuda_options(p));
    primitives::ScanWrapper w;
    w.dtype = acc;
    w.ops = combine.symbols;
    w.params = {{"x", ptr(acc)}, {"y", ptr(acc)}, {"yp", ptr(acc)}, {"last", ptr(acc)}};
    if (segmented) w.params.push_back({"flags", ptr(Scalar::I32)});
    auto call = [&](const std::string &name, std::vector<primitives::CallArg> args) {
        const ir::Function *f = m->find(name);
        for (size_t k = 0; k < args.size(); ++k)
            args[k].type = f->params[k]->type;
        return primitives::Call{codegen::function_symbol(*m, name), args, f->return_type};
    };
    w.input = call("ident", {{K::Index, -1, {}}, {K::Param, 0, {}}});
    if (last_item)
        w.output = call("store_all", {{K::Index, -1, {}},
                                      {K::Item, -1, {}},
                                      {K::PrevItem, -1, {}},
                                      {K::LastItem, -1, {}},
                                      {K::Param, 1, {}},
                                      {K::Param, 2, {}},
                                      {K::Param, 3, {}}});
    else
        w.output = call("store_item_prev", {{K::Index, -1, {}},
                                            {K::Item, -1, {}},
                                            {K::PrevItem, -1, {}},
                                            {K::Param, 1, {}},
                                            {K::Param, 2, {}}});
    if (segmented) w.segment = call("seg_start", {{K::Index, -1, {}}, {K::Param, 4, {}}});
    w.output_uses_last_item = last_item;
    return primitives::assemble_unit(cuda_target(),
                                     {m.get(), combine.combine.get(), combine.neutral.get()},
                                     cuda_target().scan_wrapper(w));
}

inline primitives::cuda::RawKernelUnit raw_unit(const std::string &func) {
    static const auto module = parse_named(kData + "/cuda/kernels.py");
    auto m = build_ir(*module, {{func, {}, {}}}, cuda_options());
    return primitives::cuda::raw_kernel_unit(*m, func);
}

} // namespace smelt::testing_util::cuda_units
