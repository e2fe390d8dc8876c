# Kernels over multi-dimensional array parameters (tests/primitives/nd_arrays_test.cpp): the
# shapes come from the call's shaped arguments, the parameters stay unannotated.
from smelt import annotate


def matvec(i, a, x, y):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j] * x[j]
    y[i] = s


def transpose(i, a, b):
    for j in range(len(b)):
        b[j, i] = a[i][j]


def laplacian(i, u, v):
    rows = u.shape[0]
    cols = u.shape[1]
    for j in range(cols):
        if i == 0 or j == 0 or i == rows - 1 or j == cols - 1:
            v[i, j] = u[i, j]
        else:
            v[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]


def weighted_planes(i, t, out):
    s = 0.0
    for j in range(t.shape[1]):
        for k in range(t.shape[2]):
            s += t[i, j, k] * (j + 1) - k
    out[i] = s


def scale_row(m, r, c):
    for j in range(m.shape[1]):
        m[r, j] = m[r, j] * c


def scale_rows(i, a, f):
    scale_row(a, i, f[i])


def row_norm2(i, a):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j] * a[i, j]
    return s


def diagonal_plus_one(i, a, out):
    out[i] = a[i, i + 1]


def gid_matvec(a, x, y):
    i = GID_0 * LDIM_0 + LID_0
    if i < a.shape[0]:
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * x[j]
        y[i] = s


@annotate(x='doublep', y='doublep')
def flat_affine(i, x, y):
    y[i] = 2.0 * x[i] + 1.0


def row_total(i, a):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j]
    return s


def store_row_prefix(i, item, prefix, out):
    prefix[i] = item
    out[i, 0] = item
