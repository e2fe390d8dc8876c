# Chained comparisons mean `a < b and b < c` (b evaluated once), for every operator mix, with
# arithmetic middle operands and mixed int/float operands; comparisons give bools that can be
# stored into integer arrays and counted.
from smelt import *

# smelt-test: kernel=k n=150
# smelt-arg: a int32 ints -5 5
# smelt-arg: b int32 ints -5 5
# smelt-arg: c int32 ints -5 5
# smelt-arg: x float64 grid -6 6 0.5
# smelt-arg: out int32 zeros size=8n


@annotate(i='int', intp='a, b, c, out', x='doublep')
def k(i, a, b, c, x, out):
    out[8 * i] = 1 if a[i] < b[i] < c[i] else 0
    out[8 * i + 1] = 1 if a[i] <= b[i] == c[i] else 0
    out[8 * i + 2] = 1 if a[i] < b[i] > c[i] else 0
    out[8 * i + 3] = 1 if -2 <= a[i] + b[i] < x[i] <= 3.5 else 0
    out[8 * i + 4] = 1 if a[i] != b[i] != c[i] else 0
    t = 0
    if 0 <= a[i] < 3 or c[i] > b[i] >= a[i]:
        t = 1
    out[8 * i + 5] = t
    out[8 * i + 6] = a[i] < b[i] < c[i]
    n = 0
    if a[i] < b[i]:
        n += 1
    if not a[i] >= c[i] > x[i]:
        n += 10
    if a[i] == b[i] == c[i] == 0:
        n += 100
    out[8 * i + 7] = n
