# `//` and `%` on integers follow Python: the quotient rounds toward minus infinity and the
# remainder takes the divisor's sign, for every sign combination, literal divisors of both signs,
# 8-, 32- and 64-bit operands and constant operands folded by the compiler.
from smelt import *

# smelt-test: kernel=k n=128
# smelt-arg: a int32 ints -1000 1000
# smelt-arg: b int32 ints -13 13 nonzero
# smelt-arg: l int64 ints -10000000000000 10000000000000
# smelt-arg: lb int64 ints -100000 100000 nonzero
# smelt-arg: c int8 ints -127 127
# smelt-arg: cb int8 ints -10 10 nonzero
# smelt-arg: q int32 zeros size=10n
# smelt-arg: lq int64 zeros size=2n
# smelt-arg: cq int8 zeros size=2n


@annotate(i='int', intp='a, b, q', longp='l, lb, lq', charp='c, cb, cq')
def k(i, a, b, l, lb, c, cb, q, lq, cq):
    q[10 * i] = a[i] // b[i]
    q[10 * i + 1] = a[i] % b[i]
    q[10 * i + 2] = a[i] // 7
    q[10 * i + 3] = a[i] % 7
    q[10 * i + 4] = a[i] // -7
    q[10 * i + 5] = a[i] % -7
    q[10 * i + 6] = -a[i] // b[i]
    q[10 * i + 7] = (a[i] // b[i]) * b[i] + a[i] % b[i] - a[i]
    q[10 * i + 8] = (-7 // 2) * 100 + (-7 % 3) * 10 + 7 % -3
    q[10 * i + 9] = 1000 // b[i] + 1000 % b[i]
    lq[2 * i] = l[i] // lb[i]
    lq[2 * i + 1] = l[i] % lb[i]
    cq[2 * i] = c[i] // cb[i]
    cq[2 * i + 1] = c[i] % cb[i]
