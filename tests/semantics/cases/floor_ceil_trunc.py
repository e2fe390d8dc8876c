# floor, ceil and trunc return floats of the argument's float type (integers become double);
# int() truncates toward zero, also for negative values and constants.
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: x float64 grid -10 10 0.25
# smelt-arg: f float32 grid -10 10 0.25
# smelt-arg: a int32 ints -50 50
# smelt-arg: out float64 zeros size=6n
# smelt-arg: fout float32 zeros size=3n
# smelt-arg: iout int32 zeros size=5n


@annotate(i='int', x='doublep', f='floatp', a='intp', out='doublep', fout='floatp', iout='intp')
def k(i, x, f, a, out, fout, iout):
    out[6 * i] = floor(x[i])
    out[6 * i + 1] = ceil(x[i])
    out[6 * i + 2] = trunc(x[i])
    out[6 * i + 3] = floor(a[i] / 4)
    out[6 * i + 4] = ceil(-x[i] / 3) + trunc(-x[i] / 3)
    out[6 * i + 5] = floor(a[i]) + ceil(a[i] * 0.1)
    fout[3 * i] = floor(f[i])
    fout[3 * i + 1] = ceil(f[i])
    fout[3 * i + 2] = trunc(f[i])
    iout[5 * i] = int(x[i])
    iout[5 * i + 1] = int(f[i])
    iout[5 * i + 2] = int(floor(x[i]))
    iout[5 * i + 3] = int(-2.5) + int(2.5) * 10 + int(x[i] * 3)
    iout[5 * i + 4] = int(a[i] / 3) * 100 + int(ceil(x[i]))
