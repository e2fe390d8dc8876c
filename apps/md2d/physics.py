"""md2d physics: 2D Lennard-Jones molecular dynamics, written in Smelt's kernel language.

Every function here is a kernel or a device function that the md2d driver compiles through the
engine (cpu / OpenCL / CUDA). The file is also valid Python: run element by element on NumPy
arrays it is the reference the tests compare against (tests/apps/md2d_physics_check.py).

Conventions (the driver relies on them):
- Reduced LJ units. Structure-of-arrays state: x, y, vx, vy, fx, fy, pe, vir (double arrays of
  length N); precision is switched by the engine, not by editing this file.
- An elementwise kernel is `f(i, ...)`; its length is that of its FIRST array argument, so
  every per-particle kernel takes a length-N array first (cell kernels take a per-cell array).
- Booleans that select a code path (`periodic`, `shift`) are ints: 0 = off, anything else = on.
- Box: [0, lx) x [0, ly). Periodic: minimum image and wrap. Walls: harmonic soft walls at
  x = 0, x = lx, y = 0, y = ly acting within `wall_range` of each wall (as in the Compyle paper).
- Neighbour lists are FULL (j in list(i) <=> i in list(j)) in CSR form: the neighbours of i are
  nbr_idx[nbr_start[i] : nbr_start[i] + nbr_count[i]]. Each particle writes only its own force,
  energy and virial: no atomics, so every backend is deterministic.
- Pair energies and virials are split half and half between the two particles, so summing
  pe[] (or vir[]) over all particles gives the total.
"""

from math import floor

from smelt_lang import annotate, declare


# ---------------------------------------------------------------------------------------------
# Pair evaluators (small, kept apart from the loops so a new potential only touches these).
# ---------------------------------------------------------------------------------------------

@annotate(double='r2, eps, sigma', return_='double')
def lj_energy(r2, eps, sigma):
    """u(r) = 4 eps ((sigma/r)^12 - (sigma/r)^6), from r^2."""
    s2 = declare('double')
    s6 = declare('double')
    s2 = sigma * sigma / r2
    s6 = s2 * s2 * s2
    return 4.0 * eps * (s6 * s6 - s6)


@annotate(double='r2, eps, sigma', return_='double')
def lj_force_divr(r2, eps, sigma):
    """-(du/dr) / r, so the force on i from j is lj_force_divr(r2) * (r_i - r_j)."""
    s2 = declare('double')
    s6 = declare('double')
    s2 = sigma * sigma / r2
    s6 = s2 * s2 * s2
    return 24.0 * eps * (2.0 * s6 * s6 - s6) / r2


@annotate(double='rc2, eps, sigma', shift='int', return_='double')
def lj_energy_shift(rc2, eps, sigma, shift):
    """The constant subtracted from every pair energy: u(r_cut) when shifting, else 0."""
    if shift != 0:
        return lj_energy(rc2, eps, sigma)
    return 0.0


@annotate(double='d, stiffness, wall_range', return_='double')
def wall_force(d, stiffness, wall_range):
    """Harmonic soft wall: force along the inward normal at distance d from the wall."""
    if d < wall_range:
        return stiffness * (wall_range - d)
    return 0.0


@annotate(double='d, stiffness, wall_range', return_='double')
def wall_energy(d, stiffness, wall_range):
    """0.5 k (range - d)^2 inside the wall's range, 0 outside (so -d(energy)/dd = wall_force)."""
    if d < wall_range:
        return 0.5 * stiffness * (wall_range - d) * (wall_range - d)
    return 0.0


# ---------------------------------------------------------------------------------------------
# Box geometry.
# ---------------------------------------------------------------------------------------------

@annotate(double='d, length', return_='double')
def min_image(d, length):
    """The periodic image of a separation d closest to zero: result in [-length/2, length/2)."""
    return d - length * floor(d / length + 0.5)


@annotate(double='a, b, length', periodic='int', return_='double')
def pair_delta(a, b, length, periodic):
    """a - b along one axis, minimum-imaged when the axis is periodic."""
    if periodic != 0:
        return min_image(a - b, length)
    return a - b


@annotate(double='a, length', return_='double')
def wrap_coord(a, length):
    """a mapped into [0, length). The guards catch rounding: a = -1e-17 would give exactly length."""
    w = declare('double')
    w = a - length * floor(a / length)
    if w < 0.0:
        w = w + length
    if w >= length:
        w = w - length
    return w


# ---------------------------------------------------------------------------------------------
# Forces: one writer per particle (full neighbour list).
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='x, y, fx, fy, pe, vir', intp='nbr_start, nbr_count, nbr_idx',
          double='lx, ly, eps, sigma, rc2', int='periodic, shift')
def compute_forces(i, x, y, fx, fy, pe, vir, nbr_start, nbr_count, nbr_idx, lx, ly, periodic,
                   eps, sigma, rc2, shift):
    """LJ force, potential energy and virial of particle i from its neighbour list.

    Sets (not adds) fx[i], fy[i], pe[i] = 1/2 sum_j u(r_ij) - shift, vir[i] = 1/2 sum_j r_ij.f_ij.
    Pairs in the list but beyond the cutoff (the skin) are skipped.
    """
    xi, yi, dx, dy, r2, ff, e_shift = declare('double', 7)
    fxi, fyi, ei, wi = declare('double', 4)
    start, j = declare('int', 2)
    xi = x[i]
    yi = y[i]
    e_shift = lj_energy_shift(rc2, eps, sigma, shift)
    fxi = 0.0
    fyi = 0.0
    ei = 0.0
    wi = 0.0
    start = nbr_start[i]
    for k in range(start, start + nbr_count[i]):
        j = nbr_idx[k]
        if j == i:
            continue
        dx = pair_delta(xi, x[j], lx, periodic)
        dy = pair_delta(yi, y[j], ly, periodic)
        r2 = dx * dx + dy * dy
        if r2 < rc2:
            ff = lj_force_divr(r2, eps, sigma)
            fxi += ff * dx
            fyi += ff * dy
            ei += lj_energy(r2, eps, sigma) - e_shift
            wi += ff * r2
    fx[i] = fxi
    fy[i] = fyi
    pe[i] = 0.5 * ei
    vir[i] = 0.5 * wi


@annotate(i='int', doublep='x, y, fx, fy, pe, vir', n='int',
          double='lx, ly, eps, sigma, rc2', int='periodic, shift')
def compute_forces_all_pairs(i, x, y, fx, fy, pe, vir, n, lx, ly, periodic, eps, sigma, rc2,
                             shift):
    """compute_forces over every other particle (O(N^2)); same outputs, no neighbour list."""
    xi, yi, dx, dy, r2, ff, e_shift = declare('double', 7)
    fxi, fyi, ei, wi = declare('double', 4)
    xi = x[i]
    yi = y[i]
    e_shift = lj_energy_shift(rc2, eps, sigma, shift)
    fxi = 0.0
    fyi = 0.0
    ei = 0.0
    wi = 0.0
    for j in range(n):
        if j == i:
            continue
        dx = pair_delta(xi, x[j], lx, periodic)
        dy = pair_delta(yi, y[j], ly, periodic)
        r2 = dx * dx + dy * dy
        if r2 < rc2:
            ff = lj_force_divr(r2, eps, sigma)
            fxi += ff * dx
            fyi += ff * dy
            ei += lj_energy(r2, eps, sigma) - e_shift
            wi += ff * r2
    fx[i] = fxi
    fy[i] = fyi
    pe[i] = 0.5 * ei
    vir[i] = 0.5 * wi


@annotate(i='int', doublep='x, y, fx, fy, pe', double='lx, ly, stiffness, wall_range')
def apply_walls(i, x, y, fx, fy, pe, lx, ly, stiffness, wall_range):
    """Adds the four soft walls' forces and energies to particle i (run after the pair forces)."""
    xi, yi = declare('double', 2)
    xi = x[i]
    yi = y[i]
    fx[i] += wall_force(xi, stiffness, wall_range) - wall_force(lx - xi, stiffness, wall_range)
    fy[i] += wall_force(yi, stiffness, wall_range) - wall_force(ly - yi, stiffness, wall_range)
    pe[i] += (wall_energy(xi, stiffness, wall_range) + wall_energy(lx - xi, stiffness, wall_range)
              + wall_energy(yi, stiffness, wall_range) + wall_energy(ly - yi, stiffness, wall_range))


# ---------------------------------------------------------------------------------------------
# Velocity Verlet: kick (half step of v), drift (full step of x), kick.
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='vx, vy, fx, fy', double='m, dt')
def kick(i, vx, vy, fx, fy, m, dt):
    """v += (dt/2) f/m."""
    vx[i] += 0.5 * dt * fx[i] / m
    vy[i] += 0.5 * dt * fy[i] / m


@annotate(i='int', doublep='x, y, vx, vy', dt='double')
def drift(i, x, y, vx, vy, dt):
    """x += dt v."""
    x[i] += dt * vx[i]
    y[i] += dt * vy[i]


@annotate(i='int', doublep='x, y', double='lx, ly')
def wrap_positions(i, x, y, lx, ly):
    """Maps particle i back into the periodic box [0, lx) x [0, ly)."""
    x[i] = wrap_coord(x[i], lx)
    y[i] = wrap_coord(y[i], ly)


@annotate(i='int', doublep='x, y, vx, vy, fx, fy', double='m, dt, lx, ly', periodic='int')
def kick_drift(i, x, y, vx, vy, fx, fy, m, dt, lx, ly, periodic):
    """First half of a velocity-Verlet step in one launch: kick, drift, wrap when periodic."""
    kick(i, vx, vy, fx, fy, m, dt)
    drift(i, x, y, vx, vy, dt)
    if periodic != 0:
        wrap_positions(i, x, y, lx, ly)


# ---------------------------------------------------------------------------------------------
# Map functions for reductions ('a+b' unless noted).
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='vx, vy', m='double', return_='double')
def kinetic_energy_map(i, vx, vy, m):
    return 0.5 * m * (vx[i] * vx[i] + vy[i] * vy[i])


@annotate(i='int', pe='doublep', return_='double')
def potential_energy_map(i, pe):
    return pe[i]


@annotate(i='int', vir='doublep', return_='double')
def virial_map(i, vir):
    """Sum over i gives W = sum over pairs of r_ij . f_ij; P = (2 KE + W) / (2 area) in 2D."""
    return vir[i]


@annotate(i='int', vx='doublep', m='double', return_='double')
def momentum_x_map(i, vx, m):
    return m * vx[i]


@annotate(i='int', vy='doublep', m='double', return_='double')
def momentum_y_map(i, vy, m):
    return m * vy[i]


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


# ---------------------------------------------------------------------------------------------
# Neighbour search, binned: cell key (elementwise) -> stable sort by key -> cell bounds
# (elementwise) -> count (elementwise) -> exclusive scan -> fill (elementwise) -> sort each list.
# Cells are cell_w x cell_h with cell_w, cell_h >= r_list = r_cut + skin; cell (cx, cy) has key
# cy * ncx + cx. Periodic grids need ncx, ncy >= 3 so the 9 visited cells are distinct.
# ---------------------------------------------------------------------------------------------

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


@annotate(i='int', intp='nbr_start, nbr_count, nbr_idx')
def sort_neighbors(i, nbr_start, nbr_count, nbr_idx):
    """Puts the list of i in increasing index order (insertion sort; the list is 9 sorted runs).

    fill_neighbors writes cell by cell, so without this the force sum of compute_forces would
    run in an order that depends on the cell grid. Sorted, every list (binned or all pairs,
    built now or some steps ago with a skin) sums the pairs within r_cut in the order of
    compute_forces_all_pairs: the forces agree bit for bit.
    """
    start, end, k, m, j = declare('int', 5)
    start = nbr_start[i]
    end = start + nbr_count[i]
    for k in range(start + 1, end):
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
