# A helper given the same array twice (reads see earlier writes), float locals declared with
# declare('float') holding converted doubles, and double locals accumulating float elements.
from smelt import *


@annotate(dst='doublep', src='doublep', j='int')
def add_twice(dst, src, j):
    dst[j] = dst[j] + src[j]
    dst[j] = dst[j] + src[j]


# smelt-test: kernel=k n=60
# smelt-arg: x float64 floats -10 10
# smelt-arg: f float32 floats -10 10
# smelt-arg: fo float32 zeros size=2n


@annotate(i='int', x='doublep', f='floatp', fo='floatp')
def k(i, x, f, fo):
    add_twice(x, x, i)
    t = declare('float')
    t = x[i]
    t *= 0.5
    acc = declare('double')
    for j in range(3):
        acc += f[(i + j) % 60]
    fo[2 * i] = t
    fo[2 * i + 1] = acc
