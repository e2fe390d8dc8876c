# Python evaluates the arguments of range() once (also when the step is a constant), and a for
# loop's variable does not steer the loop when the body assigns to it. bump() counts its calls
# in `calls`, so a second evaluation shows up in the compared arrays.
from smelt import *


@annotate(calls='intp', j='int', ret='int', return_='int')
def bump(calls, j, ret):
    calls[j] += 1
    return ret


# smelt-test: kernel=k n=64
# smelt-arg: a int32 ints 0 6
# smelt-arg: calls int32 zeros size=3n
# smelt-arg: out int64 zeros size=3n


@annotate(i='int', a='intp', calls='intp', out='longp')
def k(i, a, calls, out):
    s = 0
    for v in range(bump(calls, 3 * i, a[i])):
        s += v
    for v in range(10, bump(calls, 3 * i + 1, a[i]), -1):
        s += v * 100
    for v in range(0, 20, bump(calls, 3 * i + 2, a[i] + 1)):
        s += 10000
    out[3 * i] = s
    t = 0
    for v in range(5):
        t += v
        v += 10
        t += v
    out[3 * i + 1] = t
    w = 0
    for w in range(a[i], 100):
        if w * w > 30:
            break
    out[3 * i + 2] = w
