"""Harmonic soft walls (as in the Compyle SciPy 2020 paper's MD example), as device functions.

A wall acts on a particle at distance d from it (d measured into the box) within `wall_range`:
    U(d) = 1/2 k (range - d)^2,   F = k (range - d) along the inward normal,   for d < range.
A particle past the wall (d < 0) is still pushed back.
"""

from smelt import annotate


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
