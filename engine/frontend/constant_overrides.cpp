#include "frontend/constant_overrides.h"

#include "support/error.h"

#include <cmath>

namespace smelt::frontend {

namespace {

// `value` as the syntax tree of a numeric literal: a number, with a unary minus when negative,
// and the names inf / nan for the floats that have no literal.
ast::ExprPtr literal(const ConstantValue &value, SourceLoc loc) {
    using K = ast::ExprKind;
    auto negated = [&](ast::ExprPtr e) {
        auto u = std::make_unique<ast::Expr>(K::Unary, loc);
        u->op = "-";
        u->args.push_back(std::move(e));
        return u;
    };
    if (value.is_int()) {
        const int64_t v = value.int_value();
        auto e = std::make_unique<ast::Expr>(K::Int, loc);
        e->int_value = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
        return v < 0 ? negated(std::move(e)) : std::move(e);
    }
    const double v = value.float_value();
    ast::ExprPtr e;
    if (std::isnan(v) || std::isinf(v)) {
        e = std::make_unique<ast::Expr>(K::Name, loc);
        e->name = std::isnan(v) ? "nan" : "inf";
    } else {
        e = std::make_unique<ast::Expr>(K::Float, loc);
        e->float_value = std::fabs(v);
    }
    return std::signbit(v) && !std::isnan(v) ? negated(std::move(e)) : std::move(e);
}

std::string constants_of(const ast::Module &m) {
    std::string out;
    for (const auto &c : m.constants)
        if (out.find("'" + c.name + "'") == std::string::npos)
            out += (out.empty() ? "'" : ", '") + c.name + "'";
    return out.empty() ? "none" : out;
}

} // namespace

void override_constants(ast::Module &main, const std::map<std::string, ConstantValue> &values) {
    for (const auto &[name, value] : values) {
        // The last definition is the one kernels see (ast::Module::find_constant).
        ast::Constant *own = nullptr;
        for (auto &c : main.constants)
            if (c.name == name) own = &c;
        if (own) {
            own->value = literal(value, own->loc);
            continue;
        }
        ast::Binding b = main.resolve(name);
        if (!b.constant)
            throw UsageError("constant '" + name +
                             "' is given a value, but it is not a module "
                             "constant of " +
                             main.source->name() + " (its constants: " + constants_of(main) + ")");
        SourceLoc loc = b.imported ? b.imported->loc : b.import->loc;
        main.constants.push_back(ast::Constant{&main, name, loc, literal(value, loc)});
    }
}

} // namespace smelt::frontend
