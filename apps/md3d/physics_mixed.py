"""md3d's mixed-precision force loops (precision: mixed), written in Smelt's kernel language.

The program is compiled in double: positions, the outputs and every sum stay in float64, and
each pair's arithmetic runs in float32, as OpenMM's and HOOMD-blue's mixed modes do. One kernel
for every backend, over full lists: compute_forces_mixed is compute_forces' GPU form with lanes
and the rebuild test's arguments, compute_forces_chunked_mixed the CPU form with one lane and the
same bits. physics.py imports them, so they are part of md3d's program; the conventions of
physics.py's docstring hold here too.
"""

from smelt import annotate, cast, declare

from box import half_length, min_image_wrapped
from lj import lj_energy_inv_f, lj_force_divr_inv_f

# Neighbours compute_forces_chunked and compute_forces_chunked_mixed evaluate per chunk (the
# length of their private arrays; physics.py imports it).
FORCE_CHUNK = 32


@annotate(double='d, length, half', return_='float')
def pair_delta_f(d, length, half):
    """A coordinate difference d = x_i - x_j (float64, so no digits of the positions are lost)
    taken to its minimum image, then rounded to float32: where a mixed pair starts."""
    return cast(min_image_wrapped(d, length, half), 'float')


@annotate(t='int', doublep='x, y, z, fx, fy, fz, pe, vir, eps_t, sig_t, rc2_t, eshift_t',
          intp='nbr_start, nbr_count, nbr_idx, typ, stale', double='lx, ly, lz',
          int='nbr_stride, periodic, ntypes, lanes, energy')
def compute_forces_mixed(t, x, y, z, fx, fy, fz, pe, vir, nbr_start, nbr_count, nbr_idx,
                         nbr_stride, lx, ly, lz, periodic, typ, ntypes, eps_t, sig_t, rc2_t,
                         eshift_t, lanes, energy, stale):
    """compute_forces (same arguments, lanes and outputs) with each pair in float32: the
    difference pair_delta_f, r^2, 1/r^2 and the LJ force and energy terms (lj.py's _f twins) are
    floats; each pair's f_ij * dx, u_ij and f_ij r^2 are added in float64, and the energy shift
    is subtracted in float64 (from the float64 table: u(r_cut) - eshift ~ 1e-7 u, not 0, at the
    cutoff). The pair's cutoff test compares the float32 r^2 with the float64 r_cut^2.
    """
    xi, yi, zi, hx, hy, hz = declare('double', 6)
    dx, dy, dz, r2, inv, ff, e, sg = declare('float', 8)
    fxi, fyi, fzi, ei, wi = declare('double', 5)
    i, lane, start, j, row, k, p, step = declare('int', 8)
    if stale[0] != 0:  # as in compute_forces
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
    p = start + lane * nbr_stride
    step = lanes * nbr_stride
    for s in range(nbr_count[t]):
        j = nbr_idx[p]
        p += step
        dx = pair_delta_f(xi - x[j], lx, hx)
        dy = pair_delta_f(yi - y[j], ly, hy)
        dz = pair_delta_f(zi - z[j], lz, hz)
        r2 = dx * dx + dy * dy + dz * dz
        k = row + typ[j]
        if r2 < rc2_t[k] and j != i:
            inv = 1.0 / r2
            e = cast(eps_t[k], 'float')
            sg = cast(sig_t[k], 'float')
            ff = lj_force_divr_inv_f(inv, e, sg)
            fxi += ff * dx
            fyi += ff * dy
            fzi += ff * dz
            if energy != 0:
                ei += lj_energy_inv_f(inv, e, sg) - eshift_t[k]
                wi += ff * r2
    fx[t] = fxi
    fy[t] = fyi
    fz[t] = fzi
    if energy != 0:
        pe[t] = 0.5 * ei
        vir[t] = 0.5 * wi


@annotate(i='int', doublep='x, y, z, fx, fy, fz, pe, vir, eps_t, sig_t, rc2_t, eshift_t',
          intp='nbr_start, nbr_count, nbr_idx, typ', double='lx, ly, lz',
          int='nbr_stride, periodic, ntypes, energy')
def compute_forces_chunked_mixed(i, x, y, z, fx, fy, fz, pe, vir, nbr_start, nbr_count, nbr_idx,
                                 nbr_stride, lx, ly, lz, periodic, typ, ntypes, eps_t, sig_t,
                                 rc2_t, eshift_t, energy):
    """compute_forces_mixed with one lane, the same bits, in compute_forces_chunked's form (the
    CPU form): FORCE_CHUNK neighbours gathered to consecutive places, their pairs evaluated
    branch-free into private arrays (0.0 beyond the cutoff), then added in list order. The pair
    loop's arithmetic is float32, so a SIMD register holds twice the pairs of float64's. With
    energy = 0 pe and vir are not touched (the forces have the same bits).
    """
    xi, yi, zi, hx, hy, hz = declare('double', 6)
    dx, dy, dz, r2, inv, ff = declare('float', 6)
    fxi, fyi, fzi, ei, wi = declare('double', 5)
    start, end, j, k, m = declare('int', 5)
    # The chunk's neighbours and their pair parameters, copied to consecutive places (no
    # gathers in the pair loop); pcut is 0.0 for i itself (never in a list): no pair.
    px = declare('matrix(FORCE_CHUNK)')
    py = declare('matrix(FORCE_CHUNK)')
    pz = declare('matrix(FORCE_CHUNK)')
    peps = declare("matrix(FORCE_CHUNK, 'float')")
    psig = declare("matrix(FORCE_CHUNK, 'float')")
    pshift = declare('matrix(FORCE_CHUNK)')
    pcut = declare('matrix(FORCE_CHUNK)')
    # The pair terms: float32 values, kept in float64 for the float64 sums.
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
    fxi = 0.0
    fyi = 0.0
    fzi = 0.0
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
            pz[c] = z[j]
            k = typ[i] * ntypes + typ[j]
            peps[c] = cast(eps_t[k], 'float')
            psig[c] = cast(sig_t[k], 'float')
            pshift[c] = eshift_t[k]
            pcut[c] = rc2_t[k] if j != i else 0.0
        for c in range(m):
            dx = pair_delta_f(xi - px[c], lx, hx)
            dy = pair_delta_f(yi - py[c], ly, hy)
            dz = pair_delta_f(zi - pz[c], lz, hz)
            r2 = dx * dx + dy * dy + dz * dz
            inv = 1.0 / r2
            ff = lj_force_divr_inv_f(inv, peps[c], psig[c])
            tfx[c] = ff * dx if r2 < pcut[c] else 0.0
            tfy[c] = ff * dy if r2 < pcut[c] else 0.0
            tfz[c] = ff * dz if r2 < pcut[c] else 0.0
            tu[c] = lj_energy_inv_f(inv, peps[c], psig[c]) - pshift[c] if r2 < pcut[c] else 0.0
            tw[c] = ff * r2 if r2 < pcut[c] else 0.0
        for c in range(m):
            fxi += tfx[c]
            fyi += tfy[c]
            fzi += tfz[c]
            if energy != 0:
                ei += tu[c]
                wi += tw[c]
    fx[i] = fxi
    fy[i] = fyi
    fz[i] = fzi
    if energy != 0:
        pe[i] = 0.5 * ei
        vir[i] = 0.5 * wi
