# A kernel library for tests/primitives/checked_modes_cases.h: an index out of range in a helper
# function is reported at this file's line, with the helper's own parameter name.


def neighbour_sum(v, j):
    return v[j - 1] + v[j + 1]
