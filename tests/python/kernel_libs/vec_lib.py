# A second kernel library, imported by box_lib.py (tests/python/test_kernel_libs.py).


def dot2(ax, ay, bx, by):
    return ax * bx + ay * by
