# A kernel with no annotations at all (Compyle's JIT style): every parameter takes its type from
# the arguments it is called with; the index `i` is a long.
from smelt import *


def mix(a, b):
    return a * 2 + b


# smelt-test: kernel=k n=70
# smelt-arg: x float32 floats -5 5
# smelt-arg: a int64 ints -100000000000 100000000000
# smelt-arg: m int32 scalar 9
# smelt-arg: out float64 zeros size=2n rtol=1e-6
# smelt-arg: lout int64 zeros


@jit
def k(i, x, a, m, out, lout):
    out[2 * i] = mix(x[i], a[i] % m)
    out[2 * i + 1] = x[i] / m + i
    lout[i] = mix(a[i], i) // m
