"""Lennard-Jones pair evaluators shared by the apps (kernel-language device functions).

Kept apart from the force loops, so a new potential only touches functions like these. All take
the squared distance r2 (no square root on the hot path).
"""

from smelt import annotate, declare


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


# The same potential from 1/r^2 (one division per pair shared by force and energy): the forms the
# force loops use. They round differently from lj_energy / lj_force_divr in the last bits.

@annotate(double='inv_r2, eps, sigma', return_='double')
def lj_energy_inv(inv_r2, eps, sigma):
    """u(r) = 4 eps ((sigma/r)^12 - (sigma/r)^6), from 1/r^2."""
    s2 = declare('double')
    s6 = declare('double')
    s2 = sigma * sigma * inv_r2
    s6 = s2 * s2 * s2
    return 4.0 * eps * (s6 * s6 - s6)


@annotate(double='inv_r2, eps, sigma', return_='double')
def lj_force_divr_inv(inv_r2, eps, sigma):
    """-(du/dr) / r from 1/r^2: the force on i from j is lj_force_divr_inv(1/r2) * (r_i - r_j)."""
    s2 = declare('double')
    s6 = declare('double')
    s2 = sigma * sigma * inv_r2
    s6 = s2 * s2 * s2
    return 24.0 * eps * (2.0 * s6 * s6 - s6) * inv_r2


# float32 twins of the two above, for mixed-precision force loops (md3d's precision: mixed,
# compute_forces_mixed): every operation in float whatever the program's precision ('float' is
# not switched by it, unlike 'double'). The arguments must already be floats (cast(x, 'float')).

@annotate(float='inv_r2, eps, sigma', return_='float')
def lj_energy_inv_f(inv_r2, eps, sigma):
    """lj_energy_inv in float32."""
    s2 = declare('float')
    s6 = declare('float')
    s2 = sigma * sigma * inv_r2
    s6 = s2 * s2 * s2
    return 4.0 * eps * (s6 * s6 - s6)


@annotate(float='inv_r2, eps, sigma', return_='float')
def lj_force_divr_inv_f(inv_r2, eps, sigma):
    """lj_force_divr_inv in float32."""
    s2 = declare('float')
    s6 = declare('float')
    s2 = sigma * sigma * inv_r2
    s6 = s2 * s2 * s2
    return 24.0 * eps * (2.0 * s6 * s6 - s6) * inv_r2
