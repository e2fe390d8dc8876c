# Returns in every branch of if/elif/else chains, nested, with values of different types
# converted to the declared result type: each return must give its own value.
from smelt import *


@annotate(a='int', b='int', return_='int')
def sign_class(a, b):
    if a > 0:
        if b > 0:
            return 1
        elif b < 0:
            return 2
        return 3
    elif a < 0:
        return 4 if b != 0 else 5
    return 6


@annotate(x='double', return_='double')
def piecewise(x):
    if x < -1.0:
        return -1
    elif x < 0.0:
        return x * x
    elif x < 1.0:
        return 2 * x
    else:
        return 10


# smelt-test: kernel=k n=80
# smelt-arg: a int32 ints -3 3
# smelt-arg: b int32 ints -3 3
# smelt-arg: x float64 floats -2 2
# smelt-arg: out int32 zeros
# smelt-arg: fout float64 zeros


@annotate(i='int', a='intp', b='intp', x='doublep', out='intp', fout='doublep')
def k(i, a, b, x, out, fout):
    out[i] = sign_class(a[i], b[i])
    fout[i] = piecewise(x[i])
