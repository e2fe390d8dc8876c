# Local matrices: declare('matrix(N)') with a module constant extent, a 2-D int matrix,
# two matrices from one declare, filled in loops and reduced.
from smelt import *

SIZE = 5
ROWS = 3

# smelt-test: kernel=k n=64
# smelt-arg: n int32 scalar n
# smelt-arg: x float64 floats -3 3
# smelt-arg: a int32 ints -100 100
# smelt-arg: out float64 zeros size=2n
# smelt-arg: iout int32 zeros size=2n


@annotate(i='int', n='int', x='doublep', a='intp', out='doublep', iout='intp')
def k(i, n, x, a, out, iout):
    m = declare('matrix(SIZE)')
    for j in range(SIZE):
        m[j] = x[(i + j) % n] * j
    s = 0.0
    for j in range(SIZE):
        s += m[j]
    g = declare("matrix((ROWS, 4), 'int')")
    for r in range(ROWS):
        for c in range(4):
            g[r][c] = a[(i + r) % n] * c - r
    best = g[0][0]
    total = 0
    for r in range(ROWS):
        for c in range(4):
            total += g[r][c]
            if g[r][c] > best:
                best = g[r][c]
    u, v = declare('matrix(3)', 2)
    for j in range(3):
        u[j] = j + 1.0
        v[j] = x[i] - j
    dot = 0.0
    for j in range(3):
        dot += u[j] * v[j]
    out[2 * i] = s
    out[2 * i + 1] = dot
    iout[2 * i] = best
    iout[2 * i + 1] = total
