# Kernels that import their helpers from the kernel library box_lib.py beside them
# (tests/python/test_kernel_libs.py).
from box_lib import HALF, min_image, projected
from box_lib import pair_dist2 as d2

SCALE = 2.0


def sq(x):
    # This file's sq doubles; box_lib's (used inside d2) squares.
    return x + x


def wrap_positions(i, x, out, L):
    out[i] = min_image(x[i], L)


def mixed(i, x, y, out, L):
    out[i] = sq(x[i]) + d2(x, y, 0, i, L) * HALF * SCALE + projected(x[i], y[i], L)


def pair_energy(i, x, y, L):
    return d2(x, y, 0, i, L)
