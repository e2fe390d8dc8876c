# Boolean contexts accept numbers (non-zero is true), `not` of numbers, bool locals compared
# with bools, bools converted with int(), and a numeric while condition.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: a int32 ints -2 2
# smelt-arg: x float64 grid -2 2 1
# smelt-arg: out int32 zeros size=2n


@annotate(i='int', a='intp', x='doublep', out='intp')
def k(i, a, x, out):
    r = 0
    if a[i]:
        r += 1
    if not a[i]:
        r += 2
    if x[i]:
        r += 4
    if a[i] and x[i]:
        r += 8
    if not (a[i] or x[i]):
        r += 16
    flag = a[i] > 0
    if flag:
        r += 32
    if flag == (x[i] > 0):
        r += 64
    if flag != (a[i] == 2):
        r += 128
    c = i % 6
    while c:
        c -= 1
        r += 256
    out[2 * i] = r
    out[2 * i + 1] = int(flag) + int(x[i] < 0) * 2 + int(not flag) * 4
