#include "primitives/call_spelling.h"

#include "codegen/c_like.h"
#include "support/error.h"

namespace smelt::primitives {

std::string convert(const codegen::Dialect &d, const std::string &expr, const Type &from,
                    const Type &to) {
    // Pointers travel with the element type they were checked against; only the address-space
    // spelling could differ, and the entry's own parameters already carry the right one.
    if (from == to || (from.is_buffer() && to.is_buffer())) return expr;
    return "(" + codegen::type_name(d, to) + ")(" + expr + ")";
}

std::string index_fits(const Type &index, const std::string &n) {
    if (!index.is_scalar() || !scalar_is_integer(index.elem) || scalar_bits(index.elem) >= 64)
        return "";
    const int bits = scalar_bits(index.elem) - (scalar_is_signed(index.elem) ? 1 : 0);
    return n + " <= " + std::to_string(uint64_t(1) << bits);
}

std::string spell_call(const codegen::Dialect &d, const Call &call, const CallVars &vars,
                       const std::vector<EntryParam> &params, Scalar item) {
    std::string out = call.symbol + "(";
    for (size_t k = 0; k < call.args.size(); ++k) {
        const CallArg &a = call.args[k];
        std::string var;
        Type from;
        switch (a.kind) {
        case CallArg::Kind::Param:
            SMELT_INTERNAL_ASSERT(a.param >= 0 && a.param < static_cast<int>(params.size()) &&
                                      a.param < static_cast<int>(vars.params.size()),
                                  "call argument refers to entry parameter " << a.param);
            var = vars.params[a.param];
            from = params[a.param].type;
            break;
        case CallArg::Kind::Index:
            var = vars.index;
            from = Type::scalar(Scalar::I64);
            break;
        case CallArg::Kind::N:
            var = vars.n;
            from = Type::scalar(Scalar::I64);
            break;
        case CallArg::Kind::Item:
            var = vars.item;
            from = Type::scalar(item);
            break;
        case CallArg::Kind::PrevItem:
            var = vars.prev_item;
            from = Type::scalar(item);
            break;
        case CallArg::Kind::LastItem:
            var = vars.last_item;
            from = Type::scalar(item);
            break;
        }
        SMELT_INTERNAL_ASSERT(!var.empty(),
                              "no wrapper variable for an argument of " << call.symbol);
        out += (k ? ", " : "") + convert(d, var, from, a.type);
    }
    return out + ")";
}

} // namespace smelt::primitives
