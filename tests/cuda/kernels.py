# Low-level kernels for the CUDA tests (tests/cuda/*_test.cpp): Compyle-style kernels with an
# explicit launch geometry, local (shared) memory, barriers, atomics and recursion.


@annotate(x='doublep', partial='doublep', n='int')
def block_sum(x, partial, n):
    # One partial sum per block of 64 threads, by a tree in shared memory.
    buf = declare('LOCAL_MEM matrix(64)')
    lid = LID_0
    i = GID_0 * LDIM_0 + lid
    buf[lid] = x[i] if i < n else 0.0
    local_barrier()
    s = 32
    while s > 0:
        if lid < s:
            buf[lid] += buf[lid + s]
        local_barrier()
        s = s // 2
    if lid == 0:
        partial[GID_0] = buf[0]


@annotate(x='intp', out='intp', scratch='lintp', n='int')
def reverse_blocks(x, out, scratch, n):
    # Reverses each block of LDIM_0 items through a LocalMem argument.
    lid = LID_0
    base = GID_0 * LDIM_0
    if base + lid < n:
        scratch[lid] = x[base + lid]
    local_barrier()
    j = LDIM_0 - 1 - lid
    if base + j < n and base + lid < n:
        out[base + lid] = scratch[j]


@annotate(a='lfloatp', b='ldoublep', out='intp', counter='intp', total='floatp', dtotal='doublep')
def two_local(a, b, out, counter, total, dtotal):
    # Two LocalMem arguments of different element sizes, and int/float atomics.
    lid = LID_0
    a[lid] = 1.5
    b[lid] = 2.25
    local_barrier()
    out[GID_0 * LDIM_0 + lid] = atomic_inc(counter[0])
    atomic_add(total[0], a[LDIM_0 - 1 - lid])
    atomic_add(dtotal[0], b[LDIM_0 - 1 - lid])


@annotate(n='int', return_='long')
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@annotate(out='longp', n='int')
def factorials(out, n):
    i = GID_0 * LDIM_0 + LID_0
    if i < n:
        out[i] = factorial(i)


@annotate(i='int', x='doublep', y='doublep', k='int')
def mixed_math(i, x, y, k):
    # Python's // and % on floats, powers, min/max, abs, int-to-float division: in single
    # precision all of it must stay in float.
    v = x[i]
    y[i] = (v // 3.0) + v % 2.5 + abs(v) * 2 + min(v, 1.0) + max(v, 0.5) + v**3 + sqrt(abs(v)) + \
        floor(v) + k / 3 + float(k) ** 0.5 + exp(v) + log(abs(v) + 1.0)
