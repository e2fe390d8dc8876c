// Typing a call of an external function: its arguments against the declared signature (the
// conversions of any call), its declared result; the callee itself is not looked into.
#include "lower/externals.h"
#include "lower/lowering.h"

namespace smelt::lower {

namespace {

std::string plural(size_t n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string backend_list(const std::vector<std::string> &backends) {
    std::string out;
    for (size_t k = 0; k < backends.size(); ++k)
        out += (k == 0 ? "" : k + 1 == backends.size() ? " and " : ", ") + backends[k];
    return out;
}

} // namespace

TExpr FunctionLowerer::external_call(const ast::Expr &e, const External &x) {
    const ast::Expr &callee = *e.args[0];
    if (!external_available(x, options().backend))
        fail(callee.loc, "'" + x.name + "' is an external function declared for " +
                             backend_list(x.backends) + " only, not for the " + options().backend +
                             " backend");
    const size_t nargs = e.args.size() - 1;
    if (nargs != x.params.size())
        fail(e.loc, "external function '" + x.name + "' takes " +
                        plural(x.params.size(), "argument") + " but " + std::to_string(nargs) +
                        (nargs == 1 ? " was" : " were") + " given");
    std::vector<ir::ExprPtr> args;
    for (size_t k = 0; k < nargs; ++k) {
        const ast::Expr &a = *e.args[k + 1];
        args.push_back(implicit(expr(a), external_type(x.params[k]), a.loc,
                                "parameter " + std::to_string(k + 1) + " of external function '" +
                                    x.name + "'"));
    }
    mod_.use_external(x);
    return {
        ir::Expr::external_call(x.emitted_name(), external_type(x.result), std::move(args), e.loc)};
}

} // namespace smelt::lower
