# A literal that does not fit the other operand's type. CPython computes the true value
# (1000 * c, 3000000000 + h); the engine must give that too, or reject the program with a
# located error, never fail inside the compiler.
from smelt import *

BIG = 3000000000

# smelt-test: kernel=k n=100
# smelt-arg: c int8 ints -60 60
# smelt-arg: h int16 ints -10000 10000
# smelt-arg: a int32 ints -1000 1000
# smelt-arg: wide int64 zeros size=3n


@annotate(i='int', c='charp', h='shortp', a='intp', wide='longp')
def k(i, c, h, a, wide):
    wide[3 * i] = c[i] * 1000 + h[i] * 100000
    wide[3 * i + 1] = h[i] + 3000000000
    wide[3 * i + 2] = BIG + a[i]
