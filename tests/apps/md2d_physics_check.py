#!/usr/bin/env python3
"""CPython checks of apps/md2d/physics.py against independent oracles.

The kernels run element by element on NumPy arrays (the kernel language's CPython meaning); the
oracles are written here with NumPy, without calling physics.py. Run by tests/apps/
md2d_physics_test.cpp (one gtest per check) or by hand:

    /usr/bin/python3 tests/apps/md2d_physics_check.py [check ...]    # no argument: all checks
"""

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PHYSICS = ROOT / "apps" / "md2d" / "physics.py"
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "apps" / "common" / "kernels"),
                str(ROOT / "apps" / "md2d"), str(Path(__file__).resolve().parent)]
import box as B  # noqa: E402
import physics as P  # noqa: E402
from kernel_lang_check import check_kernel_file  # noqa: E402

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL: " + msg)


# ---- primitives emulated in CPython (the engine runs these in parallel) ---------------------

def elementwise(f, n, *args, order=None):
    for i in (range(n) if order is None else order):
        f(i, *args)


def reduce_sum(f, n, *args):
    return math.fsum(f(i, *args) for i in range(n))


def exclusive_scan_offsets(count):
    n = len(count)
    inclusive = np.cumsum(count)
    start = np.zeros(n, dtype=np.int32)
    total = np.zeros(1, dtype=np.int32)
    last = int(inclusive[-1]) if n else 0
    for i in range(n):
        prev = int(inclusive[i - 1]) if i > 0 else 0
        P.nbr_offset_output(i, P.nbr_offset_input(i, count) + prev, prev, last, start, total)
    return start, int(total[0]) if n else 0


def binned_list(x, y, lx, ly, periodic, rl):
    n = len(x)
    ncx, ncy = max(1, int(lx // rl)), max(1, int(ly // rl))
    cw, ch = lx / ncx, ly / ncy
    keys = np.zeros(n, dtype=np.int32)
    elementwise(P.cell_key, n, x, y, keys, cw, ch, ncx, ncy, periodic)
    order = np.argsort(keys, kind="stable").astype(np.int32)
    sorted_keys = keys[order].astype(np.int32)
    cell_start = np.full(ncx * ncy, 7, dtype=np.int32)  # garbage: clear_cells must reset it
    cell_end = np.full(ncx * ncy, 3, dtype=np.int32)
    elementwise(P.clear_cells, ncx * ncy, cell_start, cell_end)
    elementwise(P.find_cell_bounds, n, sorted_keys, cell_start, cell_end, n)
    count = np.zeros(n, dtype=np.int32)
    args = (lx, ly, periodic, cw, ch, ncx, ncy, rl * rl)
    elementwise(P.count_neighbors, n, x, y, count, order, cell_start, cell_end, *args)
    start, total = exclusive_scan_offsets(count)
    idx = np.full(total, -1, dtype=np.int32)
    elementwise(P.fill_neighbors, n, x, y, start, idx, order, cell_start, cell_end, *args)
    return start, count, idx, (ncx, ncy)


def all_pairs_list(x, y, lx, ly, periodic, rl):
    n = len(x)
    count = np.zeros(n, dtype=np.int32)
    elementwise(P.count_neighbors_all_pairs, n, x, y, count, n, lx, ly, periodic, rl * rl)
    start, total = exclusive_scan_offsets(count)
    idx = np.full(total, -1, dtype=np.int32)
    elementwise(P.fill_neighbors_all_pairs, n, x, y, start, idx, n, lx, ly, periodic, rl * rl)
    return start, count, idx


def forces_from_list(x, y, lst, lx, ly, periodic, pot, stride=1):
    n = len(x)
    fx, fy, pe, vir = (np.zeros(n) for _ in range(4))
    start, count, idx = lst[:3]
    elementwise(P.compute_forces, n, x, y, fx, fy, pe, vir, start, count, idx, stride, lx, ly,
                periodic, *pot)
    return fx, fy, pe, vir


def forces_all_pairs(x, y, lx, ly, periodic, pot, walls=None):
    n = len(x)
    fx, fy, pe, vir = (np.zeros(n) for _ in range(4))
    elementwise(P.compute_forces_all_pairs, n, x, y, fx, fy, pe, vir, n, lx, ly, periodic, *pot)
    if walls is not None:
        elementwise(P.apply_walls, n, x, y, fx, fy, pe, lx, ly, *walls)
    return fx, fy, pe, vir


# ---- independent oracles (NumPy, not physics.py) ---------------------------------------------

def np_min_image(d, length):
    return d - length * np.round(d / length)


def np_pairs_within(x, y, lx, ly, periodic, rl):
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    if periodic:
        dx, dy = np_min_image(dx, lx), np_min_image(dy, ly)
    r2 = dx * dx + dy * dy
    np.fill_diagonal(r2, np.inf)
    return r2 < rl * rl, r2


def random_config(n, lx, ly, min_spacing, seed, margin=0.0):
    rng = np.random.default_rng(seed)
    pts = []
    while len(pts) < n:
        p = rng.uniform([margin, margin], [lx - margin, ly - margin])
        ok = all(np.hypot(*np_min_image(p - q, np.array([lx, ly]))) >= min_spacing for q in pts)
        if ok:
            pts.append(p)
    a = np.array(pts)
    return a[:, 0].copy(), a[:, 1].copy()


# ---- checks ----------------------------------------------------------------------------------

def check_kernel_language():
    """physics.py and the kernel files it imports stick to the constructs LANGUAGE.md accepts,
    with explicit types everywhere (tests/apps/kernel_lang_check.py)."""
    check_kernel_file(PHYSICS, lambda msg: check(False, msg))


def check_min_image():
    """min_image, pair_delta and wrap_coord against NumPy's rounding and modulo."""
    L = 7.5
    d = np.concatenate([np.linspace(-40, 40, 1601), [L / 2, -L / 2, 0.0, 1e-17, -1e-17]])
    got = np.array([B.min_image(v, L) for v in d])
    check(np.all(np.abs(got) <= L / 2 + 1e-12), "min_image leaves |d| <= L/2")
    k = (d - got) / L
    check(np.allclose(k, np.round(k), atol=1e-9), "min_image differs from d by a multiple of L")
    check(np.allclose(np.abs(got), np.abs(np_min_image(d, L)), atol=1e-12),
          "min_image agrees with NumPy rounding")
    # Two particles on either side of the periodic seam are close, not L apart.
    check(abs(B.pair_delta(0.1, L - 0.1, L, 1) - 0.2) < 1e-12, "pair_delta across the seam")
    check(abs(B.pair_delta(0.1, L - 0.1, L, 0) - (0.2 - L)) < 1e-12, "pair_delta without periodicity")
    for a in [-1e-17, -1e-300, 0.0, L, 2 * L - 1e-15, -3 * L + 0.25, 123.456, -0.1]:
        w = B.wrap_coord(a, L)
        check(0.0 <= w < L, "wrap_coord(%r) = %r is in [0, L)" % (a, w))
        check(min(abs(w - a % L), L - abs(w - a % L)) < 1e-12, "wrap_coord(%r) == a mod L" % a)


def lattice_sum(a, rc, eps, sigma, shift, shape):
    """Per-particle energy and virial of a perfect lattice by summing over lattice vectors."""
    m = int(math.ceil(rc / a)) + 2
    p, q = np.meshgrid(np.arange(-m, m + 1), np.arange(-m, m + 1))
    if shape == "square":
        rx, ry = a * p, a * q
    else:  # triangular: a1 = (a, 0), a2 = (a/2, a sqrt(3)/2)
        rx, ry = a * p + 0.5 * a * q, a * math.sqrt(3) / 2 * q
    r = np.hypot(rx, ry).ravel()
    r = r[(r > 0) & (r < rc)]
    u = 4 * eps * ((sigma / r) ** 12 - (sigma / r) ** 6)
    uc = 4 * eps * ((sigma / rc) ** 12 - (sigma / rc) ** 6) if shift else 0.0
    w = 24 * eps * (2 * (sigma / r) ** 12 - (sigma / r) ** 6)  # r . f = -r du/dr
    return 0.5 * np.sum(u - uc), 0.5 * np.sum(w), len(r)


def check_lattice_energy():
    """Perfect square and triangular lattices: energy and virial per particle = lattice sums."""
    eps, sigma, rc = 1.3, 0.9, 3.0
    for shape, shift in [("square", 0), ("square", 1), ("triangular", 0), ("triangular", 1)]:
        a, nx, ny = 1.1, 12, 12
        if shape == "square":
            ix, iy = np.meshgrid(np.arange(nx), np.arange(ny))
            x, y = (ix * a + 0.5 * a).ravel(), (iy * a + 0.5 * a).ravel()
            lx, ly = nx * a, ny * a
        else:
            h = a * math.sqrt(3) / 2
            ix, iy = np.meshgrid(np.arange(nx), np.arange(ny))
            x, y = ((ix + 0.5 * (iy % 2)) * a + 0.25 * a).ravel(), (iy * h + 0.5 * h).ravel()
            lx, ly = nx * a, ny * h
        x, y = x.astype(float), y.astype(float)
        e_ref, w_ref, nb = lattice_sum(a, rc, eps, sigma, shift, shape)
        pot = (eps, sigma, rc * rc, shift)
        lst = binned_list(x, y, lx, ly, 1, rc + 0.25)
        for label, (fx, fy, pe, vir) in [("all pairs", forces_all_pairs(x, y, lx, ly, 1, pot)),
                                         ("binned", forces_from_list(x, y, lst, lx, ly, 1, pot))]:
            tag = "%s lattice shift=%d %s" % (shape, shift, label)
            check(np.allclose(pe, e_ref, rtol=1e-12, atol=1e-12),
                  "%s: energy per particle %r vs lattice sum %r" % (tag, pe[:3], e_ref))
            check(np.allclose(vir, w_ref, rtol=1e-12, atol=1e-12),
                  "%s: virial per particle %r vs lattice sum %r" % (tag, vir[:3], w_ref))
            check(np.max(np.abs(fx)) < 1e-10 and np.max(np.abs(fy)) < 1e-10,
                  "%s: forces vanish by symmetry (max %g)" % (tag, np.max(np.abs(fx))))
        # Every site of the lattice has the same number of neighbours within r_list.
        rl = rc + 0.25  # no lattice vector has length r_list
        _, _, n_ref = lattice_sum(a, rl, eps, sigma, 0, shape)
        check(np.all(lst[1] == n_ref), "%s lattice: %d neighbours per site" % (shape, n_ref))


def total_energy(x, y, lx, ly, periodic, pot, walls):
    return np.sum(forces_all_pairs(x, y, lx, ly, periodic, pot, walls)[2])


def check_forces_fd():
    """Forces = -dU/dx by central differences on random configurations (periodic, walls)."""
    eps, sigma, rc, h = 1.0, 1.0, 2.5, 1e-6
    cases = [("periodic", 1, None, 0), ("periodic shifted", 1, None, 1),
             ("walls", 0, (50.0, 0.5), 1)]
    for label, periodic, walls, shift in cases:
        lx, ly = 7.0, 6.0
        x, y = random_config(30, lx, ly, 0.85, seed=11, margin=0.0 if periodic else 0.1)
        _, r2 = np_pairs_within(x, y, lx, ly, periodic, 1.0)
        r = np.sqrt(r2[np.isfinite(r2)])
        check(np.min(np.abs(r - rc)) > 1e-3, label + ": no pair sits on the cutoff (precondition)")
        if walls:
            near = np.sum((x < 0.5) | (x > lx - 0.5) | (y < 0.5) | (y > ly - 0.5))
            check(near >= 3, label + ": some particles feel the walls (precondition)")
        pot = (eps, sigma, rc * rc, shift)
        fx, fy, _, _ = forces_all_pairs(x, y, lx, ly, periodic, pot, walls)
        worst = 0.0
        for i in range(len(x)):
            for arr, f in ((x, fx), (y, fy)):
                keep = arr[i]
                arr[i] = keep + h
                up = total_energy(x, y, lx, ly, periodic, pot, walls)
                arr[i] = keep - h
                down = total_energy(x, y, lx, ly, periodic, pot, walls)
                arr[i] = keep
                fd = -(up - down) / (2 * h)
                worst = max(worst, abs(fd - f[i]) / max(1.0, abs(f[i])))
        check(worst < 1e-5, "%s: |F - (-dU/dx)| / max(1,|F|) = %.3g" % (label, worst))
        check(abs(np.sum(fx)) < 1e-9 * len(x) or not periodic, label + ": sum of forces is 0")


def check_neighbor_lists():
    """Binned lists == all-pairs lists == NumPy's pair set; list forces == all-pairs forces."""
    pot = (1.0, 1.0, 2.5 * 2.5, 1)
    for label, periodic in [("periodic", 1), ("walls", 0)]:
        lx, ly = 21.0, 17.5
        x, y = random_config(300, lx, ly, 0.8, seed=5, margin=0.0)
        if not periodic:  # a few particles pushed past the walls: the clamped cells still see them
            x[:5] = np.array([-0.3, lx + 0.2, 0.1, lx - 0.05, 5.0])
            y[:5] = np.array([3.0, 4.0, -0.35, ly + 0.3, ly + 0.01])
        rl = 2.8
        want, _ = np_pairs_within(x, y, lx, ly, periodic, rl)
        binned = binned_list(x, y, lx, ly, periodic, rl)
        brute = all_pairs_list(x, y, lx, ly, periodic, rl)
        for name, (start, count, idx) in [("binned", binned[:3]), ("all pairs", brute)]:
            ok = True
            for i in range(len(x)):
                got = idx[start[i]:start[i] + count[i]]
                ok = ok and len(got) == len(set(got.tolist())) and \
                    set(got.tolist()) == set(np.nonzero(want[i])[0].tolist())
            check(ok, "%s %s: neighbour sets equal NumPy's" % (label, name))
            check(np.all(start[1:] == start[:-1] + count[:-1]) and start[0] == 0,
                  "%s %s: CSR offsets are the exclusive scan" % (label, name))
        ref = forces_all_pairs(x, y, lx, ly, periodic, pot)
        got = forces_from_list(x, y, binned, lx, ly, periodic, pot)
        for k, what in enumerate(["fx", "fy", "pe", "vir"]):
            scale = max(1.0, np.max(np.abs(ref[k])))
            check(np.max(np.abs(got[k] - ref[k])) <= 1e-12 * scale,
                  "%s: neighbour-list %s == all-pairs %s" % (label, what, what))
        # sort_neighbors: each binned list becomes the all-pairs list, entry for entry, and the
        # forces from it equal the all-pairs forces bit for bit (same summation order).
        start, count, idx = binned[:3]
        elementwise(P.sort_neighbors, len(x), start, count, idx)
        check(np.array_equal(idx, brute[2]), "%s: sorted binned list == all-pairs list" % label)
        got = forces_from_list(x, y, (start, count, idx), lx, ly, periodic, pot)
        check(all(np.array_equal(got[k], ref[k]) for k in range(4)),
              "%s: forces from the sorted list == all-pairs forces, bit for bit" % label)
        check_capped_lists(label, x, y, lx, ly, periodic, rl, binned, brute, pot, ref)


def check_cell_bounds_from_keys(label, sorted_keys, cell_start, cell_end):
    """cell_bounds_from_keys (over the particles) == cell_bounds (over the cells), every cell,
    for these keys and for sparse keys with empty cells before, between and after them (one
    particle, and one cell, included), run in any order of the particles."""
    ncells = len(cell_start)
    cases = [(sorted_keys, ncells, cell_start, cell_end)]
    rng = np.random.default_rng(31)
    for n, nc in [(1, 1), (1, 9), (7, 40), (50, 30), (200, 1000)]:
        keys = np.sort(rng.integers(0 if nc < 9 else 2, max(nc - 3, 1), n)).astype(np.int32)
        s, e = np.full(nc, -7, np.int32), np.full(nc, -7, np.int32)
        elementwise(P.cell_bounds, nc, s, e, keys, n)
        cases.append((keys, nc, s, e))
    for keys, nc, want_s, want_e in cases:
        n = len(keys)
        s, e = np.full(nc, -7, np.int32), np.full(nc, -7, np.int32)
        elementwise(P.cell_bounds_from_keys, n, keys, s, e, n, nc,
                    order=rng.permutation(n).tolist())
        check(np.array_equal(s, want_s) and np.array_equal(e, want_e),
              "%s: cell_bounds_from_keys == cell_bounds (%d keys, %d cells)" % (label, n, nc))


def check_capped_lists(label, x, y, lx, ly, periodic, rl, binned, brute, pot, ref):
    """The one-pass build into rows of fixed capacity (CPU form, and the GPU form at stride 1 and
    at stride n): full counts also past the capacity, the same rows in both forms, the all-pairs
    lists once sorted, and forces equal to the all-pairs forces bit for bit."""
    n = len(x)
    count = binned[1]
    ncx, ncy = binned[3]
    cw, ch = lx / ncx, ly / ncy
    keys = np.zeros(n, dtype=np.int32)
    elementwise(P.cell_key, n, x, y, keys, cw, ch, ncx, ncy, periodic)
    order = np.argsort(keys, kind="stable").astype(np.int32)
    sorted_keys = keys[order].astype(np.int32)
    cell_start = np.full(ncx * ncy, -7, np.int32)
    cell_end = np.full(ncx * ncy, -7, np.int32)
    elementwise(P.cell_bounds, ncx * ncy, cell_start, cell_end, sorted_keys, n)
    check_cell_bounds_from_keys(label, sorted_keys, cell_start, cell_end)
    xs, ys = np.zeros(n), np.zeros(n)
    elementwise(P.permute_real, n, order, x, xs)
    elementwise(P.permute_real, n, order, y, ys)
    grid = (order, cell_start, cell_end, lx, ly, periodic, cw, ch, ncx, ncy, rl * rl)
    for cap in (3, int(count.max())):
        cstart, ccount = np.full(n, -1, np.int32), np.full(n, -1, np.int32)
        cidx = np.full(n * (cap + 1), -1, np.int32)
        elementwise(P.fill_neighbors_capped, n, x, y, xs, ys, cstart, ccount, cidx, cap, *grid)
        check(np.array_equal(cstart, np.arange(n) * (cap + 1)) and np.array_equal(ccount, count),
              "%s: fill_neighbors_capped (cap %d): row starts and full counts" % (label, cap))
        fits = [i for i in range(n) if count[i] <= cap]
        check(all(sorted(cidx[cstart[i]:cstart[i] + count[i]].tolist()) ==
                  brute[2][brute[0][i]:brute[0][i] + count[i]].tolist() for i in fits),
              "%s: capped rows (cap %d) hold the all-pairs neighbours" % (label, cap))
        for stride in (1, n):
            gstart, gcount = np.full(n, -1, np.int32), np.full(n, -1, np.int32)
            gidx = np.full(n * (cap + 1), -1, np.int32)
            elementwise(P.fill_neighbors_capped_pairwise, n, x, y, xs, ys, gstart, gcount, gidx,
                        cap, stride, 1, *grid)
            row0 = np.arange(n) * ((cap + 1) if stride == 1 else 1)
            check(np.array_equal(gstart, row0) and np.array_equal(gcount, count) and
                  all(np.array_equal(gidx[gstart[i]:gstart[i] + count[i] * stride:stride],
                                     cidx[cstart[i]:cstart[i] + count[i]]) for i in fits),
                  "%s: fill_neighbors_capped_pairwise (cap %d, stride %d) == the CPU form's rows"
                  % (label, cap, stride))
            if stride == n and len(fits) == n:
                inter = forces_from_list(x, y, (gstart, gcount, gidx), lx, ly, periodic, pot,
                                         stride=n)
                rows = forces_from_list(x, y, (cstart, ccount, cidx), lx, ly, periodic, pot)
                check(all(np.array_equal(inter[k], rows[k]) for k in range(4)),
                      "%s: forces from interleaved rows == from the same rows at stride 1" % label)
    elementwise(P.sort_neighbors, n, cstart, ccount, cidx)
    got = [np.zeros(n) for _ in range(4)]
    elementwise(P.compute_forces_chunked, n, x, y, *got, cstart, ccount, cidx, 1, lx, ly, periodic,
                *pot)
    check(all(np.array_equal(got[k], ref[k]) for k in range(4)),
          "%s: compute_forces_chunked on the sorted capped rows == all-pairs forces, bit for bit"
          % label)


def half_list(x, y, lx, ly, periodic, rl, cap, per_r_list=1, kernel=None, sort=True):
    """The one-pass half list (fill_neighbors_capped_half), rows sorted, as NeighborList builds
    it with NeighborListSpec::half; per_r_list 2: cells of r_list / 2 (`kernel` defaults to
    fill_neighbors_capped_half_small_cells there); sort False leaves the rows in visit order."""
    n = len(x)
    ncx = max(1, int(lx * per_r_list // rl))
    ncy = max(1, int(ly * per_r_list // rl))
    if kernel is None:
        kernel = P.fill_neighbors_capped_half if per_r_list == 1 else \
            P.fill_neighbors_capped_half_small_cells
    cw, ch = lx / ncx, ly / ncy
    keys = np.zeros(n, dtype=np.int32)
    elementwise(P.cell_key, n, x, y, keys, cw, ch, ncx, ncy, periodic)
    order = np.argsort(keys, kind="stable").astype(np.int32)
    cell_start = np.full(ncx * ncy, -7, np.int32)
    cell_end = np.full(ncx * ncy, -7, np.int32)
    elementwise(P.cell_bounds, ncx * ncy, cell_start, cell_end, keys[order].astype(np.int32), n)
    xs, ys = np.zeros(n), np.zeros(n)
    elementwise(P.permute_real, n, order, x, xs)
    elementwise(P.permute_real, n, order, y, ys)
    start, count = np.full(n, -1, np.int32), np.full(n, -1, np.int32)
    idx = np.full(n * (cap + 1), -1, np.int32)
    elementwise(kernel, n, x, y, xs, ys, start, count, idx, cap, order, cell_start, cell_end, lx,
                ly, periodic, cw, ch, ncx, ncy, rl * rl)
    if sort:
        elementwise(P.sort_neighbors, n, start, count, idx)
    return start, count, idx


def pack(lst, cap):
    """The capped rows (row i from i * (cap + 1)) packed as NeighborListSpec::packed does: the
    exclusive scan of the counts, then pack_rows; (start, count, idx, row)."""
    start, count, idx = lst
    n = len(count)
    check(np.array_equal(start, np.arange(n) * (cap + 1)), "capped rows (precondition)")
    packed_start, total = exclusive_scan_offsets(count)
    packed_idx = np.full(total, -1, np.int32)
    packed_row = np.full(total, -1, np.int32)
    elementwise(P.pack_rows, n, count, cap, idx, packed_start, packed_idx, packed_row)
    return packed_start, count, packed_idx, packed_row


def newton_forces(x, y, lst, lx, ly, periodic, pot, nchunk, chunk_order=None, kick=None,
                  energy=1):
    """compute_forces_newton over nchunk chunks (in `chunk_order`), then newton_sum_2d, as
    apps/common/newton_buffers.cpp drives them; returns (fx, fy, pe, vir) and the buffers. With
    kick = (vx, vy, m, dt): newton_sum_2d_kick instead, and (fx, fy, pe, vir, vx, vy). With
    energy 0: the pass without energies, then newton_sum_2d_forces (newton_sum_2d_forces_kick
    with kick), pe and vir left NaN."""
    n = len(x)
    start, count, idx, row = pack(lst, 40)
    rlo, rhi = np.zeros(nchunk, np.int32), np.zeros(nchunk, np.int32)
    elementwise(P.newton_ranges, nchunk, start, count, idx, rlo, rhi, n, nchunk)
    plo, phi = np.zeros(nchunk, np.int32), np.zeros(nchunk, np.int32)
    elementwise(P.newton_ranges_packed, nchunk, start, count, idx, plo, phi, n, nchunk)
    check(np.array_equal(plo, rlo) and np.array_equal(phi, rhi),
          "%d chunks: newton_ranges_packed == newton_ranges" % nchunk)
    boff = np.concatenate(([0], np.cumsum(rhi - rlo)[:-1])).astype(np.int32)
    bufs = [np.zeros(int(np.sum(rhi - rlo))) for _ in range(4)]
    elementwise(P.compute_forces_newton, nchunk, x, y, *bufs, rlo, boff, n, nchunk, energy, start,
                count, idx, row, lx, ly, periodic, *pot, order=chunk_order)
    out = [np.full(n, np.nan) for _ in range(4)]
    if energy == 0:
        if kick is not None:
            elementwise(P.newton_sum_2d_forces_kick, nchunk, out[0], out[1], bufs[0], bufs[1],
                        rlo, rhi, boff, n, nchunk, *kick)
            return out + [kick[0], kick[1]], bufs
        elementwise(P.newton_sum_2d_forces, nchunk, out[0], out[1], bufs[0], bufs[1], rlo, rhi,
                    boff, n, nchunk)
        return out, bufs
    if kick is not None:
        elementwise(P.newton_sum_2d_kick, nchunk, *out, *bufs, rlo, rhi, boff, n, nchunk, *kick)
        return out + [kick[0], kick[1]], bufs
    elementwise(P.newton_sum_2d, nchunk, *out, *bufs, rlo, rhi, boff, n, nchunk)
    return out, bufs


def np_lj(x, y, lx, ly, periodic, eps, sigma, rc, shift):
    """Forces, per-particle energies and virials (half of each pair's) by NumPy over all pairs."""
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    if periodic:
        dx, dy = np_min_image(dx, lx), np_min_image(dy, ly)
    r2 = dx * dx + dy * dy
    np.fill_diagonal(r2, np.inf)
    inside = r2 < rc * rc
    sr6 = np.where(inside, (sigma * sigma / r2) ** 3, 0.0)
    uc = 4 * eps * ((sigma / rc) ** 12 - (sigma / rc) ** 6) if shift else 0.0
    u = np.where(inside, 4 * eps * (sr6 * sr6 - sr6) - uc, 0.0)
    w = np.where(inside, 24 * eps * (2 * sr6 * sr6 - sr6), 0.0)  # r . f
    f_over_r2 = w / np.where(inside, r2, 1.0)
    return (np.sum(f_over_r2 * dx, axis=1), np.sum(f_over_r2 * dy, axis=1),
            0.5 * np.sum(u, axis=1), 0.5 * np.sum(w, axis=1))


def check_newton():
    """Half lists (fill_neighbors_capped_half) hold every pair within r_list exactly once,
    periodic and with walls (particles past them); Newton's third law over them
    (compute_forces_newton + newton_sum_2d) gives NumPy's all-pairs forces, energies and virials
    to 1e-12, the same bits whatever order the chunks run in, and leaves the buffers zero."""
    eps, sigma, rc, rl = 1.0, 1.0, 2.5, 2.8
    for label, periodic in [("periodic", 1), ("walls", 0)]:
        # A jittered 16 x 15 lattice (pairs >= 0.8 apart; random_config is slow this dense) in
        # random index order, so the chunks' ranges reach far.
        lx, ly = 17.0, 15.5
        rng = np.random.default_rng(17)
        ix, iy = np.meshgrid(np.arange(16), np.arange(15))
        x = (ix.ravel() + 0.5) * (lx / 16) + rng.uniform(-0.1, 0.1, 240)
        y = (iy.ravel() + 0.5) * (ly / 15) + rng.uniform(-0.1, 0.1, 240)
        perm = rng.permutation(240)
        x, y = x[perm].copy(), y[perm].copy()
        if not periodic:
            x[:4] = np.array([-0.3, lx + 0.2, 0.1, 4.0])
            y[:4] = np.array([3.0, 4.0, -0.35, ly + 0.3])
        near, _ = np_pairs_within(x, y, lx, ly, periodic, rl)
        want = {(i, j) for i, j in zip(*np.nonzero(near)) if i < j}
        start, count, idx = half_list(x, y, lx, ly, periodic, rl, 40)
        check(count.max() <= 40, "%s: half rows fit the capacity (precondition)" % label)
        # Packed (NeighborListSpec::packed): the same rows back to back, each entry's row.
        ps, pc, pi, pr = pack((start, count, idx), 40)
        check(all(np.array_equal(pi[ps[i]:ps[i] + pc[i]], idx[start[i]:start[i] + count[i]]) and
                  np.all(pr[ps[i]:ps[i] + pc[i]] == i) for i in range(len(x))) and
              len(pi) == np.sum(count) and np.all(pi >= 0),
              "%s: pack_rows: the rows in CSR, with their rows" % label)
        pairs = [(min(i, int(j)), max(i, int(j))) for i in range(len(x))
                 for j in idx[start[i]:start[i] + count[i]]]
        check(len(pairs) == len(set(pairs)) and set(pairs) == want,
              "%s: every pair within r_list in exactly one half list" % label)
        # The form for cells of r_list / 2 (the cpu default): the same pair set on its grid,
        # and on cells of r_list the rows of fill_neighbors_capped_half (the same neighbours of
        # each particle; the order differs where x wraps: the wrapped cell's run comes first).
        hs, hc, hi = half_list(x, y, lx, ly, periodic, rl, 40, per_r_list=2)
        small = [(min(i, int(j)), max(i, int(j))) for i in range(len(x))
                 for j in hi[hs[i]:hs[i] + hc[i]]]
        check(hc.max() <= 40 and len(small) == len(set(small)) and set(small) == want,
              "%s: cells of r_list / 2: every pair within r_list in exactly one half list"
              % label)
        rows = half_list(x, y, lx, ly, periodic, rl, 40, sort=False)
        same = half_list(x, y, lx, ly, periodic, rl, 40, sort=False,
                         kernel=P.fill_neighbors_capped_half_small_cells)
        check(all(np.array_equal(rows[k], same[k]) for k in range(2)) and
              all(np.array_equal(np.sort(rows[2][rows[0][i]:rows[0][i] + rows[1][i]]),
                                 np.sort(same[2][same[0][i]:same[0][i] + same[1][i]]))
                  for i in range(len(x))),
              "%s: cells of r_list: fill_neighbors_capped_half_small_cells == "
              "fill_neighbors_capped_half, row for row" % label)
        for shift in (0, 1):
            pot = (eps, sigma, rc * rc, shift)
            ref = np_lj(x, y, lx, ly, periodic, eps, sigma, rc, shift)
            for nchunk in (1, 5):
                got, bufs = newton_forces(x, y, (start, count, idx), lx, ly, periodic, pot, nchunk)
                fscale = max(np.abs(ref[0]).max(), np.abs(ref[1]).max())
                scales = (fscale, fscale, np.abs(ref[2]).max(), np.abs(ref[3]).max())
                worst = max(np.abs(got[k] - ref[k]).max() / scales[k] for k in range(4))
                check(worst <= 1e-12 and np.any(ref[2] != 0),
                      "%s, shift %d, %d chunks: Newton fx, fy, pe, vir == NumPy's to 1e-12 "
                      "(worst %.3g)" % (label, shift, nchunk, worst))
                check(all(not np.any(b) for b in bufs),
                      "%s: newton_sum_2d leaves the buffers zero" % label)
                # The sums and the half-kick in one launch: the bits of the two launches.
                vrng = np.random.default_rng(nchunk)
                v0 = [vrng.normal(0.0, 1.0, len(x)) for _ in range(2)]
                joint, jbufs = newton_forces(x, y, (start, count, idx), lx, ly, periodic, pot,
                                             nchunk, kick=(v0[0].copy(), v0[1].copy(), 1.3,
                                                           0.004))
                vx, vy = v0[0].copy(), v0[1].copy()
                elementwise(P.kick, len(x), vx, vy, got[0], got[1], 1.3, 0.004)
                check(all(np.array_equal(joint[k], got[k]) for k in range(4)) and
                      np.array_equal(joint[4], vx) and np.array_equal(joint[5], vy) and
                      np.any(vx != v0[0]) and all(not np.any(b) for b in jbufs),
                      "%s, %d chunks: newton_sum_2d_kick == newton_sum_2d, kick" %
                      (label, nchunk))
                # Without energies: the same force bits, the energy and virial buffers and
                # outputs untouched; with the kick, the same velocities.
                bare, bbufs = newton_forces(x, y, (start, count, idx), lx, ly, periodic, pot,
                                            nchunk, energy=0)
                check(np.array_equal(bare[0], got[0]) and np.array_equal(bare[1], got[1]) and
                      np.all(np.isnan(bare[2])) and np.all(np.isnan(bare[3])) and
                      not any(np.any(b) for b in bbufs),
                      "%s, %d chunks: energy 0 + newton_sum_2d_forces == the forces of energy 1, "
                      "bit for bit; pe, vir and their buffers untouched" % (label, nchunk))
                bare, bbufs = newton_forces(x, y, (start, count, idx), lx, ly, periodic, pot,
                                            nchunk, kick=(v0[0].copy(), v0[1].copy(), 1.3,
                                                          0.004), energy=0)
                check(all(np.array_equal(bare[k], joint[k]) for k in (0, 1, 4, 5)) and
                      not any(np.any(b) for b in bbufs),
                      "%s, %d chunks: newton_sum_2d_forces_kick == newton_sum_2d_kick's forces "
                      "and velocities" % (label, nchunk))
                if nchunk > 1:
                    again, _ = newton_forces(x, y, (start, count, idx), lx, ly, periodic, pot,
                                             nchunk, chunk_order=range(nchunk - 1, -1, -1))
                    check(all(np.array_equal(again[k], got[k]) for k in range(4)),
                          "%s: chunks run in reverse order give the same bits" % label)


def check_newton_joined_kicks_test():
    """newton_sum_kick_kick_drift (a step's end joined with the next one's start over the chunks
    of a half list, after a force pass without energies): the positions' and velocities' bits of
    newton_sum_2d_forces_kick then kick_drift launched one after the other, with the buffers
    left zero; with test = 1 stale[0] grows by the number of particles that NumPy finds farther
    than sqrt(limit2) (minimum image when periodic) from their saved positions, and with
    test = 0 the flag is left alone."""
    eps, sigma, rc, rl = 1.0, 1.0, 2.5, 2.8
    m, dt, limit2 = 1.3, 0.005, 0.04 ** 2
    lx, ly = 17.0, 15.5
    for periodic in (1, 0):
        # A jittered 16 x 15 lattice whose first column lies on the seam x = 0: those particles
        # sit within 0.004 of it and move towards it, so the drift takes them across (periodic:
        # wraps them).
        rng = np.random.default_rng(23 + periodic)
        ix, iy = np.meshgrid(np.arange(16), np.arange(15))
        ix, iy = ix.ravel(), iy.ravel()
        x = ix * (lx / 16) + rng.uniform(-0.1, 0.1, 240)
        y = (iy + 0.5) * (ly / 15) + rng.uniform(-0.1, 0.1, 240)
        seam = ix == 0
        x[seam] = rng.uniform(-0.004, 0.004, 15)
        vx, vy = rng.normal(0.0, 1.0, 240), rng.normal(0.0, 1.0, 240)
        vx[seam] = np.where(x[seam] < 0, 2.0, -2.0)
        x = np.mod(x, lx) if periodic else x
        perm = rng.permutation(240)
        x, y, vx, vy, seam = (a[perm].copy() for a in (x, y, vx, vy, seam))
        n = len(x)
        start, count, idx, row = pack(half_list(x, y, lx, ly, periodic, rl, 40), 40)
        # The positions of a list build a little off the current ones (across the seam for
        # some: their displacement is small only through the minimum image).
        saved = [np.mod(x + rng.normal(0.0, 0.02, n), lx), y + rng.normal(0.0, 0.02, n)]
        for nchunk in (1, 5):
            rlo, rhi = np.zeros(nchunk, np.int32), np.zeros(nchunk, np.int32)
            elementwise(P.newton_ranges, nchunk, start, count, idx, rlo, rhi, n, nchunk)
            boff = np.concatenate(([0], np.cumsum(rhi - rlo)[:-1])).astype(np.int32)
            filled = [np.zeros(int(np.sum(rhi - rlo))) for _ in range(4)]
            elementwise(P.compute_forces_newton, nchunk, x, y, *filled, rlo, boff, n, nchunk, 0,
                        start, count, idx, row, lx, ly, periodic, eps, sigma, rc * rc, 1)
            check(not np.any(filled[2]) and not np.any(filled[3]) and np.any(filled[0]),
                  "periodic %d, %d chunks: a pass without energies leaves their buffers zero"
                  % (periodic, nchunk))
            for test in (1, 0):
                j = [a.copy() for a in (x, y, vx, vy)]
                a = [c.copy() for c in j] + [np.full(n, np.nan) for _ in range(2)]
                jb, ab = [b.copy() for b in filled[:2]], [b.copy() for b in filled[:2]]
                stale = np.array([5], dtype=np.int32)
                elementwise(P.newton_sum_kick_kick_drift, nchunk, *j, *jb, rlo, rhi, boff, n,
                            nchunk, m, dt, lx, ly, periodic, test, *saved, limit2, stale)
                # x, y, vx, vy, fx, fy: the separate launches.
                elementwise(P.newton_sum_2d_forces_kick, nchunk, *a[4:], *ab, rlo, rhi, boff, n,
                            nchunk, a[2], a[3], m, dt)
                elementwise(P.kick_drift, n, *a[:6], m, dt, lx, ly, periodic)
                check(all(np.array_equal(j[k], a[k]) for k in range(4)) and
                      np.any(a[4] != 0) and np.all(np.isfinite(a[5])) and
                      not np.array_equal(j[2], vx) and not any(np.any(b) for b in jb),
                      "periodic %d, %d chunks, test %d: the joined launch leaves the separate "
                      "launches' state and zero buffers" % (periodic, nchunk, test))
                crossed = int(np.count_nonzero(np.abs(j[0] - x) > lx / 2))
                check(crossed == (int(np.count_nonzero(seam)) if periodic else 0) and
                      (not periodic or np.all((j[0] >= 0) & (j[0] < lx))),
                      "periodic %d, test %d: %d particles wrapped across the seam"
                      % (periodic, test, crossed))
                d = [a[0] - saved[0], a[1] - saved[1]]
                if periodic:
                    d = [np_min_image(d[0], lx), np_min_image(d[1], ly)]
                moved = int(np.count_nonzero(d[0] * d[0] + d[1] * d[1] > limit2))
                want = 5 + (moved if test else 0)
                check(0 < moved < n // 2 and stale[0] == want,
                      "periodic %d, %d chunks, test %d: stale flag %d, want %d (%d of %d moved)"
                      % (periodic, nchunk, test, stale[0], want, moved, n))


def run_nve(x, y, vx, vy, lx, ly, periodic, pot, m, dt, steps, walls=None):
    n = len(x)
    fx, fy, pe, _ = forces_all_pairs(x, y, lx, ly, periodic, pot, walls)
    energies = []
    for _ in range(steps):
        elementwise(P.kick_drift, n, x, y, vx, vy, fx, fy, m, dt, lx, ly, periodic)
        fx, fy, pe, _ = forces_all_pairs(x, y, lx, ly, periodic, pot, walls)
        elementwise(P.kick, n, vx, vy, fx, fy, m, dt)
        ke = reduce_sum(P.kinetic_energy_map, n, vx, vy, m)
        energies.append(ke + reduce_sum(P.potential_energy_map, n, pe))
    return np.array(energies)


def check_integrator():
    """Velocity Verlet: energy conserved, momentum conserved, steps reversible; wrap stays in box."""
    rng = np.random.default_rng(3)
    a, nx = 1.15, 7
    ix, iy = np.meshgrid(np.arange(nx), np.arange(nx))
    x, y = (ix * a + 0.3).ravel().astype(float), (iy * a + 0.3).ravel().astype(float)
    lx = ly = nx * a
    n, m = len(x), 1.7
    vx, vy = rng.normal(0, 0.7, n), rng.normal(0, 0.7, n)
    vx -= vx.mean()
    vy -= vy.mean()
    pot = (1.0, 1.0, 2.5 ** 2, 1)
    x0, y0, vx0, vy0 = x.copy(), y.copy(), vx.copy(), vy.copy()
    e = run_nve(x, y, vx, vy, lx, ly, 1, pot, m, 0.004, 60)
    check(np.std(e) / abs(np.mean(e)) < 2e-4, "NVE: energy fluctuation %.3g" % (np.std(e) / abs(np.mean(e))))
    px = reduce_sum(P.momentum_x_map, n, vx, m)
    py = reduce_sum(P.momentum_y_map, n, vy, m)
    check(abs(px) < 1e-11 and abs(py) < 1e-11, "NVE: momentum stays 0 (%g, %g)" % (px, py))
    check(np.all((x >= 0) & (x < lx) & (y >= 0) & (y < ly)), "NVE: positions wrapped into the box")
    vx *= -1.0
    vy *= -1.0
    run_nve(x, y, vx, vy, lx, ly, 1, pot, m, 0.004, 60)
    dx, dy = np_min_image(x - x0, lx), np_min_image(y - y0, ly)
    check(np.max(np.abs(dx)) < 1e-8 and np.max(np.abs(dy)) < 1e-8,
          "NVE: 60 steps forward and back return to the start (%.3g)" % np.max(np.abs(dx)))
    check(np.allclose(-vx, vx0, atol=1e-8) and np.allclose(-vy, vy0, atol=1e-8),
          "NVE: velocities reverse")
    # Soft walls keep energy too (a gas bouncing off them, like the paper's setup).
    x, y = random_config(25, 8.0, 8.0, 1.0, seed=8, margin=0.6)
    vx, vy = rng.normal(0, 1.0, 25), rng.normal(0, 1.0, 25)
    e = run_nve(x, y, vx, vy, 8.0, 8.0, 0, pot, 1.0, 0.002, 150, walls=(50.0, 0.5))
    check(np.std(e) / abs(np.mean(e)) < 1e-3, "walls: energy fluctuation %.3g" % (np.std(e) / abs(np.mean(e))))
    # The kick and drift kernels are the textbook formulas.
    v, f, xx = np.array([1.0]), np.array([2.0]), np.array([0.5])
    P.kick(0, v, v.copy(), f, f, 4.0, 0.1)
    check(abs(v[0] - (1.0 + 0.5 * 0.1 * 2.0 / 4.0)) < 1e-15, "kick: v += dt/2 f/m")
    P.drift(0, xx, xx.copy(), v, v, 0.1)
    check(abs(xx[0] - (0.5 + 0.1 * v[0])) < 1e-15, "drift: x += dt v")


def check_displacement():
    """displacement2_map measures motion across the periodic seam; save_positions copies."""
    x, y = np.array([9.95, 1.0]), np.array([5.0, 2.0])
    x0, y0 = np.zeros(2), np.zeros(2)
    elementwise(P.save_positions, 2, x, y, x0, y0)
    check(np.array_equal(x0, x) and np.array_equal(y0, y), "save_positions copies positions")
    x[0], y[1] = 0.05, 2.3
    d2 = max(P.displacement2_map(i, x, y, x0, y0, 10.0, 10.0, 1) for i in range(2))
    check(abs(d2 - 0.09) < 1e-12, "max squared displacement is 0.3^2 (got %r)" % d2)


def check_virial_map():
    """virial_map and kinetic_energy_map sum the right arrays."""
    vir, vx, vy = np.array([1.0, -2.5, 4.0]), np.array([1.0, 2.0, 0.0]), np.array([0.0, 1.0, 3.0])
    check(reduce_sum(P.virial_map, 3, vir) == 2.5, "virial_map sums vir[]")
    check(abs(reduce_sum(P.kinetic_energy_map, 3, vx, vy, 2.0) - 15.0) < 1e-15,
          "kinetic_energy_map = sum m v^2 / 2")


CHECKS = {
    "kernel_language": check_kernel_language,
    "min_image": check_min_image,
    "lattice_energy": check_lattice_energy,
    "forces_fd": check_forces_fd,
    "neighbor_lists": check_neighbor_lists,
    "newton": check_newton,
    "newton_joined_kicks_test": check_newton_joined_kicks_test,
    "integrator": check_integrator,
    "displacement": check_displacement,
    "reductions": check_virial_map,
}


def main(argv):
    names = argv[1:] or list(CHECKS)
    for name in names:
        if name not in CHECKS:
            print("unknown check %r; known: %s" % (name, ", ".join(CHECKS)))
            return 2
        CHECKS[name]()
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("ok: " + ", ".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
