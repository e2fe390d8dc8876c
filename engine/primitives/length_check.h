// Which array arguments a primitive's function indexes at its item index on every item, so a
// call can check their lengths before launching: an array shorter than the item count would be
// read or written past its end (a crash on cpu, a corrupted heap on OpenCL).
#pragma once

#include "ir/ir.h"
#include "smelt.h"

#include <string>
#include <vector>

namespace smelt::primitives {

// Per parameter of `f` after its index (f.params[1..]): true when f certainly loads or stores
// p[i] for its index parameter i, whatever the data: in the straight-line statements that open
// its body (up to the first if or loop, and the value of a return there), outside the branches of a
// conditional expression and the right side of and/or, with neither p nor i ever assigned. Guarded
// accesses
// (`if i < m: y[i] = ...`) are not counted, so a correct call is never refused.
std::vector<bool> indexed_at_item(const ir::Function &f);

// The same for a function whose item index is parameter `index` (Scan's functions may take `i`
// anywhere, or not at all): one entry per parameter of f, the index's false.
std::vector<bool> indexed_by_param(const ir::Function &f, size_t index);

// UsageError naming the first argument that `indexed[k]` says is indexed at every item but
// holds fewer than n elements. `who` names the function ("'axpb'"), `names` its parameters.
void check_lengths(const std::string &who, const std::vector<std::string> &names,
                   const std::vector<const Arg *> &args, const std::vector<bool> &indexed,
                   int64_t n);

} // namespace smelt::primitives
