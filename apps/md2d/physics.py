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
- Neighbour lists are FULL (j in list(i) <=> i in list(j)) in CSR form: the neighbours of i are
  nbr_idx[nbr_start[i] : nbr_start[i] + nbr_count[i]]. Each particle writes only its own force,
  energy and virial: no atomics, so every backend is deterministic.
- Pair energies and virials are split half and half between the two particles, so summing
  pe[] (or vir[]) over all particles gives the total.
"""

from smelt_lang import annotate, declare

from box import pair_delta, wrap_coord
from lj import lj_energy, lj_energy_shift, lj_force_divr
from walls import wall_energy, wall_force

# The neighbour-search kernels the driver launches by name (apps/common/neighbor_list.h); they
# live in apps/common/kernels and are part of this program through these imports.
from cells import (clear_cells, find_cell_bounds, nbr_offset_input,  # noqa: F401
                   nbr_offset_output, sort_neighbors)
from neighbors2d import (cell_key, count_neighbors, count_neighbors_all_pairs,  # noqa: F401
                         displacement2_map, fill_neighbors, fill_neighbors_all_pairs,
                         save_positions)


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
