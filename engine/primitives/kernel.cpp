#include "primitives/kernel.h"

#include "backends/registry.h"
#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "support/error.h"

#include <cstring>
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
    for (const auto &f : m.functions)
        if (f->loc.line == loc.line && f->loc.col == loc.col) return f.get();
    return nullptr;
}

bool declares_local_memory(const ir::Function &f) {
    for (const auto &v : f.locals)
        if (v->type.is_matrix() && v->type.space == AddrSpace::Local) return true;
    return false;
}

// The rules a kernel function must follow beyond the language's own: checked on the IR, reported
// at their place in the .py.
void check_kernel_shape(const ast::Module &ast, const ir::Module &m, const ir::Function &kernel) {
    DiagnosticSink sink(ast.source);
    if (!kernel.return_type.is_void())
        sink.error(kernel.loc, "a low-level kernel returns nothing, but '" + kernel.name +
                                   "' returns " + kernel.return_type.str() +
                                   "; write results into an array argument");
    for (const auto &f : m.functions) {
        if (f.get() == &kernel || !declares_local_memory(*f)) continue;
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

template <class T> KernelArg value_arg(const KernelArgument &a) {
    return KernelArg::of(a.kind() == KernelArgument::Kind::Float ? static_cast<T>(a.floating())
                                                                 : static_cast<T>(a.integer()));
}

KernelArg scalar_arg(Scalar s, const KernelArgument &a) {
    switch (s) {
    case Scalar::Bool: // spelled uchar in OpenCL C (see codegen/opencl_dialect.cpp)
        return KernelArg::of(static_cast<uint8_t>(
            a.kind() == KernelArgument::Kind::Float ? a.floating() != 0 : a.integer() != 0));
    case Scalar::I8:
        return value_arg<int8_t>(a);
    case Scalar::U8:
        return value_arg<uint8_t>(a);
    case Scalar::I16:
        return value_arg<int16_t>(a);
    case Scalar::U16:
        return value_arg<uint16_t>(a);
    case Scalar::I32:
        return value_arg<int32_t>(a);
    case Scalar::U32:
        return value_arg<uint32_t>(a);
    case Scalar::I64:
        return value_arg<int64_t>(a);
    case Scalar::U64:
        return value_arg<uint64_t>(a);
    case Scalar::F32:
        return value_arg<float>(a);
    case Scalar::F64:
        return value_arg<double>(a);
    }
    SMELT_INTERNAL_ASSERT(false, "unknown scalar type");
}

} // namespace

RawKernel::RawKernel(std::shared_ptr<const ast::Module> module, const std::string &function,
                     std::map<std::string, Type> arg_types, Precision precision, Backend *backend)
    : module_(std::move(module)), backend_(backend ? backend : &default_backend()) {
    const std::string backend_name = backend_->name();
    if (backend_name == "cpu")
        throw UsageError("the low-level kernel '" + function +
                         "' needs a GPU-style backend (opencl); the current backend is cpu "
                         "(set SMELT_BACKEND=opencl or pass an OpenCL backend)");
    CompileOptions options;
    options.precision = precision;
    options.backend = backend_name;
    ir_ = build_ir(*module_, {KernelRequest{function, std::move(arg_types), {}}}, options);
    function_ = ir_->find(function);
    SMELT_INTERNAL_ASSERT(function_, "build_ir did not produce the requested '" << function << "'");
    check_kernel_shape(*module_, *ir_, *function_);

    const codegen::Dialect &d = codegen::dialect_for_backend(backend_name);
    source_ = codegen::prelude(d, codegen::uses_scalar(*ir_, Scalar::F64)) + "\n" +
              codegen::emit_module(*ir_, d, {function});
    entry_ = codegen::function_symbol(*ir_, function);

    ModuleSource src;
    src.source = source_;
    src.symbols = {entry_};
    src.primitive = "raw_kernel";
    src.signature = signature_text(*function_, precision);
    compiled_ = backend_->compile(src);
    kernel_ = compiled_->function(entry_);
}

void RawKernel::launch(const LaunchDims &dims, std::span<const KernelArgument> args) const {
    const auto &params = function_->params;
    const std::string who = "kernel '" + function_->name + "'";
    if (args.size() != params.size())
        throw UsageError(who + " takes " + std::to_string(params.size()) + " arguments, " +
                         std::to_string(args.size()) + " given");
    std::vector<KernelArg> launch_args;
    launch_args.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        const Type &t = params[i]->type;
        const KernelArgument &a = args[i];
        const std::string arg = who + ": argument " + std::to_string(i + 1) + " ('" +
                                params[i]->name + "', " + t.str() + ")";
        if (t.is_pointer() && t.space == AddrSpace::Local) {
            if (a.kind() != KernelArgument::Kind::Local)
                throw UsageError(arg + " needs LocalMem(count, dtype)");
            if (dtype_to_scalar(a.local().dtype) != t.elem || a.local().count == 0)
                throw UsageError(arg + " got LocalMem(" + std::to_string(a.local().count) + ", " +
                                 dtype_name(a.local().dtype) + ")");
            launch_args.push_back(KernelArg::local_memory(a.local().bytes()));
        } else if (t.is_pointer()) {
            if (a.kind() != KernelArgument::Kind::Array) throw UsageError(arg + " needs an Array");
            const Array &array = a.array();
            if (array.is_null() || dtype_to_scalar(array.dtype()) != t.elem)
                throw UsageError(arg + " got an array of dtype " +
                                 (array.is_null() ? "(null)" : dtype_name(array.dtype())));
            if (&array.backend() != backend_)
                throw UsageError(arg + " is an array on the " + array.backend().name() +
                                 " backend; the kernel runs on " + backend_->name());
            launch_args.push_back(KernelArg::of(array.buffer()));
        } else {
            if (a.kind() == KernelArgument::Kind::Array || a.kind() == KernelArgument::Kind::Local)
                throw UsageError(arg + " needs a number");
            if (a.kind() == KernelArgument::Kind::Float && !t.is_float() && !t.is_bool())
                throw UsageError(arg + " is an integer parameter; got a floating-point value");
            launch_args.push_back(scalar_arg(t.elem, a));
        }
    }
    backend_->launch(kernel_, dims, launch_args);
}

} // namespace smelt
