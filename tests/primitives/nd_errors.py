# Mistakes with multi-dimensional array parameters (tests/primitives/nd_arrays_test.cpp checks
# each message, line and column).


def one_index(i, a, y):
    y[i] = a[i]


def three_indices(i, a, y):
    y[i] = a[i, 0, 1]


def shape_past_rank(i, a, y):
    y[i] = a.shape[2]


def len_of_pointer(i, a, y):
    y[i] = len(y)


def shape_by_variable(i, a, y):
    y[i] = a.shape[i]


def atomic_on_matrix(i, a, y):
    atomic_add(a[i, 0], 1.0)


def bare_shape(i, a, y):
    s = a.shape
