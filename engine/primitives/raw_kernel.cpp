#include "primitives/raw_kernel.h"

#include "backends/registry.h"
#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "primitives/checked_run.h"
#include "primitives/cuda/raw_kernel.h"
#include "primitives/external_options.h"
#include "support/backend_table.h"
#include "support/error.h"

#include <functional>

namespace smelt {

namespace {

// Where `fn` declares a LOCAL_MEM matrix (the declare() call), or its def when not found.
SourceLoc local_mem_declaration(const ast::FunctionDef &fn) {
    SourceLoc found;
    std::function<void(const ast::Expr &)> expr = [&](const ast::Expr &e) {
        if (found.valid()) return;
        if (e.kind == ast::ExprKind::Call && e.args.size() >= 2 &&
            e.args[0]->kind == ast::ExprKind::Name && e.args[0]->name == "declare" &&
            e.args[1]->kind == ast::ExprKind::Str &&
            e.args[1]->str_value.find("LOCAL_MEM") != std::string::npos)
            found = e.loc;
        for (const auto &a : e.args)
            expr(*a);
    };
    std::function<void(const ast::Block &)> block = [&](const ast::Block &b) {
        for (const auto &s : b) {
            for (const ast::ExprPtr *e : {&s->value, &s->cond, &s->annotation})
                if (*e) expr(**e);
            block(s->body);
            block(s->orelse);
        }
    };
    block(fn.body);
    return found.valid() ? found : fn.loc;
}

const ast::FunctionDef *ast_function_at(const ast::Module &m, SourceLoc loc) {
    for (const ast::Module *file : m.program_modules())
        for (const auto &f : file->functions)
            if (f->loc.same_place(loc)) return f.get();
    return nullptr;
}

bool declares_local_memory(const ir::Function &f) {
    for (const auto &v : f.locals)
        if (v->type.is_matrix() && v->type.space == AddrSpace::Local) return true;
    return false;
}

// The rules a kernel function must follow beyond the language's own: checked on the IR, reported
// at their place in the .py.
// `local_mem_in_kernel_only`: OpenCL's rule (CUDA allows __shared__ in device functions).
void check_kernel_shape(const ast::Module &ast, const ir::Module &m, const ir::Function &kernel,
                        bool local_mem_in_kernel_only) {
    DiagnosticSink sink(ast.source);
    if (!kernel.return_type.is_void())
        sink.error(kernel.loc, "a low-level kernel returns nothing, but '" + kernel.name +
                                   "' returns " + kernel.return_type.str() +
                                   "; write results into an array argument");
    for (const auto &f : m.functions) {
        if (!local_mem_in_kernel_only || f.get() == &kernel || !declares_local_memory(*f)) continue;
        const ast::FunctionDef *def = ast_function_at(ast, f->loc);
        sink.error(def ? local_mem_declaration(*def) : f->loc,
                   "LOCAL_MEM can only be declared in the kernel function itself ('" + kernel.name +
                       "'), not in '" + f->name +
                       "' which it calls (OpenCL allows local memory only at kernel scope); "
                       "declare it in the kernel, or pass a LocalMem argument to an l<type>p "
                       "parameter");
    }
    sink.throw_if_errors();
}

std::string signature_text(const ir::Function &f, Precision p) {
    std::string out = f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i)
        out += (i ? ", " : "") + f.params[i]->name + ": " + f.params[i]->type.str();
    return out + ")" + (p == Precision::Single ? " single" : "");
}

// The bytes of one element of `s` as the device stores it (bool is one byte on every GPU
// dialect: OpenCL spells it uchar).
size_t element_bytes(Scalar s) {
    return s == Scalar::Bool ? 1 : static_cast<size_t>(scalar_bits(s) / 8);
}

} // namespace

RawKernel::RawKernel(std::shared_ptr<const ast::Module> module, const std::string &function,
                     std::map<std::string, Type> arg_types, Precision precision, Backend *backend,
                     bool fast_math, bool bounds_check, bool check_finite,
                     const Options &external_options)
    : module_(std::move(module)), backend_(backend ? backend : &default_backend()) {
    const std::string backend_name = backend_->name();
    const BackendRow *row = find_backend_row(backend_name);
    if (!row || !row->work_groups)
        throw UsageError("the low-level kernel '" + function + "' needs a GPU-style backend (" +
                         backend_families_text(" or ", true) +
                         "), where work-groups and local memory exist; the backend is " +
                         backend_name + ": use Elementwise there");
    CompileOptions options;
    options.precision = precision;
    options.backend = backend_name;
    ir_ = build_ir(*module_, {KernelRequest{function, std::move(arg_types), {}}}, options);
    function_ = ir_->find(function);
    SMELT_INTERNAL_ASSERT(function_, "build_ir did not produce the requested '" << function << "'");
    check_kernel_shape(*module_, *ir_, *function_, row->local_mem_in_kernel_only);
    user_params_ = function_->params.size();
    checked_ = bounds_check || check_finite;
    if (checked_) {
        // Parameter k's length (an array's size, a LocalMem's count) in slot header + k.
        ir::BoundsChecked c = ir::bounds_check(*ir_, {ir::entry_with_consecutive_slots(*function_)},
                                               bounds_check, check_finite);
        ir_ = std::move(c.module);
        sites_ = std::move(c.sites);
        function_ = ir_->find(function);
    }

    if (row->kernel_wrappers) {
        // CUDA keeps the function a __device__ function behind a __global__ wrapper, which turns
        // LocalMem offsets into pointers into dynamic shared memory.
        primitives::cuda::RawKernelUnit unit = primitives::cuda::raw_kernel_unit(*ir_, function);
        source_ = std::move(unit.source);
        entry_ = std::move(unit.entry);
    } else {
        const codegen::Dialect &d = row->dialect();
        source_ = codegen::prelude(d, codegen::uses_scalar(*ir_, Scalar::F64), checked_) + "\n" +
                  codegen::emit_module(*ir_, d, {function});
        entry_ = codegen::function_symbol(*ir_, function);
    }

    ModuleSource src;
    src.source = source_;
    src.symbols = {entry_};
    src.primitive = "raw_kernel";
    src.fast_math = fast_math;
    primitives::apply_external_options(src, external_options, backend_name);
    src.signature = signature_text(*function_, precision) + (bounds_check ? " bounds" : "") +
                    (check_finite ? " finite" : "");
    compiled_ = backend_->compile(src);
    kernel_ = compiled_->function(entry_);
}

void RawKernel::launch(const LaunchDims &dims, std::span<const LaunchArg> args) const {
    const auto &params = function_->params;
    const std::string who = "kernel '" + function_->name + "'";
    if (args.size() != user_params_)
        throw UsageError(who + " takes " + std::to_string(user_params_) + " arguments, " +
                         std::to_string(args.size()) + " given");
    std::vector<KernelArg> launch_args;
    std::vector<int64_t> lengths; // per argument, for the checked modes' table
    launch_args.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        const Type &t = params[i]->type;
        const LaunchArg &a = args[i];
        const std::string arg = who + ": argument " + std::to_string(i + 1) + " ('" +
                                params[i]->name + "', " + t.str() + ")";
        if (t.is_pointer() && t.space == AddrSpace::Local) {
            if (!a.is_local()) throw UsageError(arg + " needs LocalMem(count)");
            const LocalMem &m = a.local();
            if ((m.dtype && dtype_to_scalar(*m.dtype) != t.elem) || m.count == 0)
                throw UsageError(arg + " got LocalMem(" + std::to_string(m.count) +
                                 (m.dtype ? std::string(", ") + dtype_name(*m.dtype) : "") + ")");
            launch_args.push_back(KernelArg::local_memory(m.count * element_bytes(t.elem)));
            lengths.push_back(static_cast<int64_t>(m.count));
        } else if (a.is_local()) {
            throw UsageError(arg + " is given LocalMem, which only an l<type>p parameter takes");
        } else if (t.is_buffer()) {
            if (!a.arg().is_array()) throw UsageError(arg + " needs an Array");
            const Array &array = a.arg().array();
            if (dtype_to_scalar(array.dtype()) != t.elem)
                throw UsageError(arg + " got an array of dtype " + dtype_name(array.dtype()));
            if (&array.backend() != backend_)
                throw UsageError(arg + " is an array on the " + array.backend().name() +
                                 " backend; the kernel runs on " + backend_->name());
            launch_args.push_back(KernelArg::of(array.buffer()));
            lengths.push_back(static_cast<int64_t>(array.size()));
        } else {
            if (a.arg().is_array()) throw UsageError(arg + " needs a number, not an Array");
            KernelArg v;
            v.kind = KernelArg::Kind::Value;
            v.size = element_bytes(t.elem);
            a.arg().convert_scalar(t.elem, v.value);
            launch_args.push_back(v);
            lengths.push_back(0);
        }
    }
    if (!checked_) return backend_->launch(kernel_, dims, launch_args);
    Array table = primitives::checked_run_table(lengths, *backend_);
    launch_args.push_back(KernelArg::of(table.buffer()));
    backend_->launch(kernel_, dims, launch_args);
    primitives::report_checked_run(table, sites_);
}

} // namespace smelt
