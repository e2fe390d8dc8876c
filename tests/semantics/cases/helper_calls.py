# Calls of other functions of the file: annotated helpers (arguments converted to the parameter
# types), an unannotated helper specialised per argument-type list (JIT), helpers calling
# helpers, a void helper writing into an array, an early return.
from smelt import *


@annotate(a='double', b='double', return_='double')
def dist2(a, b):
    return a * a + b * b


def scale(v, f):
    return v * f


@annotate(x='doublep', j='int', return_='double')
def pick(x, j):
    if j < 0:
        return 0.0
    return x[j]


@annotate(out='intp', j='int', v='int')
def put(out, j, v):
    out[j] = v


@annotate(a='int', b='int', return_='int')
def twice_sum(a, b):
    return scale(a + b, 2)


# smelt-test: kernel=k n=90
# smelt-arg: x float64 floats -4 4
# smelt-arg: a int32 ints -1000 1000
# smelt-arg: out float64 zeros size=3n
# smelt-arg: iout int32 zeros size=3n


@annotate(i='int', x='doublep', a='intp', out='doublep', iout='intp')
def k(i, x, a, out, iout):
    out[3 * i] = dist2(x[i], a[i])
    out[3 * i + 1] = scale(x[i], 2.5) + scale(a[i], 3)
    out[3 * i + 2] = pick(x, i - 1) + scale(scale(a[i], 2), 0.5)
    put(iout, 3 * i, a[i] * -3)
    iout[3 * i + 1] = scale(a[i], -3)
    iout[3 * i + 2] = twice_sum(a[i], i)
