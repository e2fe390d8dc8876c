# Module constants are compile-time values with Python's meaning (floor division and modulo of
# negatives, true division, powers, shifts, pi), used as untyped literals in kernels.
from smelt import *

N_ITEMS = 10
HALF = N_ITEMS // 2
NEG = -7
FLOOR_Q = NEG // 2
MOD_R = NEG % 3
RATIO = 7 / 2
SCALE = 2.5 * 2
MASK = (1 << 8) - 1
POW = 2 ** 10
TAU = 2 * pi
NEG_F = -7.5 // 2
NEG_M = -7.5 % 2

# smelt-test: kernel=k n=50
# smelt-arg: a int32 ints -100 100
# smelt-arg: x float64 floats -1 1
# smelt-arg: out int32 zeros size=2n
# smelt-arg: fout float64 zeros size=3n


@annotate(i='int', a='intp', x='doublep', out='intp', fout='doublep')
def k(i, a, x, out, fout):
    out[2 * i] = a[i] * HALF + NEG + FLOOR_Q * 100 + MOD_R * 1000
    out[2 * i + 1] = (a[i] & MASK) + POW + N_ITEMS
    fout[3 * i] = a[i] * RATIO + SCALE
    fout[3 * i + 1] = x[i] * TAU
    fout[3 * i + 2] = NEG_F * 10 + NEG_M + x[i]
