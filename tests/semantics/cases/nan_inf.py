# NaN and infinities: truth values (NaN is true), comparisons and chains with NaN, Python's
# % and // with infinite operands, and inf/nan constants in arithmetic.
from smelt import *

# smelt-test: kernel=k n=40
# smelt-arg: x float64 values nan 1.5 -2.0 inf -inf 0.0 -0.0 7.25 -3.5 nan
# smelt-arg: y float64 values 2.0 inf -inf 3.0 -1.5 inf 2.5 -inf 4.0 0.5 1.0
# smelt-arg: out int32 zeros size=3n
# smelt-arg: fout float64 zeros size=5n


@annotate(i='int', x='doublep', y='doublep', out='intp', fout='doublep')
def k(i, x, y, out, fout):
    r = 0
    if x[i]:
        r += 1
    if not x[i]:
        r += 2
    if x[i] < y[i]:
        r += 4
    if x[i] != x[i]:
        r += 8
    if -inf < x[i] < inf:
        r += 16
    if x[i] == x[i] and y[i] > x[i] or isnan(y[i]):
        r += 32
    out[3 * i] = r
    out[3 * i + 1] = isinf(x[i] * y[i]) + isnan(x[i] - y[i]) * 2
    out[3 * i + 2] = 1 if x[i] >= y[i] >= -inf else 0
    fout[5 * i] = x[i] % y[i] if y[i] != 0 else 0.0
    fout[5 * i + 1] = x[i] // y[i] if y[i] != 0 else 0.0
    # The sign of a NaN made by an invalid operation (inf % y) is unspecified by IEEE 754 (x86
    # sets it, PoCL does not): only the signs of numbers are compared.
    fout[5 * i + 2] = copysign(1.0, x[i] % y[i]) if y[i] != 0 and isfinite(x[i]) else 0.0
    fout[5 * i + 3] = x[i] * 0.0 + inf - inf if i % 2 == 0 else nan
    fout[5 * i + 4] = fmod(x[i], y[i]) if isfinite(x[i]) else -1.0
