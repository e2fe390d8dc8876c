# Helpers with returns inside loops and `while True`, a parameter modified inside the callee
# (the caller's variable is unchanged), and a helper called in a loop condition.
from smelt import *


@annotate(x='intp', n='int', v='int', return_='int')
def find_first_above(x, n, v):
    for j in range(n):
        if x[j] > v:
            return j
    return -1


@annotate(a='int', return_='int')
def collatz_len(a):
    steps = 0
    while True:
        if a == 1:
            return steps
        if a % 2 == 0:
            a //= 2
        else:
            a = 3 * a + 1
        steps += 1


# smelt-test: kernel=k n=80
# smelt-arg: n int32 scalar n
# smelt-arg: a int32 ints -100 100
# smelt-arg: out int32 zeros size=4n


@annotate(i='int', n='int', a='intp', out='intp')
def k(i, n, a, out):
    out[4 * i] = find_first_above(a, n, a[i])
    c = abs(a[i]) + 1
    out[4 * i + 1] = collatz_len(c)
    out[4 * i + 2] = c
    j = 0
    while j < n and find_first_above(a, j + 1, 90) < 0:
        j += 1
    out[4 * i + 3] = j
