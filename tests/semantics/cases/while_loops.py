# while loops with break and continue, `while True`, nested while loops, and a numeric
# condition (non-zero is true).
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: a int32 ints 1 1000
# smelt-arg: out int32 zeros size=4n


@annotate(i='int', a='intp', out='intp')
def k(i, a, out):
    x = a[i]
    steps = 0
    while x != 1:
        if x % 2 == 0:
            x = x // 2
            steps += 1
            continue
        x = 3 * x + 1
        steps += 1
        if steps > 60:
            break
    out[4 * i] = steps
    out[4 * i + 1] = x
    j = 0
    tot = 0
    while True:
        j += 1
        if j % 3 == 0:
            continue
        if j > i % 17:
            break
        m = j
        while m > 0:
            tot += m
            m -= 2
    out[4 * i + 2] = tot * 100 + j
    c = i % 6
    r = 0
    while c:
        c -= 1
        r = r * 2 + 1
    out[4 * i + 3] = r
