"""Dimension-independent parts of the binned neighbour search and of CSR neighbour lists.

Kernel-language functions used by neighbors2d.py and neighbors3d.py (and through them by the
apps). The pipeline, driven by apps/common/neighbor_list.cpp from engine primitives:

    cell_key (per particle) -> stable sort of the keys -> clear_cells (per cell) +
    find_cell_bounds (per particle) -> count_neighbors -> scan (nbr_offset_input/output) ->
    fill_neighbors -> sort_neighbors

Cell index per axis: wrapped when the axis is periodic, clamped to the grid otherwise (so
particles outside a walled box still land in an edge cell and are found).
"""

from math import floor

from smelt import annotate, declare


@annotate(double='a, cell_size', int='ncell, periodic', return_='int')
def cell_coord(a, cell_size, ncell, periodic):
    """The cell along one axis: wrapped when periodic, clamped to [0, ncell) otherwise."""
    c = int(floor(a / cell_size))
    if periodic != 0:
        # A wrapped position's cell is in range: the integer division only where it is not.
        if c < 0 or c >= ncell:
            c = c % ncell
    else:
        c = min(max(c, 0), ncell - 1)
    return c


@annotate(int='c, offset, ncell, periodic', return_='int')
def neighbor_cell(c, offset, ncell, periodic):
    """The cell `offset` (-1, 0, 1) away along one axis, or -1 past a non-periodic edge."""
    n = c + offset
    if periodic != 0:
        if n >= 0 and n < ncell:
            return n
        return n % ncell
    if n < 0 or n >= ncell:
        return -1
    return n


@annotate(i='int', intp='cell_start, cell_end')
def clear_cells(i, cell_start, cell_end):
    """Marks cell i empty (start == end); run over all cells before find_cell_bounds."""
    cell_start[i] = 0
    cell_end[i] = 0


@annotate(i='int', intp='sorted_keys, cell_start, cell_end', n='int')
def find_cell_bounds(i, sorted_keys, cell_start, cell_end, n):
    """Particles of cell c are order[cell_start[c] : cell_end[c]]; each bound has one writer."""
    key = declare('int')
    key = sorted_keys[i]
    if i == 0 or sorted_keys[i - 1] != key:
        cell_start[key] = i
    if i == n - 1 or sorted_keys[i + 1] != key:
        cell_end[key] = i + 1


@annotate(c='int', intp='cell_start, cell_end, sorted_keys', n='int')
def cell_bounds(c, cell_start, cell_end, sorted_keys, n):
    """Run over the cells: cell_start[c] = the number of keys below c, cell_end[c] = the number
    below c + 1 (binary searches of the sorted keys). The same bounds as find_cell_bounds for a
    cell with particles; an empty cell gets start == end at its place in the order, so the
    particles of consecutive cells c0..c1 are order[cell_start[c0] : cell_end[c1]]."""
    lo, hi, mid, key = declare('int', 4)
    for key in range(c, c + 2):
        lo = 0
        hi = n
        while lo < hi:
            mid = lo + (hi - lo) // 2
            if sorted_keys[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        if key == c:
            cell_start[c] = lo
        else:
            cell_end[c] = lo


@annotate(i='int', intp='sorted_keys, cell_start, cell_end', int='n, ncells')
def cell_bounds_from_keys(i, sorted_keys, cell_start, cell_end, n, ncells):
    """cell_bounds' bounds in one pass over the sorted keys instead of two binary searches per
    cell (run over the n particles, not the cells): key k = sorted_keys[i] and the key before it,
    p (-1 for i = 0), give every cell c in (p, k] start i (the keys below c are those before i)
    and every cell in [max(p, 0), k) end i; the last particle gives the cells past its key start
    and end n. Each cell has one writer, and n + ncells writes in all, in memory order: at 10^6
    particles and cells of r_list / 2 (about as many cells as particles) the binary searches
    took about half of a CPU list build. n >= 1."""
    key, prev, c = declare('int', 3)
    key = sorted_keys[i]
    prev = -1
    if i > 0:
        prev = sorted_keys[i - 1]
    for c in range(prev + 1, key + 1):
        cell_start[c] = i
    for c in range(max(prev, 0), key):
        cell_end[c] = i
    if i == n - 1:
        for c in range(key + 1, ncells):
            cell_start[c] = n
        for c in range(key, ncells):
            cell_end[c] = n


@annotate(int='c, rank, ncell, periodic', return_='int')
def sorted_neighbor_cell(c, rank, ncell, periodic):
    """The rank-th smallest (rank 0, 1, 2) of the cells c - 1, c, c + 1 along one axis (wrapped
    when periodic; ncell >= 3), or -1 past a non-periodic edge: visiting ranks 0, 1, 2 meets the
    cells in increasing index order, also across a periodic seam."""
    n = declare('int')
    if periodic != 0:
        if c == 0:
            if rank == 2:
                return ncell - 1
            return rank
        if c == ncell - 1:
            if rank == 0:
                return 0
            return ncell - 3 + rank
        return c - 1 + rank
    n = c - 1 + rank
    if n < 0 or n >= ncell:
        return -1
    return n


# Relative tolerance of cell_reach's test: the host's grid, L / floor(L / r_list), may be an ulp
# narrower than r_list (NeighborListSpec accepts cells 1e-12 short of it).
CELL_REACH_TOLERANCE = 2e-12


@annotate(double='w, rl2', return_='int')
def cell_reach(w, rl2):
    """How many cells on each side of its own a particle's neighbours can lie in, along an axis
    whose cells are w wide, for the list radius sqrt(rl2): 1 when the cells are r_list wide, 2
    when they are narrower (the host's grid then has cells of at least r_list / 2:
    NeighborListSpec::cell_size; a periodic axis has at least 2 * reach + 1 cells, so the cells
    searched are distinct). The neighbour searches read the reach from the grid, so a grid of
    half-size cells needs no other argument."""
    if w * w >= rl2 * (1.0 - CELL_REACH_TOLERANCE):
        return 1
    return 2


@annotate(int='c, rank, reach, ncell, periodic', return_='int')
def sorted_cell_in_reach(c, rank, reach, ncell, periodic):
    """sorted_neighbor_cell over the cells c - reach .. c + reach: the rank-th smallest (rank 0 ..
    2 * reach) of them, wrapped when periodic (ncell >= 2 * reach + 1), or -1 past a non-periodic
    edge. Visiting ranks 0 .. 2 * reach meets the cells in increasing index order, also across a
    periodic seam; reach 1 gives sorted_neighbor_cell's cells."""
    high, low = declare('int', 2)
    if periodic != 0:
        # high cells wrap past ncell - 1 to 0, 1, ...; low ones below 0 to ncell - 1, ...
        high = max(c + reach - (ncell - 1), 0)
        low = max(reach - c, 0)
        if rank < high:
            return rank
        if rank < 2 * reach + 1 - low:
            return c - reach + low + rank - high
        return ncell - low + rank - (2 * reach + 1 - low)
    if c - reach + rank < 0 or c - reach + rank >= ncell:
        return -1
    return c - reach + rank


@annotate(int='c, ncell, periodic, which', return_='int')
def cell_run(c, ncell, periodic, which):
    """The cells c - 1, c, c + 1 along one axis as at most two runs of consecutive cells, in
    increasing order also across a periodic seam (ncell >= 3 when periodic): which 0 and 1 give
    the first and last cell of the first run, 2 and 3 those of the second run, which is empty
    (first > last) unless the axis wraps at c. Past a non-periodic edge the run is clipped."""
    if periodic != 0 and c == 0:
        if which == 0:
            return 0
        if which == 1:
            return 1
        return ncell - 1
    if periodic != 0 and c == ncell - 1:
        if which <= 1:
            return 0
        if which == 2:
            return ncell - 2
        return ncell - 1
    if which == 0:
        return max(c - 1, 0)
    if which == 1:
        return min(c + 1, ncell - 1)
    if which == 2:
        return 1
    return 0


@annotate(double='p, w', o='int', return_='double')
def cell_gap(p, w, o):
    """The distance along one axis from a particle to the cell o (-2 .. 2) away from its own, p
    being its coordinate relative to its own cell's lower edge (a - c * w: in [0, w) up to
    rounding; outside it for a particle past a wall, whose cell is clamped). 0 for its own cell,
    never negative."""
    if o < 0:
        return max(p + (-1 - o) * w, 0.0)
    if o > 0:
        return max(o * w - p, 0.0)
    return 0.0


@annotate(int='c, first, last, ncell, periodic, which', return_='int')
def cell_run_between(c, first, last, ncell, periodic, which):
    """The cells c + first .. c + last along one axis (first <= last, each within ncell of 0; a
    periodic axis has ncell > last - first) as at most two runs of consecutive cells in
    increasing order: which 0 and 1 give the first and last cell of the first run, 2 and 3 those
    of the second (empty, first > last, unless the axis wraps inside the range). Clipped at a
    non-periodic edge (the first run is then empty when no cell is left)."""
    lo, hi = declare('int', 2)
    lo = c + first
    hi = c + last
    if periodic == 0:
        lo = max(lo, 0)
        hi = min(hi, ncell - 1)
    elif lo < 0 and hi < 0:
        lo += ncell
        hi += ncell
    elif lo < 0:
        # Wraps below 0: 0 .. hi, then lo + ncell .. ncell - 1.
        if which == 0:
            return 0
        if which == 1:
            return hi
        if which == 2:
            return lo + ncell
        return ncell - 1
    elif lo >= ncell:
        lo -= ncell
        hi -= ncell
    elif hi >= ncell:
        # Wraps past the last cell: 0 .. hi - ncell, then lo .. ncell - 1.
        if which == 0:
            return 0
        if which == 1:
            return hi - ncell
        if which == 2:
            return lo
        return ncell - 1
    if which == 0:
        return lo
    if which == 1:
        return hi
    if which == 2:
        return 1
    return 0


@annotate(int='c, first, last, ncell, periodic, which', return_='int')
def cell_run_image(c, first, last, ncell, periodic, which):
    """The periodic image of run `which` (0: the first, 1: the second) of cell_run_between(c,
    first, last, ...): -1 where the run's cells stand for c + o < 0 (their copies one box to the
    left), +1 where they stand for c + o >= ncell, else 0 (and always 0 when not periodic). A
    search may then take a candidate's separation as (a_i - a_k) - image * L instead of the
    minimum image: the same operation, so the same bits, where the minimum image shifts (cells
    within reach are closer than L / 2 unless the pair is farther than r_list either way)."""
    lo, hi = declare('int', 2)
    lo = c + first
    hi = c + last
    if periodic == 0:
        return 0
    if lo < 0 and hi < 0:
        return -1
    if lo < 0:
        return 0 if which == 0 else -1
    if lo >= ncell:
        return 1
    if hi >= ncell:
        return 1 if which == 0 else 0
    return 0


# Relative margin of the cell culling of the half-list fills: a cell is skipped only when its
# nearest point is farther than r_list by this much (rounding is 1e-16 of r_list^2).
CELL_CULL_MARGIN = 1e-6


@annotate(rl2='double', return_='double')
def cull_reach2(rl2):
    """The squared distance past which a cell's nearest point lets the half-list fills skip it:
    rl2 with CELL_CULL_MARGIN to spare."""
    return rl2 * (1.0 + CELL_CULL_MARGIN)


# Lists up to this long are sorted in a private array: on GPUs each thread's copy lives in
# per-thread local memory, which is interleaved across a warp (coalesced) and cached, where the
# row itself in global memory is one scattered stream per thread. Rows are ~100 long for a
# dense LJ liquid at r_list 2.9; longer ones are sorted in place.
SORT_ROW = 256


@annotate(i='int', intp='nbr_start, nbr_count, nbr_idx')
def sort_neighbors(i, nbr_start, nbr_count, nbr_idx):
    """Puts the list of i in increasing index order (insertion sort; the list is 3^dim sorted runs).

    fill_neighbors writes cell by cell, so without this the force sum of compute_forces would
    run in an order that depends on the cell grid. Sorted, every list (binned or all pairs,
    built now or some steps ago with a skin) sums the pairs within r_cut in the order of
    compute_forces_all_pairs: the forces agree bit for bit.
    """
    start, count, k, m, j = declare('int', 5)
    row = declare("matrix(SORT_ROW, 'int')")
    start = nbr_start[i]
    count = nbr_count[i]
    if count <= SORT_ROW:
        for k in range(count):
            row[k] = nbr_idx[start + k]
        for k in range(1, count):
            j = row[k]
            m = k - 1
            while m >= 0 and row[m] > j:
                row[m + 1] = row[m]
                m -= 1
            row[m + 1] = j
        for k in range(count):
            nbr_idx[start + k] = row[k]
    else:
        for k in range(start + 1, start + count):
            j = nbr_idx[k]
            m = k - 1
            while m >= start and nbr_idx[m] > j:
                nbr_idx[m + 1] = nbr_idx[m]
                m -= 1
            nbr_idx[m + 1] = j


@annotate(i='int', intp='nbr_count, nbr_idx, nbr_start, packed_idx, packed_row', cap='int')
def pack_rows(i, nbr_count, cap, nbr_idx, nbr_start, packed_idx, packed_row):
    """Packs row i of a one-pass build (entries from i * (cap + 1) on) to packed_idx from
    nbr_start[i] on (the exclusive scan of the counts: CSR), and writes i as the row of each of
    its entries into packed_row: a force loop can then run over a range of entries in blocks
    that cross rows (NeighborListSpec::packed)."""
    src, dst = declare('int', 2)
    src = i * (cap + 1)
    dst = nbr_start[i]
    for k in range(nbr_count[i]):
        packed_idx[dst + k] = nbr_idx[src + k]
        packed_row[dst + k] = i


@annotate(i='int', nbr_count='intp', return_='int')
def nbr_offset_input(i, nbr_count):
    """Scan input: the counts, scanned with 'a+b' into CSR offsets."""
    return nbr_count[i]


@annotate(i='int', item='int', prev_item='int', last_item='int', intp='nbr_start, nbr_total')
def nbr_offset_output(i, item, prev_item, last_item, nbr_start, nbr_total):
    """Scan output: exclusive offsets into nbr_start; nbr_total[0] = total list length."""
    nbr_start[i] = prev_item
    if i == 0:
        nbr_total[0] = last_item


# Reordering particles by cell (apps that keep neighbours close in memory): dst[k] = src[order[k]]
# for every per-particle array, order being the stable sort of the cell keys.

@annotate(i='int', order='intp', doublep='src, dst')
def permute_real(i, order, src, dst):
    dst[i] = src[order[i]]


@annotate(i='int', intp='order, src, dst')
def permute_int(i, order, src, dst):
    dst[i] = src[order[i]]
