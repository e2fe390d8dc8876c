# `**`: small constant integer exponents on ints and floats (negative bases included), a
# run-time integer exponent, float and negative float exponents, and float's own precision.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: a int32 ints -20 20
# smelt-arg: e int32 ints 0 20
# smelt-arg: x float64 floats -3 3
# smelt-arg: p float64 floats 0.1 4
# smelt-arg: f float32 floats 0.1 4
# smelt-arg: out int64 zeros size=5n
# smelt-arg: fout float64 zeros size=7n
# smelt-arg: ffo float32 zeros size=3n


@annotate(i='int', intp='a, e', doublep='x, p, fout', f='floatp', out='longp', ffo='floatp')
def k(i, a, e, x, p, f, out, fout, ffo):
    out[5 * i] = a[i] ** 2
    out[5 * i + 1] = a[i] ** 3
    out[5 * i + 2] = a[i] ** 0 + a[i] ** 1
    out[5 * i + 3] = a[i] ** 5
    out[5 * i + 4] = 2 ** e[i] + (-3) ** (e[i] % 5)
    fout[7 * i] = x[i] ** 2
    fout[7 * i + 1] = p[i] ** 0.5
    fout[7 * i + 2] = x[i] ** -1
    fout[7 * i + 3] = x[i] ** a[i] if a[i] > -5 and a[i] < 5 else 0.0
    fout[7 * i + 4] = 2.0 ** e[i]
    fout[7 * i + 5] = x[i] ** 8
    fout[7 * i + 6] = p[i] ** x[i] + (-x[i]) ** 3
    ffo[3 * i] = f[i] ** 3
    ffo[3 * i + 1] = f[i] ** 0.5
    ffo[3 * i + 2] = f[i] ** 1.5 + f[i] ** 2
