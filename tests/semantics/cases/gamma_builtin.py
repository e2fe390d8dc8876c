# gamma(x), Python's math.gamma spelled tgamma in C: positive and negative arguments, integers
# (converted to double), float32, and where math.gamma raises the C results the language gives:
# ±inf at ±0, NaN at the negative integers and -inf, inf on overflow.
from smelt import *

# smelt-test: kernel=k n=60
# smelt-arg: x float64 floats -6 12
# smelt-arg: s float64 values 0 -0.0 -1 -4 0.5 -2.5 171.5 172 400 nan inf -inf
# smelt-arg: f float32 floats 0.2 8
# smelt-arg: a int32 ints 1 25
# smelt-arg: out float64 zeros size=3n
# smelt-arg: fout float32 zeros


@annotate(i='int', doublep='x, s, out', f='floatp', fout='floatp', a='intp')
def k(i, x, s, f, a, out, fout):
    out[3 * i] = gamma(x[i])
    out[3 * i + 1] = gamma(s[i])
    out[3 * i + 2] = gamma(a[i]) / gamma(a[i] + 1.0)
    fout[i] = gamma(f[i])
