# Conditional expressions: branches of different types meet in the promoted type, nesting is
# right-associative, and only the chosen branch is evaluated (touch() leaves a mark).
from smelt import *


@annotate(hits='intp', j='int', return_='int')
def touch(hits, j):
    hits[j] += 1
    return j % 7


# smelt-test: kernel=k n=100
# smelt-arg: a int32 ints -9 9
# smelt-arg: x float64 floats -5 5
# smelt-arg: hits int32 zeros size=2n
# smelt-arg: out float64 zeros size=5n


@annotate(i='int', a='intp', x='doublep', hits='intp', out='doublep')
def k(i, a, x, hits, out):
    out[5 * i] = x[i] if a[i] > 0 else -x[i]
    out[5 * i + 1] = a[i] if x[i] > 0 else x[i] * 0.5
    out[5 * i + 2] = 1 if a[i] > 5 else 2 if a[i] > 0 else 3 if a[i] > -5 else 4
    out[5 * i + 3] = touch(hits, 2 * i) if a[i] % 2 == 0 else touch(hits, 2 * i + 1) * 2
    y = (x[i] if x[i] > 0 else 0.0) + (a[i] if a[i] < 0 else 0)
    out[5 * i + 4] = y * (2 if i % 2 == 0 else 3)
