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
        c = c % ncell
    else:
        c = min(max(c, 0), ncell - 1)
    return c


@annotate(int='c, offset, ncell, periodic', return_='int')
def neighbor_cell(c, offset, ncell, periodic):
    """The cell `offset` (-1, 0, 1) away along one axis, or -1 past a non-periodic edge."""
    n = c + offset
    if periodic != 0:
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
