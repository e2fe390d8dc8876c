# min, max (two or more arguments) and abs with mixed int/float operands; min(a, b) is
# `b if b < a else a` as in Python, which decides the answer when a NaN is involved.
from smelt import *

# smelt-test: kernel=k n=96
# smelt-arg: a int32 ints -50 50
# smelt-arg: b int32 ints -50 50
# smelt-arg: x float64 grid -30 30 0.5
# smelt-arg: y float64 values nan 1.5 -2.0 inf -inf 0.0 -7.25 nan 30.5
# smelt-arg: f float32 floats -40 40
# smelt-arg: out float64 zeros size=8n
# smelt-arg: iout int32 zeros size=5n


@annotate(i='int', intp='a, b, iout', doublep='x, y, out', f='floatp')
def k(i, a, b, x, y, f, out, iout):
    iout[5 * i] = min(a[i], b[i])
    iout[5 * i + 1] = max(a[i], b[i], 3)
    iout[5 * i + 2] = abs(a[i]) + abs(-7)
    iout[5 * i + 3] = min(a[i] * 2, -b[i], 0)
    iout[5 * i + 4] = max(-a[i], abs(b[i] - a[i]))
    out[8 * i] = min(a[i], x[i])
    out[8 * i + 1] = max(x[i], y[i], a[i] / 2)
    out[8 * i + 2] = abs(x[i]) + abs(-2.5)
    out[8 * i + 3] = min(x[i], 2.5) + max(-1, a[i])
    out[8 * i + 4] = max(f[i], x[i])
    out[8 * i + 5] = min(y[i], x[i])
    out[8 * i + 6] = max(y[i], x[i])
    out[8 * i + 7] = min(x[i], y[i]) + abs(y[i])
