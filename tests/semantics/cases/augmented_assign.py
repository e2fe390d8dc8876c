# Augmented assignment with every operator, on integer and float locals and on array elements.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: a int32 ints -100 100
# smelt-arg: b int32 ints -9 9 nonzero
# smelt-arg: x float64 floats -10 10
# smelt-arg: arr int32 ints -1000 1000
# smelt-arg: farr float64 floats -3 3
# smelt-arg: out int64 zeros size=3n
# smelt-arg: fout float64 zeros


@annotate(i='int', intp='a, b, arr', doublep='x, farr, fout', out='longp')
def k(i, a, b, x, arr, farr, out, fout):
    t = declare('long')
    t = a[i]
    t += 7
    t -= b[i]
    t *= 3
    t //= b[i]
    t %= 11 + i
    t **= 2
    t &= 0x3FF
    t |= 0x400
    t ^= a[i]
    t <<= 2
    t >>= 1
    out[3 * i] = t
    s = a[i]
    s -= 1000
    s //= -7
    s %= -13
    out[3 * i + 1] = s
    m = b[i]
    m **= 3
    m *= -a[i]
    out[3 * i + 2] = m
    f = x[i]
    f += 1.5
    f -= a[i]
    f *= 0.5
    f /= b[i]
    f //= 0.75
    f %= 2.5
    f **= 2
    fout[i] = f
    arr[i] += a[i]
    arr[i] *= 2
    arr[i] //= 3
    arr[i] %= -5
    arr[i] -= b[i]
    arr[i] <<= 1
    arr[i] |= 1
    farr[i] *= x[i]
    farr[i] /= 4
    farr[i] -= 1
