# A function of the file named like a builtin (sin, hypot) replaces the builtin in CPython
# (the def comes after `from smelt import *`). The engine must call it too, or reject the
# definition with a located error, never silently call the builtin.
from smelt import *


@annotate(a='double', return_='double')
def sin(a):
    return a * 2.0


@annotate(a='double', b='double', return_='double')
def hypot(a, b):
    return a + b


# smelt-test: kernel=k n=16
# smelt-arg: x float64 floats -1 1
# smelt-arg: out float64 zeros size=2n


@annotate(i='int', x='doublep', out='doublep')
def k(i, x, out):
    out[2 * i] = sin(x[i])
    out[2 * i + 1] = hypot(x[i], 1.0)
