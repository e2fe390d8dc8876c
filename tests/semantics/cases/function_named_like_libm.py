# Functions of the file named like C math library functions that are not kernel builtins
# (round, exp2): CPython calls them like any function; the engine must too, or report a located
# error, never produce C++ that clashes with <cmath>.
from smelt import *


@annotate(a='double', return_='double')
def round(a):
    return a * 2.0


@annotate(a='double', return_='double')
def exp2(a):
    return a + 10.0


# smelt-test: kernel=k n=16
# smelt-arg: x float64 floats -1 1
# smelt-arg: out float64 zeros


@annotate(i='int', x='doublep', out='doublep')
def k(i, x, out):
    out[i] = round(x[i]) + exp2(x[i])
