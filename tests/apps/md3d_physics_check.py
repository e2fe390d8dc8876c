#!/usr/bin/env python3
"""CPython checks of apps/md3d/physics.py and the shared kernels it imports (apps/common/kernels)
against independent oracles.

The kernels run element by element on NumPy arrays (the kernel language's CPython meaning); the
oracles are written here with NumPy (lattice sums, pair sets, numerical integrals, NumPy's own
random generator, exact distributions), without calling the kernels. Run by hand or by a gtest
wrapper, one check per argument:

    /usr/bin/python3 tests/apps/md3d_physics_check.py [check ...]    # no argument: all checks
"""

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PHYSICS = ROOT / "apps" / "md3d" / "physics.py"
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "apps" / "common" / "kernels"),
                str(ROOT / "apps" / "md3d"), str(Path(__file__).resolve().parent)]
import box as B  # noqa: E402
import md3d_host_reference as H  # noqa: E402
import physics as P  # noqa: E402
import rng as R  # noqa: E402
from kernel_lang_check import check_kernel_file  # noqa: E402

FAILURES = []
PERIODIC, WALLS = 7, 0
BOUNDARIES = [("periodic", 7), ("walls", 0), ("walls on z", 3), ("walls on y", 5)]
# compute_forces' stale flag when the forces must be computed (an unset flag).
FRESH = np.zeros(1, dtype=np.int32)


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


class Pot:
    """Per-type tables as the driver passes them: flattened ntypes x ntypes, symmetric."""

    def __init__(self, eps, sig, rc, shift, masses):
        self.nt = len(masses)
        self.eps = np.array(eps, dtype=float).ravel()
        self.sig = np.array(sig, dtype=float).ravel()
        self.rc = np.array(rc, dtype=float).ravel()
        self.rc2 = self.rc ** 2
        self.shift = shift
        self.eshift = np.zeros(self.nt * self.nt)
        elementwise(P.pair_shift_table, self.nt * self.nt, self.eps, self.sig, self.rc2,
                    self.eshift, shift)
        self.mass = np.array(masses, dtype=float)

    def tables(self):
        return (self.nt, self.eps, self.sig, self.rc2, self.eshift)


LJ1 = Pot([[1.0]], [[1.0]], [[2.5]], 0, [1.0])
# Kob-Andersen: eps AA 1, AB 1.5, BB 0.5; sigma AA 1, AB 0.8, BB 0.88; r_cut 2.5 sigma_ab;
# masses made different here so per-type mass lookups are exercised.
KA_EPS = [[1.0, 1.5], [1.5, 0.5]]
KA_SIG = [[1.0, 0.8], [0.8, 0.88]]
KA_RC = [[2.5, 2.0], [2.0, 2.2]]


def ka(shift, masses=(1.0, 1.7)):
    return Pot(KA_EPS, KA_SIG, KA_RC, shift, list(masses))


class State:
    def __init__(self, pos, box, typ, vel=None):
        self.n = len(pos)
        self.x, self.y, self.z = (np.array(pos[:, k], dtype=float) for k in range(3))
        self.lx, self.ly, self.lz = box
        self.typ = np.asarray(typ, dtype=np.int32)
        v = np.zeros((self.n, 3)) if vel is None else vel
        self.vx, self.vy, self.vz = (np.array(v[:, k], dtype=float) for k in range(3))
        self.fx, self.fy, self.fz, self.pe, self.vir, self.dke = (np.zeros(self.n)
                                                                   for _ in range(6))
        self.ix, self.iy, self.iz = (np.zeros(self.n, dtype=np.int32) for _ in range(3))

    def pos(self):
        return (self.x, self.y, self.z)

    def boxl(self):
        return (self.lx, self.ly, self.lz)

    def copy(self):
        other = State(np.stack(self.pos(), axis=1), self.boxl(), self.typ.copy(),
                      np.stack((self.vx, self.vy, self.vz), axis=1))
        for name in ("fx", "fy", "fz", "pe", "vir", "dke", "ix", "iy", "iz"):
            setattr(other, name, getattr(self, name).copy())
        return other


def forces_all_pairs(s, periodic, pot, walls=None):
    elementwise(P.compute_forces_all_pairs, s.n, *s.pos(), s.fx, s.fy, s.fz, s.pe, s.vir, s.n,
                *s.boxl(), periodic, s.typ, *pot.tables())
    if walls is not None and periodic != 7:
        elementwise(P.apply_walls, s.n, *s.pos(), s.fx, s.fy, s.fz, s.pe, *s.boxl(), periodic,
                    *walls)


def forces_from_list(s, lst, periodic, pot, walls=None):
    start, count, idx = lst[:3]
    stride = lst[3] if len(lst) > 3 else 1
    elementwise(P.compute_forces, s.n, *s.pos(), s.fx, s.fy, s.fz, s.pe, s.vir, start, count,
                idx, stride, *s.boxl(), periodic, s.typ, *pot.tables(), 1, 1, FRESH)
    if walls is not None and periodic != 7:
        elementwise(P.apply_walls, s.n, *s.pos(), s.fx, s.fy, s.fz, s.pe, *s.boxl(), periodic,
                    *walls)


def binned_list(s, periodic, rl, sort=True):
    n = s.n
    nc = [max(1, int(L // rl)) for L in s.boxl()]
    cs = [L / c for L, c in zip(s.boxl(), nc)]
    ncell = nc[0] * nc[1] * nc[2]
    keys = np.zeros(n, dtype=np.int32)
    elementwise(P.cell_key, n, *s.pos(), keys, *cs, *nc, periodic)
    order = np.argsort(keys, kind="stable").astype(np.int32)
    sorted_keys = keys[order].astype(np.int32)
    cell_start = np.full(ncell, 7, dtype=np.int32)  # garbage: clear_cells must reset it
    cell_end = np.full(ncell, 3, dtype=np.int32)
    elementwise(P.clear_cells, ncell, cell_start, cell_end)
    elementwise(P.find_cell_bounds, n, sorted_keys, cell_start, cell_end, n)
    count = np.zeros(n, dtype=np.int32)
    args = (*s.boxl(), periodic, *cs, *nc, rl * rl)
    elementwise(P.count_neighbors, n, *s.pos(), count, order, cell_start, cell_end, *args)
    start, total = exclusive_scan_offsets(count)
    idx = np.full(total, -1, dtype=np.int32)
    elementwise(P.fill_neighbors, n, *s.pos(), start, idx, order, cell_start, cell_end, *args)
    if sort:
        elementwise(P.sort_neighbors, n, start, count, idx)
    return start, count, idx, nc


def all_pairs_list(s, periodic, rl):
    count = np.zeros(s.n, dtype=np.int32)
    elementwise(P.count_neighbors_all_pairs, s.n, *s.pos(), count, s.n, *s.boxl(), periodic,
                rl * rl)
    start, total = exclusive_scan_offsets(count)
    idx = np.full(total, -1, dtype=np.int32)
    elementwise(P.fill_neighbors_all_pairs, s.n, *s.pos(), start, idx, s.n, *s.boxl(), periodic,
                rl * rl)
    return start, count, idx


def total_pe(s):
    return reduce_sum(P.potential_energy_map, s.n, s.pe)


def kinetic(s, pot):
    return reduce_sum(P.kinetic_energy_map, s.n, s.vx, s.vy, s.vz, s.typ, pot.mass)


# ---- independent oracles (NumPy, not the kernels) --------------------------------------------

def np_separations(pos, box, periodic):
    d = pos[:, None, :] - pos[None, :, :]
    for k in range(3):
        if periodic >> k & 1:
            d[..., k] -= box[k] * np.round(d[..., k] / box[k])
    r2 = np.sum(d * d, axis=-1)
    np.fill_diagonal(r2, np.inf)
    return d, r2


def random_config(n, box, min_spacing, seed, periodic, margin=0.0):
    rng = np.random.default_rng(seed)
    lo = np.array([0.0 if periodic >> k & 1 else margin for k in range(3)])
    hi = np.array(box) - lo
    pts = np.zeros((0, 3))
    while len(pts) < n:
        p = rng.uniform(lo, hi)
        d = pts - p
        for k in range(3):
            if periodic >> k & 1:
                d[:, k] -= box[k] * np.round(d[:, k] / box[k])
        if len(pts) == 0 or np.min(np.sum(d * d, axis=1)) >= min_spacing ** 2:
            pts = np.vstack([pts, p])
    return pts


BASES = {"sc": [(0, 0, 0)],
         "bcc": [(0, 0, 0), (0.5, 0.5, 0.5)],
         "fcc": [(0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5)]}
OFFSETS = {"sc": 0.5, "bcc": 0.25, "fcc": 0.25}


def lattice_sites(kind, cells, a):
    """Sites (cell + basis + offset) * a, x fastest, basis fastest of all (README order)."""
    out = []
    for k in range(cells[2]):
        for j in range(cells[1]):
            for i in range(cells[0]):
                for b in BASES[kind]:
                    out.append([(i + b[0] + OFFSETS[kind]) * a, (j + b[1] + OFFSETS[kind]) * a,
                                (k + b[2] + OFFSETS[kind]) * a])
    return np.array(out)


def lattice_vectors(kind, a, rc):
    """Every lattice vector of a Bravais lattice shorter than rc (the origin left out)."""
    m = int(math.ceil(rc / a)) + 1
    g = np.arange(-m, m + 1)
    c = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
    s = ((c[:, None, :] + np.array(BASES[kind], dtype=float)[None]) * a).reshape(-1, 3)
    r = np.linalg.norm(s, axis=1)
    return s[(r > 0) & (r < rc)]


def lj_u(r, eps, sig):
    return 4 * eps * ((sig / r) ** 12 - (sig / r) ** 6)


def lj_rf(r, eps, sig):  # r . f = -r du/dr
    return 24 * eps * (2 * (sig / r) ** 12 - (sig / r) ** 6)


def norm_cdf(z):
    return 0.5 * (1.0 + np.frompyfunc(math.erf, 1, 1)(z / math.sqrt(2.0)).astype(float))


def ks_pvalue(d, n_eff):
    """Asymptotic Kolmogorov distribution: P(sqrt(n) D > t) = 2 sum (-1)^(k-1) exp(-2 k^2 t^2)."""
    t = (math.sqrt(n_eff) + 0.12 + 0.11 / math.sqrt(n_eff)) * d
    if t < 0.2:
        return 1.0
    return max(0.0, min(1.0, 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * t * t)
                                     for k in range(1, 101))))


def ks_one_sample(samples, cdf):
    x = np.sort(samples)
    n = len(x)
    f = cdf(x)
    d = max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(0, n) / n))
    return d, ks_pvalue(d, n)


def ks_two_sample(a, b):
    a, b = np.sort(a), np.sort(b)
    allv = np.concatenate([a, b])
    fa = np.searchsorted(a, allv, side="right") / len(a)
    fb = np.searchsorted(b, allv, side="right") / len(b)
    d = np.max(np.abs(fa - fb))
    return d, ks_pvalue(d, len(a) * len(b) / (len(a) + len(b)))


# ---- checks: language and RNG ----------------------------------------------------------------

def check_kernel_language():
    """physics.py and the kernel files it imports stick to the constructs LANGUAGE.md accepts."""
    check_kernel_file(PHYSICS, lambda msg: check(False, msg))


PHILOX_KAT = [  # Random123's kat_vectors for philox4x32 with 10 rounds: counter, key, output
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def vector_bits(seed, step, ids, stream):
    """random_bits for many ids at once: the kernel's own integer code run on uint64 arrays
    (checked against scalar calls in check_rng_known_answers)."""
    ids = np.asarray(ids, dtype=np.uint64)
    step = np.asarray(step, dtype=np.uint64)
    return R.philox4x32_10(ids & np.uint64(0xFFFFFFFF), np.uint64(stream) + 0 * ids,
                           (step & np.uint64(0xFFFFFFFF)) + 0 * ids, (step >> np.uint64(32)) + 0 * ids,
                           seed & 0xFFFFFFFF, seed >> 32, 0)


def np_uniform(words):
    return (words.astype(float) + 0.5) * 2.0 ** -32


def np_normal(bits):
    u1 = np_uniform(bits >> np.uint64(32))
    u2 = np_uniform(bits & np.uint64(0xFFFFFFFF))
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def check_rng_known_answers():
    """Philox4x32-10 = Random123's known answers; the counter layout and transforms as documented."""
    for ctr, key, want in PHILOX_KAT:
        hi = R.philox4x32_10(*ctr, *key, 0)
        lo = R.philox4x32_10(*ctr, *key, 1)
        got = (hi >> 32, hi & 0xFFFFFFFF, lo >> 32, lo & 0xFFFFFFFF)
        check(got == want, "philox4x32_10%r key %r: %s" % (ctr, key,
                                                           " ".join("%08x" % w for w in got)))
    seed, step, pid, stream = 0x0123456789ABCDEF, 0x00000002_80000001, 77, 2
    want = R.philox4x32_10(pid, stream, 0x80000001, 0x2, 0x89ABCDEF, 0x01234567, 0)
    check(R.random_bits(seed, step, pid, stream) == want,
          "random_bits: counter (id, stream, step lo, step hi), key (seed lo, seed hi)")
    check(R.uniform_from_word(0) == 2.0 ** -33 and R.uniform_from_word(0xFFFFFFFF) == 1 - 2.0 ** -33,
          "uniform_from_word maps 0 and 2^32-1 to 2^-33 and 1 - 2^-33")
    ids = range(300)  # Python ints: NumPy's signed int64 scalars would wrap the 64-bit products
    vb = vector_bits(seed, step, np.arange(300), stream)
    check(all(int(vb[i]) == R.random_bits(seed, step, i, stream) for i in ids),
          "vectorised random_bits == scalar random_bits")
    got = np.array([R.rng_normal(seed, step, i, stream) for i in ids])
    check(np.allclose(got, np_normal(vb), rtol=1e-14, atol=1e-15),
          "rng_normal == Box-Muller of the two words")
    got = np.array([R.rng_uniform(seed, step, i, stream) for i in ids])
    check(np.array_equal(got, np_uniform(vb >> np.uint64(32))), "rng_uniform == high word")


def check_language_typing():
    """The integer code (Philox, image counts) computes the same bits under the kernel
    language's typing as in plain CPython with the masks: smelt._language.language (the
    semantics tests' oracle: declared widths, C's promotion, unsigned wraparound) runs the
    kernels."""
    from smelt._language import language
    old_err = np.seterr(over="ignore")  # unsigned wraparound is the language's meaning
    try:
        keys = [(0, 0, 0, 0), (0x0123456789ABCDEF, 0x2_80000001, 77, 2),
                (2 ** 64 - 1, 2 ** 62, 2 ** 31 - 1, 5), (12345, 678, 199999, 1)]
        for seed, step, pid, stream in keys:
            typed = (np.uint64(seed), np.int64(step), np.int32(pid), np.int32(stream))
            check(int(language(R.random_bits)(*typed)) == R.random_bits(seed, step, pid, stream),
                  "random_bits%r: typed == plain" % ((seed, step, pid, stream),))
            check(float(language(R.rng_normal)(*typed)) == R.rng_normal(seed, step, pid, stream),
                  "rng_normal%r: typed == plain" % ((seed, step, pid, stream),))
        for ctr, key, want in PHILOX_KAT:
            args = [np.uint32(v) for v in ctr + key]
            got = int(language(R.philox4x32_10)(*args, np.int32(0)))
            check(got == want[0] << 32 | want[1], "typed philox4x32_10 known answer %r" % (ctr,))
        for a in (-1e-17, -7.3, 0.0, 3.7, 7.4, 100.3, -1e9):
            check(int(language(B.image_shift)(np.float64(a), np.float64(3.7))) ==
                  B.image_shift(a, 3.7), "image_shift(%r): typed == plain" % a)
    finally:
        np.seterr(**old_err)


def check_rng_statistics():
    """Uniform and normal draws against the exact distributions; independence across ids, steps,
    streams and seeds. Thresholds are ~5 sigma (the draws are deterministic: no flakiness)."""
    n = 200_000
    ids = np.arange(n)
    bits = vector_bits(12345, 678, ids, 0)
    u = np_uniform(bits >> np.uint64(32))
    check(np.all((u > 0) & (u < 1)), "uniforms in (0, 1)")
    check(abs(u.mean() - 0.5) < 5 * math.sqrt(1 / 12 / n), "uniform mean %.5f" % u.mean())
    check(abs(u.var() - 1 / 12) < 5 * math.sqrt(1 / 180 / n), "uniform variance %.5f" % u.var())
    d, p = ks_one_sample(u, lambda x: x)
    check(p > 1e-4, "uniform KS D=%.2e p=%.3g" % (d, p))
    # Every output bit is a fair coin.
    b = np.array([(bits >> np.uint64(k)) & np.uint64(1) for k in range(64)], dtype=float)
    worst = np.max(np.abs(b.mean(axis=1) - 0.5)) / math.sqrt(0.25 / n)
    check(worst < 5.5, "each of the 64 bits is set half the time (worst %.1f sigma)" % worst)
    z = np_normal(bits)
    m1, m2 = z.mean(), z.var()
    m3, m4 = np.mean((z - m1) ** 3), np.mean((z - m1) ** 4)
    check(abs(m1) < 5 / math.sqrt(n), "normal mean %.4f" % m1)
    check(abs(m2 - 1) < 5 * math.sqrt(2 / n), "normal variance %.4f" % m2)
    check(abs(m3) < 5 * math.sqrt(15 / n), "normal third moment %.4f" % m3)
    check(abs(m4 - 3) < 5 * math.sqrt(96 / n), "normal fourth moment %.4f (3)" % m4)
    d, p = ks_one_sample(z, norm_cdf)
    check(p > 1e-4, "normal KS D=%.2e p=%.3g" % (d, p))
    # Independence: neighbouring ids, steps, streams and seeds are uncorrelated, and pairs of
    # uniforms from neighbouring ids fill a 16 x 16 grid evenly (chi-square, 255 dof).
    others = {"id + 1": np_normal(vector_bits(12345, 678, ids + 1, 0)),
              "step + 1": np_normal(vector_bits(12345, 679, ids, 0)),
              "stream + 1": np_normal(vector_bits(12345, 678, ids, 1)),
              "seed + 1": np_normal(vector_bits(12346, 678, ids, 0)),
              "step + 2^32": np_normal(vector_bits(12345, 678 + 2 ** 32, ids, 0))}
    for label, w in others.items():
        c = np.corrcoef(z, w)[0, 1]
        check(abs(c) < 5 / math.sqrt(n), "corr(draw, draw at %s) = %.4f" % (label, c))
        check(not np.array_equal(z[:100], w[:100]), "draws at %s differ" % label)
    u2 = np_uniform(vector_bits(12345, 678, ids + 1, 0) >> np.uint64(32))
    h, _, _ = np.histogram2d(u, u2, bins=16, range=[[0, 1], [0, 1]])
    chi2 = np.sum((h - n / 256) ** 2 / (n / 256))
    check(abs(chi2 - 255) < 5 * math.sqrt(2 * 255), "2D uniformity chi2 = %.1f (255 dof)" % chi2)


def check_bussi():
    """The host's chi-square draw matches NumPy's chi-square; Bussi's K update leaves the
    canonical kinetic-energy distribution (Gamma(Nf/2, kT)) stationary."""
    for nu, count in [(1, 1500), (2, 1500), (7, 1500), (60, 1000), (3000, 600)]:
        ours = np.array([H.chi_square(nu, 99, s) for s in range(count)])
        ref = np.random.default_rng(nu).chisquare(nu, 20000)
        d, p = ks_two_sample(ours, ref)
        check(p > 1e-4, "chi_square(%d) vs NumPy: KS D=%.3f p=%.3g" % (nu, d, p))
        check(abs(ours.mean() - nu) < 5 * math.sqrt(2 * nu / count),
              "chi_square(%d) mean %.3f" % (nu, ours.mean()))
    check(H.chi_square(0, 1, 1) == 0.0, "chi_square(0) = 0")
    # Markov chain on K alone: K <- alpha^2 K. Stationary law Gamma(shape Nf/2, scale kT).
    nf, kT, dt, tau = 24, 1.3, 0.005, 0.05
    k, ks = 0.2 * nf * kT, []
    for step in range(6000):
        k *= H.bussi_alpha(k, kT, nf, dt, tau, 2024, step) ** 2
        if step >= 500:
            ks.append(k)
    ks = np.array(ks)
    tau_steps = tau / dt  # correlation time of K in steps
    n_eff = len(ks) / (2 * tau_steps)
    mean_ref, var_ref = nf * kT / 2, nf * kT * kT / 2
    check(abs(ks.mean() - mean_ref) < 5 * math.sqrt(var_ref / n_eff),
          "Bussi: <K> = %.3f, canonical %.3f" % (ks.mean(), mean_ref))
    check(abs(ks.var() / var_ref - 1) < 0.3,
          "Bussi: var K = %.3f, canonical %.3f" % (ks.var(), var_ref))
    # tau -> 0 (c = 0): K is drawn afresh from Gamma(Nf/2, kT) every step.
    fresh = np.array([H.bussi_alpha(3.0, kT, nf, dt, 1e-6, 7, s) ** 2 * 3.0 for s in range(1500)])
    ref = np.random.default_rng(5).gamma(nf / 2, kT, 20000)
    d, p = ks_two_sample(fresh, ref)
    check(p > 1e-4, "Bussi with tau -> 0: K ~ Gamma(Nf/2, kT), KS p=%.3g" % p)
    # tau -> infinity: no scaling; K = 0: nothing to scale.
    check(abs(H.bussi_alpha(3.0, kT, nf, dt, 1e12, 7, 3) - 1) < 1e-6, "Bussi: tau -> inf gives 1")
    check(H.bussi_alpha(0.0, kT, nf, dt, tau, 7, 3) == 1.0, "Bussi: K = 0 gives 1")


def check_tail():
    """Tail corrections = the integrals 2 pi / V sum_ab N_a N_b int_rc^inf r^2 u_ab dr (energy)
    and -2 pi / (3 V^2) sum_ab N_a N_b int_rc^inf r^3 u'_ab dr (pressure), done numerically."""
    def integrals(eps, sig, rc):
        t = np.linspace(0.0, 1.0, 400001)[1:]  # r = rc / t: int_rc^inf f dr = int_0^1 f rc/t^2 dt
        r = rc / t
        jac = rc / t ** 2
        u = lj_u(r, eps, sig)
        du = -lj_rf(r, eps, sig) / r
        trapezoid = getattr(np, "trapezoid", None) or np.trapz  # NumPy 2 renamed trapz
        return (trapezoid(r ** 2 * u * jac, t), trapezoid(r ** 3 * du * jac, t))
    counts, vol = [800, 200], 1000 / 1.2
    u, p = H.lj_tail(counts, vol, KA_EPS, KA_SIG, KA_RC)
    u_ref = p_ref = 0.0
    for a in range(2):
        for b in range(2):
            iu, ip = integrals(KA_EPS[a][b], KA_SIG[a][b], KA_RC[a][b])
            u_ref += 2 * math.pi / vol * counts[a] * counts[b] * iu
            p_ref += -2 * math.pi / (3 * vol ** 2) * counts[a] * counts[b] * ip
    check(abs(u / u_ref - 1) < 1e-6 and abs(p / p_ref - 1) < 1e-6,
          "KA tail: U %.8g vs %.8g, P %.8g vs %.8g" % (u, u_ref, p, p_ref))
    # One type at the NIST state point (rho 0.776, rc 3): the closed forms of the README,
    # U/N = (8/3) pi rho [x^9/3 - x^3], P = (16/3) pi rho^2 [2 x^9/3 - x^3], x = sigma/rc.
    u, p = H.lj_tail([500], 500 / 0.776, [[1.0]], [[1.0]], [[3.0]])
    iu, ip = integrals(1.0, 1.0, 3.0)
    check(abs(u / 500 - 2 * math.pi * 0.776 * iu) < 1e-9 and
          abs(p + 2 * math.pi / 3 * 0.776 ** 2 * ip) < 1e-9,
          "one-type tail at rho 0.776, rc 3: U/N %.6f, P %.6f" % (u / 500, p))


# ---- checks: geometry ------------------------------------------------------------------------

def check_box():
    """min_image, wrap_coord, image counts: the wrapped position plus the image count times L is
    the unwrapped position, also at the rounding edge -1e-17; wrapping is idempotent."""
    L = 3.7
    d = np.concatenate([np.linspace(-20, 20, 801), [L / 2, -L / 2, 0.0]])
    got = np.array([B.min_image(v, L) for v in d])
    k = (d - got) / L
    check(np.all(np.abs(got) <= L / 2 + 1e-12) and np.allclose(k, np.round(k), atol=1e-9),
          "min_image: |d| <= L/2 and differs by a multiple of L")
    # min_image_wrapped: for wrapped a, b the separation in [-L/2, L/2) that NumPy's rounding
    # gives, without a floor; an axis with walls (half = inf) keeps d.
    ab = np.random.default_rng(2).uniform(0, L, (2, 2000))
    ab[:, :4] = [[0.0, L / 2, np.nextafter(L, 0), 0.3], [L / 2, 0.0, 0.0, 0.3]]
    d = ab[0] - ab[1]
    got = np.array([B.min_image_wrapped(v, L, B.half_length(L, 1)) for v in d])
    want = d - L * np.round(d / L)
    want[want >= L / 2] -= L
    check(np.all((got >= -L / 2) & (got < L / 2)) and np.array_equal(got, want),
          "min_image_wrapped: the image in [-L/2, L/2) of a difference of wrapped coordinates")
    check(all(B.min_image_wrapped(v, L, B.half_length(L, 0)) == v for v in d),
          "min_image_wrapped on an axis with walls: d unchanged")
    a = np.concatenate([np.random.default_rng(1).uniform(-30, 30, 500),
                        [-1e-17, -1e-300, 0.0, L, 2 * L - 1e-15, -L, -3 * L + 1e-16]])
    x = a.copy()
    img = np.full(len(a), 5, dtype=np.int32)
    elementwise(B.wrap_axis, len(a), x, img, L)
    check(np.all((x >= 0) & (x < L)), "wrap_axis: positions in [0, L)")
    check(np.allclose(x + (img - 5) * L, a, rtol=0, atol=1e-12),
          "wrap_axis: wrapped + image * L == unwrapped (image counts added to the old ones)")
    x2, img2 = x.copy(), img.copy()
    elementwise(B.wrap_axis, len(a), x2, img2, L)
    check(np.array_equal(x2, x) and np.array_equal(img2, img), "wrap_axis is idempotent")
    # wrap_axis leaves a coordinate in [0, L) alone instead of dividing: wrap_coord and
    # image_shift give it back unchanged with no image, also where a / L rounds up to 1, so the
    # shortcut has their bits; outside [0, L) it is their result, bit for bit.
    inside = np.concatenate([np.random.default_rng(3).uniform(0, L, 500),
                             [0.0, 5e-324, 1e-300, L / 2, np.nextafter(L, 0),
                              np.nextafter(np.nextafter(L, 0), 0)]])
    check(all(B.wrap_coord(v, L) == v and B.image_shift(v, L) == 0 for v in inside),
          "wrap_coord(a) == a and image_shift(a) == 0 for a in [0, L)")
    outside = np.concatenate([a, -inside[inside > 0], inside + L, [L, 2 * L - 1e-15,
                              np.nextafter(2 * L, 0), np.nextafter(-L, 0), -L]])
    for vals in (inside, outside):
        x = vals.copy()
        img = np.full(len(vals), 5, dtype=np.int32)
        elementwise(B.wrap_axis, len(vals), x, img, L)
        want_x = np.array([B.wrap_coord(v, L) for v in vals])
        want_img = np.array([5 + B.image_shift(v, L) for v in vals], dtype=np.int32)
        check(np.array_equal(x.view(np.int64), want_x.view(np.int64)) and
              np.array_equal(img, want_img),
              "wrap_axis == wrap_coord and 5 + image_shift, bit for bit (%d values)" % len(vals))
    check([B.axis_periodic(m, k) for m in (0, 3, 5, 7) for k in range(3)] ==
          [0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1], "axis_periodic reads bits x=0, y=1, z=2")
    # wrap_positions touches only the periodic axes.
    s = State(np.array([[-0.5, 4.0, 9.0]]), (3.0, 3.0, 3.0), [0])
    elementwise(P.wrap_positions, 1, *s.pos(), s.ix, s.iy, s.iz, *s.boxl(), 5)
    check(abs(s.x[0] - 2.5) < 1e-15 and s.y[0] == 4.0 and abs(s.z[0] - 0.0) < 1e-12 and
          (s.ix[0], s.iy[0], s.iz[0]) == (-1, 0, 3), "wrap_positions with mask 5 (x, z periodic)")


def check_lattice_energy():
    """Perfect sc/bcc/fcc lattices (periodic): energy and virial per particle = lattice sums,
    forces vanish; the known fcc value at rho 0.8442; a two-type rock-salt arrangement."""
    cases = [("sc", 5, 1.05, 2.5, 0), ("bcc", 4, 1.3, 2.5, 1), ("fcc", 3, (4 / 0.8442) ** (1 / 3),
                                                                  2.5, 0),
             ("fcc", 3, 1.6, 2.3, 1)]
    for kind, nc, a, rc, shift in cases:
        pot = Pot([[1.0]], [[1.0]], [[rc]], shift, [1.0])
        s = State(lattice_sites(kind, (nc, nc, nc), a), (nc * a,) * 3, np.zeros(0))
        s.typ = np.zeros(s.n, dtype=np.int32)
        check(rc < nc * a / 2, "%s: cutoff below half the box (precondition)" % kind)
        forces_all_pairs(s, PERIODIC, pot)
        r = np.linalg.norm(lattice_vectors(kind, a, rc), axis=1)
        e_ref = 0.5 * np.sum(lj_u(r, 1, 1) - (lj_u(rc, 1, 1) if shift else 0))
        w_ref = 0.5 * np.sum(lj_rf(r, 1, 1))
        tag = "%s a=%.4f rc=%g shift=%d" % (kind, a, rc, shift)
        check(np.allclose(s.pe, e_ref, rtol=1e-12, atol=1e-12),
              "%s: energy per particle %r vs lattice sum %r" % (tag, s.pe[0], e_ref))
        check(np.allclose(s.vir, w_ref, rtol=1e-12, atol=1e-12),
              "%s: virial per particle %r vs lattice sum %r" % (tag, s.vir[0], w_ref))
        fmax = max(np.max(np.abs(f)) for f in (s.fx, s.fy, s.fz))
        check(fmax < 1e-10, "%s: forces vanish by symmetry (max %g)" % (tag, fmax))
        if kind == "fcc" and rc == 2.5:
            check(abs(e_ref - (-6.773368053)) < 5e-10 and abs(s.pe[0] - (-6.773368053)) < 5e-10,
                  "fcc rho 0.8442 rc 2.5: U/N = %.9f (exact -6.773368053)" % s.pe[0])
            r3 = np.linalg.norm(lattice_vectors(kind, a, 3.0), axis=1)
            check(abs(0.5 * np.sum(lj_u(r3, 1, 1)) - (-6.936163098)) < 5e-10,
                  "fcc rho 0.8442 rc 3.0 lattice sum = -6.936163098")
    # Rock salt: an sc lattice whose sites alternate between two types (i + j + k even / odd).
    a, nc = 1.1, 6
    pot = ka(0)
    s = State(lattice_sites("sc", (nc, nc, nc), a), (nc * a,) * 3, np.zeros(0))
    ijk = np.round(s.x / a - 0.5) + np.round(s.y / a - 0.5) + np.round(s.z / a - 0.5)
    s.typ = (ijk % 2).astype(np.int32)
    forces_all_pairs(s, PERIODIC, pot)
    vec = lattice_vectors("sc", a, 3.0)
    odd = (np.round(vec / a).sum(axis=1) % 2).astype(int)
    r = np.linalg.norm(vec, axis=1)
    for t in (0, 1):
        other = np.where(odd == 1, 1 - t, t)
        e = eps_ = np.array(KA_EPS)[t, other]
        sg = np.array(KA_SIG)[t, other]
        rc = np.array(KA_RC)[t, other]
        inside = r < rc
        e_ref = 0.5 * np.sum(lj_u(r[inside], e[inside], sg[inside]))
        del eps_
        check(np.allclose(s.pe[s.typ == t], e_ref, rtol=1e-12),
              "rock salt type %d: energy %r vs lattice sum %r" % (t, s.pe[s.typ == t][0], e_ref))


# ---- checks: forces --------------------------------------------------------------------------

def fd_case(label, periodic, pot, walls, seed):
    box = (6.2, 5.6, 5.3)
    # Wall axes: positions from -0.1 to L + 0.1, so some particles feel the walls, some from
    # past them.
    pos = random_config(26, box, 0.8, seed, periodic, margin=-0.1)
    typ = np.random.default_rng(seed).integers(0, pot.nt, 26)
    s = State(pos, box, typ)
    if walls is not None:
        near = [np.sum((c < 0.5) | (c > L - 0.5)) for k, (c, L) in enumerate(zip(s.pos(), box))
                if not periodic >> k & 1]
        check(min(near) >= 2, label + ": particles within the walls' range (precondition)")
    _, r2 = np_separations(np.stack(s.pos(), 1), box, periodic)
    rcmat = pot.rc.reshape(pot.nt, pot.nt)[s.typ[:, None], s.typ[None, :]]
    finite = np.isfinite(r2)
    check(np.min(np.abs(np.sqrt(r2[finite]) - rcmat[finite])) > 1e-4,
          label + ": no pair sits on its cutoff (precondition)")
    forces_all_pairs(s, periodic, pot, walls)
    f = (s.fx.copy(), s.fy.copy(), s.fz.copy())
    h, worst = 1e-5, 0.0
    for i in range(0, 26, 2):
        for k, coord in enumerate(s.pos()):
            keep = coord[i]
            coord[i] = keep + h
            forces_all_pairs(s, periodic, pot, walls)
            up = total_pe(s)
            coord[i] = keep - h
            forces_all_pairs(s, periodic, pot, walls)
            down = total_pe(s)
            coord[i] = keep
            fd = -(up - down) / (2 * h)
            worst = max(worst, abs(fd - f[k][i]) / max(1.0, abs(f[k][i])))
    check(worst < 1e-5, "%s: |F - (-dU/dx)| / max(1,|F|) = %.3g" % (label, worst))
    return s


def check_forces_fd():
    """Forces = -grad U by central differences, every boundary mode, one and two types, shifted
    and not, with particles inside (and past) the soft walls."""
    walls = (50.0, 0.5)
    one = Pot([[1.0]], [[1.0]], [[2.5]], 1, [1.0])
    cases = [("periodic 1 type shifted", 7, one), ("periodic KA", 7, ka(0)),
             ("walls KA shifted", 0, ka(1)), ("walls on z KA", 3, ka(0)),
             ("walls on y 1 type", 5, one)]
    for label, periodic, pot in cases:
        fd_case(label, periodic, pot, None if periodic == 7 else walls, seed=4 + periodic)


def check_momentum():
    """Pair forces sum to zero (Newton's third law through the full list) in every mode; walls
    push only along their axes and only inward."""
    pot = ka(1)
    for label, periodic in BOUNDARIES:
        s = State(random_config(40, (6.0, 6.5, 7.0), 0.8, 11, periodic), (6.0, 6.5, 7.0),
                  np.arange(40) % 2)
        forces_all_pairs(s, periodic, pot)
        tot = [math.fsum(f) for f in (s.fx, s.fy, s.fz)]
        scale = max(np.max(np.abs(s.fx)), 1.0)
        check(max(abs(t) for t in tot) < 1e-12 * scale * s.n,
              "%s: sum of pair forces %r" % (label, tot))
    s = State(np.array([[-0.2, 0.1, 2.0], [2.0, 2.0, 3.9]]), (4.0, 4.0, 4.0), [0, 0])
    elementwise(P.apply_walls, 2, *s.pos(), s.fx, s.fy, s.fz, s.pe, *s.boxl(), 6, 50.0, 0.5)
    check(abs(s.fx[0] - 50 * 0.7) < 1e-12 and s.fy[0] == 0 and s.fz[0] == 0,
          "wall on x only (mask 6): particle past the wall pushed back with k (range - d)")
    check(abs(s.pe[0] - 0.5 * 50 * 0.49) < 1e-12 and s.fx[1] == 0 and s.pe[1] == 0,
          "wall energy 1/2 k (range - d)^2; no force on periodic axes or outside the range")


def check_neighbor_lists():
    """Binned lists == all-pairs lists == NumPy's pair set in every boundary mode (with particles
    past the walls); sorted lists give the all-pairs forces bit for bit."""
    pot = ka(1)
    rl = 2.8
    for label, periodic in BOUNDARIES:
        box = (8.7, 9.1, 8.5)
        pos = random_config(120, box, 0.85, 21, periodic)
        for k in range(3):
            if not periodic >> k & 1:
                pos[k, k] = -0.3
                pos[k + 3, k] = box[k] + 0.2
        s = State(pos, box, np.arange(120) % 2)
        _, r2 = np_separations(pos, box, periodic)
        want = r2 < rl * rl
        binned = binned_list(s, periodic, rl, sort=False)
        brute = all_pairs_list(s, periodic, rl)
        check(all(c >= 3 for c, k in zip(binned[3], range(3)) if periodic >> k & 1),
              label + ": at least 3 cells per periodic axis (precondition)")
        for name, (start, count, idx) in [("binned", binned[:3]), ("all pairs", brute)]:
            ok = all(len(idx[start[i]:start[i] + count[i]]) == len(set(
                idx[start[i]:start[i] + count[i]].tolist())) and
                set(idx[start[i]:start[i] + count[i]].tolist()) ==
                set(np.nonzero(want[i])[0].tolist()) for i in range(s.n))
            check(ok, "%s %s: neighbour sets equal NumPy's" % (label, name))
            check(start[0] == 0 and np.all(start[1:] == start[:-1] + count[:-1]),
                  "%s %s: CSR offsets are the exclusive scan" % (label, name))
        start, count, idx = binned[:3]
        elementwise(P.sort_neighbors, s.n, start, count, idx)
        check(np.array_equal(idx, brute[2]), "%s: sorted binned list == all-pairs list" % label)
        ref = s.copy()
        forces_all_pairs(ref, periodic, pot)
        forces_from_list(s, (start, count, idx), periodic, pot)
        same = all(np.array_equal(getattr(s, a), getattr(ref, a))
                   for a in ("fx", "fy", "fz", "pe", "vir"))
        check(same, "%s: forces from the sorted list == all-pairs forces, bit for bit" % label)
        chunked = s.copy()
        elementwise(P.compute_forces_chunked, s.n, *chunked.pos(), chunked.fx, chunked.fy,
                    chunked.fz, chunked.pe, chunked.vir, start, count, idx, 1, *s.boxl(),
                    periodic, s.typ, *pot.tables())
        same = all(np.array_equal(getattr(chunked, a), getattr(ref, a))
                   for a in ("fx", "fy", "fz", "pe", "vir"))
        check(same, "%s: compute_forces_chunked == all-pairs forces, bit for bit" % label)
        # One type (its own branch of the chunked loop), with a shifted potential.
        one = State(pos, box, np.zeros(120, dtype=np.int32))
        lj1 = Pot([[1.0]], [[1.0]], [[2.5]], 1, [1.0])
        ref1, got1 = one.copy(), one.copy()
        forces_all_pairs(ref1, periodic, lj1)
        elementwise(P.compute_forces_chunked, s.n, *got1.pos(), got1.fx, got1.fy, got1.fz,
                    got1.pe, got1.vir, start, count, idx, 1, *s.boxl(), periodic, one.typ,
                    *lj1.tables())
        same = all(np.array_equal(getattr(got1, a), getattr(ref1, a))
                   for a in ("fx", "fy", "fz", "pe", "vir"))
        check(same and np.any(ref1.pe != 0), "%s: compute_forces_chunked with one type == "
              "all-pairs forces, bit for bit" % label)
        # One pass into rows of fixed capacity, with cell_bounds' bounds: a capacity below the
        # longest list still counts every neighbour; with room, the sorted rows are the
        # all-pairs lists.
        nc, cs = binned[3], [L / c for L, c in zip(s.boxl(), binned[3])]
        keys = np.zeros(s.n, dtype=np.int32)
        elementwise(P.cell_key, s.n, *s.pos(), keys, *cs, *nc, periodic)
        order = np.argsort(keys, kind="stable").astype(np.int32)
        ncell = nc[0] * nc[1] * nc[2]
        cell_start, cell_end = np.full(ncell, -7, np.int32), np.full(ncell, -7, np.int32)
        sorted_keys = keys[order].astype(np.int32)
        elementwise(P.cell_bounds, ncell, cell_start, cell_end, sorted_keys, s.n)
        check(np.array_equal(cell_start, np.searchsorted(sorted_keys, np.arange(ncell))) and
              np.array_equal(cell_end, np.searchsorted(sorted_keys, np.arange(1, ncell + 1))),
              "%s: cell_bounds == NumPy's searchsorted" % label)
        for cap in (3, int(count.max())):
            cstart = np.full(s.n, -1, np.int32)
            ccount = np.full(s.n, -1, np.int32)
            cidx = np.full(s.n * (cap + 1), -1, np.int32)
            by_cell = [np.zeros(s.n) for _ in range(3)]
            for a in range(3):
                elementwise(P.permute_real, s.n, order, s.pos()[a], by_cell[a])
            elementwise(P.fill_neighbors_capped, s.n, *s.pos(), *by_cell, cstart, ccount, cidx,
                        cap, order, cell_start, cell_end, *s.boxl(), periodic, *cs, *nc, rl * rl)
            check(np.array_equal(cstart, np.arange(s.n) * (cap + 1)) and
                  np.array_equal(ccount, count),
                  "%s: fill_neighbors_capped (cap %d): row starts and full counts" % (label, cap))
            # The GPU form: the same starts and counts, and the same rows where they fit.
            gstart, gcount = np.full(s.n, -1, np.int32), np.full(s.n, -1, np.int32)
            gidx = np.full(s.n * (cap + 1), -1, np.int32)
            elementwise(P.fill_neighbors_capped_pairwise, s.n, *s.pos(), *by_cell, gstart, gcount,
                        gidx, cap, 1, 1, order, cell_start, cell_end, *s.boxl(), periodic, *cs,
                        *nc, rl * rl)
            fits = [i for i in range(s.n) if count[i] <= cap]
            check(np.array_equal(gstart, cstart) and np.array_equal(gcount, ccount) and
                  all(np.array_equal(gidx[cstart[i]:cstart[i] + count[i]],
                                     cidx[cstart[i]:cstart[i] + count[i]]) for i in fits),
                  "%s: fill_neighbors_capped_pairwise (cap %d) == the chunked form" % (label, cap))
            # Interleaved rows (stride n): row i starts at i, entry k at i + k n.
            tstart, tcount = np.full(s.n, -1, np.int32), np.full(s.n, -1, np.int32)
            tidx = np.full(s.n * (cap + 1), -1, np.int32)
            elementwise(P.fill_neighbors_capped_pairwise, s.n, *s.pos(), *by_cell, tstart, tcount,
                        tidx, cap, s.n, 1, order, cell_start, cell_end, *s.boxl(), periodic,
                        *cs, *nc, rl * rl)
            check(np.array_equal(tstart, np.arange(s.n)) and np.array_equal(tcount, ccount) and
                  all(np.array_equal(tidx[i:i + count[i] * s.n:s.n],
                                     cidx[cstart[i]:cstart[i] + count[i]]) for i in fits),
                  "%s: interleaved rows (stride n, cap %d) == the chunked rows" % (label, cap))
            if cap >= count.max():
                inter = s.copy()
                forces_from_list(inter, (tstart, tcount, tidx, s.n), periodic, pot)
                unsorted = s.copy()
                forces_from_list(unsorted, (cstart, ccount, cidx), periodic, pot)
                check(all(np.array_equal(getattr(inter, a), getattr(unsorted, a))
                          for a in ("fx", "fy", "fz", "pe", "vir")),
                      "%s: forces from interleaved rows == from the same rows at stride 1" % label)
                # Rows split over 4 lanes: lane l of i holds every 4th candidate of each run
                # from the l-th; together the same neighbours, and the same forces to rounding.
                lanes = 4
                lcap = lanes * (cap + 1)
                lstart = np.full(s.n, -1, np.int32)
                lcount = np.full(s.n * lanes, -1, np.int32)
                lidx = np.full(s.n * (lcap + 1), -1, np.int32)
                elementwise(P.fill_neighbors_capped_pairwise, s.n * lanes, *s.pos(), *by_cell,
                            lstart, lcount, lidx, lcap, s.n, lanes, order, cell_start, cell_end,
                            *s.boxl(), periodic, *cs, *nc, rl * rl)
                lrows = [sorted(lidx[i + (l + lanes * q) * s.n] for l in range(lanes)
                                for q in range(lcount[i * lanes + l])) for i in range(s.n)]
                check(np.array_equal(lstart, np.arange(s.n)) and
                      all(lrows[i] == sorted(cidx[cstart[i]:cstart[i] + count[i]])
                          for i in range(s.n)),
                      "%s: rows split over %d lanes hold the chunked rows' neighbours"
                      % (label, lanes))
                parts = [np.zeros(s.n * lanes) for _ in range(5)]
                elementwise(P.compute_forces, s.n * lanes, *s.pos(), *parts, lstart, lcount, lidx,
                            s.n, *s.boxl(), periodic, s.typ, *pot.tables(), lanes, 1, FRESH)
                split = [np.zeros(s.n) for _ in range(5)]
                elementwise(P.sum_lanes, s.n, *split, *parts, lanes, 1)
                # The lanes' sum fused with the closing kick: the same bits as the two launches.
                kicked = s.copy()
                fused = [np.zeros(s.n) for _ in range(5)]
                elementwise(P.sum_lanes_kick, s.n, kicked.vx, kicked.vy, kicked.vz, *fused,
                            *parts, lanes, 1, s.typ, pot.mass, 0.005)
                apart = s.copy()
                elementwise(P.kick, s.n, apart.vx, apart.vy, apart.vz, *split[:3], s.typ,
                            pot.mass, 0.005)
                check(all(np.array_equal(a, b) for a, b in zip(fused, split)) and
                      all(np.array_equal(getattr(kicked, v), getattr(apart, v))
                          for v in ("vx", "vy", "vz")),
                      "%s: sum_lanes_kick == sum_lanes then kick, bit for bit" % label)
                check(all(np.allclose(split[k], getattr(unsorted, a), rtol=0,
                                      atol=1e-12 * np.abs(getattr(unsorted, a)).max())
                          for k, a in enumerate(("fx", "fy", "fz", "pe", "vir"))),
                      "%s: forces over %d lanes == over whole rows, to rounding" % (label, lanes))
        elementwise(P.sort_neighbors, s.n, cstart, ccount, cidx)
        check(all(np.array_equal(cidx[cstart[i]:cstart[i] + count[i]],
                                 brute[2][brute[0][i]:brute[0][i] + count[i]]) for i in range(s.n)),
              "%s: sorted capped rows == all-pairs lists" % label)
        capped = s.copy()
        forces_from_list(capped, (cstart, ccount, cidx), periodic, pot)
        same = all(np.array_equal(getattr(capped, a), getattr(ref, a))
                   for a in ("fx", "fy", "fz", "pe", "vir"))
        check(same, "%s: forces from the sorted capped list == all-pairs forces" % label)
        # A launch queued behind a displacement test that finds the list stale writes nothing.
        for flag, computes in ((1, False), (3, False), (0, True)):
            skipped = s.copy()
            for a in ("fx", "fy", "fz", "pe", "vir"):
                getattr(skipped, a)[:] = 7.0
            elementwise(P.compute_forces, s.n, *skipped.pos(), skipped.fx, skipped.fy, skipped.fz,
                        skipped.pe, skipped.vir, cstart, ccount, cidx, 1, *s.boxl(), periodic,
                        s.typ, *pot.tables(), 1, 1, np.array([flag], dtype=np.int32))
            untouched = all((getattr(skipped, a) == 7.0).all()
                            for a in ("fx", "fy", "fz", "pe", "vir"))
            check(untouched != computes, "%s: compute_forces with the stale flag %d %s"
                  % (label, flag, "computes" if computes else "skips"))


def binned(s, periodic, rl, per=1):
    """The binned search's inputs as the driver makes them (cell_key, the stable sort,
    cell_bounds, permute_real) on a grid of `per` cells per r_list: the cell counts and widths,
    the order, the cells' bounds and the positions in cell order."""
    nc = [max(1, int(L * per // rl)) for L in s.boxl()]
    cs = [L / c for L, c in zip(s.boxl(), nc)]
    keys = np.zeros(s.n, dtype=np.int32)
    elementwise(P.cell_key, s.n, *s.pos(), keys, *cs, *nc, periodic)
    order = np.argsort(keys, kind="stable").astype(np.int32)
    ncell = nc[0] * nc[1] * nc[2]
    cell_start, cell_end = np.zeros(ncell, np.int32), np.zeros(ncell, np.int32)
    elementwise(P.cell_bounds, ncell, cell_start, cell_end, keys[order].astype(np.int32), s.n)
    by_cell = [np.zeros(s.n) for _ in range(3)]
    for a in range(3):
        elementwise(P.permute_real, s.n, order, s.pos()[a], by_cell[a])
    return nc, cs, order, cell_start, cell_end, by_cell


def half_list(s, periodic, rl, cap):
    """fill_neighbors_capped_half's rows (after cell_key, the stable sort, cell_bounds and
    permute_real, as the driver runs them), sorted; also returns the cell counts."""
    nc, cs, order, cell_start, cell_end, by_cell = binned(s, periodic, rl)
    start, count = np.full(s.n, -1, np.int32), np.full(s.n, -1, np.int32)
    idx = np.full(s.n * (cap + 1), -1, np.int32)
    elementwise(P.fill_neighbors_capped_half, s.n, *s.pos(), *by_cell, start, count, idx, cap,
                order, cell_start, cell_end, *s.boxl(), periodic, *cs, *nc, rl * rl)
    elementwise(P.sort_neighbors, s.n, start, count, idx)
    return start, count, idx, nc


def newton_forces(s, lst, periodic, pot, nchunk, chunk_order=None, energy=1, kick_dt=0.0):
    """compute_forces_newton over nchunk chunks (in `chunk_order`), then newton_sum (energy 1)
    or newton_sum_forces (energy 0), as apps/common/newton_buffers.cpp drives them; returns the
    buffers after the sum."""
    start, count, idx = lst[:3]
    rlo, rhi = np.zeros(nchunk, np.int32), np.zeros(nchunk, np.int32)
    elementwise(P.newton_ranges, nchunk, start, count, idx, rlo, rhi, s.n, nchunk)
    boff = np.concatenate(([0], np.cumsum(rhi - rlo)[:-1])).astype(np.int32)
    bufs = [np.zeros(int(np.sum(rhi - rlo))) for _ in range(5)]
    elementwise(P.compute_forces_newton, nchunk, *s.pos(), *bufs, rlo, boff, s.n, nchunk, energy,
                start, count, idx, *s.boxl(), periodic, s.typ, *pot.tables(), order=chunk_order)
    if energy:
        elementwise(P.newton_sum, nchunk, s.fx, s.fy, s.fz, s.pe, s.vir, *bufs, rlo, rhi, boff,
                    s.n, nchunk)
    elif kick_dt:
        elementwise(P.newton_sum_forces_kick, nchunk, s.fx, s.fy, s.fz, *bufs[:3], rlo, rhi,
                    boff, s.n, nchunk, s.vx, s.vy, s.vz, s.typ, pot.mass, kick_dt)
    else:
        elementwise(P.newton_sum_forces, nchunk, s.fx, s.fy, s.fz, *bufs[:3], rlo, rhi, boff,
                    s.n, nchunk)
    return bufs


def check_newton_ranges(n, lst, nchunk):
    """newton_ranges' circular ranges against NumPy: each holds its chunk's particles and their
    neighbours (an index below rlo at index + n), is at most n long, and, in a periodic box
    whose last chunks reach across the seam, some range wraps and together they are shorter
    than the smallest linear ranges."""
    start, count, idx = lst
    rlo, rhi = np.zeros(nchunk, np.int32), np.zeros(nchunk, np.int32)
    elementwise(P.newton_ranges, nchunk, start, count, idx, rlo, rhi, n, nchunk)
    bounds = [c * (n // nchunk) + min(c, n % nchunk) for c in range(nchunk + 1)]
    ok, linear = True, 0
    for c in range(nchunk):
        held = np.concatenate([np.arange(bounds[c], bounds[c + 1])] +
                              [idx[start[i]:start[i] + count[i]]
                               for i in range(bounds[c], bounds[c + 1])])
        linear += held.max() + 1 - held.min()
        place = np.where(held < rlo[c], held + n, held)
        ok = ok and 0 <= rlo[c] < n and rlo[c] < rhi[c] <= rlo[c] + n and \
            place.min() >= rlo[c] and place.max() < rhi[c]
    check(ok, "newton_ranges: every chunk's range holds its particles and their neighbours")
    check(np.any(rhi > n) and np.sum(rhi - rlo) < linear,
          "newton_ranges: a range wraps across the seam, %d entries against %d linear" %
          (np.sum(rhi - rlo), linear))


def check_newton():
    """Half lists (fill_neighbors_capped_half) hold every pair within r_list exactly once in
    every boundary mode; Newton's third law over them (compute_forces_newton + newton_sum) gives
    the all-pairs forces, energies and virials to round-off, with one and two types, the same
    bits whatever order the chunks run in, and leaves the buffers zero."""
    rl = 2.8
    for label, periodic in BOUNDARIES:
        box = (8.7, 9.1, 8.5)
        pos = random_config(150, box, 0.9, 23, periodic)
        for k in range(3):
            if not periodic >> k & 1:
                pos[k, k] = -0.3
                pos[k + 3, k] = box[k] + 0.2
        _, r2 = np_separations(pos, box, periodic)
        want = {(i, j) for i in range(len(pos)) for j in range(i + 1, len(pos)) if r2[i, j] < rl * rl}
        for pot, typ in ((ka(1), np.arange(150) % 2), (LJ1, np.zeros(150, dtype=np.int32))):
            s = State(pos, box, typ.astype(np.int32))
            start, count, idx, nc = half_list(s, periodic, rl, 80)
            check(count.max() <= 80, "%s: half rows fit the capacity (precondition)" % label)
            pairs = [(min(i, int(j)), max(i, int(j))) for i in range(s.n)
                     for j in idx[start[i]:start[i] + count[i]]]
            check(len(pairs) == len(set(pairs)) and set(pairs) == want,
                  "%s: every pair within r_list in exactly one half list" % label)
            ref = s.copy()
            forces_all_pairs(ref, periodic, pot)
            scale = max(np.abs(ref.fx).max(), np.abs(ref.fy).max(), np.abs(ref.fz).max())
            if periodic == PERIODIC and pot.nt == 1:
                check_newton_ranges(s.n, (start, count, idx), 7)
            for nchunk in (1, 7):
                got = s.copy()
                bufs = newton_forces(got, (start, count, idx), periodic, pot, nchunk)
                close = all(np.abs(getattr(got, a) - getattr(ref, a)).max() <= 1e-12 * scale
                            for a in ("fx", "fy", "fz"))
                close = close and all(
                    np.abs(getattr(got, a) - getattr(ref, a)).max() <=
                    1e-12 * np.abs(getattr(ref, a)).max() for a in ("pe", "vir"))
                check(close and np.any(ref.pe != 0),
                      "%s, %d types, %d chunks: Newton forces, pe, vir == all-pairs to 1e-12" %
                      (label, pot.nt, nchunk))
                check(all(not np.any(b) for b in bufs),
                      "%s: newton_sum leaves the buffers zero" % label)
                # Forces alone: the same force bits, pe and vir untouched, no buffer written
                # but the three force buffers (cleared again).
                alone = s.copy()
                alone.pe[:] = 7.0
                alone.vir[:] = -3.0
                bufs = newton_forces(alone, (start, count, idx), periodic, pot, nchunk, energy=0)
                check(all(np.array_equal(getattr(alone, a), getattr(got, a))
                          for a in ("fx", "fy", "fz")) and np.all(alone.pe == 7.0) and
                      np.all(alone.vir == -3.0) and all(not np.any(b) for b in bufs),
                      "%s, %d chunks: energy 0 gives the same force bits, pe and vir kept" %
                      (label, nchunk))
                # The sums and the half-kick in one launch: the bits of the two launches.
                moving = State(np.stack(s.pos(), axis=1), s.boxl(), s.typ,
                               np.random.default_rng(nchunk).normal(0.0, 1.0, (s.n, 3)))
                joint, apart = moving.copy(), moving.copy()
                bufs = newton_forces(joint, (start, count, idx), periodic, pot, nchunk,
                                     energy=0, kick_dt=0.004)
                newton_forces(apart, (start, count, idx), periodic, pot, nchunk, energy=0)
                elementwise(P.kick, s.n, apart.vx, apart.vy, apart.vz, apart.fx, apart.fy,
                            apart.fz, s.typ, pot.mass, 0.004)
                check(all(np.array_equal(getattr(joint, a), getattr(apart, a))
                          for a in ("fx", "fy", "fz")) and
                      all(np.array_equal(getattr(joint, a), getattr(apart, a))
                          for a in ("vx", "vy", "vz")) and np.any(joint.vx != moving.vx) and
                      all(not np.any(b) for b in bufs),
                      "%s, %d chunks: newton_sum_forces_kick == newton_sum_forces, kick" %
                      (label, nchunk))
                if nchunk > 1:
                    again = s.copy()
                    newton_forces(again, (start, count, idx), periodic, pot, nchunk,
                                  chunk_order=range(nchunk - 1, -1, -1))
                    check(all(np.array_equal(getattr(again, a), getattr(got, a))
                              for a in ("fx", "fy", "fz", "pe", "vir")),
                          "%s: chunks run in reverse order give the same bits" % label)


def edge_pairs(rl, w, nc, periodic, rng):
    """For each of the 26 cell offsets o (not leaving a walled axis): a particle i in a cell and
    a particle j just inside the cell o away, at the point of that cell nearest to i, the two
    1e-7 closer than rl: a cell culled with less than that to spare loses the pair."""
    w = np.asarray(w)
    out = []
    for n, o in enumerate(np.array(np.meshgrid([-1, 0, 1], [-1, 0, 1], [-1, 0, 1],
                                               indexing="ij")).reshape(3, -1).T):
        if not o.any():
            continue
        c = np.array([(n % 3) * 2 % nc[0], (n // 3 % 3) * 2 % nc[1], (n // 9) * 2 % nc[2]])
        for k in range(3):
            if not periodic >> k & 1 and not 0 <= c[k] + o[k] < nc[k]:
                c[k] = 1  # an inner cell along a walled axis
        t = rng.uniform(0.3, 1.0, 3) * np.abs(o)
        t *= rl * (1 - 1e-7) / np.linalg.norm(t)
        a = np.where(o > 0, w - t, np.where(o < 0, t, rng.uniform(0, w)))
        eps = 1e-9
        b = np.where(o > 0, w + eps, np.where(o < 0, -eps, a))
        out += [(c + 0.0) * w + a, (c + 0.0) * w + b]
    out = np.array(out)
    for k in range(3):
        if periodic >> k & 1:
            out[:, k] %= nc[k] * w[k]
    return out


def check_half_list_cells():
    """fill_neighbors_capped_half skips the cells whose nearest point is farther than r_list;
    on grids of 4 to 6 cells per axis (the culling then skips whole rows and the ends of runs,
    also across periodic seams), with particles on cell faces and, along walls, past the box,
    every pair within r_list is still in exactly one half list (pair sets by NumPy), also pairs
    1e-7 inside r_list across the nearest point of a neighbour cell in all 26 directions. Also on
    the smallest periodic grid, 3 cells per axis, where the runs' image shifts and the minimum
    image part for candidates beyond L / 2 (the fill takes the runs' shifts)."""
    rl = 2.0
    rng = np.random.default_rng(7)
    # label, periodic mask, box, fewest cells per axis and fewest pairs the case must have.
    for label, periodic, box, min_cells, min_pairs in (
            ("periodic", 7, (8.3, 8.5, 10.3), 4, 4000),
            ("walls on z", 3, (10.1, 8.2, 8.9), 4, 4000),
            ("periodic, 3 cells", 7, (6.3, 7.1, 6.9), 3, 3000)):
        # A liquid's density: a jittered lattice of spacing 1.1.
        axes = [np.arange(0.3, L - 0.3, 1.1) for L in box]
        pos = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
        pos += rng.uniform(-0.25, 0.25, pos.shape)
        nc = [max(1, int(L // rl)) for L in box]
        w = [L / c for L, c in zip(box, nc)]
        # On the faces of cells (exactly, and an ulp below) and, along the wall, past the box.
        pos[0] = (w[0], 2 * w[1], 3 * w[2])
        pos[1] = (np.nextafter(w[0], 0), w[1] + 1e-3, 2 * w[2])
        pos[2] = (3 * w[0], np.nextafter(2 * w[1], 0), w[2] + rl * (1 - 1e-9))
        # Wrapped, as the driver keeps them (3 * w is L on the grid of 3 cells).
        for k in range(3):
            if periodic >> k & 1:
                pos[:3, k] %= box[k]
        if not periodic & 4:
            pos[3, 2] = -0.4
            pos[4, 2] = box[2] + 0.3
        pos = np.vstack([pos, edge_pairs(rl, w, nc, periodic, rng)])
        _, r2 = np_separations(pos, box, periodic)
        want = {(i, j) for i in range(len(pos)) for j in range(i + 1, len(pos))
                if r2[i, j] < rl * rl}
        s = State(pos, box, np.zeros(len(pos), dtype=np.int32))
        start, count, idx, got_nc = half_list(s, periodic, rl, 80)
        check(list(got_nc) == nc and min(nc) >= min_cells,
              "%s: grid %r (precondition)" % (label, nc))
        check(count.max() <= 80, "%s: half rows fit the capacity (precondition)" % label)
        pairs = [(min(i, int(j)), max(i, int(j))) for i in range(s.n)
                 for j in idx[start[i]:start[i] + count[i]]]
        check(len(pairs) == len(set(pairs)) and set(pairs) == want and len(want) > min_pairs,
              "%s: every pair within r_list in exactly one half list (%d pairs)" %
              (label, len(want)))


def cell_grid_lists(s, periodic, rl, per, cap=300, small_cells_forms=False):
    """The one-pass lists on a grid of `per` cells per r_list (cells L / floor(L per / rl) wide,
    as md3d's cell_grid makes them), as NeighborList runs them: the full rows of
    fill_neighbors_capped and fill_neighbors_capped_pairwise (stride 1 and stride n, 1 and 2
    lanes) and the half rows of fill_neighbors_capped_half, in their *_small_cells forms when
    per is 2 or small_cells_forms is set. Returns the grid and a dict of
    (start, count, idx, stride, lanes) per form."""
    nc, cs, order, cell_start, cell_end, by_cell = binned(s, periodic, rl, per)
    grid = (order, cell_start, cell_end, *s.boxl(), periodic, *cs, *nc, rl * rl)
    out = {}
    small = per > 1 or small_cells_forms
    for name, f in (("capped", P.fill_neighbors_capped_small_cells if small else
                     P.fill_neighbors_capped),
                    ("half", P.fill_neighbors_capped_half_small_cells if small else
                     P.fill_neighbors_capped_half)):
        start, count = np.full(s.n, -1, np.int32), np.full(s.n, -1, np.int32)
        idx = np.full(s.n * (cap + 1), -1, np.int32)
        elementwise(f, s.n, *s.pos(), *by_cell, start, count, idx, cap, *grid)
        out[name] = (start, count, idx, 1, 1)
    for stride, lanes in ((1, 1), (s.n, 1), (s.n, 2)):
        start, lcount = np.full(s.n, -1, np.int32), np.full(s.n * lanes, -1, np.int32)
        idx = np.full(s.n * (cap + 1), -1, np.int32)
        elementwise(P.fill_neighbors_capped_pairwise_small_cells if small else
                    P.fill_neighbors_capped_pairwise, s.n * lanes, *s.pos(), *by_cell, start,
                    lcount, idx, cap, stride, lanes, *grid)
        out["pairwise stride %d, %d lanes" % (stride, lanes)] = (start, lcount, idx, stride, lanes)
    return nc, out


def row_of(lst, i):
    """Particle i's entries of one of cell_grid_lists' lists, in row order (lanes: lane by lane
    in entry order, as the force loop reads them)."""
    start, count, idx, stride, lanes = lst
    entries = []
    for lane in range(lanes):
        for k in range(count[i * lanes + lane]):
            entries.append((lane + lanes * k, int(idx[start[i] + (lane + lanes * k) * stride])))
    return [j for _, j in sorted(entries)]


def reach_edge_pairs(rl, w, nc, periodic, reach, rng):
    """edge_pairs for cells narrower than r_list: for each cell offset o within `reach` cells on
    every axis (not leaving a walled axis) that holds points within r_list of some point of a
    cell, a particle i in a cell and a particle j just inside the cell o away at its face nearest
    to i, the two 1e-7 closer than rl (rejection sampling of i's place in its cell)."""
    w = np.asarray(w)
    out = []
    offsets = np.array(np.meshgrid(*[range(-reach, reach + 1)] * 3, indexing="ij")).reshape(3, -1).T
    for n, o in enumerate(offsets):
        if not o.any():
            continue
        c = np.array([(n * 2) % nc[0], (n * 3) % nc[1], (n * 5) % nc[2]])
        for k in range(3):
            if not periodic >> k & 1:
                c[k] = reach  # an inner cell along a walled axis
        lo = np.maximum(np.abs(o) - 1, 0) * w
        hi = np.abs(o) * w
        for _ in range(200):
            t = np.where(o != 0, rng.uniform(lo, hi), 0.0)
            norm = np.linalg.norm(t)
            scale = rl * (1 - 1e-7) / norm
            if np.all(t * scale <= hi):
                t *= scale
                break
        else:
            continue  # no point of cell o within r_list of i's cell
        eps = 1e-9
        # i at distance t_a - (|o_a| - 1) w_a from the face of its cell towards o, j just past
        # the near face of cell o.
        a = np.where(o > 0, w - (t - lo), np.where(o < 0, t - lo, rng.uniform(0, w)))
        b = np.where(o > 0, o * w + eps, np.where(o < 0, (o + 1) * w - eps, a))
        out += [(c + 0.0) * w + a, (c + 0.0) * w + b]
    out = np.array(out)
    for k in range(3):
        if periodic >> k & 1:
            out[:, k] %= nc[k] * w[k]
    return out


def check_half_size_cells():
    """Cells of r_list / 2 (neighbor.cells_per_r_list: 2: the *_small_cells forms, which read the
    reach from the cell width, cell_reach): in every boundary mode, with particles on cell faces, past the
    walls, and pairs 1e-7 inside r_list across the nearest face of every cell within two cells,
    the half rows hold every pair within r_list exactly once and the full rows (CPU and GPU
    forms, 1 and 2 lanes, both strides) hold exactly the NumPy neighbour sets; the full rows of
    the two GPU strides are the same lists, and on cells of r_list the small-cells forms give the
    other kernels' rows entry for entry (and the sorted capped rows are the all-pairs lists)."""
    rl = 2.0
    rng = np.random.default_rng(11)
    for label, periodic in BOUNDARIES:
        box = (6.3, 6.9, 7.7)
        axes = [np.arange(0.3, L - 0.3, 1.1) for L in box]
        pos = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
        pos += rng.uniform(-0.25, 0.25, pos.shape)
        nc = [max(1, int(L * 2 // rl)) for L in box]
        w = [L / c for L, c in zip(box, nc)]
        pos[0] = (w[0], 2 * w[1], 3 * w[2])
        pos[1] = (np.nextafter(w[0], 0), w[1] + 1e-3, 2 * w[2])
        pos[2] = (3 * w[0], np.nextafter(2 * w[1], 0), w[2] + rl * (1 - 1e-9))
        # Wrapped, as the driver keeps them (3 * w is L on the grid of 3 cells).
        for k in range(3):
            if periodic >> k & 1:
                pos[:3, k] %= box[k]
        for k in range(3):
            if not periodic >> k & 1:
                pos[3 + k, k] = -0.4
                pos[6 + k, k] = box[k] + 0.3
        pos = np.vstack([pos, reach_edge_pairs(rl, w, nc, periodic, 2, rng)])
        s = State(pos, box, (np.arange(len(pos)) % 2).astype(np.int32))
        _, r2 = np_separations(pos, box, periodic)
        near = r2 < rl * rl
        np.fill_diagonal(near, False)
        want = {(i, j) for i, j in zip(*np.nonzero(np.triu(near)))}
        got_nc, lists = cell_grid_lists(s, periodic, rl, 2)
        check(got_nc == nc and min(nc) >= 5 and all(L / c < rl for L, c in zip(box, nc)),
              "%s: a grid of cells narrower than r_list, %r (precondition)" % (label, nc))
        half = lists.pop("half")
        check(half[1].max() <= 300, "%s: rows fit the capacity (precondition)" % label)
        pairs = [(min(i, j), max(i, j)) for i in range(s.n) for j in row_of(half, i)]
        check(len(pairs) == len(set(pairs)) and set(pairs) == want and len(want) > 2000,
              "%s, cells of r_list / 2: every pair within r_list in exactly one half list (%d "
              "pairs)" % (label, len(want)))
        rows = {}
        for name, lst in lists.items():
            rows[name] = [row_of(lst, i) for i in range(s.n)]
            ok = all(len(r) == len(set(r)) and set(r) == set(np.nonzero(near[i])[0].tolist())
                     for i, r in enumerate(rows[name]))
            check(ok, "%s, cells of r_list / 2, %s: rows == NumPy's neighbour sets" %
                  (label, name))
        check(rows["capped"] == rows["pairwise stride 1, 1 lanes"] ==
              rows["pairwise stride %d, 1 lanes" % s.n],
              "%s, cells of r_list / 2: the GPU form's rows == the CPU form's, entry for entry" %
              label)
        # Cells of r_list: the small-cells forms give the large-cell kernels' rows, entry for
        # entry, and the capped rows, sorted, are the all-pairs lists.
        _, lists1 = cell_grid_lists(s, periodic, rl, 1)
        _, small1 = cell_grid_lists(s, periodic, rl, 1, small_cells_forms=True)
        check(all(row_of(lists1[k], i) == row_of(small1[k], i) for k in lists1
                  for i in range(s.n)),
              "%s, cells of r_list: the *_small_cells forms' rows == the kernels' rows" % label)
        brute = all_pairs_list(s, periodic, rl)
        check(all(sorted(row_of(lists1["capped"], i)) ==
                  brute[2][brute[0][i]:brute[0][i] + brute[1][i]].tolist() for i in range(s.n)),
              "%s, cells of r_list: sorted capped rows == all-pairs lists" % label)


# ---- checks: integrators ---------------------------------------------------------------------

def liquid(seed, kT, pot, n_cells=2, a=1.68):
    """A small fcc start (32 atoms) with Gaussian velocities of zero total momentum, shifted so
    some sites sit close to the faces (particles cross the periodic boundary early)."""
    pos = (lattice_sites("fcc", (n_cells,) * 3, a) + 0.38) % (n_cells * a)
    rng = np.random.default_rng(seed)
    typ = rng.integers(0, pot.nt, len(pos))
    m = pot.mass[typ][:, None]
    v = rng.normal(0, 1, (len(pos), 3)) * np.sqrt(kT / m)
    v -= np.sum(m * v, axis=0) / np.sum(m)
    return State(pos, (n_cells * a,) * 3, typ, v)


class Runner:
    """The driver's step loop in CPython: list with skin, displacement rebuild, one integrator."""

    def __init__(self, s, pot, periodic, dt, skin=0.15, walls=None):
        self.s, self.pot, self.periodic, self.dt, self.skin, self.walls = s, pot, periodic, dt, skin, walls
        self.rl = float(np.max(pot.rc)) + skin
        check(all(self.rl < L / 2 for k, L in enumerate(s.boxl()) if periodic >> k & 1),
              "list radius %g below half the periodic box (precondition)" % self.rl)
        self.saved = [np.zeros(s.n) for _ in range(3)]
        self.builds = 0
        self.rebuild()
        forces_from_list(s, self.lst, periodic, pot, walls)

    def rebuild(self):
        self.lst = all_pairs_list(self.s, self.periodic, self.rl)
        elementwise(P.save_positions, self.s.n, *self.s.pos(), *self.saved)
        self.builds += 1

    def update_list(self):
        d2 = max(P.displacement2_map(i, *self.s.pos(), *self.saved, *self.s.boxl(), self.periodic)
                 for i in range(self.s.n))
        if d2 > (0.5 * self.skin) ** 2:
            self.rebuild()

    def forces(self):
        self.update_list()
        forces_from_list(self.s, self.lst, self.periodic, self.pot, self.walls)

    def nve(self, order=None):
        s, pot = self.s, self.pot
        elementwise(P.kick_drift, s.n, *s.pos(), s.vx, s.vy, s.vz, s.fx, s.fy, s.fz, s.ix, s.iy,
                    s.iz, s.typ, pot.mass, self.dt, *s.boxl(), self.periodic, order=order)
        self.forces()
        elementwise(P.kick, s.n, s.vx, s.vy, s.vz, s.fx, s.fy, s.fz, s.typ, pot.mass, self.dt,
                    order=order)

    def langevin(self, step, gamma, kT, seed, order=None):
        s, pot = self.s, self.pot
        elementwise(P.baoab_kick_drift, s.n, *s.pos(), s.vx, s.vy, s.vz, s.fx, s.fy, s.fz, s.ix,
                    s.iy, s.iz, s.typ, list(range(s.n)), pot.mass, s.dke, self.dt, *s.boxl(), self.periodic, gamma,
                    kT, seed, step, order=order)
        self.forces()
        elementwise(P.kick, s.n, s.vx, s.vy, s.vz, s.fx, s.fy, s.fz, s.typ, pot.mass, self.dt,
                    order=order)
        return reduce_sum(P.heat_map, s.n, s.dke)

    def energy(self):
        return kinetic(self.s, self.pot) + total_pe(self.s)

    def energy_scale(self):
        """KE + |PE|: the scale relative errors refer to (E itself may be close to 0)."""
        return kinetic(self.s, self.pot) + abs(total_pe(self.s))

    def unwrapped(self):
        s = self.s
        return np.stack([s.x + s.ix * s.lx, s.y + s.iy * s.ly, s.z + s.iz * s.lz], axis=1)


def check_nve():
    """Velocity Verlet in CPython: energy conserved, momentum stays 0, 60 steps forward and back
    return to the start (through wraps: the image counts make the unwrapped path continuous)."""
    pot = Pot(KA_EPS, KA_SIG, [[1.5, 1.3], [1.3, 1.4]], 1, [1.0, 1.7])
    s = liquid(4, 1.0, pot)
    run = Runner(s, pot, PERIODIC, 0.004)
    scale = run.energy_scale()
    u0 = run.unwrapped().copy()
    v0 = np.stack([s.vx, s.vy, s.vz], 1).copy()
    e = []
    prev = u0
    max_step = 0.0
    for _ in range(60):
        run.nve()
        e.append(run.energy())
        now = run.unwrapped()
        max_step = max(max_step, np.max(np.abs(now - prev)))
        prev = now
    e = np.array(e)
    fluct = np.std(e) / scale
    check(fluct < 2e-4, "NVE: energy fluctuation %.3g of KE + |PE|" % fluct)
    p = [reduce_sum(f, s.n, v, s.typ, pot.mass) for f, v in
         ((P.momentum_x_map, s.vx), (P.momentum_y_map, s.vy), (P.momentum_z_map, s.vz))]
    check(max(abs(q) for q in p) < 1e-12, "NVE: momentum stays 0 %r" % p)
    check(np.all((s.x >= 0) & (s.x < s.lx) & (s.z >= 0) & (s.z < s.lz)), "NVE: wrapped")
    check(np.any(s.ix != 0) or np.any(s.iy != 0) or np.any(s.iz != 0),
          "NVE: some particle crossed the boundary (precondition of the image check)")
    check(max_step < 0.1, "NVE: unwrapped path continuous (largest move per step %.3g)" % max_step)
    check(run.builds >= 2, "NVE: the displacement rule rebuilt the list (%d builds)" % run.builds)
    for v in (s.vx, s.vy, s.vz):
        v *= -1.0
    for _ in range(60):
        run.nve()
    back = np.max(np.abs(run.unwrapped() - u0))
    check(back < 1e-8, "NVE: 60 steps forward and back return to the start (%.3g)" % back)
    check(np.allclose(-np.stack([s.vx, s.vy, s.vz], 1), v0, atol=1e-8), "NVE: velocities reverse")
    # Soft walls on z (mixed boundary): energy kept too.
    s = liquid(5, 1.0, pot)
    s.lz = 5.0
    s.z += 0.8
    run = Runner(s, pot, 3, 0.002, walls=(50.0, 0.5))
    scale = run.energy_scale()
    e = []
    for _ in range(50):
        run.nve()
        e.append(run.energy())
    fluct = np.std(e) / scale
    check(fluct < 2e-4, "NVE with walls on z: energy fluctuation %.3g of KE + |PE|" % fluct)
    # The kernels are the textbook formulas, with the mass of the particle's type.
    v, f, x = np.array([1.0, 1.0]), np.array([2.0, 2.0]), np.array([0.5, 0.5])
    typ, mass = np.array([0, 1], dtype=np.int32), np.array([4.0, 2.0])
    elementwise(P.kick, 2, v, v.copy(), v.copy(), f, f, f, typ, mass, 0.1)
    check(np.allclose(v, [1 + 0.05 * 2 / 4, 1 + 0.05 * 2 / 2], rtol=0, atol=1e-15),
          "kick: v += dt/2 f/m[type]")
    elementwise(P.drift, 2, x, x.copy(), x.copy(), v, v, v, 0.1)
    check(abs(x[0] - (0.5 + 0.1 * v[0])) < 1e-15, "drift: x += dt v")


def check_langevin():
    """BAOAB: the O step gives v ~ N(0, kT/m) per type; the heat accounting closes (E - Q stays
    flat); gamma = 0 is velocity Verlet; results do not depend on the loop order; a restart at
    step s continues with the same numbers."""
    # O step alone with gamma dt -> large: v = sqrt(kT/m) R exactly, per type.
    n, kT = 1200, 1.7
    typ = (np.arange(n) % 2).astype(np.int32)
    mass = np.array([1.0, 3.0])
    vx, vy, vz, dke = (np.zeros(n) for _ in range(4))
    elementwise(P.langevin_o, n, vx, vy, vz, typ, list(range(n)), mass, dke, 50.0,
                kT, 31, 0)
    for t in (0, 1):
        v = np.concatenate([vx[typ == t], vy[typ == t], vz[typ == t]])
        sd = math.sqrt(kT / mass[t])
        d, p = ks_one_sample(v / sd, norm_cdf)
        check(p > 1e-4, "O step, type %d: v / sqrt(kT/m) ~ N(0,1), KS p=%.3g" % (t, p))
    ke = 0.5 * np.sum(mass[typ] * (vx ** 2 + vy ** 2 + vz ** 2))
    check(abs(math.fsum(dke) - ke) < 1e-9 * ke, "O step: dke sums to the kinetic energy added")
    check(abs(vx[0] - math.sqrt(kT) * R.rng_normal(31, 0, 0, 0)) < 1e-15 and
          abs(vz[5] - math.sqrt(kT / 3) * R.rng_normal(31, 0, 5, 2)) < 1e-14,
          "O step draws rng_normal(seed, step, particle index, axis)")
    # Heat accounting over a short run.
    pot = Pot(KA_EPS, KA_SIG, [[1.5, 1.3], [1.3, 1.4]], 1, [1.0, 1.7])
    s = liquid(6, 1.0, pot)
    start = s.copy()
    run = Runner(s, pot, PERIODIC, 0.004)
    e0, heat, cons, energies = run.energy_scale(), 0.0, [], []
    for step in range(40):
        heat += run.langevin(step, 2.0, 1.5, 77)
        energies.append(run.energy())
        cons.append(energies[-1] - heat)
    spread = (max(cons) - min(cons)) / abs(e0)
    swing = (max(energies) - min(energies)) / abs(e0)
    check(spread < 2e-3 and swing > 10 * spread,
          "Langevin: E - Q spread %.3g while E swings %.3g" % (spread, swing))
    # Same run, loop order reversed and restarted from a copy at step 20: bit-identical.
    a = Runner(start.copy(), pot, PERIODIC, 0.004)
    for step in range(20):
        a.langevin(step, 2.0, 1.5, 77, order=range(a.s.n - 1, -1, -1))
    b = Runner(a.s.copy(), pot, PERIODIC, 0.004)
    for step in range(20, 40):
        b.langevin(step, 2.0, 1.5, 77)
    same = all(np.array_equal(getattr(b.s, k), getattr(s, k))
               for k in ("x", "y", "z", "vx", "vy", "vz", "ix", "iy", "iz"))
    check(same, "Langevin: reversed loop order + restart at step 20 == one run, bit for bit")
    # gamma = 0: BAOAB is velocity Verlet (drift split in two halves: equal to rounding).
    a, b = Runner(start.copy(), pot, PERIODIC, 0.004), Runner(start.copy(), pot, PERIODIC, 0.004)
    for step in range(10):
        a.langevin(step, 0.0, 1.5, 77)
        b.nve()
    check(np.max(np.abs(a.unwrapped() - b.unwrapped())) < 1e-11,
          "Langevin with gamma = 0 is velocity Verlet")


def check_bussi_run():
    """NVE + Bussi scaling on a small liquid (T 0.3 -> kT 1): the temperature is pulled to kT, E
    changes, and E minus the thermostat's cumulative heat stays flat."""
    pot = Pot(KA_EPS, KA_SIG, [[1.5, 1.3], [1.3, 1.4]], 1, [1.0, 1.7])
    s = liquid(8, 0.3, pot)
    run = Runner(s, pot, PERIODIC, 0.003)
    scale = run.energy_scale()
    nf = H.degrees_of_freedom(s.n, PERIODIC, "bussi")
    check(nf == 3 * s.n - 3 and H.degrees_of_freedom(10, 3, "bussi") == 28 and
          H.degrees_of_freedom(10, 7, "langevin") == 30, "degrees of freedom")
    heat, cons, energies = 0.0, [], []
    for step in range(60):
        run.nve()
        k = kinetic(s, pot)
        alpha = H.bussi_alpha(k, 1.0, nf, 0.003, 0.02, 5, step)
        elementwise(P.scale_velocities, s.n, s.vx, s.vy, s.vz, alpha)
        heat += (alpha * alpha - 1.0) * k
        energies.append(run.energy())
        cons.append(energies[-1] - heat)
    k_end = kinetic(s, pot)
    check(2 * k_end / nf > 0.6, "Bussi heats a cold start towards kT = 1 (T = %.2f)" % (2 * k_end / nf))
    spread = (max(cons) - min(cons)) / scale
    swing = (max(energies) - min(energies)) / scale
    check(spread < 2e-3 and swing > 10 * spread,
          "Bussi: E - Q spread %.3g while E swings %.3g" % (spread, swing))
    p = [reduce_sum(f, s.n, v, s.typ, pot.mass) for f, v in
         ((P.momentum_x_map, s.vx), (P.momentum_y_map, s.vy), (P.momentum_z_map, s.vz))]
    check(max(abs(q) for q in p) < 1e-11, "Bussi keeps the total momentum at 0 %r" % p)


def check_reductions():
    """Reduction maps sum the right arrays with the right per-type masses."""
    vx, vy, vz = np.array([1.0, 2.0, 0.0]), np.array([0.0, 1.0, 3.0]), np.array([1.0, 0.0, 0.0])
    typ, mass = np.array([0, 1, 1], dtype=np.int32), np.array([2.0, 0.5])
    check(abs(reduce_sum(P.kinetic_energy_map, 3, vx, vy, vz, typ, mass) -
              (0.5 * 2 * 2 + 0.5 * 0.5 * 5 + 0.5 * 0.5 * 9)) < 1e-15, "kinetic_energy_map")
    check(reduce_sum(P.momentum_x_map, 3, vx, typ, mass) == 3.0 and
          reduce_sum(P.momentum_z_map, 3, vz, typ, mass) == 2.0, "momentum maps")
    a = np.array([1.0, -2.5, 4.0])
    check(reduce_sum(P.virial_map, 3, a) == 2.5 and reduce_sum(P.heat_map, 3, a) == 2.5 and
          reduce_sum(P.potential_energy_map, 3, a) == 2.5, "virial, heat, energy maps")
    x, y, z = np.array([9.95, 1.0]), np.array([5.0, 2.0]), np.array([1.0, 0.1])
    x0, y0, z0 = np.zeros(2), np.zeros(2), np.zeros(2)
    elementwise(P.save_positions, 2, x, y, z, x0, y0, z0)
    x[0], z[1] = 0.05, 9.9
    d2 = [P.displacement2_map(i, x, y, z, x0, y0, z0, 10.0, 10.0, 10.0, m) for m in (7, 3)
          for i in range(2)]
    check(np.allclose(d2, [0.01, 0.04, 0.01, 9.8 ** 2]),
          "displacement2_map: minimum image on periodic axes only %r" % d2)
    # The stale flag's map: past the limit is 1, at it 0 (the displacement of particle 1 is
    # the 0.2 of z, squared: the limit is taken as that very double).
    at = d2[1]
    flags = [[P.past_limit_map(i, x, y, z, x0, y0, z0, 10.0, 10.0, 10.0, 7, lim) for i in range(2)]
             for lim in (at, np.nextafter(at, 0.0), 0.5)]
    check(flags == [[0, 0], [0, 1], [0, 0]], "past_limit_map: 1 only past the limit %r" % flags)


def check_joined_kicks_test():
    """sum_lanes_kick_kick_drift with test = 1: the same state as sum_lanes, kick and
    kick_drift launched one after the other, and stale[0] grows by the number of particles that
    NumPy finds farther than sqrt(limit2) (minimum image) from their saved positions; with
    test = 0 the flag is left alone."""
    pot = ka(True)
    s = liquid(11, 1.2, pot)
    rng = np.random.default_rng(4)
    lanes, n = 2, s.n
    parts = [rng.normal(0.0, 20.0, lanes * n) for _ in range(5)]
    saved = [c + rng.normal(0.0, 0.03, n) for c in s.pos()]
    dt, limit2 = 0.005, 0.04 ** 2
    for periodic in (7, 3):
        for test in (1, 0):
            joined, apart = s.copy(), s.copy()
            for st in (joined, apart):
                st.pe, st.vir = np.zeros(n), np.zeros(n)
            stale = np.array([5], dtype=np.int32)
            elementwise(P.sum_lanes_kick_kick_drift, n, *joined.pos(), joined.vx, joined.vy,
                        joined.vz, joined.fx, joined.fy, joined.fz, joined.pe, joined.vir,
                        *[p.copy() for p in parts], lanes, joined.ix, joined.iy, joined.iz,
                        joined.typ, pot.mass, dt, *s.boxl(), periodic, test, *saved, limit2,
                        stale)
            elementwise(P.sum_lanes, n, apart.fx, apart.fy, apart.fz, apart.pe, apart.vir,
                        *[p.copy() for p in parts], lanes, 0)
            elementwise(P.kick, n, apart.vx, apart.vy, apart.vz, apart.fx, apart.fy, apart.fz,
                        apart.typ, pot.mass, dt)
            elementwise(P.kick_drift, n, *apart.pos(), apart.vx, apart.vy, apart.vz, apart.fx,
                        apart.fy, apart.fz, apart.ix, apart.iy, apart.iz, apart.typ, pot.mass, dt,
                        *s.boxl(), periodic)
            same = all(np.array_equal(getattr(joined, a), getattr(apart, a))
                       for a in ("x", "y", "z", "vx", "vy", "vz", "fx", "fy", "fz", "ix", "iy",
                                 "iz"))
            check(same, "periodic %d test %d: the joined launch leaves the separate launches' "
                  "state" % (periodic, test))
            d = np.stack(apart.pos()) - np.stack(saved)
            for k, L in enumerate(s.boxl()):
                if periodic >> k & 1:
                    d[k] -= L * np.round(d[k] / L)
            moved = int(np.count_nonzero(np.sum(d * d, axis=0) > limit2))
            want = 5 + (moved if test else 0)
            check(0 < moved < n and stale[0] == want,
                  "periodic %d test %d: stale flag %d, want %d (%d of %d moved)"
                  % (periodic, test, stale[0], want, moved, n))


def check_newton_joined_kicks_test():
    """newton_sum_kick_kick_drift (the CPU's joined step ends, over the chunks of a half list):
    the same state as newton_sum_forces_kick then kick_drift launched one after the other, with
    the buffers left zero, and with test = 1 stale[0] grows by the number of particles that
    NumPy finds farther than sqrt(limit2) (minimum image) from their saved positions; with
    test = 0 the flag is left alone."""
    pot, rl, box = ka(1), 2.8, (8.7, 9.1, 8.5)
    dt, limit2 = 0.005, 0.04 ** 2
    for periodic in (7, 3):
        pos = random_config(150, box, 0.9, 29, periodic)
        rng = np.random.default_rng(periodic)
        s = State(pos, box, np.arange(150) % 2, rng.normal(0.0, 1.0, (150, 3)))
        start, count, idx, _ = half_list(s, periodic, rl, 80)
        saved = [c + rng.normal(0.0, 0.03, s.n) for c in s.pos()]
        for nchunk in (1, 7):
            rlo, rhi = np.zeros(nchunk, np.int32), np.zeros(nchunk, np.int32)
            elementwise(P.newton_ranges, nchunk, start, count, idx, rlo, rhi, s.n, nchunk)
            boff = np.concatenate(([0], np.cumsum(rhi - rlo)[:-1])).astype(np.int32)
            filled = [np.zeros(int(np.sum(rhi - rlo))) for _ in range(5)]
            elementwise(P.compute_forces_newton, nchunk, *s.pos(), *filled, rlo, boff, s.n,
                        nchunk, 0, start, count, idx, *s.boxl(), periodic, s.typ, *pot.tables())
            for test in (1, 0):
                joined, apart = s.copy(), s.copy()
                jb, ab = [b.copy() for b in filled[:3]], [b.copy() for b in filled[:3]]
                stale = np.array([5], dtype=np.int32)
                elementwise(P.newton_sum_kick_kick_drift, nchunk, *joined.pos(), joined.vx,
                            joined.vy, joined.vz, joined.fx, joined.fy, joined.fz, *jb, rlo, rhi,
                            boff, s.n, nchunk, joined.ix, joined.iy, joined.iz, joined.typ,
                            pot.mass, dt, *s.boxl(), periodic, test, *saved, limit2, stale)
                elementwise(P.newton_sum_forces_kick, nchunk, apart.fx, apart.fy, apart.fz, *ab,
                            rlo, rhi, boff, s.n, nchunk, apart.vx, apart.vy, apart.vz, apart.typ,
                            pot.mass, dt)
                elementwise(P.kick_drift, s.n, *apart.pos(), apart.vx, apart.vy, apart.vz,
                            apart.fx, apart.fy, apart.fz, apart.ix, apart.iy, apart.iz, apart.typ,
                            pot.mass, dt, *s.boxl(), periodic)
                same = all(np.array_equal(getattr(joined, a), getattr(apart, a))
                           for a in ("x", "y", "z", "vx", "vy", "vz", "fx", "fy", "fz", "ix",
                                     "iy", "iz"))
                check(same and np.any(joined.fx != 0) and not any(np.any(b) for b in jb),
                      "periodic %d, %d chunks, test %d: the joined launch leaves the separate "
                      "launches' state and zero buffers" % (periodic, nchunk, test))
                d = np.stack(apart.pos()) - np.stack(saved)
                for k, L in enumerate(s.boxl()):
                    if periodic >> k & 1:
                        d[k] -= L * np.round(d[k] / L)
                moved = int(np.count_nonzero(np.sum(d * d, axis=0) > limit2))
                want = 5 + (moved if test else 0)
                check(0 < moved < s.n and stale[0] == want,
                      "periodic %d, %d chunks, test %d: stale flag %d, want %d (%d of %d moved)"
                      % (periodic, nchunk, test, stale[0], want, moved, s.n))


def check_mixed_forces():
    """compute_forces_mixed (one lane) and compute_forces_chunked_mixed under the language's
    typing (smelt._language: float32 operations stay float32, as compiled; plain CPython with
    NumPy 1.x would widen `2.0 * s6` to float64) equal, bit for bit, the specification written
    here with NumPy scalars: the difference and its minimum image in float64, rounded to
    float32; r^2, 1/r^2 and the LJ terms in float32; the sums and the energy shift in float64.
    Kob-Andersen pairs, periodic and walled on z, every pair in the list."""
    from smelt._language import language
    gpu_form = language(P.compute_forces_mixed)
    cpu_form = language(P.compute_forces_chunked_mixed)
    pot = Pot([[1.0, 1.5], [1.5, 0.5]], [[1.0, 0.8], [0.8, 0.88]], [[2.5, 2.0], [2.0, 2.2]],
              1, [1.0, 1.0])
    nt, eps, sig, rc2, eshift = pot.tables()
    f32 = np.float32
    n, edge = 40, 4.0
    rng = np.random.default_rng(8)
    for mask in (7, 3):
        x, y, z = (rng.uniform(0.0, edge, n) for _ in range(3))
        typ = (np.arange(n) % 2).astype(np.int32)
        start = (np.arange(n) * (n - 1)).astype(np.int32)
        count = np.full(n, n - 1, dtype=np.int32)
        idx = np.array([j for i in range(n) for j in range(n) if j != i], dtype=np.int32)
        runs = []
        for form, extra in ((gpu_form, (np.int32(1), np.int32(1), FRESH)),
                            (cpu_form, (np.int32(1),))):
            out = [np.zeros(n) for _ in range(5)]
            for t in range(n):
                form(t, x, y, z, *out, start, count, idx, np.int32(1), edge, edge, edge,
                     np.int32(mask), typ, np.int32(nt), eps, sig, rc2, eshift, *extra)
            runs.append(out)
        want = [np.zeros(n) for _ in range(5)]
        for i in range(n):
            acc, ei, wi = [0.0, 0.0, 0.0], 0.0, 0.0
            for j in range(n):
                if j == i:
                    continue
                d = []
                for a, c in enumerate((x, y, z)):
                    e = c[i] - c[j]
                    if (mask >> a) & 1:
                        e = e - edge if e >= edge / 2 else e
                        e = e + edge if e < -edge / 2 else e
                    d.append(f32(e))
                r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
                k = typ[i] * nt + typ[j]
                if not float(r2) < rc2[k]:
                    continue
                inv = f32(1) / r2
                s2 = f32(sig[k]) * f32(sig[k]) * inv
                s6 = s2 * s2 * s2
                ff = f32(24) * f32(eps[k]) * (f32(2) * s6 * s6 - s6) * inv
                for q in range(3):
                    acc[q] += float(ff * d[q])
                ei += float(f32(4) * f32(eps[k]) * (s6 * s6 - s6)) - eshift[k]
                wi += float(ff * r2)
            for q in range(3):
                want[q][i] = acc[q]
            want[3][i], want[4][i] = 0.5 * ei, 0.5 * wi
        for name, got in zip(("compute_forces_mixed", "compute_forces_chunked_mixed"), runs):
            check(all(np.array_equal(got[q], want[q]) for q in range(5)),
                  "mask %d: %s == the float32-pair, float64-sum specification, bit for bit"
                  % (mask, name))
        ref = [np.zeros(n) for _ in range(5)]
        elementwise(P.compute_forces, n, x, y, z, *ref, start, count, idx, 1, edge, edge, edge,
                    mask, typ, nt, eps, sig, rc2, eshift, 1, 1, FRESH)
        rel = max(np.max(np.abs(runs[0][q] - ref[q])) / np.max(np.abs(ref[q])) for q in range(3))
        check(1e-9 < rel < 1e-5, "mask %d: mixed forces are float64's to float32 rounding "
              "(max error %.1e of the largest force)" % (mask, rel))


CHECKS = {
    "kernel_language": check_kernel_language,
    "rng_known_answers": check_rng_known_answers,
    "language_typing": check_language_typing,
    "rng_statistics": check_rng_statistics,
    "bussi": check_bussi,
    "tail": check_tail,
    "box": check_box,
    "lattice_energy": check_lattice_energy,
    "forces_fd": check_forces_fd,
    "momentum": check_momentum,
    "neighbor_lists": check_neighbor_lists,
    "newton": check_newton,
    "half_list_cells": check_half_list_cells,
    "half_size_cells": check_half_size_cells,
    "nve": check_nve,
    "langevin": check_langevin,
    "bussi_run": check_bussi_run,
    "reductions": check_reductions,
    "joined_kicks_test": check_joined_kicks_test,
    "newton_joined_kicks_test": check_newton_joined_kicks_test,
    "mixed_forces": check_mixed_forces,
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
