// Backend-neutral descriptions of the entry points the primitives need. The primitive classes
// fill these from the typed IR; each backend's wrapper generator (primitives/<backend>/) turns
// them into source text around the device functions.
#pragma once

#include "ir/type.h"

#include <optional>
#include <string>
#include <vector>

namespace smelt::primitives {

// One user argument of an entry point, in launch order (KernelArg order).
struct EntryParam {
    std::string name; // the kernel parameter it comes from (for comments)
    Type type;        // the type it travels as: pointer for arrays, scalar for values
};

// One argument of a call of a device function from the wrapper.
struct CallArg {
    enum class Kind : uint8_t { Param, Index, N, Item, PrevItem, LastItem };
    Kind kind = Kind::Param;
    int param = -1; // Kind::Param: index into the entry's params
    Type type;      // the callee's parameter type; the wrapper converts where it differs
};

// A call of a device function of the translation unit.
struct Call {
    std::string symbol; // its C name (codegen::function_symbol)
    std::vector<CallArg> args;
    Type result;
};

// Names of the wrapper's variables that a call's special arguments read.
struct CallVars {
    std::string index, n, item, prev_item, last_item;
    std::vector<std::string> params; // one per EntryParam

    // The names every backend's Scan wrapper uses: smelt_i, smelt_n, smelt_item, smelt_prev,
    // smelt_last.
    static CallVars for_scan() {
        CallVars v;
        v.index = "smelt_i";
        v.n = "smelt_n";
        v.item = "smelt_item";
        v.prev_item = "smelt_prev";
        v.last_item = "smelt_last";
        return v;
    }
};

// f(i, params...) for i in [0, n).
struct ElementwiseWrapper {
    std::vector<EntryParam> params;
    Call func;
    // What the launch's arguments allow (Elementwise keys its specialisations on it). With
    // distinct_arrays no two array arguments share memory, so a target may declare the pointers
    // restrict and give a thread several items.
    bool distinct_arrays = false;
    // Per param (with distinct_arrays): func reads it at its own index (p[i], neither p nor i
    // reassigned) and the array holds at least n items, so a target may load p[i] before the
    // call (the load is in bounds whatever func does).
    std::vector<bool> preload;
    // func, or a function it calls, has a loop (for or while): work per item that is long and
    // varies from item to item (a neighbour loop). GPU targets then give each thread one item
    // even with distinct arrays: the tiled form's unrolled calls only add registers there, and
    // more threads hide more of the loops' load latency.
    bool loops = false;
};

// The combine function (a, b) -> a (op) b and the neutral element of a reduction or scan,
// compiled from the user's Python expressions (primitives/combine.h).
struct CombineSymbols {
    std::string combine; // SYMBOL(a, b), both of the accumulator type
    std::string neutral; // SYMBOL(): the neutral element
};

// Reduces map(i, ...) (or params[array_param][i] when there is no map) with `combine`; the
// result travels back through one more entry argument: a buffer of one `out` element.
struct ReductionWrapper {
    std::vector<EntryParam> params;
    std::optional<Call> map;
    int array_param = -1; // no map: the entry param holding the array
    Scalar out = Scalar::F64;
    CombineSymbols ops;
};

// A scan (each target picks its algorithm); see the Scan class in smelt.h for the meaning of
// each argument.
struct ScanWrapper {
    std::vector<EntryParam> params;
    Call input;
    Call output;
    std::optional<Call> segment;
    Scalar dtype = Scalar::F64;
    CombineSymbols ops;
    // If not, a one-thread CPU scan needs no first pass, and the CUDA scan runs in one pass.
    bool output_uses_last_item = false;
};

} // namespace smelt::primitives
