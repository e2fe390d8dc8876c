#include "primitives/binding.h"

#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "lower/annotations.h"

#include <algorithm>
#include <cstdlib>

namespace smelt::primitives {

std::vector<std::optional<Type>> declared_param_types(const ast::Module &module,
                                                      const ast::FunctionDef &fn) {
    // Problems in the annotations are reported by build_ir, with their locations; here an
    // unreadable annotation simply counts as none.
    DiagnosticSink scratch(module.source);
    return lower::read_declared_types(fn, false, scratch).params;
}

namespace {

std::string describe_given(const Type &t) {
    if (t.is_pointer()) return std::string("a ") + dtype_name(dtype_from_scalar(t.elem)) + " array";
    if (t.is_global_matrix()) {
        std::string shape;
        for (int64_t d : t.dims)
            shape += (shape.empty() ? "" : ", ") + std::to_string(d);
        return std::string("a ") + dtype_name(dtype_from_scalar(t.elem)) + " array of shape (" +
               shape + ")";
    }
    return std::string("a scalar (") + scalar_name(t.elem) + ")";
}

} // namespace

BoundParam bind_param(const std::string &func, const std::string &param,
                      const std::optional<Type> &declared, const std::optional<Type> &given,
                      Precision precision) {
    const bool single = precision == Precision::Single;
    const std::string who = "parameter '" + param + "' of '" + func + "'";
    if (!declared && !given)
        throw UsageError(who + " has no type: annotate it or give it an argument");
    if (!given) return {single ? demote_to_single(*declared) : *declared, false};

    if (declared) {
        Type compiled = single ? demote_to_single(*declared) : *declared;
        std::string decl_text = "is declared " + declared->str();
        if (compiled != *declared) decl_text += " (" + compiled.str() + " in single precision)";
        // A pointer parameter takes a shaped array as its flat elements (Compyle's meaning of
        // a 2-D array); only an unannotated parameter takes the shape as its type.
        if (given->is_buffer()) {
            if (!compiled.is_pointer() || compiled.elem != given->elem)
                throw UsageError(who + " " + decl_text + " but is given " + describe_given(*given));
        } else if (!compiled.is_scalar()) {
            throw UsageError(who + " " + decl_text + " but is given " + describe_given(*given));
        }
        return {compiled, false}; // scalars are converted to the declared type when packed
    }
    if (given->is_buffer()) {
        if (single && given->elem == Scalar::F64)
            throw UsageError(who + " is given a float64 array, but single precision compiles "
                                   "doubles as float: pass a float32 array");
        return {*given, true};
    }
    return {single ? demote_to_single(*given) : *given, true};
}

bool env_flag(const char *name) {
    const char *v = std::getenv(name);
    if (!v) return false;
    const std::string s = v;
    return !(s.empty() || s == "0" || s == "false" || s == "no" || s == "off");
}

Options with_environment(Options options) {
    options.fast_math = options.fast_math || env_flag("SMELT_FAST_MATH");
    options.bounds_check = options.bounds_check || env_flag("SMELT_BOUNDS_CHECK");
    options.check_finite = options.check_finite || env_flag("SMELT_CHECK_FINITE");
    return options;
}

Backend &resolve_backend(const Options &options) {
    if (options.threads < 0)
        throw UsageError("Options::threads must be 0 (leave the CPU thread count) or positive, "
                         "not " +
                         std::to_string(options.threads));
    Backend &backend = options.backend.empty() ? default_backend() : get_backend(options.backend);
    if (options.threads > 0)
        if (auto *cpu = dynamic_cast<cpu::CpuBackend *>(&backend))
            cpu->set_num_threads(options.threads);
    return backend;
}

std::vector<size_t> named_order(const std::vector<std::string> &given,
                                const std::vector<std::string> &params, const std::string &who) {
    auto quoted = [](const std::vector<std::string> &names) {
        std::string out;
        for (const auto &n : names)
            out += (out.empty() ? "'" : ", '") + n + "'";
        return out;
    };
    std::vector<std::string> unknown, missing;
    for (size_t k = 0; k < given.size(); ++k) {
        if (std::find(given.begin(), given.begin() + k, given[k]) != given.begin() + k)
            throw UsageError(who + ": the argument '" + given[k] + "' is given twice");
        if (std::find(params.begin(), params.end(), given[k]) == params.end())
            unknown.push_back(given[k]);
    }
    std::vector<size_t> order;
    for (const auto &p : params) {
        auto it = std::find(given.begin(), given.end(), p);
        if (it == given.end())
            missing.push_back(p);
        else
            order.push_back(static_cast<size_t>(it - given.begin()));
    }
    if (!unknown.empty())
        throw UsageError(who + " has no parameter " + quoted(unknown) + " (its parameters: " +
                         (params.empty() ? std::string("none") : quoted(params)) + ")");
    if (!missing.empty())
        throw UsageError(who + ": no argument for the parameter" +
                         (missing.size() == 1 ? " " : "s ") + quoted(missing));
    return order;
}

void append_type_key(std::string &key, const Arg &a) {
    key.push_back(a.is_array() ? static_cast<char>(0x40 + static_cast<int>(a.array().dtype()))
                               : static_cast<char>(a.type().elem));
    // A shaped array adds its rank (a byte of 0x90 and up, which no other argument begins
    // with) and its extents, 8 bytes each: every shape is its own specialisation.
    if (a.rank() >= 2) {
        key.push_back(static_cast<char>(0x90 + a.rank()));
        for (int64_t d : a.shape())
            key.append(reinterpret_cast<const char *>(&d), sizeof d);
    }
}

void pack_args(const std::vector<const Arg *> &args, const std::vector<Type> &packed,
               const std::vector<std::string> &names, Backend &backend,
               std::vector<KernelArg> &out) {
    out.clear();
    for (size_t k = 0; k < args.size(); ++k) {
        const Arg &a = *args[k];
        if (a.is_array()) {
            if (&a.array().backend() != &backend)
                throw UsageError("argument '" + names[k] + "' is an array of another backend (" +
                                 a.array().backend().name() + ") than the kernel's (" +
                                 backend.name() + ")");
            out.push_back(KernelArg::of(a.array().buffer()));
        } else {
            KernelArg v;
            v.kind = KernelArg::Kind::Value;
            v.size = static_cast<size_t>(scalar_bits(packed[k].elem) / 8);
            if (packed[k].elem == Scalar::Bool) v.size = sizeof(bool);
            a.convert_scalar(packed[k].elem, v.value);
            out.push_back(v);
        }
    }
}

std::string signature_text(const std::vector<std::string> &names, const std::vector<Type> &types) {
    std::string out;
    for (size_t k = 0; k < names.size(); ++k)
        out += (k ? "," : "") + names[k] + "=" + types[k].str();
    return out;
}

} // namespace smelt::primitives
