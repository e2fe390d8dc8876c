# Nested loops: an inner range depending on the outer variable, break and continue that leave
# only the inner loop, and array reads with computed indices.
from smelt import *

# smelt-test: kernel=k n=80
# smelt-arg: n int32 scalar n
# smelt-arg: x float64 floats -5 5
# smelt-arg: out float64 zeros
# smelt-arg: iout int32 zeros size=2n


@annotate(i='int', n='int', x='doublep', out='doublep', iout='intp')
def k(i, n, x, out, iout):
    s = 0.0
    for r in range(4):
        for c in range(r + 1):
            s += x[(i + r * c) % n] * (r - c)
    out[i] = s
    cnt = 0
    for r in range(i % 6):
        for c in range(10):
            if c > r:
                break
            if (r + c) % 2 == 1:
                continue
            cnt += 1
    iout[2 * i] = cnt
    found = -1
    for r in range(3):
        for c in range(n):
            if x[c] > 4.0 - r:
                found = r * 1000 + c
                break
        if found >= 0:
            break
    iout[2 * i + 1] = found
