"""3D neighbour search kernels (binned and all pairs) and the displacement rebuild rule.

The kernels of apps/common/neighbor_list.h for three axes, with the argument convention of
neighbors2d.py plus one axis (z, lz, cell_d, ncz). One difference: `periodic` is a per-axis BIT
MASK, bit 0 = x, bit 1 = y, bit 2 = z (7 = fully periodic, 0 = walls on every axis, 3 = walls
only along z). A periodic axis needs at least 3 cells so the 27 visited cells are distinct;
a non-periodic axis may have any number >= 1 (cell indices are clamped, so particles pushed past
a wall are still found). Cell (cx, cy, cz) has key (cz * ncy + cy) * ncx + cx.

The one-pass builds have forms for cells at least r_list / 2 wide (*_small_cells, which read
the reach from the grid: cell_reach): they search the 5 x 5 x 5 cells around a particle's own (a
periodic axis needs at least 5), which hold about 40 % fewer candidates than the 3 x 3 x 3 cells
of r_list (15.6 r_list^3 against 27).
"""

from smelt import annotate, declare

from box import half_length, min_image_wrapped, pair_delta
from cells import (cell_coord, cell_gap, cell_reach, cell_run, cell_run_between, cell_run_image,
                   cull_reach2, neighbor_cell, sorted_cell_in_reach, sorted_neighbor_cell)


@annotate(double='xi, yi, zi, xj, yj, zj, lx, ly, lz, hx, hy, hz, rl2', return_='int')
def within3(xi, yi, zi, xj, yj, zj, lx, ly, lz, hx, hy, hz, rl2):
    """1 when the two points are closer than sqrt(rl2) (minimum image on periodic axes), else 0.

    Positions wrapped on periodic axes; hx, hy, hz are half_length() of each axis."""
    dx, dy, dz = declare('double', 3)
    dx = min_image_wrapped(xi - xj, lx, hx)
    dy = min_image_wrapped(yi - yj, ly, hy)
    dz = min_image_wrapped(zi - zj, lz, hz)
    if dx * dx + dy * dy + dz * dz < rl2:
        return 1
    return 0


@annotate(i='int', doublep='x, y, z', keys='intp', double='cell_w, cell_h, cell_d',
          int='ncx, ncy, ncz, periodic')
def cell_key(i, x, y, z, keys, cell_w, cell_h, cell_d, ncx, ncy, ncz, periodic):
    """keys[i] = the cell of particle i (the sort key of the binned search)."""
    cx, cy, cz = declare('int', 3)
    cx = cell_coord(x[i], cell_w, ncx, periodic & 1)
    cy = cell_coord(y[i], cell_h, ncy, periodic & 2)
    cz = cell_coord(z[i], cell_d, ncz, periodic & 4)
    keys[i] = (cz * ncy + cy) * ncx + cx


@annotate(i='int', doublep='x, y, z', intp='nbr_count, order, cell_start, cell_end',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def count_neighbors(i, x, y, z, nbr_count, order, cell_start, cell_end, lx, ly, lz, periodic,
                    cell_w, cell_h, cell_d, ncx, ncy, ncz, rl2):
    """nbr_count[i] = number of j != i closer than r_list, searched in the 27 cells around i."""
    xi, yi, zi, hx, hy, hz = declare('double', 6)
    cx, cy, cz, nx, ny, nz, c, j, count = declare('int', 9)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    count = 0
    for oz in range(-1, 2):
        nz = neighbor_cell(cz, oz, ncz, periodic & 4)
        if nz < 0:
            continue
        for oy in range(-1, 2):
            ny = neighbor_cell(cy, oy, ncy, periodic & 2)
            if ny < 0:
                continue
            for ox in range(-1, 2):
                nx = neighbor_cell(cx, ox, ncx, periodic & 1)
                if nx < 0:
                    continue
                c = (nz * ncy + ny) * ncx + nx
                for k in range(cell_start[c], cell_end[c]):
                    j = order[k]
                    if j != i and within3(xi, yi, zi, x[j], y[j], z[j], lx, ly, lz, hx, hy, hz,
                                          rl2) != 0:
                        count += 1
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z', intp='nbr_start, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def fill_neighbors(i, x, y, z, nbr_start, nbr_idx, order, cell_start, cell_end, lx, ly, lz,
                   periodic, cell_w, cell_h, cell_d, ncx, ncy, ncz, rl2):
    """Writes the neighbours count_neighbors counted, in the same order, from nbr_start[i] on."""
    xi, yi, zi, hx, hy, hz = declare('double', 6)
    cx, cy, cz, nx, ny, nz, c, j, pos = declare('int', 9)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    pos = nbr_start[i]
    for oz in range(-1, 2):
        nz = neighbor_cell(cz, oz, ncz, periodic & 4)
        if nz < 0:
            continue
        for oy in range(-1, 2):
            ny = neighbor_cell(cy, oy, ncy, periodic & 2)
            if ny < 0:
                continue
            for ox in range(-1, 2):
                nx = neighbor_cell(cx, ox, ncx, periodic & 1)
                if nx < 0:
                    continue
                c = (nz * ncy + ny) * ncx + nx
                for k in range(cell_start[c], cell_end[c]):
                    j = order[k]
                    if j != i and within3(xi, yi, zi, x[j], y[j], z[j], lx, ly, lz, hx, hy, hz,
                                          rl2) != 0:
                        nbr_idx[pos] = j
                        pos += 1


# Candidates fill_neighbors_capped tests per chunk (the length of its private flag array).
NBR_CHUNK = 64


@annotate(i='int', doublep='x, y, z, xs, ys, zs',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def fill_neighbors_capped(i, x, y, z, xs, ys, zs, nbr_start, nbr_count, nbr_idx, cap, order,
                          cell_start, cell_end, lx, ly, lz, periodic, cell_w, cell_h, cell_d, ncx,
                          ncy, ncz, rl2):
    """count_neighbors and fill_neighbors in one pass, into a row of fixed capacity cap: rows
    are cap + 1 entries apart (nbr_idx holds n * (cap + 1)), the neighbours of i go to
    nbr_idx[i * (cap + 1) :], nbr_start[i] = i * (cap + 1) and nbr_count[i] = the number found,
    also when it is more than cap (the row's content is then unspecified, and the caller runs it
    again with a larger cap). Needs the bounds of cell_bounds (empty cells in place), the
    positions in cell order (xs[k] = x[order[k]], ...: permute_real), and positions wrapped on
    periodic axes.

    The 27 cells are visited as 9 runs of consecutive keys (3 cells along x; two runs where x
    wraps), in increasing key order, so a list is already in index order when the particles are.
    A run's candidates are consecutive in cell order; they are tested NBR_CHUNK at a time: a
    branch-free loop of distance tests on the positions in cell order writes a private flag
    array (SIMD lanes, plain vector loads), then a loop appends without a branch: every
    candidate is written at the next free place (the last place once the row is full) and the
    count grows by its flag.
    """
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, zi, hx, hy, hz, dx, dy, dz = declare('double', 9)
    cx, cy, cz, ny, nz, j, row, last, count, key, lo, hi, m = declare('int', 13)
    a0, a1, b0, b1 = declare('int', 4)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    # The cells along x: the run a0..a1 and, where a periodic x wraps, the run b0..b1 after it.
    a0 = cell_run(cx, ncx, periodic & 1, 0)
    a1 = cell_run(cx, ncx, periodic & 1, 1)
    b0 = cell_run(cx, ncx, periodic & 1, 2)
    b1 = cell_run(cx, ncx, periodic & 1, 3)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    for rz in range(3):
        nz = sorted_neighbor_cell(cz, rz, ncz, periodic & 4)
        if nz < 0:
            continue
        for ry in range(3):
            ny = sorted_neighbor_cell(cy, ry, ncy, periodic & 2)
            if ny < 0:
                continue
            key = (nz * ncy + ny) * ncx
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
                        dz = min_image_wrapped(zi - zs[base + t], lz, hz)
                        near[t] = 1 if dx * dx + dy * dy + dz * dz < rl2 else 0
                    for t in range(m):
                        j = order[base + t]
                        nbr_idx[min(row + count, last)] = j
                        count += near[t] if j != i else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z, xs, ys, zs',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def fill_neighbors_capped_small_cells(i, x, y, z, xs, ys, zs, nbr_start, nbr_count, nbr_idx, cap,
                                      order, cell_start, cell_end, lx, ly, lz, periodic, cell_w,
                                      cell_h, cell_d, ncx, ncy, ncz, rl2):
    """fill_neighbors_capped on any grid the host makes (cell_reach 1 or 2 along each axis): with
    cells of r_list / 2 it visits the 125 cells around i's as 25 runs of 5 consecutive keys (two
    where x wraps), in increasing key order, so a row is in index order when the particles are
    in cell order, as fill_neighbors_capped's; on cells of r_list it gives the same rows, entry
    for entry. The same contract, chunked tests and appends."""
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, zi, hx, hy, hz, dx, dy, dz = declare('double', 9)
    cx, cy, cz, ny, nz, j, row, last, count, key, lo, hi, m = declare('int', 13)
    a0, a1, b0, b1, rx, ry, rz = declare('int', 7)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    rx = cell_reach(cell_w, rl2)
    ry = cell_reach(cell_h, rl2)
    rz = cell_reach(cell_d, rl2)
    # The cells along x: the run a0..a1 and, where a periodic x wraps, the run b0..b1 after it.
    a0 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 0)
    a1 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 1)
    b0 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 2)
    b1 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 3)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    for sz in range(2 * rz + 1):
        nz = sorted_cell_in_reach(cz, sz, rz, ncz, periodic & 4)
        if nz < 0:
            continue
        for sy in range(2 * ry + 1):
            ny = sorted_cell_in_reach(cy, sy, ry, ncy, periodic & 2)
            if ny < 0:
                continue
            key = (nz * ncy + ny) * ncx
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
                        dz = min_image_wrapped(zi - zs[base + t], lz, hz)
                        near[t] = 1 if dx * dx + dy * dy + dz * dz < rl2 else 0
                    for t in range(m):
                        j = order[base + t]
                        nbr_idx[min(row + count, last)] = j
                        count += near[t] if j != i else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z, xs, ys, zs',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def fill_neighbors_capped_half(i, x, y, z, xs, ys, zs, nbr_start, nbr_count, nbr_idx, cap,
                               order, cell_start, cell_end, lx, ly, lz, periodic, cell_w, cell_h,
                               cell_d, ncx, ncy, ncz, rl2):
    """fill_neighbors_capped for a HALF list: each pair closer than r_list is in exactly one of
    the two lists (for Newton's third law, compute_forces_newton). The same rows, counts and
    chunked, branch-free tests, over half of the 27 cells: the cells one layer up in z (9), the
    row one up in y in the same layer (3), the next cell along x (1), and i's own cell, where only
    j > i counts. A pair in two different cells has its offset (dx, dy, dz) or the opposite one
    in this half (ncell >= 3 on a periodic axis makes +1 and -1 different cells); a pair in one
    cell is kept by its lower index. Rows are in cell-visit order (sort_neighbors sorts them).

    Cells whose nearest point is farther from i than r_list hold no neighbour and are not
    searched (cell_gap, cull_reach2): a row of cells (y, z offset) when its y and z gaps
    alone reach r_list, and the cells at the ends of a row's run along x when their x gap
    does. With cells about r_list wide that leaves about 2/3 of the candidates; the list is the
    same.

    Each run of cells searched lies on one side of every periodic seam, so a candidate's
    separation is (a_i - a_k) - s along each axis with the run's image shift s (0 or +-L:
    cell_run_image along x, the row's and layer's wrap along y and z) instead of the minimum
    image's two compares and selects: the operation the minimum image makes where it shifts, and
    where the two differ the pair is farther than r_list either way (a periodic axis has at
    least 3 cells of at least r_list), so the rows hold the same entries in the same order.
    """
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, zi, dx, dy, dz, sx, sy, sz = declare('double', 9)
    px, py, pz, gx, gy, gz, rem, reach2 = declare('double', 8)
    cx, cy, cz, nx, ny, nz, j, row, last, count, key, lo, hi, m, own = declare('int', 15)
    oy, x0, x1 = declare('int', 3)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    px = xi - cx * cell_w
    py = yi - cy * cell_h
    pz = zi - cz * cell_d
    reach2 = cull_reach2(rl2)
    nx = neighbor_cell(cx, 1, ncx, periodic & 1)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    for oz in range(2):
        nz = neighbor_cell(cz, oz, ncz, periodic & 4)
        if nz < 0:
            continue
        gz = cell_gap(pz, cell_d, oz)
        # The layer's image: one box up where cz + oz wrapped past the last layer.
        sz = lz if (periodic & 4) != 0 and cz + oz >= ncz else 0.0
        for ry in range(3):
            # Layer oz = 1: the three rows (sorted); layer 0: rows cy (ry 0) and cy + 1 (ry 1).
            if oz == 1:
                ny = sorted_neighbor_cell(cy, ry, ncy, periodic & 2)
            elif ry < 2:
                ny = neighbor_cell(cy, ry, ncy, periodic & 2)
            else:
                ny = -1
            if ny < 0:
                continue
            # The row's offset along y (-1, 0, 1), across a periodic seam too.
            oy = ny - cy
            if oy > 1:
                oy -= ncy
            elif oy < -1:
                oy += ncy
            gy = cell_gap(py, cell_h, oy)
            # The row's image: cy + oy wrapped past either end of a periodic y.
            sy = 0.0
            if (periodic & 2) != 0 and cy + oy >= ncy:
                sy = ly
            elif (periodic & 2) != 0 and cy + oy < 0:
                sy = -ly
            rem = reach2 - gy * gy - gz * gz
            if rem <= 0.0:
                continue
            # The cells along x within reach: cx + x0 .. cx + x1.
            gx = cell_gap(px, cell_w, -1)
            x0 = -1 if gx * gx < rem else 0
            gx = cell_gap(px, cell_w, 1)
            x1 = 1 if gx * gx < rem else 0
            key = (nz * ncy + ny) * ncx
            # Only j > i in i's own cell (own = 1 there; the run after it is the cell cx + 1).
            own = 1 if oz == 0 and ry == 0 else 0
            for run in range(2):
                sx = 0.0
                if own == 1:
                    if run == 0:
                        lo = cell_start[key + cx]
                        hi = cell_end[key + cx]
                    elif nx >= 0 and x1 == 1:
                        lo = cell_start[key + nx]
                        hi = cell_end[key + nx]
                        sx = lx if (periodic & 1) != 0 and cx + 1 >= ncx else 0.0
                    else:
                        hi = lo
                elif run == 0:
                    lo = cell_start[key + cell_run_between(cx, x0, x1, ncx, periodic & 1, 0)]
                    hi = cell_end[key + cell_run_between(cx, x0, x1, ncx, periodic & 1, 1)]
                    sx = cell_run_image(cx, x0, x1, ncx, periodic & 1, 0) * lx
                elif (cell_run_between(cx, x0, x1, ncx, periodic & 1, 2) <=
                      cell_run_between(cx, x0, x1, ncx, periodic & 1, 3)):
                    lo = cell_start[key + cell_run_between(cx, x0, x1, ncx, periodic & 1, 2)]
                    hi = cell_end[key + cell_run_between(cx, x0, x1, ncx, periodic & 1, 3)]
                    sx = cell_run_image(cx, x0, x1, ncx, periodic & 1, 1) * lx
                else:
                    hi = lo
                # The separation with the run's image shifts (see above): the same pairs.
                for base in range(lo, hi, NBR_CHUNK):
                    m = min(NBR_CHUNK, hi - base)
                    for t in range(m):
                        dx = (xi - xs[base + t]) - sx
                        dy = (yi - ys[base + t]) - sy
                        dz = (zi - zs[base + t]) - sz
                        near[t] = 1 if dx * dx + dy * dy + dz * dz < rl2 else 0
                    for t in range(m):
                        j = order[base + t]
                        nbr_idx[min(row + count, last)] = j
                        count += near[t] if j > i or own * (1 - run) == 0 else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z, xs, ys, zs',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end', cap='int',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def fill_neighbors_capped_half_small_cells(i, x, y, z, xs, ys, zs, nbr_start, nbr_count, nbr_idx,
                                           cap, order, cell_start, cell_end, lx, ly, lz, periodic,
                                           cell_w, cell_h, cell_d, ncx, ncy, ncz, rl2):
    """fill_neighbors_capped_half on any grid the host makes (cell_reach 1 or 2 along each axis).
    With cells of r_list / 2 (ncell >= 5 on a periodic axis) it searches the same half of the
    125 cells: the two layers above i's (25 cells each), the two rows above in i's layer (5
    each), the two cells after i's along x, and i's own (only j > i), skipping the cells whose
    nearest point is farther than r_list (cell_gap, cull_reach2); each pair within r_list is in
    exactly one row. On cells of r_list it gives fill_neighbors_capped_half's rows, entry for
    entry."""
    near = declare("matrix(NBR_CHUNK, 'int')")
    xi, yi, zi, hx, hy, hz, dx, dy, dz = declare('double', 9)
    px, py, pz, gx, gy, gz, rem, reach2 = declare('double', 8)
    cx, cy, cz, ny, nz, j, row, last, count, key, lo, hi, m, own = declare('int', 14)
    oy, x0, x1, rx, ry, rz, first, part, c0, c1, mine = declare('int', 11)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    rx = cell_reach(cell_w, rl2)
    ry = cell_reach(cell_h, rl2)
    rz = cell_reach(cell_d, rl2)
    px = xi - cx * cell_w
    py = yi - cy * cell_h
    pz = zi - cz * cell_d
    reach2 = cull_reach2(rl2)
    row = i * (cap + 1)
    last = row + cap
    count = 0
    lo = 0
    hi = 0
    for oz in range(rz + 1):
        nz = neighbor_cell(cz, oz, ncz, periodic & 4)
        if nz < 0:
            continue
        gz = cell_gap(pz, cell_d, oz)
        if gz * gz >= reach2:
            continue
        for sy in range(2 * ry + 1):
            # Layers above i's: every row, in increasing order; i's layer: rows cy .. cy + ry.
            if oz > 0:
                ny = sorted_cell_in_reach(cy, sy, ry, ncy, periodic & 2)
            elif sy <= ry:
                ny = neighbor_cell(cy, sy, ncy, periodic & 2)
            else:
                ny = -1
            if ny < 0:
                continue
            # The row's offset along y (-ry .. ry), across a periodic seam too.
            oy = ny - cy
            if oy > ry:
                oy -= ncy
            elif oy < -ry:
                oy += ncy
            gy = cell_gap(py, cell_h, oy)
            rem = reach2 - gy * gy - gz * gz
            if rem <= 0.0:
                continue
            # The cells along x within reach: cx + x0 .. cx + x1 (gaps grow with the offset).
            x0 = 0
            x1 = 0
            for o in range(1, rx + 1):
                gx = cell_gap(px, cell_w, -o)
                if gx * gx < rem:
                    x0 = -o
                gx = cell_gap(px, cell_w, o)
                if gx * gx < rem:
                    x1 = o
            key = (nz * ncy + ny) * ncx
            # i's own row: its own cell first (run 0, only j > i), then the cells cx + 1 ..
            # cx + x1; other rows: cx + x0 .. cx + x1. Each range is one or two runs of
            # consecutive keys (two where a periodic x wraps).
            own = 1 if oz == 0 and oy == 0 else 0
            first = 1 if own == 1 else x0
            for run in range(3):
                part = run - own
                # i's own cell: only j > i.
                mine = 1 if own == 1 and run == 0 else 0
                if mine == 1:
                    lo = cell_start[key + cx]
                    hi = cell_end[key + cx]
                elif part <= 1 and first <= x1:
                    c0 = cell_run_between(cx, first, x1, ncx, periodic & 1, 2 * part)
                    c1 = cell_run_between(cx, first, x1, ncx, periodic & 1, 2 * part + 1)
                    if c0 <= c1:
                        lo = cell_start[key + c0]
                        hi = cell_end[key + c1]
                    else:
                        hi = lo
                else:
                    hi = lo
                for base in range(lo, hi, NBR_CHUNK):
                    m = min(NBR_CHUNK, hi - base)
                    for t in range(m):
                        dx = min_image_wrapped(xi - xs[base + t], lx, hx)
                        dy = min_image_wrapped(yi - ys[base + t], ly, hy)
                        dz = min_image_wrapped(zi - zs[base + t], lz, hz)
                        near[t] = 1 if dx * dx + dy * dy + dz * dz < rl2 else 0
                    for t in range(m):
                        j = order[base + t]
                        nbr_idx[min(row + count, last)] = j
                        count += near[t] if j > i or mine == 0 else 0
    nbr_start[i] = row
    nbr_count[i] = count


@annotate(t='int', doublep='x, y, z, xs, ys, zs',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2',
          int='cap, stride, lanes, periodic, ncx, ncy, ncz')
def fill_neighbors_capped_pairwise(t, x, y, z, xs, ys, zs, nbr_start, nbr_count, nbr_idx, cap,
                                   stride, lanes, order, cell_start, cell_end, lx, ly, lz, periodic,
                                   cell_w, cell_h, cell_d, ncx, ncy, ncz, rl2):
    """fill_neighbors_capped's rows and counts, one candidate at a time: the GPU form. The
    chunked CPU form keeps its flags in a private array, which a GPU thread holds in slow local
    memory; here each candidate within rl2 is appended while the row has room. The cells, runs
    and candidates come in the same order, so the rows are the same, entry for entry.

    stride 1 lays the rows out as the chunked form does (row i from i * (cap + 1)); stride n
    (the particle count) interleaves them, entry k of row i at i + k * n, so the threads of a
    warp, reading their k-th neighbours together, read consecutive words.

    Run over lanes * n items: item t is lane t % lanes of particle i = t // lanes, which tests
    the candidates lo + lane, lo + lane + lanes, ... of each cell run, puts its s-th neighbour at
    entry lane + lanes * s of row i (while s < cap // lanes) and its count in nbr_count[t]; lane
    0 writes nbr_start[i]. The lanes of a particle share its row and read neighbouring
    candidates together (coalesced on a GPU); lanes = 1 gives the rows above."""
    xi, yi, zi, hx, hy, hz, dx, dy, dz = declare('double', 9)
    i, lane, cx, cy, cz, ny, nz, j, row, count, key, lo, hi = declare('int', 13)
    a0, a1, b0, b1, capl, slot, step, k = declare('int', 8)
    i = t // lanes
    lane = t - i * lanes
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    # The cells along x: the run a0..a1 and, where a periodic x wraps, the run b0..b1 after it.
    a0 = cell_run(cx, ncx, periodic & 1, 0)
    a1 = cell_run(cx, ncx, periodic & 1, 1)
    b0 = cell_run(cx, ncx, periodic & 1, 2)
    b1 = cell_run(cx, ncx, periodic & 1, 3)
    row = i * (cap + 1) if stride == 1 else i
    # The lane's capacity, next entry and entry step, once (not per candidate).
    capl = cap // lanes
    slot = row + lane * stride
    step = lanes * stride
    count = 0
    for rz in range(3):
        nz = sorted_neighbor_cell(cz, rz, ncz, periodic & 4)
        if nz < 0:
            continue
        for ry in range(3):
            ny = sorted_neighbor_cell(cy, ry, ncy, periodic & 2)
            if ny < 0:
                continue
            key = (nz * ncy + ny) * ncx
            for run in range(2):
                if run == 0:
                    lo = cell_start[key + a0]
                    hi = cell_end[key + a1]
                elif b0 <= b1:
                    lo = cell_start[key + b0]
                    hi = cell_end[key + b1]
                else:
                    hi = lo
                # A counted loop with unit step, which the GPU compilers unroll as they did
                # range(lo, hi) (a loop stepping by the run-time lanes measured 20 % slower
                # with one lane).
                for q in range((hi - lo - lane + lanes - 1) // lanes):
                    k = lo + lane + q * lanes
                    dx = min_image_wrapped(xi - xs[k], lx, hx)
                    dy = min_image_wrapped(yi - ys[k], ly, hy)
                    dz = min_image_wrapped(zi - zs[k], lz, hz)
                    if dx * dx + dy * dy + dz * dz < rl2:
                        j = order[k]
                        if j != i:
                            if count < capl:
                                nbr_idx[slot] = j
                                slot += step
                            count += 1
    if lane == 0:
        nbr_start[i] = row
    nbr_count[t] = count


@annotate(t='int', doublep='x, y, z, xs, ys, zs',
          intp='nbr_start, nbr_count, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2',
          int='cap, stride, lanes, periodic, ncx, ncy, ncz')
def fill_neighbors_capped_pairwise_small_cells(t, x, y, z, xs, ys, zs, nbr_start, nbr_count,
                                               nbr_idx, cap, stride, lanes, order, cell_start,
                                               cell_end, lx, ly, lz, periodic, cell_w, cell_h,
                                               cell_d, ncx, ncy, ncz, rl2):
    """fill_neighbors_capped_pairwise on any grid the host makes (cell_reach 1 or 2 along each
    axis): the rows of fill_neighbors_capped_small_cells, entry for entry, in the GPU form (one
    candidate at a time, stride and lanes as fill_neighbors_capped_pairwise's). A separate
    kernel, so that the cells of r_list keep the loops of three cells a GPU compiler unrolls."""
    xi, yi, zi, hx, hy, hz, dx, dy, dz = declare('double', 9)
    i, lane, cx, cy, cz, ny, nz, j, row, count, key, lo, hi = declare('int', 13)
    a0, a1, b0, b1, capl, slot, step, k, rx, ry, rz = declare('int', 11)
    i = t // lanes
    lane = t - i * lanes
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    cx = cell_coord(xi, cell_w, ncx, periodic & 1)
    cy = cell_coord(yi, cell_h, ncy, periodic & 2)
    cz = cell_coord(zi, cell_d, ncz, periodic & 4)
    rx = cell_reach(cell_w, rl2)
    ry = cell_reach(cell_h, rl2)
    rz = cell_reach(cell_d, rl2)
    # The cells along x: the run a0..a1 and, where a periodic x wraps, the run b0..b1 after it.
    a0 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 0)
    a1 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 1)
    b0 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 2)
    b1 = cell_run_between(cx, -rx, rx, ncx, periodic & 1, 3)
    row = i * (cap + 1) if stride == 1 else i
    # The lane's capacity, next entry and entry step, once (not per candidate).
    capl = cap // lanes
    slot = row + lane * stride
    step = lanes * stride
    count = 0
    for sz in range(2 * rz + 1):
        nz = sorted_cell_in_reach(cz, sz, rz, ncz, periodic & 4)
        if nz < 0:
            continue
        for sy in range(2 * ry + 1):
            ny = sorted_cell_in_reach(cy, sy, ry, ncy, periodic & 2)
            if ny < 0:
                continue
            key = (nz * ncy + ny) * ncx
            for run in range(2):
                if run == 0:
                    lo = cell_start[key + a0]
                    hi = cell_end[key + a1]
                elif b0 <= b1:
                    lo = cell_start[key + b0]
                    hi = cell_end[key + b1]
                else:
                    hi = lo
                # A counted loop with unit step, which the GPU compilers unroll as they did
                # range(lo, hi) (a loop stepping by the run-time lanes measured 20 % slower
                # with one lane).
                for q in range((hi - lo - lane + lanes - 1) // lanes):
                    k = lo + lane + q * lanes
                    dx = min_image_wrapped(xi - xs[k], lx, hx)
                    dy = min_image_wrapped(yi - ys[k], ly, hy)
                    dz = min_image_wrapped(zi - zs[k], lz, hz)
                    if dx * dx + dy * dy + dz * dz < rl2:
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

@annotate(i='int', doublep='x, y, z', nbr_count='intp', n='int', double='lx, ly, lz, rl2',
          periodic='int')
def count_neighbors_all_pairs(i, x, y, z, nbr_count, n, lx, ly, lz, periodic, rl2):
    count = declare('int')
    hx, hy, hz = declare('double', 3)
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    count = 0
    for j in range(n):
        if j != i and within3(x[i], y[i], z[i], x[j], y[j], z[j], lx, ly, lz, hx, hy, hz,
                              rl2) != 0:
            count += 1
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z', intp='nbr_start, nbr_idx', n='int',
          double='lx, ly, lz, rl2', periodic='int')
def fill_neighbors_all_pairs(i, x, y, z, nbr_start, nbr_idx, n, lx, ly, lz, periodic, rl2):
    pos = declare('int')
    hx, hy, hz = declare('double', 3)
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    pos = nbr_start[i]
    for j in range(n):
        if j != i and within3(x[i], y[i], z[i], x[j], y[j], z[j], lx, ly, lz, hx, hy, hz,
                              rl2) != 0:
            nbr_idx[pos] = j
            pos += 1


@annotate(i='int', doublep='x, y, z, x0, y0, z0', double='lx, ly, lz', periodic='int',
          return_='double')
def displacement2_map(i, x, y, z, x0, y0, z0, lx, ly, lz, periodic):
    """Squared displacement since the last neighbour build; reduce with 'max(a, b)', neutral 0.

    Positions are wrapped, so periodic axes use the minimum image (a particle that crossed the
    seam moved a little, not a box length)."""
    dx, dy, dz = declare('double', 3)
    dx = pair_delta(x[i], x0[i], lx, periodic & 1)
    dy = pair_delta(y[i], y0[i], ly, periodic & 2)
    dz = pair_delta(z[i], z0[i], lz, periodic & 4)
    return dx * dx + dy * dy + dz * dz


@annotate(i='int', doublep='x, y, z, x0, y0, z0', double='lx, ly, lz, limit2', periodic='int',
          return_='int')
def past_limit_map(i, x, y, z, x0, y0, z0, lx, ly, lz, periodic, limit2):
    """1 when particle i moved more than the rebuild limit since the last build, else 0; reduce
    with 'max(a, b)': the list's stale flag (NeighborList::start_update), decided as
    displacement2_map's value compared with limit2 in the positions' precision."""
    if displacement2_map(i, x, y, z, x0, y0, z0, lx, ly, lz, periodic) > limit2:
        return 1
    return 0


@annotate(i='int', doublep='x, y, z, x0, y0, z0')
def save_positions(i, x, y, z, x0, y0, z0):
    """Remembers the positions of the last neighbour build (for rebuild: displacement)."""
    x0[i] = x[i]
    y0[i] = y[i]
    z0[i] = z[i]
