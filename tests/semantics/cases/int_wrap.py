# Documented difference from CPython: integer overflow wraps at the declared width. These
# results agree with NumPy because array element * element wraps in NumPy too, and +, -, *
# agree modulo 2**width however wide NumPy computes before storing into the array.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: a int32 ints -2000000000 2000000000
# smelt-arg: b int32 ints -2000000000 2000000000
# smelt-arg: c int8 ints -128 127
# smelt-arg: u uint32 ints 0 10
# smelt-arg: w uint32 ints 100000 4000000000
# smelt-arg: l int64 ints -4000000000000 4000000000000
# smelt-arg: ao int32 zeros size=4n
# smelt-arg: co int8 zeros size=2n
# smelt-arg: uo uint32 zeros size=3n
# smelt-arg: lo int64 zeros


@annotate(i='int', intp='a, b, ao', charp='c, co', uintp='u, w, uo', longp='l, lo')
def k(i, a, b, c, u, w, l, ao, co, uo, lo):
    ao[4 * i] = a[i] * b[i]
    ao[4 * i + 1] = a[i] + b[i] - 7
    t = declare('int')
    t = a[i] * b[i]
    ao[4 * i + 2] = t // 3
    ao[4 * i + 3] = -a[i] - b[i]
    co[2 * i] = c[i] + 100
    co[2 * i + 1] = c[i] * c[i]
    uo[3 * i] = u[i] - 5
    uo[3 * i + 1] = w[i] * w[i]
    uo[3 * i + 2] = w[i] + w[i] + w[i]
    lo[i] = l[i] * l[i]
