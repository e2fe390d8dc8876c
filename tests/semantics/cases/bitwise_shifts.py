# Bitwise operators and shifts: & | ^ ~ << >> on signed (arithmetic >> of negatives), unsigned
# (logical >>) and 64-bit integers, run-time shift amounts, and Python's precedence (`a & 1 == 0`
# is `(a & 1) == 0`, unlike C).
from smelt import *

# smelt-test: kernel=k n=128
# smelt-arg: a int32 ints -100000 100000
# smelt-arg: b int32 ints -100000 100000
# smelt-arg: sh int32 ints 0 31
# smelt-arg: u uint32 ints 0 4294967295
# smelt-arg: l int64 ints -1000000000 1000000000
# smelt-arg: ao int32 zeros size=9n
# smelt-arg: uo uint32 zeros size=4n
# smelt-arg: lo int64 zeros size=2n


@annotate(i='int', intp='a, b, sh, ao', u='uintp', uo='uintp', l='longp', lo='longp')
def k(i, a, b, sh, u, l, ao, uo, lo):
    ao[9 * i] = a[i] & b[i]
    ao[9 * i + 1] = a[i] | b[i]
    ao[9 * i + 2] = a[i] ^ b[i]
    ao[9 * i + 3] = ~a[i]
    ao[9 * i + 4] = a[i] >> sh[i]
    ao[9 * i + 5] = (a[i] & 0xFFFF) << (sh[i] % 16)
    ao[9 * i + 6] = a[i] & 0xFF | 1 << 4 ^ b[i]
    ao[9 * i + 7] = 1 if a[i] & 1 == 0 else 0
    ao[9 * i + 8] = -a[i] >> 3 << 2
    uo[4 * i] = u[i] >> (sh[i] % 32)
    uo[4 * i + 1] = ~u[i]
    uo[4 * i + 2] = u[i] ^ 0xDEADBEEF
    uo[4 * i + 3] = (u[i] & 0xFFFF) << 16 | u[i] >> 16
    lo[2 * i] = l[i] << 20
    lo[2 * i + 1] = l[i] >> 3 ^ ~l[i]
