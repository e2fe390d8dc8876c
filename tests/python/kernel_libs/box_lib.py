# A kernel library (docs/LANGUAGE.md, "Kernel libraries"): helpers imported by other kernel files
# and by tests/python/test_kernel_libs.py. Plain Python: it runs in CPython as it is.
from math import floor

from vec_lib import dot2

HALF = 0.5


def sq(x):
    # box_lib's own sq; the kernel file that imports from here defines another one.
    return x * x


def min_image(dx, L):
    return dx - L * floor(dx / L + HALF)


def pair_dist2(x, y, i, j, L):
    dx = min_image(x[j] - x[i], L)
    dy = min_image(y[j] - y[i], L)
    return sq(dx) + sq(dy)


def projected(ax, ay, L):
    # Reaches vec_lib through this file's own import (a transitive import).
    return dot2(min_image(ax, L), min_image(ay, L), 0.6, 0.8)
