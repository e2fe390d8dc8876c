"""3D neighbour search kernels (binned and all pairs) and the displacement rebuild rule.

The kernels of apps/common/neighbor_list.h for three axes, with the argument convention of
neighbors2d.py plus one axis (z, lz, cell_d, ncz). One difference: `periodic` is a per-axis BIT
MASK, bit 0 = x, bit 1 = y, bit 2 = z (7 = fully periodic, 0 = walls on every axis, 3 = walls
only along z). A periodic axis needs at least 3 cells so the 27 visited cells are distinct;
a non-periodic axis may have any number >= 1 (cell indices are clamped, so particles pushed past
a wall are still found). Cell (cx, cy, cz) has key (cz * ncy + cy) * ncx + cx.
"""

from smelt_lang import annotate, declare

from box import pair_delta
from cells import cell_coord, neighbor_cell


@annotate(double='xi, yi, zi, xj, yj, zj, lx, ly, lz, rl2', periodic='int', return_='int')
def within3(xi, yi, zi, xj, yj, zj, lx, ly, lz, periodic, rl2):
    """1 when the two points are closer than sqrt(rl2) (minimum image on periodic axes), else 0."""
    dx, dy, dz = declare('double', 3)
    dx = pair_delta(xi, xj, lx, periodic & 1)
    dy = pair_delta(yi, yj, ly, periodic & 2)
    dz = pair_delta(zi, zj, lz, periodic & 4)
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
    xi, yi, zi = declare('double', 3)
    cx, cy, cz, nx, ny, nz, c, j, count = declare('int', 9)
    xi = x[i]
    yi = y[i]
    zi = z[i]
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
                    if j != i and within3(xi, yi, zi, x[j], y[j], z[j], lx, ly, lz, periodic,
                                          rl2) != 0:
                        count += 1
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z', intp='nbr_start, nbr_idx, order, cell_start, cell_end',
          double='lx, ly, lz, cell_w, cell_h, cell_d, rl2', int='periodic, ncx, ncy, ncz')
def fill_neighbors(i, x, y, z, nbr_start, nbr_idx, order, cell_start, cell_end, lx, ly, lz,
                   periodic, cell_w, cell_h, cell_d, ncx, ncy, ncz, rl2):
    """Writes the neighbours count_neighbors counted, in the same order, from nbr_start[i] on."""
    xi, yi, zi = declare('double', 3)
    cx, cy, cz, nx, ny, nz, c, j, pos = declare('int', 9)
    xi = x[i]
    yi = y[i]
    zi = z[i]
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
                    if j != i and within3(xi, yi, zi, x[j], y[j], z[j], lx, ly, lz, periodic,
                                          rl2) != 0:
                        nbr_idx[pos] = j
                        pos += 1


# All-pairs variants (O(N^2)): the same CSR list without cells; for small N and as a reference.

@annotate(i='int', doublep='x, y, z', nbr_count='intp', n='int', double='lx, ly, lz, rl2',
          periodic='int')
def count_neighbors_all_pairs(i, x, y, z, nbr_count, n, lx, ly, lz, periodic, rl2):
    count = declare('int')
    count = 0
    for j in range(n):
        if j != i and within3(x[i], y[i], z[i], x[j], y[j], z[j], lx, ly, lz, periodic,
                              rl2) != 0:
            count += 1
    nbr_count[i] = count


@annotate(i='int', doublep='x, y, z', intp='nbr_start, nbr_idx', n='int',
          double='lx, ly, lz, rl2', periodic='int')
def fill_neighbors_all_pairs(i, x, y, z, nbr_start, nbr_idx, n, lx, ly, lz, periodic, rl2):
    pos = declare('int')
    pos = nbr_start[i]
    for j in range(n):
        if j != i and within3(x[i], y[i], z[i], x[j], y[j], z[j], lx, ly, lz, periodic,
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


@annotate(i='int', doublep='x, y, z, x0, y0, z0')
def save_positions(i, x, y, z, x0, y0, z0):
    """Remembers the positions of the last neighbour build (for rebuild: displacement)."""
    x0[i] = x[i]
    y0[i] = y[i]
    z0[i] = z[i]
