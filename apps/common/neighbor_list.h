// Neighbour lists in CSR form, built only from engine primitives and the app's kernels: full
// (each pair in both particles' lists) or, with NeighborListSpec::half on the cpu backend, half
// (each pair once, for force loops using Newton's third law: newton_buffers.h):
//
//   binned:    cell_key (Elementwise) → stable radix sort of the keys with particle indices as
//              values (smelt::sort_by_key) → clear_cells + find_cell_bounds (Elementwise) →
//              count_neighbors (Elementwise) → exclusive scan of the counts (Scan) →
//              fill_neighbors (Elementwise) → sort_neighbors (Elementwise)
//   binned, one pass (when the program has fill_neighbors_capped and cell_bounds): cell_key →
//              sort → cell_bounds (Elementwise over the cells; on the cpu backend
//              cell_bounds_from_keys over the sorted keys when the program has it) →
//              permute_real (the positions in cell order) → fill_neighbors_capped into rows
//              of a fixed capacity (Elementwise) → the largest count (Reduction 'max(a, b)');
//              past the capacity, longer rows and the fill again → sort_neighbors. The rows
//              are then cap + 1 entries apart: start[i] = i * (cap + 1). A half list runs
//              fill_capped_half instead (half of the cells; j > i in a particle's own cell).
//              NeighborListSpec::packed (cpu): then the scan of the counts and pack_rows,
//              which packs the rows (CSR) and gives each entry its row (entry_rows()).
//   all pairs: count_neighbors_all_pairs → scan → fill_neighbors_all_pairs (O(N²))
//
// The neighbours of i are idx[start[i] : start[i] + count[i]], in increasing index order in both
// modes (NeighborListSpec::sorted, the default), so a force loop over the list sums in the same
// order whichever search or rebuild rule made it (bit-identical forces).
//
// Rebuilds: every update() (RebuildPolicy::EveryStep), or once the largest displacement since the
// last build exceeds skin/2 (RebuildPolicy::Displacement: a Reduction with 'max(a, b)' over
// displacement2_map); then no pair can have come within r_list - skin unseen.
//
// Dimension-generic: the kernels follow one argument convention, with the per-axis arguments in
// axis order (x, y[, z]; lx, ly[, lz]; cell_w, cell_h[, cell_d]; ncx, ncy[, ncz]):
//   cell_key(i, coords..., keys, cell_sizes..., ncells..., periodic)
//   clear_cells(i, cell_start, cell_end)                        over the cells
//   find_cell_bounds(i, sorted_keys, cell_start, cell_end, n)
//   count_neighbors(i, coords..., count, order, cell_start, cell_end, box..., periodic,
//                   cell_sizes..., ncells..., rl2)
//   fill_neighbors(i, coords..., start, idx, order, cell_start, cell_end, box..., periodic,
//                  cell_sizes..., ncells..., rl2)
//   cell_bounds(c, cell_start, cell_end, sorted_keys, n)       over the cells
//   cell_bounds_from_keys(i, sorted_keys, cell_start, cell_end, n, ncells)   over the particles
//                  (optional: the same bounds, used on the cpu backend)
//   permute_real(i, order, src, dst)                           dst[i] = src[order[i]]
//   fill_neighbors_capped(i, coords..., coords_in_cell_order..., start, count, idx, cap, order,
//                  cell_start, cell_end, box..., periodic, cell_sizes..., ncells..., rl2)
//   nbr_offset_input(i, nbr_count) / nbr_offset_output(i, item, prev_item, last_item,
//                  nbr_start, nbr_total)                        Scan, int32, 'a+b'
//   pack_rows(i, count, cap, idx, start, packed_idx, packed_row)  (NeighborListSpec::packed)
//   sort_neighbors(i, start, count, idx)
//   count_neighbors_all_pairs(i, coords..., count, n, box..., periodic, rl2)
//   fill_neighbors_all_pairs(i, coords..., start, idx, n, box..., periodic, rl2)
//   displacement2_map(i, coords..., saved_coords..., box..., periodic) -> double
//   past_limit_map(i, coords..., saved_coords..., box..., periodic, limit2) -> int (optional:
//                  start_update)
//   save_positions(i, coords..., saved_coords...)
// apps/md2d/physics.py holds the 2D kernels (`periodic` a flag); apps/common/kernels/
// neighbors3d.py the 3D ones (`periodic` a per-axis bit mask, NeighborListSpec::periodic_arg).
#pragma once

#include "smelt.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace smelt::apps {

enum class NeighborSearch { Binned, AllPairs };
enum class RebuildPolicy { EveryStep, Displacement };

struct NeighborListSpec {
    NeighborSearch search = NeighborSearch::Binned;
    RebuildPolicy rebuild = RebuildPolicy::Displacement;
    double r_list = 0.0;     // list radius r_cut + skin
    double skin = 0.0;       // the Displacement rule rebuilds past skin / 2
    std::vector<double> box; // edge per axis; the box is [0, L) per axis
    bool periodic = true;    // every axis, unless periodic_axes is given
    // Per-axis periodicity in axis order (x, y[, z]); empty: every axis is `periodic`.
    std::vector<bool> periodic_axes;
    // What the kernels' `periodic` argument holds: Flag, 1 for a periodic box and 0 for a closed
    // one (md2d's kernels; every axis must then be alike); AxisMask, bit a set when axis a is
    // periodic (md3d's kernels: 7 for a periodic box, 3 for walls along z only).
    enum class PeriodicArg { Flag, AxisMask };
    PeriodicArg periodic_arg = PeriodicArg::Flag;
    // Binned only: cells per axis and cell edges. Cells at least r_list wide (at least 3 on a
    // periodic axis), or, for the one-pass builds (the *_small_cells forms of
    // NeighborKernels::fill_capped), at least r_list / 2 wide (at least 5 on a periodic axis):
    // those then search two cells on each side instead of one (cell_reach), about 40 % fewer
    // candidates.
    std::vector<int> cells;
    std::vector<double> cell_size;
    // Binned only: sort each particle's list into increasing index order after the fill, so the
    // list (and every sum over it) is the same whichever way it was made: binned or all-pairs,
    // any cell grid. Unsorted, a list is in cell-visit order: still the same on every rebuild
    // from the same positions and particle order, so runs and restarts repeat bit for bit; on
    // GPUs the sort costs about half of a build.
    bool sorted = true;
    // Binned, one-pass build on the cpu backend only: a HALF list, each pair within r_list in
    // exactly one of its two particles' lists (NeighborKernels::fill_capped_half), for force
    // loops that use Newton's third law. Full lists otherwise.
    bool half = false;
    // Binned, one-pass build on the cpu backend only: after the fill the rows are PACKED (CSR:
    // start() the exclusive scan of count(), no room between rows), and entry_rows()[e] holds
    // the row (particle) of entry e, so that a force loop can run over a chunk's entries in
    // blocks that cross rows (md2d's compute_forces_newton). One scan and one pass over the
    // list per build (pack_rows); the rows keep their order.
    bool packed = false;
    // Binned, one-pass GPU form only (full, unsorted lists): each row's entries split over
    // `lanes` threads (a power of two), for force loops that put several threads on one
    // particle (md3d's compute_forces). Thread t = i * lanes + l tests every lanes-th candidate
    // of each cell run from the l-th; its s-th neighbour is entry l + lanes * s of row i and
    // count()[t] is its count, so count() holds lanes * n entries. 1: the plain rows.
    int lanes = 1;

    bool axis_periodic(size_t axis) const {
        return periodic_axes.empty() ? periodic : bool(periodic_axes.at(axis));
    }
    // The value of the kernels' `periodic` argument (see periodic_arg).
    int32_t periodic_value() const;
    // Cells searched on each side of a particle's own along `axis` (binned): 1 when the cells
    // are r_list wide, 2 when narrower; the kernels' cell_reach (apps/common/kernels/cells.py)
    // computes the same from the same doubles.
    int cell_reach(size_t axis) const;
};

// Names of the kernels in the app's Program (the defaults are physics.py's).
struct NeighborKernels {
    std::string cell_key = "cell_key";
    std::string clear_cells = "clear_cells";
    std::string find_cell_bounds = "find_cell_bounds";
    std::string count = "count_neighbors";
    std::string fill = "fill_neighbors";
    // Binned: count and fill in one pass into rows of fixed capacity, used instead of count and
    // fill when the program has both (neighbors3d.py's fill_neighbors_capped states its
    // contract), with cell bounds from cell_bounds instead of clear_cells + find_cell_bounds.
    std::string fill_capped = "fill_neighbors_capped";
    // Its form for GPU backends (one candidate at a time; the same rows), used there when the
    // program has it: the CPU form keeps a private flag array, which a GPU thread holds in slow
    // local memory. It takes two more arguments after cap: the entry stride (stride()): row i
    // starts at i * (cap + 1) when it is 1, at i when it is n (entries n apart); and the lanes
    // (NeighborListSpec::lanes), over lanes * n items.
    std::string fill_capped_gpu = "fill_neighbors_capped_pairwise";
    // The half-list form of fill_capped (NeighborListSpec::half): the same rows over half of
    // the 3^dim cells, and only j > i in a particle's own cell.
    std::string fill_capped_half = "fill_neighbors_capped_half";
    // The three forms above for grids of cells narrower than r_list (NeighborListSpec::
    // cell_size), which search two cells on each side (cell_reach); separate kernels, so that
    // the cells of r_list keep their loops of three cells.
    std::string fill_capped_small = "fill_neighbors_capped_small_cells";
    std::string fill_capped_gpu_small = "fill_neighbors_capped_pairwise_small_cells";
    std::string fill_capped_half_small = "fill_neighbors_capped_half_small_cells";
    std::string cell_bounds = "cell_bounds";
    // The same bounds from one pass over the n sorted keys, used instead of cell_bounds on the
    // cpu backend when the program has it:
    //   cell_bounds_from_keys(i, sorted_keys, cell_start, cell_end, n, ncells)   over the particles
    std::string cell_bounds_scan = "cell_bounds_from_keys";
    std::string permute_real = "permute_real"; // dst[k] = src[order[k]]: positions in cell order
    std::string pack = "pack_rows";
    std::string offset_input = "nbr_offset_input";
    std::string offset_output = "nbr_offset_output";
    std::string sort = "sort_neighbors";
    std::string count_all_pairs = "count_neighbors_all_pairs";
    std::string fill_all_pairs = "fill_neighbors_all_pairs";
    std::string displacement2 = "displacement2_map";
    std::string past_limit = "past_limit_map";
    std::string save_positions = "save_positions";
};

class NeighborList {
public:
    // n particles; arrays are allocated on options.backend. Kernels compile on first use.
    NeighborList(const Program &program, const Options &options, NeighborListSpec spec, int64_t n,
                 NeighborKernels kernels = {});
    ~NeighborList();
    NeighborList(NeighborList &&) noexcept;
    NeighborList &operator=(NeighborList &&) noexcept;

    // Rebuilds when the policy asks for it (always on the first call); true when it rebuilt.
    // `coords`: one array of n positions per axis.
    bool update(const std::vector<Array> &coords);
    // update() in two halves, for a device that should not idle while the host waits for the
    // displacement test (RebuildPolicy::Displacement, a program with past_limit_map).
    // start_update() queues the test and returns true, or returns false where can_test_ahead()
    // is false (no list yet, positions replaced, EveryStep): call update() instead. The test
    // writes the stale flag, stale_flag()[0] (int32): nonzero when some particle moved past the
    // limit since the build. Kernels queued between the two may read it on the device and
    // treat the list as stale where it is nonzero: that is exactly when finish_update()
    // rebuilds. finish_update() waits for the flag (not for the kernels queued after the
    // test), rebuilds when it asks, and returns true when it rebuilt.
    bool can_test_ahead() const;
    bool start_update(const std::vector<Array> &coords);
    // start_update() for an app that did the test in a kernel of its own: one queued since the
    // last build, where can_test_ahead() was true, that adds to stale_flag()[0] for each
    // particle whose past_limit_map is 1, given build_positions() and rebuild_limit2() (every
    // build zeroes the flag). Queues the flag's read; finish_update() as above.
    void start_flag_read();
    bool finish_update(const std::vector<Array> &coords);
    const Array &stale_flag() const;
    double rebuild_limit2() const; // (skin / 2)^2
    // The displacement rule update() applies to a largest squared displacement d2 (one of
    // max_displacement2(), or their maximum over MPI ranks), compared in the positions' dtype
    // `real` as the kernels compare it (float32 in single precision).
    bool past_limit(double d2, DType real) const;
    // Rebuilds unconditionally.
    void build(const std::vector<Array> &coords);
    // The next update() rebuilds (call after replacing the positions wholesale).
    void invalidate();
    // Changes the particle count (a rank of a domain decomposition after migration and halo
    // exchange: owned particles and ghosts); the next update() rebuilds.
    void resize(int64_t n);
    // Rows only for the particles [0, rows), the rest being neighbours only (a rank's ghosts,
    // whose rows no force loop reads): their counts and starts are 0. resize() gives every
    // particle a row again. The one-pass binned build honours it; the others build every row.
    void set_rows(int64_t rows);
    int64_t size() const;
    // Binned only: the particles' stable order by cell for `coords` (cell keys, then the
    // engine's stable sort): particle order()[k] comes k-th. An app that reorders its particles
    // by it gathers every per-particle array through it, then calls invalidate().
    const Array &cell_order(const std::vector<Array> &coords);
    // Largest squared displacement since the last build (Reduction 'max(a, b)'); 0 before it.
    // The positions of the last build (Displacement rule; empty before the first build): a
    // checkpoint that stores them lets a restart build() the same list again.
    const std::vector<Array> &build_positions() const;
    double max_displacement2(const std::vector<Array> &coords);

    // The lists (valid after the first build), int32 arrays: neighbour k (0 <= k < count()[i])
    // of particle i is indices()[start()[i] + k * stride()]. With stride 1, rows come in
    // particle order: packed (CSR) or, from the one-pass binned build, with room between them
    // (rows of fixed capacity). On GPU backends the one-pass build interleaves the rows
    // (stride n, unless spec.sorted) so a warp's loads of its k-th neighbours coalesce.
    // total() is the number of entries; indices() may be longer.
    const Array &start() const;
    const Array &count() const;
    const Array &indices() const;
    // With NeighborListSpec::packed (after the first build): the row of each entry of
    // indices(), int32, total() of them.
    const Array &entry_rows() const;
    int32_t stride() const; // distance between consecutive entries of a row
    int64_t total() const;  // entries of the list
    int64_t builds() const; // rebuilds so far
    const NeighborListSpec &spec() const;

    // Binned only (after a build): particle order by cell, sorted keys, cell bounds.
    const Array &order() const;
    const Array &sorted_keys() const;
    const Array &cell_start() const;
    const Array &cell_end() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace smelt::apps
