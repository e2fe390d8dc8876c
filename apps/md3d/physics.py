"""md3d physics: 3D Lennard-Jones mixtures, written in Smelt's kernel language.

Every function here is a kernel or a device function that the md3d driver compiles through the
engine (cpu / OpenCL / CUDA). The file is also valid Python: run element by element on NumPy
arrays it is the reference the tests compare against (tests/apps/md3d_physics_check.py).
Geometry, neighbour search, LJ evaluators, walls and random numbers are shared with the other
apps and imported from apps/common/kernels (the engine's kernel imports; in CPython put
apps/common and apps/common/kernels on sys.path).

Conventions (the driver relies on them; apps/md3d/README.md has the equations):
- Reduced LJ units. Structure-of-arrays state: x, y, z, vx, vy, vz, fx, fy, fz, pe, vir, dke
  (double arrays of length N), typ (int32 type index 0..ntypes-1), ix, iy, iz (int32 image
  counts). Precision is switched by the engine, not by editing this file.
- An elementwise kernel is `f(i, ...)`; its length is that of its FIRST array argument: every
  per-particle kernel takes a length-N array first (pair_shift_table takes a pair table).
- `periodic` is a per-axis bit mask: bit 0 = x, bit 1 = y, bit 2 = z (7 = periodic box). An
  axis without its bit has harmonic soft walls at 0 and L (apply_walls).
- Per-type tables: mass[t] (length ntypes); pair tables eps_t, sig_t, rc2_t, eshift_t of
  length ntypes * ntypes indexed ti * ntypes + tj, symmetric (the host fills both halves).
- Integer switches (`shift`) are ints: 0 = off, anything else = on.
- Neighbour lists are FULL for compute_forces and compute_forces_chunked (GPUs, several MPI
  ranks); neighbour k of i is nbr_idx[nbr_start[i] + k * nbr_stride] (apps/common/neighbor_list.h:
  stride 1 for rows, n for the interleaved rows of GPUs). Each particle writes only its own force,
  energy and virial: no atomics in a force loop, every backend is deterministic. On the cpu
  backend the lists are HALF (each pair once, fill_neighbors_capped_half) and
  compute_forces_newton adds each pair to both particles through per-chunk buffers summed in
  chunk order (apps/common/kernels/newton.py): deterministic too, and independent of the thread
  count. (The only atomics, the counts of moved particles of sum_lanes_kick_kick_drift and
  newton_sum_kick_kick_drift, are only compared with zero.)
- Pair energies and virials are split half and half between the two particles, so summing pe[]
  (or vir[]) over all particles gives the total.
- Random numbers are counter based (rng.py): the Langevin kick of particle i at step s uses
  rng_normal(seed, s, i, axis) with axis 0, 1, 2, so a run does not depend on the thread layout
  and a restart continues the same noise.
"""

from math import exp, expm1, sqrt

from smelt import annotate, atomic_add, atomic_inc, declare

from box import axis_periodic, half_length, min_image_wrapped, wrap_axis
from lj import lj_energy_inv, lj_energy_shift, lj_force_divr_inv
from newton import (chunk_lo, newton_entry, newton_ranges, newton_sum,  # noqa: F401
                    newton_sum_forces)
from rng import rng_normal
from walls import wall_energy, wall_force

# precision: mixed's force loops (apps/md3d/physics_mixed.py), launched by name like the rest.
from physics_mixed import (FORCE_CHUNK, compute_forces_chunked_mixed,  # noqa: F401
                           compute_forces_mixed)

# The neighbour-search kernels the driver launches by name (apps/common/neighbor_list.h); they
# live in apps/common/kernels and are part of this program through these imports.
from cells import (cell_bounds, cell_bounds_from_keys, clear_cells,  # noqa: F401
                   find_cell_bounds, nbr_offset_input, nbr_offset_output, permute_int,
                   permute_real, sort_neighbors)
from neighbors3d import (cell_key, count_neighbors, count_neighbors_all_pairs,  # noqa: F401
                         displacement2_map, fill_neighbors, fill_neighbors_all_pairs,
                         fill_neighbors_capped, fill_neighbors_capped_half,
                         fill_neighbors_capped_half_small_cells,
                         fill_neighbors_capped_pairwise,
                         fill_neighbors_capped_pairwise_small_cells,
                         fill_neighbors_capped_small_cells, past_limit_map, save_positions)


# ---------------------------------------------------------------------------------------------
# Pair tables.
# ---------------------------------------------------------------------------------------------

@annotate(k='int', doublep='eps_t, sig_t, rc2_t, eshift_t', shift='int')
def pair_shift_table(k, eps_t, sig_t, rc2_t, eshift_t, shift):
    """eshift_t[k] = u_k(r_cut,k) when shifting, else 0; run once over the ntypes^2 pair entries."""
    eshift_t[k] = lj_energy_shift(rc2_t[k], eps_t[k], sig_t[k], shift)


# ---------------------------------------------------------------------------------------------
# Forces: one writer per particle (full neighbour list).
# ---------------------------------------------------------------------------------------------

@annotate(t='int', doublep='x, y, z, fx, fy, fz, pe, vir, eps_t, sig_t, rc2_t, eshift_t',
          intp='nbr_start, nbr_count, nbr_idx, typ, stale', double='lx, ly, lz',
          int='nbr_stride, periodic, ntypes, lanes, energy')
def compute_forces(t, x, y, z, fx, fy, fz, pe, vir, nbr_start, nbr_count, nbr_idx, nbr_stride,
                   lx, ly, lz, periodic, typ, ntypes, eps_t, sig_t, rc2_t, eshift_t, lanes,
                   energy, stale):
    """LJ force, potential energy and virial of particle i = t // lanes from lane t % lanes.

    Run over lanes * n items, on a list whose rows are split over the same lanes
    (NeighborListSpec::lanes, fill_neighbors_capped_pairwise): lane l of particle i takes the
    nbr_count[t] entries l, l + lanes, l + 2 lanes, ... of i's row and sets (not adds) fx[t],
    fy[t], fz[t], pe[t] = 1/2 sum_j (u_ij(r_ij) - eshift_ij), vir[t] = 1/2 sum_j r_ij . f_ij over
    them, with the parameters of the pair's types. With lanes = 1 (t = i) these are particle i's
    totals from any list; with more, the arrays hold lanes * n entries and sum_lanes adds each
    particle's lanes in lane order. Several lanes put several GPU threads on one particle when N
    alone would leave most of the card idle. With energy = 0 only the forces are computed and
    written (pe and vir untouched; the forces have the same bits): a step nothing samples.
    Pairs in the list but beyond their cutoff (the skin) are skipped. Positions must be wrapped
    on periodic axes (min_image_wrapped). One pair at a time: the GPU form.

    When stale[0] != 0 nothing is computed or written: the launch was queued behind the list's
    displacement test (NeighborList::start_update, stale its flag) before the host knew the
    result, and a stale list means a rebuild and this launch again. Pass a zero to always
    compute.
    """
    xi, yi, zi, hx, hy, hz, dx, dy, dz, r2, inv, ff = declare('double', 12)
    fxi, fyi, fzi, ei, wi = declare('double', 5)
    i, lane, start, j, row, k, p, step = declare('int', 8)
    if stale[0] != 0:
        return
    i = t // lanes
    lane = t - i * lanes
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    row = typ[i] * ntypes
    fxi = 0.0
    fyi = 0.0
    fzi = 0.0
    ei = 0.0
    wi = 0.0
    start = nbr_start[i]
    # Entry lane + lanes s of the row, stepped to rather than computed per neighbour.
    p = start + lane * nbr_stride
    step = lanes * nbr_stride
    for s in range(nbr_count[t]):
        j = nbr_idx[p]
        p += step
        dx = min_image_wrapped(xi - x[j], lx, hx)
        dy = min_image_wrapped(yi - y[j], ly, hy)
        dz = min_image_wrapped(zi - z[j], lz, hz)
        r2 = dx * dx + dy * dy + dz * dz
        k = row + typ[j]
        if r2 < rc2_t[k] and j != i:
            inv = 1.0 / r2
            ff = lj_force_divr_inv(inv, eps_t[k], sig_t[k])
            fxi += ff * dx
            fyi += ff * dy
            fzi += ff * dz
            if energy != 0:
                ei += lj_energy_inv(inv, eps_t[k], sig_t[k]) - eshift_t[k]
                wi += ff * r2
    fx[t] = fxi
    fy[t] = fyi
    fz[t] = fzi
    if energy != 0:
        pe[t] = 0.5 * ei
        vir[t] = 0.5 * wi


@annotate(i='int', doublep='fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir', int='lanes, energy')
def sum_lanes(i, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir, lanes, energy):
    """fx[i] = 0.0 + lfx[i * lanes] + lfx[i * lanes + 1] + ... + lfx[i * lanes + lanes - 1] (fy,
    fz, pe, vir alike): the lanes of compute_forces added in lane order, so the result does not
    depend on timing. pe and vir only when energy != 0 (as compute_forces wrote them)."""
    a, b, c, d, e = declare('double', 5)
    k = declare('int')
    a = 0.0
    b = 0.0
    c = 0.0
    d = 0.0
    e = 0.0
    for lane in range(lanes):
        k = i * lanes + lane
        a += lfx[k]
        b += lfy[k]
        c += lfz[k]
        if energy != 0:
            d += lpe[k]
            e += lvir[k]
    fx[i] = a
    fy[i] = b
    fz[i] = c
    if energy != 0:
        pe[i] = d
        vir[i] = e


@annotate(i='int', doublep='vx, vy, vz, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir, mass',
          intp='typ', int='lanes, energy', dt='double')
def sum_lanes_kick(i, vx, vy, vz, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir, lanes, energy,
                   typ, mass, dt):
    """sum_lanes, then kick, in one launch (a step's closing half-kick where nothing acts on
    the forces in between: no walls); the same operations in the same order, so the same bits."""
    sum_lanes(i, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir, lanes, energy)
    kick(i, vx, vy, vz, fx, fy, fz, typ, mass, dt)


@annotate(t='int', doublep='x, y, z, fx, fy, fz, pe, vir, eps_t, sig_t, rc2_t, eshift_t',
          intp='sel, nbr_start, nbr_count, nbr_idx, typ, stale', double='lx, ly, lz',
          int='nbr_stride, periodic, ntypes, lanes, energy')
def compute_forces_subset(t, sel, x, y, z, fx, fy, fz, pe, vir, nbr_start, nbr_count, nbr_idx,
                          nbr_stride, lx, ly, lz, periodic, typ, ntypes, eps_t, sig_t, rc2_t,
                          eshift_t, lanes, energy, stale):
    """compute_forces for the particles sel[0], sel[1], ... only: run over lanes * len(sel)
    items, item t is compute_forces' item sel[t // lanes] * lanes + t % lanes, so each of them
    gets the same bits as in a launch over all particles, and the others are left as they are.
    With MPI, md3d launches the particles whose list holds no ghost while the halo is in flight,
    then the others (apps/common/domain/interior_split.h)."""
    k = declare('int')
    k = t // lanes
    compute_forces(sel[k] * lanes + t - k * lanes, x, y, z, fx, fy, fz, pe, vir, nbr_start,
                   nbr_count, nbr_idx, nbr_stride, lx, ly, lz, periodic, typ, ntypes, eps_t,
                   sig_t, rc2_t, eshift_t, lanes, energy, stale)


# FORCE_CHUNK, the neighbours compute_forces_chunked evaluates per chunk, is defined with the
# mixed form that shares it (physics_mixed.py).
# The same for compute_forces_newton, whose half-list rows (about 40 neighbours in a dense LJ
# liquid at r_list 2.8) then take one chunk.
NEWTON_CHUNK = 64


@annotate(i='int', doublep='x, y, z, fx, fy, fz, pe, vir, eps_t, sig_t, rc2_t, eshift_t',
          intp='nbr_start, nbr_count, nbr_idx, typ', double='lx, ly, lz',
          int='nbr_stride, periodic, ntypes')
def compute_forces_chunked(i, x, y, z, fx, fy, fz, pe, vir, nbr_start, nbr_count, nbr_idx,
                           nbr_stride, lx, ly, lz, periodic, typ, ntypes, eps_t, sig_t, rc2_t,
                           eshift_t):
    """compute_forces with the same bits, in the form a CPU vectorises (the CPU form).

    The list is taken FORCE_CHUNK neighbours at a time: a first loop copies the neighbours'
    positions (and, with several types, their pair parameters) to consecutive places; a second
    evaluates every pair of the chunk into private arrays, with no dependence between pairs and
    no branch (pairs beyond their cutoff give 0.0 through a select), so the compiler runs it in
    SIMD lanes; a third loop adds the terms in list order. Adding 0.0 leaves a sum's bits
    unchanged, so the sums equal compute_forces' exactly.
    """
    xi, yi, zi, hx, hy, hz, dx, dy, dz, r2, inv, ff, u = declare('double', 13)
    eps0, sig0, shift0, e, sg = declare('double', 5)
    fxi, fyi, fzi, ei, wi = declare('double', 5)
    start, end, j, row, k, m = declare('int', 6)
    # The chunk's neighbours and their pair parameters, copied to consecutive places (plain
    # vector loads in the loop after, no gathers); cut is 0.0 for i itself (never in a list):
    # no pair.
    px = declare('matrix(FORCE_CHUNK)')
    py = declare('matrix(FORCE_CHUNK)')
    pz = declare('matrix(FORCE_CHUNK)')
    peps = declare('matrix(FORCE_CHUNK)')
    psig = declare('matrix(FORCE_CHUNK)')
    pshift = declare('matrix(FORCE_CHUNK)')
    pcut = declare('matrix(FORCE_CHUNK)')
    # The pair terms, 0.0 beyond the cutoff.
    tfx = declare('matrix(FORCE_CHUNK)')
    tfy = declare('matrix(FORCE_CHUNK)')
    tfz = declare('matrix(FORCE_CHUNK)')
    tu = declare('matrix(FORCE_CHUNK)')
    tw = declare('matrix(FORCE_CHUNK)')
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    row = typ[i] * ntypes
    fxi = 0.0
    fyi = 0.0
    fzi = 0.0
    ei = 0.0
    wi = 0.0
    start = nbr_start[i]
    end = nbr_count[i]
    # One type: every pair has table entry 0, and the tables are not copied per pair.
    eps0 = eps_t[0]
    sig0 = sig_t[0]
    shift0 = eshift_t[0]
    for base in range(0, end, FORCE_CHUNK):
        m = min(FORCE_CHUNK, end - base)
        for c in range(m):
            j = nbr_idx[start + (base + c) * nbr_stride]
            px[c] = x[j]
            py[c] = y[j]
            pz[c] = z[j]
            if ntypes == 1:
                pcut[c] = rc2_t[0] if j != i else 0.0
            else:
                k = row + typ[j]
                peps[c] = eps_t[k]
                psig[c] = sig_t[k]
                pshift[c] = eshift_t[k]
                pcut[c] = rc2_t[k] if j != i else 0.0
        for c in range(m):
            dx = min_image_wrapped(xi - px[c], lx, hx)
            dy = min_image_wrapped(yi - py[c], ly, hy)
            dz = min_image_wrapped(zi - pz[c], lz, hz)
            r2 = dx * dx + dy * dy + dz * dz
            inv = 1.0 / r2
            e = eps0 if ntypes == 1 else peps[c]
            sg = sig0 if ntypes == 1 else psig[c]
            ff = lj_force_divr_inv(inv, e, sg)
            u = lj_energy_inv(inv, e, sg) - (shift0 if ntypes == 1 else pshift[c])
            dx = ff * dx
            dy = ff * dy
            dz = ff * dz
            tfx[c] = dx if r2 < pcut[c] else 0.0
            tfy[c] = dy if r2 < pcut[c] else 0.0
            tfz[c] = dz if r2 < pcut[c] else 0.0
            tu[c] = u if r2 < pcut[c] else 0.0
            tw[c] = ff * r2 if r2 < pcut[c] else 0.0
        for c in range(m):
            fxi += tfx[c]
            fyi += tfy[c]
            fzi += tfz[c]
            ei += tu[c]
            wi += tw[c]
    fx[i] = fxi
    fy[i] = fyi
    fz[i] = fzi
    pe[i] = 0.5 * ei
    vir[i] = 0.5 * wi


@annotate(ch='int', doublep='x, y, z, bfx, bfy, bfz, bpe, bvir, eps_t, sig_t, rc2_t, eshift_t',
          intp='rlo, boff, nbr_start, nbr_count, nbr_idx, typ', double='lx, ly, lz',
          int='n, nchunk, energy, periodic, ntypes')
def compute_forces_newton(ch, x, y, z, bfx, bfy, bfz, bpe, bvir, rlo, boff, n, nchunk, energy,
                          nbr_start, nbr_count, nbr_idx, lx, ly, lz, periodic, typ, ntypes, eps_t,
                          sig_t, rc2_t, eshift_t):
    """Chunk ch of the forces from a HALF list (each pair once; rows with entries one apart), by
    Newton's third law: run over the nchunk chunks (newton.py), it adds for every row i of the
    chunk and every neighbour j the pair's force to i and its opposite to j, and (energy != 0)
    half of the pair's energy and virial to each, into the chunk's buffers (entry
    boff[ch] + p - rlo[ch] for particle p); newton_sum (energy != 0) or newton_sum_forces adds
    the chunks' buffers into the outputs. With energy 0 bpe and bvir are not touched, and the
    forces have the same bits as with energy 1: the steps whose energies nobody reads skip their
    terms and their two scatters (LAMMPS' eflag/vflag). A row is done in compute_forces_chunked's
    vectorisable form: positions gathered NEWTON_CHUNK at a time, the pair terms branch-free into
    private arrays, then added in list order (to i and scattered to the j's).
    """
    xi, yi, zi, hx, hy, hz, dx, dy, dz, r2, inv, ff, u = declare('double', 13)
    eps0, sig0, shift0, cut0 = declare('double', 4)
    fxi, fyi, fzi, ei, wi = declare('double', 5)
    lo, hi, off, start, end, j, row, k, m, s, first = declare('int', 11)
    px = declare('matrix(NEWTON_CHUNK)')
    py = declare('matrix(NEWTON_CHUNK)')
    pz = declare('matrix(NEWTON_CHUNK)')
    peps = declare('matrix(NEWTON_CHUNK)')
    psig = declare('matrix(NEWTON_CHUNK)')
    pshift = declare('matrix(NEWTON_CHUNK)')
    pcut = declare('matrix(NEWTON_CHUNK)')
    tfx = declare('matrix(NEWTON_CHUNK)')
    tfy = declare('matrix(NEWTON_CHUNK)')
    tfz = declare('matrix(NEWTON_CHUNK)')
    tu = declare('matrix(NEWTON_CHUNK)')
    tw = declare('matrix(NEWTON_CHUNK)')
    # r2 of each pair, kept for the energy terms.
    tr2 = declare('matrix(NEWTON_CHUNK)')
    lo = chunk_lo(ch, n, nchunk)
    hi = chunk_lo(ch + 1, n, nchunk)
    off = boff[ch] - rlo[ch]
    first = rlo[ch]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    eps0 = eps_t[0]
    sig0 = sig_t[0]
    shift0 = eshift_t[0]
    cut0 = rc2_t[0]
    for i in range(lo, hi):
        xi = x[i]
        yi = y[i]
        zi = z[i]
        row = typ[i] * ntypes
        fxi = 0.0
        fyi = 0.0
        fzi = 0.0
        ei = 0.0
        wi = 0.0
        start = nbr_start[i]
        end = nbr_count[i]
        for base in range(0, end, NEWTON_CHUNK):
            m = min(NEWTON_CHUNK, end - base)
            # The row's entries of this block start at s.
            s = start + base
            for c in range(m):
                j = nbr_idx[s + c]
                px[c] = x[j]
                py[c] = y[j]
                pz[c] = z[j]
            # One type: the parameters are the same for every pair, so the loops below read
            # eps0, sig0, cut0 instead of per-pair copies (the same values, the same bits).
            if ntypes == 1:
                for c in range(m):
                    dx = min_image_wrapped(xi - px[c], lx, hx)
                    dy = min_image_wrapped(yi - py[c], ly, hy)
                    dz = min_image_wrapped(zi - pz[c], lz, hz)
                    r2 = dx * dx + dy * dy + dz * dz
                    inv = 1.0 / r2
                    ff = lj_force_divr_inv(inv, eps0, sig0)
                    tr2[c] = r2
                    dx = ff * dx
                    dy = ff * dy
                    dz = ff * dz
                    tfx[c] = dx if r2 < cut0 else 0.0
                    tfy[c] = dy if r2 < cut0 else 0.0
                    tfz[c] = dz if r2 < cut0 else 0.0
                if energy != 0:
                    for c in range(m):
                        r2 = tr2[c]
                        inv = 1.0 / r2
                        ff = lj_force_divr_inv(inv, eps0, sig0)
                        u = lj_energy_inv(inv, eps0, sig0) - shift0
                        tu[c] = 0.5 * u if r2 < cut0 else 0.0
                        tw[c] = 0.5 * ff * r2 if r2 < cut0 else 0.0
            else:
                for c in range(m):
                    k = row + typ[nbr_idx[s + c]]
                    peps[c] = eps_t[k]
                    psig[c] = sig_t[k]
                    pshift[c] = eshift_t[k]
                    pcut[c] = rc2_t[k]
                for c in range(m):
                    dx = min_image_wrapped(xi - px[c], lx, hx)
                    dy = min_image_wrapped(yi - py[c], ly, hy)
                    dz = min_image_wrapped(zi - pz[c], lz, hz)
                    r2 = dx * dx + dy * dy + dz * dz
                    inv = 1.0 / r2
                    ff = lj_force_divr_inv(inv, peps[c], psig[c])
                    tr2[c] = r2
                    dx = ff * dx
                    dy = ff * dy
                    dz = ff * dz
                    tfx[c] = dx if r2 < pcut[c] else 0.0
                    tfy[c] = dy if r2 < pcut[c] else 0.0
                    tfz[c] = dz if r2 < pcut[c] else 0.0
                if energy != 0:
                    for c in range(m):
                        r2 = tr2[c]
                        inv = 1.0 / r2
                        ff = lj_force_divr_inv(inv, peps[c], psig[c])
                        u = lj_energy_inv(inv, peps[c], psig[c]) - pshift[c]
                        tu[c] = 0.5 * u if r2 < pcut[c] else 0.0
                        tw[c] = 0.5 * ff * r2 if r2 < pcut[c] else 0.0
            # Added in list order: to i, and scattered to the j's (indices read from the row).
            if energy != 0:
                for c in range(m):
                    fxi += tfx[c]
                    fyi += tfy[c]
                    fzi += tfz[c]
                    ei += tu[c]
                    wi += tw[c]
                    k = newton_entry(nbr_idx[s + c], off, first, n)
                    bfx[k] -= tfx[c]
                    bfy[k] -= tfy[c]
                    bfz[k] -= tfz[c]
                    bpe[k] += tu[c]
                    bvir[k] += tw[c]
            else:
                for c in range(m):
                    fxi += tfx[c]
                    fyi += tfy[c]
                    fzi += tfz[c]
                    k = newton_entry(nbr_idx[s + c], off, first, n)
                    bfx[k] -= tfx[c]
                    bfy[k] -= tfy[c]
                    bfz[k] -= tfz[c]
        k = newton_entry(i, off, first, n)
        bfx[k] += fxi
        bfy[k] += fyi
        bfz[k] += fzi
        if energy != 0:
            bpe[k] += ei
            bvir[k] += wi


@annotate(i='int', doublep='x, y, z, fx, fy, fz, pe, vir, eps_t, sig_t, rc2_t, eshift_t',
          intp='typ', n='int', double='lx, ly, lz', int='periodic, ntypes')
def compute_forces_all_pairs(i, x, y, z, fx, fy, fz, pe, vir, n, lx, ly, lz, periodic, typ,
                             ntypes, eps_t, sig_t, rc2_t, eshift_t):
    """compute_forces over every other particle (O(N^2)); same outputs, no neighbour list."""
    xi, yi, zi, hx, hy, hz, dx, dy, dz, r2, inv, ff = declare('double', 12)
    fxi, fyi, fzi, ei, wi = declare('double', 5)
    row, k = declare('int', 2)
    xi = x[i]
    yi = y[i]
    zi = z[i]
    hx = half_length(lx, periodic & 1)
    hy = half_length(ly, periodic & 2)
    hz = half_length(lz, periodic & 4)
    row = typ[i] * ntypes
    fxi = 0.0
    fyi = 0.0
    fzi = 0.0
    ei = 0.0
    wi = 0.0
    for j in range(n):
        if j == i:
            continue
        dx = min_image_wrapped(xi - x[j], lx, hx)
        dy = min_image_wrapped(yi - y[j], ly, hy)
        dz = min_image_wrapped(zi - z[j], lz, hz)
        r2 = dx * dx + dy * dy + dz * dz
        k = row + typ[j]
        if r2 < rc2_t[k]:
            inv = 1.0 / r2
            ff = lj_force_divr_inv(inv, eps_t[k], sig_t[k])
            fxi += ff * dx
            fyi += ff * dy
            fzi += ff * dz
            ei += lj_energy_inv(inv, eps_t[k], sig_t[k]) - eshift_t[k]
            wi += ff * r2
    fx[i] = fxi
    fy[i] = fyi
    fz[i] = fzi
    pe[i] = 0.5 * ei
    vir[i] = 0.5 * wi


@annotate(i='int', doublep='x, y, z, fx, fy, fz, pe',
          double='lx, ly, lz, stiffness, wall_range', periodic='int')
def apply_walls(i, x, y, z, fx, fy, fz, pe, lx, ly, lz, periodic, stiffness, wall_range):
    """Adds the soft walls of every non-periodic axis to particle i (run after the pair forces).

    Walls sit at 0 and L of each axis whose bit in `periodic` is clear. Their forces are not
    part of vir[] (the reported pressure is the pair pressure).
    """
    a, e = declare('double', 2)
    e = 0.0
    if axis_periodic(periodic, 0) == 0:
        a = x[i]
        fx[i] += wall_force(a, stiffness, wall_range) - wall_force(lx - a, stiffness, wall_range)
        e += wall_energy(a, stiffness, wall_range) + wall_energy(lx - a, stiffness, wall_range)
    if axis_periodic(periodic, 1) == 0:
        a = y[i]
        fy[i] += wall_force(a, stiffness, wall_range) - wall_force(ly - a, stiffness, wall_range)
        e += wall_energy(a, stiffness, wall_range) + wall_energy(ly - a, stiffness, wall_range)
    if axis_periodic(periodic, 2) == 0:
        a = z[i]
        fz[i] += wall_force(a, stiffness, wall_range) - wall_force(lz - a, stiffness, wall_range)
        e += wall_energy(a, stiffness, wall_range) + wall_energy(lz - a, stiffness, wall_range)
    pe[i] += e


# ---------------------------------------------------------------------------------------------
# Integrators. NVE velocity Verlet: kick_drift, forces, kick. Langevin BAOAB:
# baoab_kick_drift (B A O A), forces, kick (B). Bussi: NVE step, then scale_velocities with the
# factor the host draws (README: "Bussi thermostat").
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='vx, vy, vz, fx, fy, fz, mass', typ='intp', dt='double')
def kick(i, vx, vy, vz, fx, fy, fz, typ, mass, dt):
    """v += (dt/2) f/m, m = mass[typ[i]]."""
    m = declare('double')
    m = mass[typ[i]]
    vx[i] += 0.5 * dt * fx[i] / m
    vy[i] += 0.5 * dt * fy[i] / m
    vz[i] += 0.5 * dt * fz[i] / m


@annotate(c='int', doublep='fx, fy, fz, bfx, bfy, bfz, vx, vy, vz, mass',
          intp='rlo, rhi, boff, typ', int='n, nchunk', dt='double')
def newton_sum_forces_kick(c, fx, fy, fz, bfx, bfy, bfz, rlo, rhi, boff, n, nchunk, vx, vy, vz,
                           typ, mass, dt):
    """newton_sum_forces for chunk c, then kick on its particles: one launch where two ran, on
    the steps whose energies nobody reads (each OpenMP region costs a wake-up of the other
    threads). The same statements in the same order: the same bits as the two launches."""
    newton_sum_forces(c, fx, fy, fz, bfx, bfy, bfz, rlo, rhi, boff, n, nchunk)
    for p in range(chunk_lo(c, n, nchunk), chunk_lo(c + 1, n, nchunk)):
        kick(p, vx, vy, vz, fx, fy, fz, typ, mass, dt)


@annotate(i='int', doublep='x, y, z, vx, vy, vz', dt='double')
def drift(i, x, y, z, vx, vy, vz, dt):
    """x += dt v."""
    x[i] += dt * vx[i]
    y[i] += dt * vy[i]
    z[i] += dt * vz[i]


@annotate(i='int', doublep='x, y, z', intp='ix, iy, iz', double='lx, ly, lz', periodic='int')
def wrap_positions(i, x, y, z, ix, iy, iz, lx, ly, lz, periodic):
    """Maps particle i into [0, L) along each periodic axis; the image counts record the wraps
    (unwrapped x = x + ix * lx). Axes with walls are left alone."""
    if axis_periodic(periodic, 0) != 0:
        wrap_axis(i, x, ix, lx)
    if axis_periodic(periodic, 1) != 0:
        wrap_axis(i, y, iy, ly)
    if axis_periodic(periodic, 2) != 0:
        wrap_axis(i, z, iz, lz)


@annotate(i='int', doublep='x, y, z, vx, vy, vz, fx, fy, fz, mass', intp='ix, iy, iz, typ',
          double='dt, lx, ly, lz', periodic='int')
def kick_drift(i, x, y, z, vx, vy, vz, fx, fy, fz, ix, iy, iz, typ, mass, dt, lx, ly, lz,
               periodic):
    """First half of a velocity-Verlet step in one launch: kick, drift, wrap (periodic axes)."""
    kick(i, vx, vy, vz, fx, fy, fz, typ, mass, dt)
    drift(i, x, y, z, vx, vy, vz, dt)
    wrap_positions(i, x, y, z, ix, iy, iz, lx, ly, lz, periodic)


@annotate(i='int', intp='ix, iy, iz, typ, stale', int='lanes, periodic, test',
          double='dt, lx, ly, lz, limit2',
          doublep='x, y, z, vx, vy, vz, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir, mass, '
                  'x0, y0, z0')
def sum_lanes_kick_kick_drift(i, x, y, z, vx, vy, vz, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe,
                              lvir, lanes, ix, iy, iz, typ, mass, dt, lx, ly, lz, periodic, test,
                              x0, y0, z0, limit2, stale):
    """A step's end and the next step's start in one launch, where nothing observes the state
    in between (Simulation::advance): the lanes' force sums (no energies), the closing half-kick,
    then kick_drift. The same operations in the same order as the separate launches.

    With test != 0 the launch also does the list's displacement test on the drifted positions:
    each particle past limit2 since the build (x0, y0, z0) adds 1 to stale[0], which the list
    zeroed at that build, so stale[0] != 0 exactly where past_limit_map's max is 1
    (NeighborList::start_flag_read). One launch a step less than a separate Reduction."""
    sum_lanes(i, fx, fy, fz, pe, vir, lfx, lfy, lfz, lpe, lvir, lanes, 0)
    kick(i, vx, vy, vz, fx, fy, fz, typ, mass, dt)
    kick_drift(i, x, y, z, vx, vy, vz, fx, fy, fz, ix, iy, iz, typ, mass, dt, lx, ly, lz,
               periodic)
    if test != 0:
        if past_limit_map(i, x, y, z, x0, y0, z0, lx, ly, lz, periodic, limit2) != 0:
            atomic_inc(stale[0])


@annotate(c='int', intp='rlo, rhi, boff, ix, iy, iz, typ, stale', int='n, nchunk, periodic, test',
          double='dt, lx, ly, lz, limit2',
          doublep='x, y, z, vx, vy, vz, fx, fy, fz, bfx, bfy, bfz, mass, x0, y0, z0')
def newton_sum_kick_kick_drift(c, x, y, z, vx, vy, vz, fx, fy, fz, bfx, bfy, bfz, rlo, rhi, boff,
                               n, nchunk, ix, iy, iz, typ, mass, dt, lx, ly, lz, periodic, test,
                               x0, y0, z0, limit2, stale):
    """sum_lanes_kick_kick_drift's CPU twin, over the chunks of a half list: newton_sum_forces
    for chunk c, then for each of its particles the closing half-kick and kick_drift, where
    nothing observes the state in between (Simulation::advance). The same operations in the same
    order as newton_sum_forces_kick then kick_drift: the same bits, in one OpenMP region instead
    of two.

    With test != 0 also the list's displacement test on the drifted positions: the chunk adds
    the number of its particles past limit2 since the build (x0, y0, z0) to stale[0], which the
    list zeroed at that build, so stale[0] != 0 exactly where past_limit_map's max is 1
    (NeighborList::start_flag_read): the Reduction's region less too."""
    lo, hi, moved = declare('int', 3)
    newton_sum_forces(c, fx, fy, fz, bfx, bfy, bfz, rlo, rhi, boff, n, nchunk)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    for p in range(lo, hi):
        kick(p, vx, vy, vz, fx, fy, fz, typ, mass, dt)
        kick_drift(p, x, y, z, vx, vy, vz, fx, fy, fz, ix, iy, iz, typ, mass, dt, lx, ly, lz,
                   periodic)
    if test == 0:
        return
    # A loop of its own, reading only: it runs in SIMD lanes (divisions and floors included).
    moved = 0
    for p in range(lo, hi):
        moved += past_limit_map(p, x, y, z, x0, y0, z0, lx, ly, lz, periodic, limit2)
    if moved != 0:
        atomic_add(stale[0], moved)


@annotate(i='int', doublep='vx, vy, vz, mass, dke', intp='typ, ids', double='gamma_dt, kT',
          seed='ulong', step='long')
def langevin_o(i, vx, vy, vz, typ, ids, mass, dke, gamma_dt, kT, seed, step):
    """The exact Ornstein-Uhlenbeck step over a time dt (gamma_dt = gamma * dt):

        v <- c1 v + sqrt((1 - c1^2) kT / m) R,   c1 = exp(-gamma dt),   R ~ N(0, 1) per axis,

    with R = rng_normal(seed, step, id[i], axis), axis 0, 1, 2: keyed on the particle's id, not
    its index, so reordering the particles (neighbor.sort_interval) leaves the noise unchanged. 1 - c1^2 is -expm1(-2 gamma dt)
    (accurate for small gamma dt). dke[i] = the kinetic energy this step added to particle i
    (the heat the thermostat put in; its sum is what the conserved quantity subtracts).
    """
    m, c1, s, v0, v1 = declare('double', 5)
    m = mass[typ[i]]
    c1 = exp(-gamma_dt)
    s = sqrt(-expm1(-2.0 * gamma_dt) * kT / m)
    v0 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]
    vx[i] = c1 * vx[i] + s * rng_normal(seed, step, ids[i], 0)
    vy[i] = c1 * vy[i] + s * rng_normal(seed, step, ids[i], 1)
    vz[i] = c1 * vz[i] + s * rng_normal(seed, step, ids[i], 2)
    v1 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]
    dke[i] = 0.5 * m * (v1 - v0)


@annotate(i='int', doublep='x, y, z, vx, vy, vz, fx, fy, fz, mass, dke',
          intp='ix, iy, iz, typ, ids', double='dt, lx, ly, lz, gamma, kT', periodic='int',
          seed='ulong', step='long')
def baoab_kick_drift(i, x, y, z, vx, vy, vz, fx, fy, fz, ix, iy, iz, typ, ids, mass, dke, dt,
                     lx, ly, lz, periodic, gamma, kT, seed, step):
    """First part of a BAOAB Langevin step (Leimkuhler & Matthews 2013) in one launch:
    B (kick dt/2), A (drift dt/2), O (langevin_o over dt), A (drift dt/2), wrap.
    The step ends with forces at the new positions and `kick` (the last B).
    `step` is the number of steps done before this one (0 for the first)."""
    kick(i, vx, vy, vz, fx, fy, fz, typ, mass, dt)
    drift(i, x, y, z, vx, vy, vz, 0.5 * dt)
    langevin_o(i, vx, vy, vz, typ, ids, mass, dke, gamma * dt, kT, seed, step)
    drift(i, x, y, z, vx, vy, vz, 0.5 * dt)
    wrap_positions(i, x, y, z, ix, iy, iz, lx, ly, lz, periodic)


@annotate(i='int', doublep='vx, vy, vz', alpha='double')
def scale_velocities(i, vx, vy, vz, alpha):
    """v <- alpha v (Bussi's stochastic velocity rescaling; alpha comes from the host)."""
    vx[i] = alpha * vx[i]
    vy[i] = alpha * vy[i]
    vz[i] = alpha * vz[i]


# ---------------------------------------------------------------------------------------------
# Map functions for reductions ('a+b'; displacement2_map of neighbors3d uses 'max(a, b)').
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='vx, vy, vz, mass', typ='intp', return_='double')
def kinetic_energy_map(i, vx, vy, vz, typ, mass):
    return 0.5 * mass[typ[i]] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i])


@annotate(i='int', pe='doublep', return_='double')
def potential_energy_map(i, pe):
    return pe[i]


@annotate(i='int', vir='doublep', return_='double')
def virial_map(i, vir):
    """Sum over i gives W = sum over pairs of r_ij . f_ij; P = (2 KE + W) / (3 V) (+ tail)."""
    return vir[i]


@annotate(i='int', dke='doublep', return_='double')
def heat_map(i, dke):
    """Sum over i gives the kinetic energy the Langevin O step added this step."""
    return dke[i]


@annotate(i='int', doublep='vx, mass', typ='intp', return_='double')
def momentum_x_map(i, vx, typ, mass):
    return mass[typ[i]] * vx[i]


@annotate(i='int', doublep='vy, mass', typ='intp', return_='double')
def momentum_y_map(i, vy, typ, mass):
    return mass[typ[i]] * vy[i]


@annotate(i='int', doublep='vz, mass', typ='intp', return_='double')
def momentum_z_map(i, vz, typ, mass):
    return mass[typ[i]] * vz[i]
