# for v in range(...): one, two and three arguments, negative literal steps, run-time steps of
# both signs, empty ranges, and the loop variable's value after the loop (its last value, or
# the value before the loop when the range is empty).
from smelt import *

# smelt-test: kernel=k n=120
# smelt-arg: st int32 values -3 -2 -1 1 2 3 -5 4
# smelt-arg: out int64 zeros size=7n


@annotate(i='int', st='intp', out='longp')
def k(i, st, out):
    s = 0
    for v in range(i % 7):
        s += v
    out[7 * i] = s
    s = 0
    for v in range(-3, i % 5):
        s += v * 10
    for v in range(i % 13, -4, -3):
        s += v * 1000
    out[7 * i + 1] = s
    s = 0
    for v in range(i % 10, 20, 3):
        s = s * 2 + v
    out[7 * i + 2] = s
    step = st[i]
    s = 0
    for v in range(i % 9 - 4, 4 - i % 7, step):
        s = s * 3 + v + 5
    out[7 * i + 3] = s
    w = -100
    for w in range(i % 3 - 1):
        s += 1
    out[7 * i + 4] = w
    w2 = -100
    for w2 in range(10, i % 20, -step if step < 0 else -1):
        pass
    out[7 * i + 5] = w2
    m = i % 4 + 1
    t = 0
    for v in range(m * 5, -m, -m):
        t += v
    out[7 * i + 6] = t
