"""2D neighbour search kernels (binned and all pairs) and the displacement rebuild rule.

The kernels of apps/common/neighbor_list.h for two axes; `periodic` is one flag for both axes
(0 = walls, non-zero = periodic), as md2d passes it. Cells are cell_w x cell_h with both at
least r_list = r_cut + skin; cell (cx, cy) has key cy * ncx + cx. Periodic grids need
ncx, ncy >= 3 so the 9 visited cells are distinct.
"""

from smelt_lang import annotate, declare

from box import pair_delta
from cells import cell_coord, neighbor_cell


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


@annotate(i='int', doublep='x, y, x0, y0')
def save_positions(i, x, y, x0, y0):
    """Remembers the positions of the last neighbour build (for rebuild: displacement)."""
    x0[i] = x[i]
    y0[i] = y[i]
