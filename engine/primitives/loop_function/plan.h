// How a loop-parallel function (LoopFunction, ParPy's model) runs: its top-level statements split
// into segments, each sequential or parallel, and the scalars that flow between them. Backend-
// neutral; outline.h turns a plan into IR functions, and each backend launches those.
//
//   def softmax(x, out, N, M):          segments under {'N': threads(N), 'M': reduce}
//       parpy.label('N')                  0 Map    over i in [0, N): the whole loop body is one
//       for i in range(N):                         iteration (its inner 'M' loops are reduce
//           ...                                    loops: a work-group each on GPUs)
//       s = 0.0                           1 Sequential
//       parpy.label('M')                  2 Reduce over j: s = s + term(j), combined in a fixed
//       for j in range(M): s += x[j]               order, then s = s op total
//
// A parallel segment is a top-level for loop whose label the spec names; loops labelled with
// spec labels directly inside it (nothing but their bounds between) are collapsed into one
// index space. Scalars a segment reads before assigning them live in a small "frame" (one
// element per scalar) that every segment reads and sequential segments write.
#pragma once

#include "ir/ir.h"
#include "primitives/loop_par.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smelt::primitives::loops {

using smelt::LoopPar;
using smelt::ParallelSpec;

// acc = acc op term, the last statement of a reduce loop's body: a scalar accumulator or an
// array element x[c] (c the same in the load and the store).
struct ReduceUpdate {
    ir::BinaryOp op = ir::BinaryOp::Add;
    Type type;        // of the accumulator
    ir::VarPtr acc;   // scalar accumulator, or null
    ir::VarPtr array; // array accumulator
    std::vector<ir::ExprPtr> indices;
    ir::ExprPtr term;
};

enum class SegmentKind { Sequential, Map, Reduce };

struct Dim {
    ir::VarPtr counter; // the loop's hidden counter
    int64_t start = 0, step = 1, count = 0;
    std::string label;
};

struct Segment {
    SegmentKind kind = SegmentKind::Sequential;
    SourceLoc loc;
    ir::Block stmts; // Sequential: the statements
    // Map, Reduce: the collapsed loops (outermost first) and the body of one iteration (the
    // statements between the loops, then the innermost loop's body).
    std::vector<Dim> dims;
    ir::Block body;
    LoopPar par; // of the outermost label
    // Reduce: the update, the last statement of `body` (the others compute its term).
    ReduceUpdate update;
    // Map on GPUs: the top-level loops of `body` that run on the threads of a work-group: those
    // with a reduce label of the spec, and parpy reductions (parpy.sum(...)) with any spec label.
    struct GroupLoop {
        size_t index = 0; // in body
        LoopPar par;
        ReduceUpdate update;
    };
    std::vector<GroupLoop> group_loops;
    // With group loops: the trailing top-level loops of `body` with a (non-reduce) spec label,
    // which the items of the group split among themselves (nothing after them reads what they
    // wrote), as ParPy maps an inner labelled loop to the threads of a block.
    std::vector<size_t> strided_loops;

    int64_t total() const {
        int64_t n = 1;
        for (const Dim &d : dims)
            n *= d.count;
        return n;
    }
};

struct Plan {
    std::vector<Segment> segments;
    std::vector<ir::VarPtr> frame; // scalars that flow between segments
};

// The plan of `f` under `spec`. CompileError (located in the .py) for what cannot run in
// parallel as asked: no parallel segment, a spec label naming no loop, parallel loops whose
// bounds are not known at specialisation, a parallel loop assigning a scalar read after it, a
// reduce loop that is not `acc op= term`, returns, break out of a parallel loop.
Plan make_plan(const ir::Module &m, const ir::Function &f, const ParallelSpec &spec);

// The update that ends a reduce loop's body, if it has that shape (see ReduceUpdate).
std::optional<ReduceUpdate> match_update(const ir::Stmt &s);

} // namespace smelt::primitives::loops
