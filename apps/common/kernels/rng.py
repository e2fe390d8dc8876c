"""Counter-based random numbers for kernels: Philox4x32-10 keyed on (seed, step, id, stream).

A draw is a pure function of its key, never of a generator state, so:
- results do not depend on the thread layout or the backend (each particle computes its own
  draws from its own id);
- a run restarted at step s draws exactly what the uninterrupted run drew at step s;
- the host (C++) can reproduce any kernel draw bit for bit with the same ~30 lines.

Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3",
SC'11; the Random123 library) maps a 128-bit counter and a 64-bit key to 128 random bits with
10 rounds of 32 x 32 -> 64-bit multiplications. It passes TestU01's BigCrush. Here:

    counter = (id, stream, step & 0xFFFFFFFF, step >> 32),   key = (seed & 0xFFFFFFFF, seed >> 32)

`random_bits` returns output words 0 and 1 as one 64-bit value (word 0 in the high half).
Uniforms use 32 bits, u = (w + 1/2) 2^-32 with w a 32-bit word: in (0, 1) in double precision
(2^32 equally spaced values; in single precision the rounding of w + 1/2 can give 1.0).
Normals use Box-Muller on the two words of one draw:
    z = sqrt(-2 ln u1) cos(2 pi u2),   u1 from the high word, u2 from the low word.

Integer arithmetic: the kernel language wraps unsigned integers at their width (LANGUAGE.md)
while CPython's integers do not, so every sum that can pass 2^32 is masked with 0xFFFFFFFF. The
mask is a no-op in the compiled code and makes CPython compute the same bits. Products are
formed in 64 bits (a ulong local times a 32-bit constant), which never overflow. In CPython
pass Python ints (as the elementwise loops do) or NumPy uint64 arrays; NumPy's signed int64
scalars would wrap those products at 63 bits.
"""

from math import cos, log, pi, sqrt

from smelt import annotate, declare

PHILOX_M0 = 0xD2511F53
PHILOX_M1 = 0xCD9E8D57
PHILOX_W0 = 0x9E3779B9
PHILOX_W1 = 0xBB67AE85
MASK32 = 0xFFFFFFFF
TWO_POW_M32 = 2.3283064365386963e-10  # 2^-32, exact in binary


@annotate(uint='c0, c1, c2, c3, k0, k1', half='int', return_='ulong')
def philox4x32_10(c0, c1, c2, c3, k0, k1, half):
    """Philox4x32 with 10 rounds of counter (c0..c3) under key (k0, k1).

    Returns output words (0, 1) as word0 << 32 | word1 when half == 0, else words (2, 3).
    Round: (hi0, lo0) = M0 * x0, (hi1, lo1) = M1 * x2 (64-bit products);
           x = (hi1 ^ x1 ^ key0, lo1, hi0 ^ x3 ^ key1, lo0); then key += (W0, W1) mod 2^32.
    """
    x0, x1, x2, x3, y0, y2, key0, key1 = declare('uint', 8)
    p0, p1, r = declare('ulong', 3)
    x0 = c0
    x1 = c1
    x2 = c2
    x3 = c3
    key0 = k0
    key1 = k1
    for rnd in range(10):
        p0 = x0
        p0 = p0 * PHILOX_M0
        p1 = x2
        p1 = p1 * PHILOX_M1
        y0 = (p1 >> 32) ^ x1 ^ key0
        y2 = (p0 >> 32) ^ x3 ^ key1
        x1 = p1 & MASK32
        x3 = p0 & MASK32
        x0 = y0
        x2 = y2
        key0 = (key0 + PHILOX_W0) & MASK32
        key1 = (key1 + PHILOX_W1) & MASK32
    if half == 0:
        r = x0
        r = (r << 32) | x1
    else:
        r = x2
        r = (r << 32) | x3
    return r


@annotate(seed='ulong', step='long', pid='int', stream='int', return_='ulong')
def random_bits(seed, step, pid, stream):
    """64 random bits for (seed, step, particle id, stream): Philox words 0 and 1."""
    c0, c1, c2, c3, k0, k1 = declare('uint', 6)
    c0 = pid & MASK32
    c1 = stream & MASK32
    c2 = step & MASK32
    c3 = (step >> 32) & MASK32
    k0 = seed & MASK32
    k1 = (seed >> 32) & MASK32
    return philox4x32_10(c0, c1, c2, c3, k0, k1, 0)


@annotate(w='uint', return_='double')
def uniform_from_word(w):
    """(w + 1/2) 2^-32: a 32-bit word mapped into (0, 1), never 0 (so log() is finite)."""
    return (w + 0.5) * TWO_POW_M32


@annotate(seed='ulong', step='long', pid='int', stream='int', return_='double')
def rng_uniform(seed, step, pid, stream):
    """Uniform in (0, 1) from the high word of random_bits(seed, step, pid, stream)."""
    bits = declare('ulong')
    bits = random_bits(seed, step, pid, stream)
    return uniform_from_word(bits >> 32)


@annotate(seed='ulong', step='long', pid='int', stream='int', return_='double')
def rng_normal(seed, step, pid, stream):
    """Standard normal by Box-Muller from the two words of random_bits(seed, step, pid, stream)."""
    bits = declare('ulong')
    u1, u2 = declare('double', 2)
    bits = random_bits(seed, step, pid, stream)
    u1 = uniform_from_word(bits >> 32)
    u2 = uniform_from_word(bits & MASK32)
    return sqrt(-2.0 * log(u1)) * cos(2.0 * pi * u2)
