# Integer arithmetic at every width that stays in range: the wider type wins, unsigned 32-bit
# values above 2**31 keep their value, 64-bit products near 10**18 are exact. (Two 8- or 16-bit
# operands of one type are left out: C promotes them to int, NumPy computes in their own width.)
from smelt import *

# smelt-test: kernel=k n=100
# smelt-arg: c int8 ints -60 60
# smelt-arg: s int16 ints -10000 10000
# smelt-arg: a int32 ints -1000000 1000000
# smelt-arg: l int64 ints -1000000000000 1000000000000
# smelt-arg: u uint32 ints 0 4000000000
# smelt-arg: ub uint8 ints 0 255
# smelt-arg: us uint16 ints 0 65535
# smelt-arg: co int8 zeros
# smelt-arg: so int16 zeros
# smelt-arg: ao int32 zeros size=3n
# smelt-arg: lo int64 zeros size=3n
# smelt-arg: uo uint32 zeros size=2n


@annotate(i='int', c='charp', s='shortp', a='intp', l='longp', u='uintp', ub='ucharp',
          us='ushortp', co='charp', so='shortp', ao='intp', lo='longp', uo='uintp')
def k(i, c, s, a, l, u, ub, us, co, so, ao, lo, uo):
    co[i] = c[i] + c[i] // 2
    so[i] = s[i] * 3 - 7
    ao[3 * i] = a[i] * 1000 + c[i]
    ao[3 * i + 1] = s[i] * (a[i] // 1000) + c[i] * a[i]
    ao[3 * i + 2] = 1 if u[i] > 3000000000 else 0
    lo[3 * i] = l[i] * 1000003 + a[i]
    lo[3 * i + 1] = c[i] * l[i] - s[i] * (a[i] // 100)
    lo[3 * i + 2] = u[i] + l[i]
    uo[2 * i] = u[i] // 3 + u[i] % 1000 + ub[i] + us[i]
    uo[2 * i + 1] = (u[i] >> 4) * 15 + cast(ub[i], 'uint') * us[i]
