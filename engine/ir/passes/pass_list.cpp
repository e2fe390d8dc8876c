#include "ir/passes/pass_list.h"

#include "ir/passes/constant_fold.h"
#include "ir/passes/expand_pow.h"
#include "ir/verify.h"

namespace smelt::ir {

std::shared_ptr<Module> run_passes(const Module &m, const PassDump &dump) {
    verify(m);
    if (dump) dump("input", m);
    // Expansion first, so folding sees 3**2 as 3*3 and folds it.
    auto out = expand_pow(m);
    verify(*out);
    if (dump) dump("expand_pow", *out);
    out = constant_fold(*out);
    verify(*out);
    if (dump) dump("constant_fold", *out);
    return out;
}

} // namespace smelt::ir
