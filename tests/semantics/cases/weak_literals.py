# Weak literals: a number literal takes the other operand's type, so float arithmetic with
# literals stays float (single precision) and char/short arithmetic with int literals stays in
# its width. NumPy 1.24 computes some of these in double, hence the float tolerance on d.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: f float32 floats -100 100
# smelt-arg: c int8 ints -60 60
# smelt-arg: h int16 ints -10000 10000
# smelt-arg: fo float32 zeros size=4n
# smelt-arg: co int8 zeros
# smelt-arg: ho int16 zeros
# smelt-arg: d float64 zeros size=2n rtol=1e-6


@annotate(i='int', f='floatp', c='charp', h='shortp', fo='floatp', co='charp', ho='shortp', d='doublep')
def k(i, f, c, h, fo, co, ho, d):
    fo[4 * i] = f[i] * 2.0 + 1.5
    fo[4 * i + 1] = f[i] / 3 - 0.1
    fo[4 * i + 2] = f[i] * f[i] * 0.5 + 1e-3 * i
    fo[4 * i + 3] = 1.0 / (f[i] + 200) + f[i] // 7.0
    co[i] = c[i] * 2 + 1
    ho[i] = h[i] - 3
    d[2 * i] = f[i] * 0.1
    d[2 * i + 1] = f[i] / 7
