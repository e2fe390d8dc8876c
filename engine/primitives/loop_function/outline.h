// A Plan (plan.h) as IR functions, written once for every backend: per segment the function of
// one iteration (or of the sequential statements), and for GPUs the kernels that map iterations
// to work-items, written in the kernel language's own GPU builtins (LID_0, GID_0, LDIM_0,
// GDIM_0, local_barrier, local-memory pointers), so every GPU dialect emits them unchanged.
//
// Every function takes the loop function's parameters, then one pointer per frame scalar
// (reads and writes of frame scalars become loads and stores of element 0).
//
//   Sequential  smelt_seg<k>(params, frame)                 GPU: the kernel itself, 1 work-item
//   Map         smelt_seg<k>(t, params, frame)              one iteration, t in [0, total)
//               GPU: smelt_k<k>(params, frame) runs it for t = global id, grid-stride; with a
//               reduce loop in the body, smelt_k<k>(params, frame, bufs...) gives each
//               iteration a work-group (t = group id, grid-stride) whose items split each reduce
//               loop and combine their parts by an ordered tree in its buf (local memory), and
//               split the trailing labelled loops (strided); other statements run on every item,
//               their stores on item 0 only.
//   Reduce      smelt_seg<k>_term(t, params, frame) -> T    the term of iteration t
//               smelt_seg<k>_apply(total, params, frame)    acc = acc op total
//               smelt_seg<k>_combine(a, b), smelt_seg<k>_neutral()   (the CPU entry's)
//               GPU: smelt_k<k>a(params, frame, parts, buf) folds a grid-stride range per item,
//               tree per group into parts[group]; smelt_k<k>b (one group) folds parts in order
//               and applies. Fixed geometry for a given spec and size: the same bits every run.
#pragma once

#include "primitives/loop_function/plan.h"

#include <memory>
#include <string>
#include <vector>

namespace smelt::primitives::loops {

struct Launch {
    std::string kernel; // entry function name (module function)
    int64_t groups = 1, group_size = 1;
    bool parts = false;              // takes the segment's parts buffer (Reduce)
    std::vector<size_t> local_bytes; // local-memory arguments of these sizes, last
};

struct SegmentCode {
    SegmentKind kind = SegmentKind::Sequential;
    std::string body;                    // Sequential/Map: smelt_seg<k>; Reduce: its term
    std::string apply, combine, neutral; // Reduce
    int64_t total = 0;                   // iterations (parallel segments)
    Scalar acc = Scalar::F64;            // Reduce: the accumulator's type
    std::vector<Launch> launches;        // GPU
    int64_t parts = 0;                   // GPU Reduce: elements of the parts buffer
};

struct Outlined {
    std::shared_ptr<ir::Module> module; // the loop function's callees, then the outlined code
    std::vector<SegmentCode> segments;
    std::vector<Type> frame; // element types of the frame scalars, in plan order
    // The parameters every outlined function shares (the loop function's, then the frame).
    std::vector<ir::VarPtr> shared;
    std::vector<std::string> kernels; // every GPU entry function
};

// `f` in module `m` (its callees there) outlined as `plan` says; GPU kernels when `gpu`.
Outlined outline(const ir::Module &m, const ir::Function &f, const Plan &plan, bool gpu);

} // namespace smelt::primitives::loops
