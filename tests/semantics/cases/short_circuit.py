# `and`/`or`/`not` short-circuit: the right operand runs only when needed. In CPython an
# out-of-range x[j] raises IndexError, and touch() leaves a mark in `hits`, so evaluating a
# skipped operand shows up in the oracle or in the compared arrays. A conditional expression
# evaluates only the chosen branch.
from smelt import *

# smelt-test: kernel=k n=90
# smelt-arg: n int32 scalar n
# smelt-arg: x float64 floats -1 1
# smelt-arg: a int32 ints -4 4
# smelt-arg: hits int32 zeros size=6n
# smelt-arg: out int32 zeros


@annotate(hits='intp', j='int', return_='int')
def touch(hits, j):
    hits[j] += 1
    return 1


@annotate(i='int', n='int', x='doublep', intp='a, hits, out')
def k(i, n, x, a, hits, out):
    j = i + 3
    r = 0
    if j < n and x[j] > 0:
        r += 1
    if a[i] > 0 and touch(hits, 6 * i) > 0:
        r += 2
    if a[i] > 0 or touch(hits, 6 * i + 1) > 0:
        r += 4
    if not (a[i] < 0 and touch(hits, 6 * i + 2) > 0):
        r += 8
    if a[i] == 0 or a[i] > 2 and touch(hits, 6 * i + 3) > 0:
        r += 16
    if j >= n or x[j] < 0 or touch(hits, 6 * i + 4) == 1:
        r += 32
    v = touch(hits, 6 * i + 5) if a[i] > 2 else -1
    w = x[j] if j < n else 2.0
    out[i] = r + v * 100 + int(w * 1000) * 1000
