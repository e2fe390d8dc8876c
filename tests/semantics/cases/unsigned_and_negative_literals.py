# A negative literal meeting an unsigned operand: CPython compares and divides the true values
# (u > -1 is always true; u // -2 is negative), so must the engine, or reject the program with
# a located error; and a countdown loop over an unsigned count, range(u, 0, -1).
from smelt import *

# smelt-test: kernel=k n=64
# smelt-arg: u uint32 ints 0 4294967295
# smelt-arg: out int64 zeros size=5n


@annotate(i='int', u='uintp', out='longp')
def k(i, u, out):
    out[5 * i] = 1 if u[i] > -1 else 0
    out[5 * i + 1] = u[i] // -2
    out[5 * i + 2] = u[i] % -3
    out[5 * i + 3] = max(u[i], -5)
    s = 0
    for v in range(u[i] % 10, 0, -1):
        s += v
    out[5 * i + 4] = s
