# Literal spellings (hex, octal, binary, underscores, exponents, `.5`, `5.`), True/False as
# numbers, the sign of negative zero through constant folding, and constant expressions
# folded with Python's meaning.
from smelt import *

# smelt-test: kernel=k n=20
# smelt-arg: a int32 ints -100 100
# smelt-arg: x float64 floats -2 2
# smelt-arg: out int64 zeros size=3n
# smelt-arg: fout float64 zeros size=6n


@annotate(i='int', a='intp', x='doublep', out='longp', fout='doublep')
def k(i, a, x, out, fout):
    out[3 * i] = 0x1F + 0o17 + 0b101 + 1_000 + 0xFF_FF + a[i]
    out[3 * i + 1] = True + True * 2 + False + (a[i] > 0) * 10
    out[3 * i + 2] = (-7 // 2) * 1000 + (7 // -2) * 100 + (-7 % 2) * 10 + (7 % -2) + abs(-3) * 100000 + min(3, 2) * 1000000
    fout[6 * i] = 1e-3 + .5 + 5. + 2.5e2 + 1E1 + x[i]
    fout[6 * i + 1] = copysign(1.0, -0.0) + copysign(2.0, 0.0 * -1.0) * 10
    fout[6 * i + 2] = copysign(1.0, -x[i] * 0.0) * copysign(1.0, x[i])
    fout[6 * i + 3] = (-7.5) % 2 + 7.5 // -2 * 10 + (-0.5) // 1.0 * 100
    fout[6 * i + 4] = copysign(1.0, 0.0 // -1.0) + copysign(1.0, -0.0 % 5.0) * 10
    fout[6 * i + 5] = 2 ** 0.5 + 10 ** -2 + 2.0 ** 3 + (-2) ** 3 + int(-2.9) + float(7) / 2
