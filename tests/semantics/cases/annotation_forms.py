# Every way to give types: @annotate with type objects, Python annotations with type objects and
# strings, default values (which only suggest a type: the call's arguments give it), an
# unannotated helper and an annotated local `t: float = 0`.
from smelt import *


def scaled(v, f):
    return v * f


def plus(a: double, b: 'double') -> double:
    return a + b


@annotate(i=int_, x=gdoublep, f=floatp, out=doublep)
def with_objects(i, x, f, out):
    out[i] = x[i] + f[i]


# smelt-test: kernel=k n=50
# smelt-arg: f float32 floats -10 10
# smelt-arg: a int32 ints -100 100
# smelt-arg: out float64 zeros size=3n rtol=1e-6
# smelt-arg: out2 float64 zeros
# smelt-arg: x float64 floats -10 10
# smelt-arg: n int64 scalar 7
# smelt-arg: s float64 scalar 0.25


@annotate(f='floatp', a=intp)
def k(i: int_, f, a, out: 'doublep', out2: gdoublep, x=[0.0], n=0, s=0.0):
    t: float = 0
    t = f[i] * 2.0
    out[3 * i] = plus(x[i], s) + n
    out[3 * i + 1] = scaled(a[i], n) + scaled(x[i], s) + i % n
    out[3 * i + 2] = t
    with_objects(i, x, f, out2)
