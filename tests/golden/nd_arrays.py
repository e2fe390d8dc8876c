# golden: stencil u=double[4,5] v=double[4,5]
# golden: planes t=float[2,3,4] out=doublep
# Shaped array parameters (global matrices): flat pointers indexed in 64 bits, extents as
# constants; a helper takes the matrix in place.


def at(m, r, c):
    return m[r, c]


def stencil(i, u, v):
    for j in range(1, u.shape[1] - 1):
        v[i, j] = at(u, i, j - 1) + u[i, j + 1] - 2.0 * u[i][j]


def planes(i, t, out):
    s = 0.0
    for j in range(t.shape[1]):
        for k in range(t.shape[2]):
            s += t[i, j, k]
    out[i] = s + len(t)
