# The math builtins on their domains, in double and in float, integers converted to double,
# the constants, and the classification functions on NaN and infinities.
from smelt import *

# smelt-test: kernel=k n=80
# smelt-arg: x float64 floats -3 3
# smelt-arg: p float64 floats 0.1 5
# smelt-arg: f float32 floats -3 3
# smelt-arg: a int32 ints 1 100
# smelt-arg: out float64 zeros size=32n
# smelt-arg: fout float32 zeros size=6n
# smelt-arg: bout int32 zeros size=6n


@annotate(i='int', doublep='x, p, out', f='floatp', fout='floatp', a='intp', bout='intp')
def k(i, x, p, f, a, out, fout, bout):
    j = 32 * i
    out[j] = sin(x[i])
    out[j + 1] = cos(x[i])
    out[j + 2] = tan(x[i] / 2)
    out[j + 3] = asin(x[i] / 3)
    out[j + 4] = acos(x[i] / 3)
    out[j + 5] = atan(x[i])
    out[j + 6] = sinh(x[i])
    out[j + 7] = cosh(x[i])
    out[j + 8] = tanh(x[i])
    out[j + 9] = asinh(x[i])
    out[j + 10] = acosh(p[i] + 1)
    out[j + 11] = atanh(x[i] / 4)
    out[j + 12] = exp(x[i])
    out[j + 13] = expm1(x[i] / 100)
    out[j + 14] = log(p[i])
    out[j + 15] = log10(p[i])
    out[j + 16] = log2(p[i])
    out[j + 17] = log1p(p[i] / 100)
    out[j + 18] = sqrt(p[i])
    out[j + 19] = cbrt(x[i])
    out[j + 20] = fabs(x[i])
    out[j + 21] = atan2(x[i], p[i] - 2)
    out[j + 22] = pow(p[i], x[i])
    out[j + 23] = hypot(x[i], p[i])
    out[j + 24] = fmod(x[i], p[i])
    out[j + 25] = copysign(p[i], x[i])
    out[j + 26] = erf(x[i])
    out[j + 27] = erfc(x[i])
    out[j + 28] = pi * x[i] + e - M_PI
    out[j + 29] = sqrt(a[i]) + log(a[i])
    out[j + 30] = pow(a[i], 2) + atan2(a[i], 7)
    out[j + 31] = exp(-x[i] * x[i]) * sin(pi * p[i])
    fout[6 * i] = sin(f[i])
    fout[6 * i + 1] = exp(f[i])
    fout[6 * i + 2] = sqrt(fabs(f[i]))
    fout[6 * i + 3] = atan2(f[i], 1.5)
    fout[6 * i + 4] = pow(fabs(f[i]), 1.5)
    fout[6 * i + 5] = floor(f[i] * 3.0) + log1p(fabs(f[i]))
    bout[6 * i] = isnan(log(x[i]))
    bout[6 * i + 1] = isinf(exp(x[i] * 400))
    bout[6 * i + 2] = isfinite(1.0 / x[i])
    bout[6 * i + 3] = isnan(nan) + isinf(-INFINITY) * 2 + isinf(inf) * 4 + isnan(NAN) * 8
    bout[6 * i + 4] = int(isnan(f[i] * inf)) + int(isfinite(f[i])) * 2
    bout[6 * i + 5] = isinf(a[i] / 0.0)
