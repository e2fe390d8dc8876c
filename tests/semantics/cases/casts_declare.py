# declare() gives zero of the declared type; cast() converts with C's wrapping and truncation;
# int() and float() convert; an annotated local `w: float = 0` is single precision.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: x float64 floats -300 300
# smelt-arg: a int32 ints -100000 100000
# smelt-arg: f float32 floats -50 50
# smelt-arg: out float64 zeros size=4n rtol=1e-6
# smelt-arg: iout int64 zeros size=5n
# smelt-arg: fo float32 zeros


@annotate(i='int', x='doublep', a='intp', f='floatp', out='doublep', iout='longp', fo='floatp')
def k(i, x, a, f, out, iout, fo):
    z = declare('double')
    p, q = declare('int', 2)
    out[4 * i] = z + p + q
    p = a[i] // 3
    q = int(x[i])
    z = x[i] * 2
    out[4 * i + 1] = z + float(p) / 2
    out[4 * i + 2] = cast(a[i], 'float') / 3
    out[4 * i + 3] = cast(x[i], 'float')
    iout[5 * i] = cast(a[i], 'char')
    iout[5 * i + 1] = cast(a[i], 'uchar')
    iout[5 * i + 2] = cast(x[i], 'int') + cast(a[i], 'short')
    iout[5 * i + 3] = cast(a[i], 'long') * 100000
    iout[5 * i + 4] = p + q
    w: float = 0
    w = f[i] * 3.0
    fo[i] = w + 1
