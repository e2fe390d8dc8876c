"""md2d physics: 2D Lennard-Jones molecular dynamics, written in Smelt's kernel language.

Every function here is a kernel or a device function that the md2d driver compiles through the
engine (cpu / OpenCL / CUDA). The file is also valid Python: run element by element on NumPy
arrays it is the reference the tests compare against (tests/apps/md2d_physics_check.py).
This file holds md2d's own physics (force loops, integrator, reductions). Geometry, the LJ
evaluators, the soft walls and the neighbour search are shared with the other apps and imported
from apps/common/kernels (the engine's kernel imports; in CPython put apps/common and
apps/common/kernels on sys.path).

Conventions (the driver relies on them):
- Reduced LJ units. Structure-of-arrays state: x, y, vx, vy, fx, fy, pe, vir (double arrays of
  length N); precision is switched by the engine, not by editing this file.
- An elementwise kernel is `f(i, ...)`; its length is that of its FIRST array argument, so
  every per-particle kernel takes a length-N array first (cell kernels take a per-cell array).
- Booleans that select a code path (`periodic`, `shift`) are ints: 0 = off, anything else = on.
- Box: [0, lx) x [0, ly). Periodic: minimum image and wrap. Walls: harmonic soft walls at
  x = 0, x = lx, y = 0, y = ly acting within `wall_range` of each wall (as in the Compyle paper).
- Neighbour lists are FULL (j in list(i) <=> i in list(j)) for compute_forces and
  compute_forces_chunked (GPUs, neighbor.newton: false): neighbour k of i is
  nbr_idx[nbr_start[i] + k * nbr_stride], k < nbr_count[i] (apps/common/neighbor_list.h: stride
  1 for rows, n for the interleaved rows of GPUs). Each particle writes only its own force,
  energy and virial: no atomics, so every backend is deterministic. On the cpu backend the lists
  are HALF (each pair once, fill_neighbors_capped_half) and compute_forces_newton adds each pair
  to both particles through per-chunk buffers summed in chunk order (apps/common/kernels/
  newton.py): deterministic too, and independent of the thread count. (The one atomic,
  newton_sum_kick_kick_drift's count of moved particles, is only compared with zero.)
- Pair energies and virials are split half and half between the two particles, so summing
  pe[] (or vir[]) over all particles gives the total.
"""

from smelt import annotate, atomic_add, declare

from box import half_length, min_image_wrapped, wrap_coord
from lj import lj_energy_inv, lj_energy_shift, lj_force_divr_inv
from newton import (chunk_lo, newton_entry, newton_ranges, newton_ranges_packed,  # noqa: F401
                    newton_sum_2d, newton_sum_2d_forces)
from walls import wall_energy, wall_force

# The neighbour-search kernels the driver launches by name (apps/common/neighbor_list.h); they
# live in apps/common/kernels and are part of this program through these imports.
from cells import (cell_bounds, cell_bounds_from_keys, clear_cells,  # noqa: F401
                   find_cell_bounds, nbr_offset_input, nbr_offset_output, pack_rows, permute_int,
                   permute_real, sort_neighbors)
from neighbors2d import (cell_key, count_neighbors, count_neighbors_all_pairs,  # noqa: F401
                         displacement2_map, fill_neighbors, fill_neighbors_all_pairs,
                         fill_neighbors_capped, fill_neighbors_capped_half,
                         fill_neighbors_capped_half_small_cells,
                         fill_neighbors_capped_pairwise,
                         fill_neighbors_capped_pairwise_small_cells,
                         fill_neighbors_capped_small_cells, past_limit_map, save_positions)


# ---------------------------------------------------------------------------------------------
# Forces: one writer per particle (full neighbour list).
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='x, y, fx, fy, pe, vir', intp='nbr_start, nbr_count, nbr_idx',
          double='lx, ly, eps, sigma, rc2', int='nbr_stride, periodic, shift')
def compute_forces(i, x, y, fx, fy, pe, vir, nbr_start, nbr_count, nbr_idx, nbr_stride, lx, ly,
                   periodic, eps, sigma, rc2, shift):
    """LJ force, potential energy and virial of particle i from its neighbour list.

    Sets (not adds) fx[i], fy[i], pe[i] = 1/2 sum_j u(r_ij) - shift, vir[i] = 1/2 sum_j r_ij.f_ij.
    Pairs in the list but beyond the cutoff (the skin) are skipped. Positions must be wrapped
    when periodic (min_image_wrapped). One pair at a time: the GPU form.
    """
    xi, yi, hx, hy, dx, dy, r2, inv, ff, e_shift = declare('double', 10)
    fxi, fyi, ei, wi = declare('double', 4)
    start, j = declare('int', 2)
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    e_shift = lj_energy_shift(rc2, eps, sigma, shift)
    fxi = 0.0
    fyi = 0.0
    ei = 0.0
    wi = 0.0
    start = nbr_start[i]
    for k in range(nbr_count[i]):
        j = nbr_idx[start + k * nbr_stride]
        dx = min_image_wrapped(xi - x[j], lx, hx)
        dy = min_image_wrapped(yi - y[j], ly, hy)
        r2 = dx * dx + dy * dy
        if r2 < rc2 and j != i:
            inv = 1.0 / r2
            ff = lj_force_divr_inv(inv, eps, sigma)
            fxi += ff * dx
            fyi += ff * dy
            ei += lj_energy_inv(inv, eps, sigma) - e_shift
            wi += ff * r2
    fx[i] = fxi
    fy[i] = fyi
    pe[i] = 0.5 * ei
    vir[i] = 0.5 * wi


# Neighbours compute_forces_chunked evaluates per chunk (the length of its private arrays).
FORCE_CHUNK = 32


@annotate(i='int', doublep='x, y, fx, fy, pe, vir', intp='nbr_start, nbr_count, nbr_idx',
          double='lx, ly, eps, sigma, rc2', int='nbr_stride, periodic, shift')
def compute_forces_chunked(i, x, y, fx, fy, pe, vir, nbr_start, nbr_count, nbr_idx, nbr_stride,
                           lx, ly, periodic, eps, sigma, rc2, shift):
    """compute_forces with the same bits, in the form a CPU vectorises (the CPU form).

    The list is taken FORCE_CHUNK neighbours at a time: a first loop copies the neighbours'
    positions to consecutive places; a second evaluates every pair of the chunk into private
    arrays, with no dependence between pairs and no branch (pairs beyond the cutoff, and i
    itself, give 0.0 through a select), so the compiler runs it in SIMD lanes; a third adds the
    terms in list order. Adding 0.0 leaves a sum's bits unchanged, so the sums equal
    compute_forces' exactly.
    """
    xi, yi, hx, hy, dx, dy, r2, inv, ff, u, e_shift = declare('double', 11)
    fxi, fyi, ei, wi = declare('double', 4)
    start, end, j, m = declare('int', 4)
    px = declare('matrix(FORCE_CHUNK)')
    py = declare('matrix(FORCE_CHUNK)')
    pcut = declare('matrix(FORCE_CHUNK)')
    tfx = declare('matrix(FORCE_CHUNK)')
    tfy = declare('matrix(FORCE_CHUNK)')
    tu = declare('matrix(FORCE_CHUNK)')
    tw = declare('matrix(FORCE_CHUNK)')
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    e_shift = lj_energy_shift(rc2, eps, sigma, shift)
    fxi = 0.0
    fyi = 0.0
    ei = 0.0
    wi = 0.0
    start = nbr_start[i]
    end = nbr_count[i]
    for base in range(0, end, FORCE_CHUNK):
        m = min(FORCE_CHUNK, end - base)
        for c in range(m):
            j = nbr_idx[start + (base + c) * nbr_stride]
            px[c] = x[j]
            py[c] = y[j]
            pcut[c] = rc2 if j != i else 0.0
        for c in range(m):
            dx = min_image_wrapped(xi - px[c], lx, hx)
            dy = min_image_wrapped(yi - py[c], ly, hy)
            r2 = dx * dx + dy * dy
            inv = 1.0 / r2
            ff = lj_force_divr_inv(inv, eps, sigma)
            u = lj_energy_inv(inv, eps, sigma) - e_shift
            tfx[c] = ff * dx if r2 < pcut[c] else 0.0
            tfy[c] = ff * dy if r2 < pcut[c] else 0.0
            tu[c] = u if r2 < pcut[c] else 0.0
            tw[c] = ff * r2 if r2 < pcut[c] else 0.0
        for c in range(m):
            fxi += tfx[c]
            fyi += tfy[c]
            ei += tu[c]
            wi += tw[c]
    fx[i] = fxi
    fy[i] = fyi
    pe[i] = 0.5 * ei
    vir[i] = 0.5 * wi


# Pairs compute_forces_newton evaluates per batch (the length of its private arrays).
NEWTON_BATCH = 64


@annotate(ch='int', doublep='x, y, bfx, bfy, bpe, bvir',
          intp='rlo, boff, nbr_start, nbr_count, nbr_idx, nbr_row',
          double='lx, ly, eps, sigma, rc2', int='n, nchunk, energy, periodic, shift')
def compute_forces_newton(ch, x, y, bfx, bfy, bpe, bvir, rlo, boff, n, nchunk, energy, nbr_start,
                          nbr_count, nbr_idx, nbr_row, lx, ly, periodic, eps, sigma, rc2, shift):
    """Chunk ch of the forces from a HALF list (each pair once) with PACKED rows (CSR, and
    nbr_row[e] the row of entry e: NeighborListSpec::packed), by Newton's third law: run over
    the nchunk chunks (newton.py), it adds for every pair (i, j) of the rows of the chunk the
    pair's force to i and its opposite to j, and (energy != 0) half of the pair's energy
    (u - shift) and virial to each, into the chunk's buffers (entry boff[ch] + p - rlo[ch] for
    particle p); newton_sum_2d (energy != 0) or newton_sum_2d_forces adds the chunks' buffers
    into the outputs. With energy 0, bpe and bvir are not touched and the forces have the same
    bits as with energy 1: the steps whose energies nobody reads skip their terms and their two
    scatters (LAMMPS' eflag/vflag; md3d's form).

    The chunk's entries are taken NEWTON_BATCH at a time, across rows: one loop gathers both
    positions of each pair (i from nbr_row) into private arrays, one evaluates the batch in SIMD
    lanes without a branch, and one adds the terms to i and j, pair after pair. A half row
    holds about 8 pairs, so loops per row spent their time in partial vectors, loop exits and
    the division's latency. The order of the additions is fixed by the list: the same bits on
    any thread count.
    """
    hx, hy, dx, dy, r2, inv, ff, u, e_shift = declare('double', 9)
    lo, hi, off, first, e0, e1, m, k, j, i = declare('int', 10)
    px = declare('matrix(NEWTON_BATCH)')
    py = declare('matrix(NEWTON_BATCH)')
    qx = declare('matrix(NEWTON_BATCH)')
    qy = declare('matrix(NEWTON_BATCH)')
    tfx = declare('matrix(NEWTON_BATCH)')
    tfy = declare('matrix(NEWTON_BATCH)')
    tu = declare('matrix(NEWTON_BATCH)')
    tw = declare('matrix(NEWTON_BATCH)')
    # r2 of each pair, kept for the energy terms.
    tr2 = declare('matrix(NEWTON_BATCH)')
    lo = chunk_lo(ch, n, nchunk)
    hi = chunk_lo(ch + 1, n, nchunk)
    if hi <= lo:
        return
    off = boff[ch] - rlo[ch]
    first = rlo[ch]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    e_shift = lj_energy_shift(rc2, eps, sigma, shift)
    # The chunk's rows are the entries e0 .. e1 - 1.
    e0 = nbr_start[lo]
    e1 = nbr_start[hi - 1] + nbr_count[hi - 1]
    for base in range(e0, e1, NEWTON_BATCH):
        m = min(NEWTON_BATCH, e1 - base)
        for c in range(m):
            j = nbr_idx[base + c]
            i = nbr_row[base + c]
            px[c] = x[j]
            py[c] = y[j]
            qx[c] = x[i]
            qy[c] = y[i]
        for c in range(m):
            dx = min_image_wrapped(qx[c] - px[c], lx, hx)
            dy = min_image_wrapped(qy[c] - py[c], ly, hy)
            r2 = dx * dx + dy * dy
            inv = 1.0 / r2
            ff = lj_force_divr_inv(inv, eps, sigma)
            tr2[c] = r2
            tfx[c] = ff * dx if r2 < rc2 else 0.0
            tfy[c] = ff * dy if r2 < rc2 else 0.0
        if energy != 0:
            for c in range(m):
                r2 = tr2[c]
                inv = 1.0 / r2
                ff = lj_force_divr_inv(inv, eps, sigma)
                u = lj_energy_inv(inv, eps, sigma) - e_shift
                tu[c] = 0.5 * u if r2 < rc2 else 0.0
                tw[c] = 0.5 * ff * r2 if r2 < rc2 else 0.0
            for c in range(m):
                k = newton_entry(nbr_row[base + c], off, first, n)
                bfx[k] += tfx[c]
                bfy[k] += tfy[c]
                bpe[k] += tu[c]
                bvir[k] += tw[c]
                k = newton_entry(nbr_idx[base + c], off, first, n)
                bfx[k] -= tfx[c]
                bfy[k] -= tfy[c]
                bpe[k] += tu[c]
                bvir[k] += tw[c]
        else:
            for c in range(m):
                k = newton_entry(nbr_row[base + c], off, first, n)
                bfx[k] += tfx[c]
                bfy[k] += tfy[c]
                k = newton_entry(nbr_idx[base + c], off, first, n)
                bfx[k] -= tfx[c]
                bfy[k] -= tfy[c]


@annotate(i='int', doublep='x, y, fx, fy, pe, vir', n='int',
          double='lx, ly, eps, sigma, rc2', int='periodic, shift')
def compute_forces_all_pairs(i, x, y, fx, fy, pe, vir, n, lx, ly, periodic, eps, sigma, rc2,
                             shift):
    """compute_forces over every other particle (O(N^2)); same outputs, no neighbour list."""
    xi, yi, hx, hy, dx, dy, r2, inv, ff, e_shift = declare('double', 10)
    fxi, fyi, ei, wi = declare('double', 4)
    xi = x[i]
    yi = y[i]
    hx = half_length(lx, periodic)
    hy = half_length(ly, periodic)
    e_shift = lj_energy_shift(rc2, eps, sigma, shift)
    fxi = 0.0
    fyi = 0.0
    ei = 0.0
    wi = 0.0
    for j in range(n):
        dx = min_image_wrapped(xi - x[j], lx, hx)
        dy = min_image_wrapped(yi - y[j], ly, hy)
        r2 = dx * dx + dy * dy
        if r2 < rc2 and j != i:
            inv = 1.0 / r2
            ff = lj_force_divr_inv(inv, eps, sigma)
            fxi += ff * dx
            fyi += ff * dy
            ei += lj_energy_inv(inv, eps, sigma) - e_shift
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


@annotate(c='int', doublep='fx, fy, pe, vir, bfx, bfy, bpe, bvir, vx, vy',
          intp='rlo, rhi, boff', int='n, nchunk', double='m, dt')
def newton_sum_2d_kick(c, fx, fy, pe, vir, bfx, bfy, bpe, bvir, rlo, rhi, boff, n, nchunk, vx, vy,
                       m, dt):
    """newton_sum_2d for chunk c, then kick on its particles: one launch where two ran (each
    OpenMP region costs a wake-up of the other threads). The same statements in the same order:
    the same bits as the two launches."""
    newton_sum_2d(c, fx, fy, pe, vir, bfx, bfy, bpe, bvir, rlo, rhi, boff, n, nchunk)
    for p in range(chunk_lo(c, n, nchunk), chunk_lo(c + 1, n, nchunk)):
        kick(p, vx, vy, fx, fy, m, dt)


@annotate(c='int', doublep='fx, fy, bfx, bfy, vx, vy', intp='rlo, rhi, boff', int='n, nchunk',
          double='m, dt')
def newton_sum_2d_forces_kick(c, fx, fy, bfx, bfy, rlo, rhi, boff, n, nchunk, vx, vy, m, dt):
    """newton_sum_2d_forces for chunk c, then kick on its particles: newton_sum_2d_kick after a
    force pass without energies (compute_forces_newton with energy 0), whose pe and vir stay as
    they were. The same force bits as newton_sum_2d_kick."""
    newton_sum_2d_forces(c, fx, fy, bfx, bfy, rlo, rhi, boff, n, nchunk)
    for p in range(chunk_lo(c, n, nchunk), chunk_lo(c + 1, n, nchunk)):
        kick(p, vx, vy, fx, fy, m, dt)


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


# The most chunks a run has (NewtonBuffers::chunks_for): the length of the joined kernel's list
# of the chunks whose ranges meet its own.
MAX_CHUNKS = 64
# Particles whose force sums the joined kernel keeps in private arrays at a time.
SUM_BLOCK = 256


@annotate(c='int', doublep='x, y, vx, vy, bfx, bfy, x0, y0', intp='rlo, rhi, boff, stale',
          int='n, nchunk, periodic, test', double='m, dt, lx, ly, limit2')
def newton_sum_kick_kick_drift(c, x, y, vx, vy, bfx, bfy, rlo, rhi, boff, n, nchunk, m, dt, lx, ly,
                               periodic, test, x0, y0, limit2, stale):
    """A step's end joined with the next one's start, over the chunks of a half list, where
    nothing observes the state in between (Simulation::advance): for each particle of chunk c
    the sum of its buffers' entries (newton_sum_2d_forces' sums: in chunk order, the entries
    cleared; the step's force pass ran without energies), the closing half-kick with it, then
    kick_drift (the next step's opening kick and drift). Each particle's operations are those of
    newton_sum_2d_forces_kick then kick_drift, in the same order: the same bits, in one OpenMP
    region instead of two. The forces are summed SUM_BLOCK particles at a time in private arrays
    and not stored (fx and fy keep older values: the next force pass's sums replace them before
    anything reads them), so the launch moves 4 arrays' worth of memory less than through fx
    and fy (2 written, 2 read for ownership; it is bound by memory bandwidth at 10^6 particles).

    With test != 0 also the list's displacement test on the drifted positions: the chunk adds
    the number of its particles past limit2 since the build (x0, y0) to stale[0], which the list
    zeroed at that build, so stale[0] != 0 exactly where past_limit_map's max is 1
    (NeighborList::start_flag_read): the Reduction's region less too. The test is a loop of its
    own that only reads, so it runs in SIMD lanes."""
    lo, hi, moved, nd, d, off, a, b, b1 = declare('int', 9)
    # The chunks whose buffers hold entries of chunk c's particles, in chunk order.
    near = declare("matrix(MAX_CHUNKS, 'int')")
    # A block's force sums.
    ax = declare('matrix(SUM_BLOCK)')
    ay = declare('matrix(SUM_BLOCK)')
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    nd = 0
    for q in range(nchunk):
        if (rlo[q] < hi and lo < rhi[q]) or lo < rhi[q] - n:
            near[nd] = q
            nd += 1
    for b0 in range(lo, hi, SUM_BLOCK):
        b1 = min(b0 + SUM_BLOCK, hi)
        for t in range(b1 - b0):
            ax[t] = 0.0
            ay[t] = 0.0
        # newton_sum_2d_forces' sums for the block's particles, in the same order.
        for q in range(nd):
            d = near[q]
            off = boff[d] - rlo[d]
            a = max(b0, rlo[d])
            b = min(b1, rhi[d])
            for p in range(a, b):
                ax[p - b0] += bfx[off + p]
                ay[p - b0] += bfy[off + p]
                bfx[off + p] = 0.0
                bfy[off + p] = 0.0
            # The part of the range past n: the particles from 0 on.
            b = min(b1, rhi[d] - n)
            for p in range(b0, b):
                ax[p - b0] += bfx[off + n + p]
                ay[p - b0] += bfy[off + n + p]
                bfx[off + n + p] = 0.0
                bfy[off + n + p] = 0.0
        # kick (closing), then kick_drift's kick, drift and wrap.
        for p in range(b0, b1):
            vx[p] += 0.5 * dt * ax[p - b0] / m
            vy[p] += 0.5 * dt * ay[p - b0] / m
            vx[p] += 0.5 * dt * ax[p - b0] / m
            vy[p] += 0.5 * dt * ay[p - b0] / m
            drift(p, x, y, vx, vy, dt)
            if periodic != 0:
                wrap_positions(p, x, y, lx, ly)
    if test == 0:
        return
    moved = 0
    for p in range(lo, hi):
        moved += past_limit_map(p, x, y, x0, y0, lx, ly, periodic, limit2)
    if moved != 0:
        atomic_add(stale[0], moved)


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
