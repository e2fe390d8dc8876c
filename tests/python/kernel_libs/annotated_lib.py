# A kernel library written the Compyle way: @annotate'd helpers (tests/python/test_kernel_libs.py).
from smelt.api import annotate


@annotate(double="x, a", return_="double")
def scaled_cube(x, a):
    return a * x * x * x


@annotate(x="doublep", int="k, return_")
def index_of_max(x, k):
    best = 0
    for j in range(k):
        if x[j] > x[best]:
            best = j
    return best
