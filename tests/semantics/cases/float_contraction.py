# Every float operation rounds once, as in CPython: no backend may fuse a*b - c or a*b + c into
# a fused multiply-add (docs/LANGUAGE.md, "Floating point"). With contraction, x*x - z for
# z = x*x is the rounding error of x*x (negative for about half of the inputs, so its sqrt is
# NaN) instead of 0, and x*3.0 + 1.0 differs in the last bit. Compared exactly (rtol=0).
from math import sqrt

from smelt import *

# smelt-test: kernel=k n=1001
# smelt-arg: x float64 floats -1000 1000
# smelt-arg: y float64 floats -3 3
# smelt-arg: out float64 zeros size=5n rtol=0


@annotate(i='int', doublep='x, y, out')
def k(i, x, y, out):
    z = x[i] * x[i]
    out[5 * i] = sqrt(x[i] * x[i] - z)
    out[5 * i + 1] = x[i] * 3.0 + 1.0
    out[5 * i + 2] = x[i] * y[i] - x[i] * y[i]
    out[5 * i + 3] = (x[i] + y[i]) * (x[i] - y[i]) + x[i] / 7.0
    s = 0.0
    for j in range(10):
        s = s * y[i] + x[i]
    out[5 * i + 4] = s
