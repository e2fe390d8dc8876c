# Local matrices passed to helper functions, as Compyle programs do: a helper annotated with a
# pointer to the matrix's element type (Compyle's 'doublep' is a plain double*), unannotated
# helpers typed from the call (an int matrix, a 2-D matrix), a matrix passed on from one helper to
# another, and one helper called with a matrix and with a global array (two specialisations).
from smelt import *


@annotate(double='a, b', result='doublep')
def rotate_inverse(a, b, result):
    r2 = a * a + b * b
    if r2 < 1e-14:
        result[0] = 0.0
        result[1] = 0.0
    else:
        result[0] = -b / r2
        result[1] = a / r2


def cell_of(x, h, c):
    c[0] = cast(floor(x / h), 'int')
    c[1] = cast(floor(3.0 * x / h), 'int')


def flatten(p, q, qmax):
    return p * qmax + q


def key_of(c, x, h):
    cell_of(x, h, c)
    return flatten(c[0], c[1], 7)


def fill_diagonal(m, v):
    for k in range(3):
        m[k][k] = v + k
    m[0][2] = -v


def scale_pair(a, off, f):
    a[off] = a[off] * f
    a[off + 1] = a[off + 1] * f


# smelt-test: kernel=k n=97
# smelt-arg: x float64 floats -10 10
# smelt-arg: out float64 zeros size=5n
# smelt-arg: keys int32 zeros size=2n


def k(i, x, out, keys):
    tmp = declare('matrix(2)')
    rotate_inverse(x[i], 0.5 * x[i] - 1.0, tmp)
    out[5 * i] = tmp[0]
    out[5 * i + 1] = tmp[1]
    c = declare('matrix(2, "int")')
    keys[2 * i] = key_of(c, x[i], 1.5)
    keys[2 * i + 1] = c[1] - c[0]
    m = declare('matrix((3, 3))')
    fill_diagonal(m, x[i])
    out[5 * i + 2] = m[0][0] + m[1][1] * m[2][2] + m[0][2] + m[1][0]
    scale_pair(tmp, 0, 2.0)
    out[5 * i + 3] = tmp[0] - tmp[1]
    out[5 * i + 4] = x[i]
    scale_pair(out, 5 * i + 3, 0.5)
