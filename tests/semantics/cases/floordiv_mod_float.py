# `//` and `%` on floats follow Python (floor of the quotient, remainder with the divisor's
# sign, including the sign of a zero remainder), for double and float, with literal divisors of
# both signs and integer operands mixed in.
from smelt import *

# smelt-test: kernel=k n=120
# smelt-arg: x float64 grid -10 10 0.25
# smelt-arg: y float64 grid -4 4 0.5 nonzero
# smelt-arg: f float32 grid -10 10 0.25
# smelt-arg: g float32 grid -3 3 0.75 nonzero
# smelt-arg: a int32 ints -20 20
# smelt-arg: out float64 zeros size=9n
# smelt-arg: fout float32 zeros size=3n


@annotate(i='int', doublep='x, y, out', floatp='f, g, fout', a='intp')
def k(i, x, y, f, g, a, out, fout):
    out[9 * i] = x[i] // y[i]
    out[9 * i + 1] = x[i] % y[i]
    out[9 * i + 2] = x[i] // 2.5
    out[9 * i + 3] = x[i] % -2.5
    out[9 * i + 4] = a[i] % 2.5
    out[9 * i + 5] = x[i] // 3 + a[i] // 0.75
    out[9 * i + 6] = copysign(1.0, x[i] % y[i])
    out[9 * i + 7] = -x[i] // y[i]
    out[9 * i + 8] = copysign(1.0, x[i] // y[i])
    fout[3 * i] = f[i] // g[i]
    fout[3 * i + 1] = f[i] % g[i]
    fout[3 * i + 2] = copysign(1.0, f[i] % g[i])
