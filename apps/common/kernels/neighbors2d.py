"""2D neighbour search kernels (binned and all pairs) and the displacement rebuild rule.

The kernels of apps/common/neighbor_list.h for two axes; `periodic` is one flag for both axes
(0 = walls, non-zero = periodic), as md2d passes it. Cells are cell_w x cell_h with both at
least r_list = r_cut + skin; cell (cx, cy) has key cy * ncx + cx. Periodic grids need
ncx, ncy >= 3 so the 9 visited cells are distinct.

The one-pass builds have forms for cells at least r_list / 2 wide (*_small_cells, which read the
reach from the grid: cell_reach; ncx, ncy >= 5 when periodic): they search the 5 x 5 cells around
a particle's own, 6.25 r_list^2 against 9.
"""

from smelt import annotate, declare

from box import half_length, min_image_wrapped, pair_delta
from cells import (cell_coord, cell_gap, cell_reach, cell_run, cell_run_between, cell_run_image,
                   cull_reach2, neighbor_cell, sorted_cell_in_reach, sorted_neighbor_cell)


@annotate(double='xi, yi, xj, yj, lx, ly, rl2', periodic='int', return_='int')
def within(xi, yi, xj, yj, lx, ly, periodic, rl2):
    """1 when the two points are closer than sqrt(rl2) (minimum image when periodic), else 0."""
    dx, dy = declare('double', 2)
    dx = pair_delta(xi, xj, lx, periodic)
    dy = pair_delta(yi, yj, ly, periodic)
    if dx * dx + dy * dy < rl2:
        return 1
    return 0


@annotate(i='int', doublep='x, y', keys='intp', double='cell_w, cell_h',
          int='ncx, ncy, periodic')
def cell_key(i, x, y, keys, cell_w, cell_h, ncx, ncy, periodic):
    """keys[i] = the cell of particle i (the sort key of the binned search)."""
    cx, cy = declare('int', 2)
    cx = cell_coord(x[i], cell_w, ncx, periodic)
    cy = cell_coord(y[i], cell_h, ncy, periodic)
    keys[i] = cy * ncx + cx


@annotate(i='int', doublep='x, y', intp='nbr_count, order, cell_start, cell_end',
          double='lx, ly, cell_w, cell_h, rl2', int='periodic, ncx, ncy')
def count_neighbors(i, x, y, nbr_count, order, cell_start, cell_end, lx, ly, periodic, cell_w,
                    cell_h, ncx, ncy, rl2):
    """nbr_count[i] = number of j != i closer than r_list, searched in the 3 x 3 cells around i."""
    xi, yi = declare('double', 2)
    cx, cy, nx, ny, c, j, count = declare('int', 7)
    xi = x[i]
    yi = y[i]
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    count = 0
    for oy in range(-1, 2):
        ny = neighbor_cell(cy, oy, ncy, periodic)
        if ny < 0:
            continue
        for ox in range(-1, 2):
            nx = neighbor_cell(cx, ox, ncx, periodic)
            if nx < 0:
                continue
            c = ny * ncx + nx
            for k in range(cell_start[c], cell_end[c]):
                j = order[k]
                if j != i and within(xi, yi, x[j], y[j], lx, ly, periodic, rl2) != 0:
                    count += 1
    nbr_count[i] = count


@annotate(i='int', doublep='x, y', intp='nbr_start, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, cell_w, cell_h, rl2', int='periodic, ncx, ncy')
def fill_neighbors(i, x, y, nbr_start, nbr_idx, order, cell_start, cell_end, lx, ly, periodic,
                   cell_w, cell_h, ncx, ncy, rl2):
    """Writes the neighbours count_neighbors counted, in the same order, from nbr_start[i] on."""
    xi, yi = declare('double', 2)
    cx, cy, nx, ny, c, j, pos = declare('int', 7)
    xi = x[i]
    yi = y[i]
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    pos = nbr_start[i]
    for oy in range(-1, 2):
        ny = neighbor_cell(cy, oy, ncy, periodic)
        if ny < 0:
            continue
        for ox in range(-1, 2):
            nx = neighbor_cell(cx, ox, ncx, periodic)
            if nx < 0:
                continue
            c = ny * ncx + nx
            for k in range(cell_start[c], cell_end[c]):
                j = order[k]
                if j != i and within(xi, yi, x[j], y[j], lx, ly, periodic, rl2) != 0:
                    nbr_idx[pos] = j
                    pos += 1


# Candidates fill_neighbors_capped tests per chunk (the length of its private flag array).
NBR_CHUNK = 64


@annotate(i='int', doublep='x, y, xs, ys',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, cell_w, cell_h, rl2', int='periodic, ncx, ncy')
def fill_neighbors_capped(i, x, y, xs, ys, nbr_start, nbr_count, nbr_idx, cap, order,
                          cell_start, cell_end, lx, ly, periodic, cell_w, cell_h, ncx, ncy, rl2):
    """count_neighbors and fill_neighbors in one pass, into a row of fixed capacity cap (the
    contract of neighbors3d.py's fill_neighbors_capped, in 2D): rows are cap + 1 entries apart,
    nbr_start[i] = i * (cap + 1), nbr_count[i] = the number found, also when it is more than cap
    (the row's content is then unspecified and the caller runs it again with a larger cap).
    Needs cell_bounds' bounds, the positions in cell order (xs[k] = x[order[k]]: permute_real)
    and positions wrapped when periodic.

    The 9 cells are visited as 3 runs of consecutive keys (3 cells along x; two runs where x
    wraps), in increasing key order. A run's candidates are tested NBR_CHUNK at a time: a
    branch-free loop of distance tests writes a private flag array (SIMD lanes), then a loop
    appends without a branch (every candidate is written at the next free place, the last
    place once the row is full, and the count grows by its flag).
    """
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, hx, hy, dx, dy = declare('double', 6)
    cx, cy, ny, j, row, last, count, key, lo, hi, m = declare('int', 11)
    a0, a1, b0, b1 = declare('int', 4)
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    # The cells along x: the run a0..a1 and, where a periodic x wraps, the run b0..b1 after it.
    a0 = cell_run(cx, ncx, periodic, 0)
    a1 = cell_run(cx, ncx, periodic, 1)
    b0 = cell_run(cx, ncx, periodic, 2)
    b1 = cell_run(cx, ncx, periodic, 3)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    for ry in range(3):
        ny = sorted_neighbor_cell(cy, ry, ncy, periodic)
        if ny < 0:
            continue
        key = ny * ncx
        for run in range(2):
            if run == 0:
                lo = cell_start[key + a0]
                hi = cell_end[key + a1]
            elif b0 <= b1:
                lo = cell_start[key + b0]
                hi = cell_end[key + b1]
            else:
                hi = lo
            for base in range(lo, hi, NBR_CHUNK):
                m = min(NBR_CHUNK, hi - base)
                for t in range(m):
                    dx = min_image_wrapped(xi - xs[base + t], lx, hx)
                    dy = min_image_wrapped(yi - ys[base + t], ly, hy)
                    near[t] = 1 if dx * dx + dy * dy < rl2 else 0
                for t in range(m):
                    j = order[base + t]
                    nbr_idx[min(row + count, last)] = j
                    count += near[t] if j != i else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, xs, ys',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, cell_w, cell_h, rl2', int='periodic, ncx, ncy')
def fill_neighbors_capped_small_cells(i, x, y, xs, ys, nbr_start, nbr_count, nbr_idx, cap, order,
                                      cell_start, cell_end, lx, ly, periodic, cell_w, cell_h, ncx,
                                      ncy, rl2):
    """fill_neighbors_capped on any grid the host makes (cell_reach 1 or 2 along each axis): with
    cells of r_list / 2 it visits the 25 cells around i's as 5 runs of 5 consecutive keys, in
    increasing key order; on cells of r_list it gives fill_neighbors_capped's rows, entry for
    entry."""
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, hx, hy, dx, dy = declare('double', 6)
    cx, cy, ny, j, row, last, count, key, lo, hi, m = declare('int', 11)
    a0, a1, b0, b1, rx, ry = declare('int', 6)
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    # The cells along x: the run a0..a1 and, where a periodic x wraps, the run b0..b1 after it.
    rx = cell_reach(cell_w, rl2)
    ry = cell_reach(cell_h, rl2)
    a0 = cell_run_between(cx, -rx, rx, ncx, periodic, 0)
    a1 = cell_run_between(cx, -rx, rx, ncx, periodic, 1)
    b0 = cell_run_between(cx, -rx, rx, ncx, periodic, 2)
    b1 = cell_run_between(cx, -rx, rx, ncx, periodic, 3)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    for sy in range(2 * ry + 1):
        ny = sorted_cell_in_reach(cy, sy, ry, ncy, periodic)
        if ny < 0:
            continue
        key = ny * ncx
        for run in range(2):
            if run == 0:
                lo = cell_start[key + a0]
                hi = cell_end[key + a1]
            elif b0 <= b1:
                lo = cell_start[key + b0]
                hi = cell_end[key + b1]
            else:
                hi = lo
            for base in range(lo, hi, NBR_CHUNK):
                m = min(NBR_CHUNK, hi - base)
                for t in range(m):
                    dx = min_image_wrapped(xi - xs[base + t], lx, hx)
                    dy = min_image_wrapped(yi - ys[base + t], ly, hy)
                    near[t] = 1 if dx * dx + dy * dy < rl2 else 0
                for t in range(m):
                    j = order[base + t]
                    nbr_idx[min(row + count, last)] = j
                    count += near[t] if j != i else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, xs, ys',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, cell_w, cell_h, rl2', int='periodic, ncx, ncy')
def fill_neighbors_capped_half(i, x, y, xs, ys, nbr_start, nbr_count, nbr_idx, cap, order,
                               cell_start, cell_end, lx, ly, periodic, cell_w, cell_h, ncx, ncy,
                               rl2):
    """fill_neighbors_capped for a HALF list: each pair closer than r_list is in exactly one of
    the two lists (for Newton's third law: physics.py's compute_forces_newton). The same rows,
    counts and chunked, branch-free tests, over 5 of the 9 cells: the row one up in y (3 cells),
    the next cell along x (1), and i's own cell, where only j > i counts. A pair in two
    different cells has its cell offset (ox, oy) or the opposite one in this half (ncell >= 3 on
    a periodic axis makes +1 and -1 different cells); a pair in one cell is kept by its lower
    index. Rows are in cell-visit order (sort_neighbors sorts them). neighbors3d.py's
    fill_neighbors_capped_half is the same in 3D.
    """
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, hx, hy, dx, dy = declare('double', 6)
    cx, cy, nx, ny, j, row, last, count, key, lo, hi, m, own = declare('int', 13)
    a0, a1, b0, b1 = declare('int', 4)
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    a0 = cell_run(cx, ncx, periodic, 0)
    a1 = cell_run(cx, ncx, periodic, 1)
    b0 = cell_run(cx, ncx, periodic, 2)
    b1 = cell_run(cx, ncx, periodic, 3)
    nx = neighbor_cell(cx, 1, ncx, periodic)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    for oy in range(2):
        ny = neighbor_cell(cy, oy, ncy, periodic)
        if ny < 0:
            continue
        key = ny * ncx
        # Row oy = 0: i's own cell (only j > i: own = 1), then the cell cx + 1; row oy = 1: the
        # three cells cx - 1 .. cx + 1 as runs.
        own = 1 if oy == 0 else 0
        for run in range(2):
            if own == 1:
                if run == 0:
                    lo = cell_start[key + cx]
                    hi = cell_end[key + cx]
                elif nx >= 0:
                    lo = cell_start[key + nx]
                    hi = cell_end[key + nx]
                else:
                    hi = lo
            elif run == 0:
                lo = cell_start[key + a0]
                hi = cell_end[key + a1]
            elif b0 <= b1:
                lo = cell_start[key + b0]
                hi = cell_end[key + b1]
            else:
                hi = lo
            for base in range(lo, hi, NBR_CHUNK):
                m = min(NBR_CHUNK, hi - base)
                for t in range(m):
                    dx = min_image_wrapped(xi - xs[base + t], lx, hx)
                    dy = min_image_wrapped(yi - ys[base + t], ly, hy)
                    near[t] = 1 if dx * dx + dy * dy < rl2 else 0
                for t in range(m):
                    j = order[base + t]
                    nbr_idx[min(row + count, last)] = j
                    count += near[t] if j > i or own * (1 - run) == 0 else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(i='int', double='xi, yi, sx, sy, rl2', doublep='xs, ys', intp='order, nbr_idx',
          int='lo, hi, oe, row, last, count', return_='int')
def half_run(i, xi, yi, xs, ys, order, nbr_idx, lo, hi, oe, sx, sy, rl2, row, last, count):
    """fill_neighbors_capped_half_small_cells' loop over the candidates lo .. hi - 1 (cell
    order) of one run of cells with image shift (sx, sy), those before oe in i's own cell:
    appends each at the row's next place (row + count, the last place once full) and counts it
    when it is closer than sqrt(rl2) (and j > i in i's own cell); returns the new count."""
    dx, dy = declare('double', 2)
    j, near, keep = declare('int', 3)
    for k in range(lo, hi):
        dx = (xi - xs[k]) - sx
        dy = (yi - ys[k]) - sy
        j = order[k]
        nbr_idx[min(row + count, last)] = j
        # Flags combined with & and |: `and` and `or` would branch on the distance.
        near = 1 if dx * dx + dy * dy < rl2 else 0
        keep = (1 if j > i else 0) | (1 if k >= oe else 0)
        count += near & keep
    return count


@annotate(i='int', doublep='x, y, xs, ys',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, cell_w, cell_h, rl2', int='periodic, ncx, ncy')
def fill_neighbors_capped_half_small_cells(i, x, y, xs, ys, nbr_start, nbr_count, nbr_idx, cap,
                                           order, cell_start, cell_end, lx, ly, periodic, cell_w,
                                           cell_h, ncx, ncy, rl2):
    """fill_neighbors_capped_half on any grid the host makes (cell_reach 1 or 2 along each axis):
    the pairs of fill_neighbors_capped_half's half of the cells around i's. With cells of
    r_list / 2 (ncell >= 5 when periodic) that is the two rows above i's (5 cells each), and
    i's own cell (only j > i) with the two after it along x; on cells of r_list the row above
    (3 cells), i's own cell and the one after it. Each pair within r_list is in exactly one row.

    The cells of a row of the grid are one run of consecutive keys (two where a periodic x
    wraps), i's own cell first in its run, and each run is one loop over its candidates
    (half_run), which appends every candidate at the row's next place and counts it when it is
    near: no branch but the loop's, no private array. With cells of r_list / 2 a cell holds
    about 1.4 particles: a search per cell or per culled range of cells spent its time in short
    loops and their exits, and a chunked test in SIMD lanes in its partial vectors. A run's
    cells lie on one side of a periodic seam, so the separation is (xi - xs[k]) - sx with the
    run's image shift sx (cell_run_image), in place of the minimum image's compare and select
    per candidate: the same operation where the minimum image shifts, so the same pairs. Away
    from the grid's edges along x (all but 2 * reach columns) each row is one run without a
    shift, taken without cell_run_between."""
    xi, yi, sx, sy = declare('double', 4)
    cx, cy, ny, row, last, count, key, lo, hi, oe = declare('int', 10)
    rx, ry, first, c0, c1, inner = declare('int', 6)
    xi = x[i]
    yi = y[i]
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    rx = cell_reach(cell_w, rl2)
    ry = cell_reach(cell_h, rl2)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    inner = 1 if cx >= rx and cx + rx < ncx else 0
    for oy in range(ry + 1):
        ny = neighbor_cell(cy, oy, ncy, periodic)
        if ny < 0:
            continue
        # The row's image: one box up where cy + oy wrapped past the last row.
        sy = ly if periodic != 0 and cy + oy >= ncy else 0.0
        # Row oy = 0: cx .. cx + rx (i's own cell first); rows above: cx - rx .. cx + rx.
        first = 0 if oy == 0 else -rx
        key = ny * ncx
        if inner == 1:
            lo = cell_start[key + cx + first]
            hi = cell_end[key + cx + rx]
            # Candidates before oe are in i's own cell.
            oe = cell_end[key + cx] if oy == 0 else lo
            count = half_run(i, xi, yi, xs, ys, order, nbr_idx, lo, hi, oe, 0.0, sy, rl2, row,
                             last, count)
            continue
        for part in range(2):
            c0 = cell_run_between(cx, first, rx, ncx, periodic, 2 * part)
            c1 = cell_run_between(cx, first, rx, ncx, periodic, 2 * part + 1)
            if c0 <= c1:
                lo = cell_start[key + c0]
                hi = cell_end[key + c1]
                sx = cell_run_image(cx, first, rx, ncx, periodic, part) * lx
                oe = cell_end[key + cx] if oy == 0 and c0 == cx else lo
                count = half_run(i, xi, yi, xs, ys, order, nbr_idx, lo, hi, oe, sx, sy, rl2, row,
                                 last, count)
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(t='int', doublep='x, y, xs, ys',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, cell_w, cell_h, rl2', int='cap, stride, lanes, periodic, ncx, ncy')
def fill_neighbors_capped_pairwise(t, x, y, xs, ys, nbr_start, nbr_count, nbr_idx, cap, stride,
                                   lanes, order, cell_start, cell_end, lx, ly, periodic, cell_w,
                                   cell_h, ncx, ncy, rl2):
    """fill_neighbors_capped's rows and counts, one candidate at a time: the GPU form (a GPU
    thread would hold the chunked form's flag array in slow local memory). The cells, runs and
    candidates come in the same order, so the rows are the same, entry for entry.

    stride 1 lays the rows out as the chunked form does (row i from i * (cap + 1)); stride n
    (the particle count) interleaves them, entry k of row i at i + k * n, so the threads of a
    warp, reading their k-th neighbours together, read consecutive words.

    Run over lanes * n items (neighbors3d.py's form says how lanes share a row); lanes = 1 gives
    the rows above."""
    xi, yi, hx, hy, dx, dy = declare('double', 6)
    i, lane, cx, cy, ny, j, row, count, key, lo, hi = declare('int', 11)
    a0, a1, b0, b1, capl, slot, step, k = declare('int', 8)
    i = t // lanes
    lane = t - i * lanes
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    a0 = cell_run(cx, ncx, periodic, 0)
    a1 = cell_run(cx, ncx, periodic, 1)
    b0 = cell_run(cx, ncx, periodic, 2)
    b1 = cell_run(cx, ncx, periodic, 3)
    row = i * (cap + 1) if stride == 1 else i
    capl = cap // lanes
    slot = row + lane * stride
    step = lanes * stride
    count = 0
    for ry in range(3):
        ny = sorted_neighbor_cell(cy, ry, ncy, periodic)
        if ny < 0:
            continue
        key = ny * ncx
        for run in range(2):
            if run == 0:
                lo = cell_start[key + a0]
                hi = cell_end[key + a1]
            elif b0 <= b1:
                lo = cell_start[key + b0]
                hi = cell_end[key + b1]
            else:
                hi = lo
            # A counted loop with unit step (neighbors3d.py's form says why).
            for q in range((hi - lo - lane + lanes - 1) // lanes):
                k = lo + lane + q * lanes
                dx = min_image_wrapped(xi - xs[k], lx, hx)
                dy = min_image_wrapped(yi - ys[k], ly, hy)
                if dx * dx + dy * dy < rl2:
                    j = order[k]
                    if j != i:
                        if count < capl:
                            nbr_idx[slot] = j
                            slot += step
                        count += 1
    if lane == 0:
        nbr_start[i] = row
    nbr_count[t] = count


@annotate(t='int', doublep='x, y, xs, ys',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, cell_w, cell_h, rl2', int='cap, stride, lanes, periodic, ncx, ncy')
def fill_neighbors_capped_pairwise_small_cells(t, x, y, xs, ys, nbr_start, nbr_count, nbr_idx, cap,
                                               stride, lanes, order, cell_start, cell_end, lx, ly,
                                               periodic, cell_w, cell_h, ncx, ncy, rl2):
    """fill_neighbors_capped_pairwise on any grid the host makes (cell_reach 1 or 2 along each
    axis): the rows of fill_neighbors_capped_small_cells, entry for entry, in the GPU form."""
    xi, yi, hx, hy, dx, dy = declare('double', 6)
    i, lane, cx, cy, ny, j, row, count, key, lo, hi = declare('int', 11)
    a0, a1, b0, b1, capl, slot, step, k, rx, ry = declare('int', 10)
    i = t // lanes
    lane = t - i * lanes
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    cx = cell_coord(xi, cell_w, ncx, periodic)
    cy = cell_coord(yi, cell_h, ncy, periodic)
    rx = cell_reach(cell_w, rl2)
    ry = cell_reach(cell_h, rl2)
    a0 = cell_run_between(cx, -rx, rx, ncx, periodic, 0)
    a1 = cell_run_between(cx, -rx, rx, ncx, periodic, 1)
    b0 = cell_run_between(cx, -rx, rx, ncx, periodic, 2)
    b1 = cell_run_between(cx, -rx, rx, ncx, periodic, 3)
    row = i * (cap + 1) if stride == 1 else i
    capl = cap // lanes
    slot = row + lane * stride
    step = lanes * stride
    count = 0
    for sy in range(2 * ry + 1):
        ny = sorted_cell_in_reach(cy, sy, ry, ncy, periodic)
        if ny < 0:
            continue
        key = ny * ncx
        for run in range(2):
            if run == 0:
                lo = cell_start[key + a0]
                hi = cell_end[key + a1]
            elif b0 <= b1:
                lo = cell_start[key + b0]
                hi = cell_end[key + b1]
            else:
                hi = lo
            # A counted loop with unit step (neighbors3d.py's form says why).
            for q in range((hi - lo - lane + lanes - 1) // lanes):
                k = lo + lane + q * lanes
                dx = min_image_wrapped(xi - xs[k], lx, hx)
                dy = min_image_wrapped(yi - ys[k], ly, hy)
                if dx * dx + dy * dy < rl2:
                    j = order[k]
                    if j != i:
                        if count < capl:
                            nbr_idx[slot] = j
                            slot += step
                        count += 1
    if lane == 0:
        nbr_start[i] = row
    nbr_count[t] = count


# All-pairs variants (O(N^2)): the same CSR list without cells; for small N and as a reference.

@annotate(i='int', doublep='x, y', nbr_count='intp', n='int', double='lx, ly, rl2',
          periodic='int')
def count_neighbors_all_pairs(i, x, y, nbr_count, n, lx, ly, periodic, rl2):
    count = declare('int')
    count = 0
    for j in range(n):
        if j != i and within(x[i], y[i], x[j], y[j], lx, ly, periodic, rl2) != 0:
            count += 1
    nbr_count[i] = count


@annotate(i='int', doublep='x, y', intp='nbr_start, nbr_idx', n='int', double='lx, ly, rl2',
          periodic='int')
def fill_neighbors_all_pairs(i, x, y, nbr_start, nbr_idx, n, lx, ly, periodic, rl2):
    pos = declare('int')
    pos = nbr_start[i]
    for j in range(n):
        if j != i and within(x[i], y[i], x[j], y[j], lx, ly, periodic, rl2) != 0:
            nbr_idx[pos] = j
            pos += 1


@annotate(i='int', doublep='x, y, x0, y0', double='lx, ly', periodic='int', return_='double')
def displacement2_map(i, x, y, x0, y0, lx, ly, periodic):
    """Squared displacement since the last neighbour build; reduce with 'max(a, b)', neutral 0."""
    dx, dy = declare('double', 2)
    dx = pair_delta(x[i], x0[i], lx, periodic)
    dy = pair_delta(y[i], y0[i], ly, periodic)
    return dx * dx + dy * dy


@annotate(i='int', doublep='x, y, x0, y0', double='lx, ly, limit2', periodic='int',
          return_='int')
def past_limit_map(i, x, y, x0, y0, lx, ly, periodic, limit2):
    """1 when particle i moved more than the rebuild limit since the last build, else 0; reduce
    with 'max(a, b)' (NeighborList::start_update)."""
    if displacement2_map(i, x, y, x0, y0, lx, ly, periodic) > limit2:
        return 1
    return 0


@annotate(i='int', doublep='x, y, x0, y0')
def save_positions(i, x, y, x0, y0):
    """Remembers the positions of the last neighbour build (for rebuild: displacement)."""
    x0[i] = x[i]
    y0[i] = y[i]
