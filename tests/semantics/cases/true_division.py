# `/` is true division: two integers give a double, also for negative operands, literals on
# either side and 64-bit dividends; `/=` on a double local.
from smelt import *

# smelt-test: kernel=k n=101
# smelt-arg: a int32 ints -1000 1000
# smelt-arg: b int32 ints -9 9 nonzero
# smelt-arg: l int64 ints -100000000000 100000000000
# smelt-arg: x float64 floats -10 10
# smelt-arg: out float64 zeros size=7n


@annotate(i='int', intp='a, b', l='longp', doublep='x, out')
def k(i, a, b, l, x, out):
    out[7 * i] = a[i] / b[i]
    out[7 * i + 1] = a[i] / 4
    out[7 * i + 2] = 7 / b[i]
    out[7 * i + 3] = l[i] / b[i]
    out[7 * i + 4] = x[i] / b[i] + i / 3
    q = a[i] / b[i]
    q /= -2
    out[7 * i + 5] = q * b[i]
    out[7 * i + 6] = -7 / 2 + (a[i] + 1) / (b[i] * 2)
