"""Python reference of md3d's HOST-side formulas (apps/md3d/README.md), for the tests.

The md3d driver computes these on the host, not in kernels: Bussi's velocity-scaling factor
(from the counter-based RNG of apps/common/kernels/rng.py, so the draws are reproducible and a
restart continues them), the degrees of freedom, and the analytic LJ tail corrections. The C++
driver implements the same formulas; its tests can compare against these functions.
"""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT / "python", ROOT / "apps" / "common" / "kernels"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
import rng  # noqa: E402

# RNG streams (the `stream` word of the Philox counter). Langevin uses 0, 1, 2 (x, y, z) with
# the particle index as id; Bussi's host draws use their own streams so they never coincide.
STREAM_BUSSI_R1 = 3      # id 0: the normal R1
STREAM_BUSSI_NORMAL = 4  # id j: the j-th normal of the chi-square draw
STREAM_BUSSI_UNIFORM = 5  # id j: the j-th uniform of the chi-square draw
MAX_GAMMA_ATTEMPTS = 1000


def degrees_of_freedom(n, periodic_mask, integrator):
    """Nf: 3N for Langevin (momentum not conserved); else 3N minus one per periodic axis (the
    initial total momentum is zero and pair forces conserve it along periodic axes)."""
    if integrator == "langevin":
        return 3 * n
    return 3 * n - bin(periodic_mask & 7).count("1")


def chi_square(nu, seed, step):
    """Sum of nu squared standard normals, drawn from the counter RNG at (seed, step).

    nu = 0: 0. nu = 1: R^2, R = rng_normal(seed, step, 0, STREAM_BUSSI_NORMAL).
    nu >= 2: 2 G with G ~ Gamma(nu/2, 1) by Marsaglia & Tsang (ACM TOMS 26, 363 (2000)):
      d = nu/2 - 1/3, c = 1 / sqrt(9 d); for attempt j = 0, 1, ...:
        x = rng_normal(seed, step, j, STREAM_BUSSI_NORMAL); v = 1 + c x; if v <= 0: next j
        v = v^3; u = rng_uniform(seed, step, j, STREAM_BUSSI_UNIFORM)
        accept if u < 1 - 0.0331 x^4  or  log(u) < x^2/2 + d (1 - v + log(v)); then G = d v.
    """
    if nu <= 0:
        return 0.0
    if nu == 1:
        r = rng.rng_normal(seed, step, 0, STREAM_BUSSI_NORMAL)
        return r * r
    d = 0.5 * nu - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    for j in range(MAX_GAMMA_ATTEMPTS):
        x = rng.rng_normal(seed, step, j, STREAM_BUSSI_NORMAL)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = rng.rng_uniform(seed, step, j, STREAM_BUSSI_UNIFORM)
        if u < 1.0 - 0.0331 * x * x * x * x or math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
            return 2.0 * d * v
    raise RuntimeError("chi_square: no acceptance in %d attempts" % MAX_GAMMA_ATTEMPTS)


def bussi_alpha(ke, kT, nf, dt, tau, seed, step):
    """Bussi, Donadio & Parrinello, J. Chem. Phys. 126, 014101 (2007), eq. (A7) and its sign:

        c = exp(-dt / tau),  K_t = Nf kT / 2 (target),  R1 = rng_normal(seed, step, 0, 3),
        S = chi_square(Nf - 1, seed, step),
        alpha^2 = c + (1 - c) (S + R1^2) K_t / (Nf K) + 2 R1 sqrt(c (1 - c) K_t / (Nf K)),
        sign(alpha) = sign(R1 + sqrt(c Nf K / ((1 - c) K_t))).

    Returns alpha (v <- alpha v); K <= 0 or kT <= 0 gives 1 (nothing to scale).
    """
    if ke <= 0.0 or kT <= 0.0:
        return 1.0
    c = math.exp(-dt / tau)
    kt = 0.5 * nf * kT
    r1 = rng.rng_normal(seed, step, 0, STREAM_BUSSI_R1)
    s = chi_square(nf - 1, seed, step)
    ratio = kt / (nf * ke)
    alpha2 = c + (1.0 - c) * (s + r1 * r1) * ratio + 2.0 * r1 * math.sqrt(c * (1.0 - c) * ratio)
    alpha = math.sqrt(max(alpha2, 0.0))
    if c < 1.0 and r1 + math.sqrt(c * nf * ke / ((1.0 - c) * kt)) < 0.0:
        alpha = -alpha
    return alpha


def lj_tail(counts, volume, eps, sig, rc):
    """Analytic LJ tail corrections (energy, pressure) for a homogeneous fluid, g(r) = 1 past rc:

        U_tail = sum_a sum_b (8/3) pi N_a N_b / V  eps_ab sig_ab^3 [ (1/3)(sig_ab/rc_ab)^9 - (sig_ab/rc_ab)^3 ]
        P_tail = sum_a sum_b (16/3) pi N_a N_b / V^2 eps_ab sig_ab^3 [ (2/3)(sig_ab/rc_ab)^9 - (sig_ab/rc_ab)^3 ]

    over ORDERED type pairs (a, b) (A-B and B-A both appear). One type: U_tail / N =
    (8/3) pi rho eps sig^3 [...], P_tail = (16/3) pi rho^2 eps sig^3 [...] (Allen & Tildesley,
    Computer Simulation of Liquids, 2nd ed., sec. 2.8; Frenkel & Smit, sec. 3.2.2).
    eps, sig, rc: ntypes x ntypes nested sequences.
    """
    u = p = 0.0
    nt = len(counts)
    for a in range(nt):
        for b in range(nt):
            s3 = sig[a][b] ** 3
            x3 = (sig[a][b] / rc[a][b]) ** 3
            x9 = x3 ** 3
            u += 8.0 / 3.0 * math.pi * counts[a] * counts[b] / volume * eps[a][b] * s3 * (x9 / 3.0 - x3)
            p += 16.0 / 3.0 * math.pi * counts[a] * counts[b] / volume ** 2 * eps[a][b] * s3 * (2.0 * x9 / 3.0 - x3)
    return u, p
