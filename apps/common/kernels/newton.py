"""Per-chunk force buffers for Newton's third law on a half neighbour list (CPU backends).

With a half list each pair is evaluated once and its force is added to both particles. So that
no two threads add into one place and the sums never depend on the timing, the particles are cut
into `nchunk` chunks of consecutive indices (chunk_lo); the force kernel runs over the chunks and
each chunk adds the terms of its rows into its own buffer, which covers the index range
[rlo[c], rhi[c]) its rows touch (newton_ranges, after every list build) at offset boff[c] in one
array per quantity. newton_sum (3D: fx, fy, fz, pe, vir) or newton_sum_2d (fx, fy, pe, vir) then
adds, for each particle, the buffers of the chunks whose range holds it, in chunk order, and
clears them for the next step. The chunk count is a property of the run (never of the thread
count), so the result is the same on any number of threads.
"""

from smelt import annotate, declare


@annotate(int='c, n, nchunk', return_='int')
def chunk_lo(c, n, nchunk):
    """The first particle of chunk c of nchunk (chunk_lo(nchunk, ...) = n); sizes differ by <= 1."""
    return c * (n // nchunk) + min(c, n % nchunk)


@annotate(c='int', intp='nbr_start, nbr_count, nbr_idx, rlo, rhi', int='n, nchunk')
def newton_ranges(c, nbr_start, nbr_count, nbr_idx, rlo, rhi, n, nchunk):
    """Run over the chunks: [rlo[c], rhi[c]) = the smallest index range holding chunk c's own
    particles and every neighbour in their lists (rows with entries one apart)."""
    lo, hi, a, b, s, j = declare('int', 6)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    a = lo
    b = hi
    for i in range(lo, hi):
        s = nbr_start[i]
        for m in range(nbr_count[i]):
            j = nbr_idx[s + m]
            a = min(a, j)
            b = max(b, j + 1)
    rlo[c] = a
    rhi[c] = b


@annotate(c='int', doublep='fx, fy, fz, pe, vir, bfx, bfy, bfz, bpe, bvir',
          intp='rlo, rhi, boff', int='n, nchunk')
def newton_sum(c, fx, fy, fz, pe, vir, bfx, bfy, bfz, bpe, bvir, rlo, rhi, boff, n, nchunk):
    """Run over the chunks: for each particle p of chunk c, fx[p] (fy, fz, pe, vir alike) = 0.0
    plus the entries for p of every chunk whose range holds p, in chunk order; the entries are
    set back to 0 for the next step (the buffers start zeroed). Each chunk's entries for c's
    particles are one run, added in a loop over consecutive places (SIMD lanes)."""
    lo, hi, a, b, off = declare('int', 5)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    for p in range(lo, hi):
        fx[p] = 0.0
        fy[p] = 0.0
        fz[p] = 0.0
        pe[p] = 0.0
        vir[p] = 0.0
    for d in range(nchunk):
        a = max(lo, rlo[d])
        b = min(hi, rhi[d])
        off = boff[d] - rlo[d]
        for p in range(a, b):
            fx[p] += bfx[off + p]
            fy[p] += bfy[off + p]
            fz[p] += bfz[off + p]
            pe[p] += bpe[off + p]
            vir[p] += bvir[off + p]
            bfx[off + p] = 0.0
            bfy[off + p] = 0.0
            bfz[off + p] = 0.0
            bpe[off + p] = 0.0
            bvir[off + p] = 0.0


@annotate(c='int', doublep='fx, fy, pe, vir, bfx, bfy, bpe, bvir', intp='rlo, rhi, boff',
          int='n, nchunk')
def newton_sum_2d(c, fx, fy, pe, vir, bfx, bfy, bpe, bvir, rlo, rhi, boff, n, nchunk):
    """newton_sum for two axes (fx, fy, pe, vir): the same chunks, order and clearing."""
    lo, hi, a, b, off = declare('int', 5)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    for p in range(lo, hi):
        fx[p] = 0.0
        fy[p] = 0.0
        pe[p] = 0.0
        vir[p] = 0.0
    for d in range(nchunk):
        a = max(lo, rlo[d])
        b = min(hi, rhi[d])
        off = boff[d] - rlo[d]
        for p in range(a, b):
            fx[p] += bfx[off + p]
            fy[p] += bfy[off + p]
            pe[p] += bpe[off + p]
            vir[p] += bvir[off + p]
            bfx[off + p] = 0.0
            bfy[off + p] = 0.0
            bpe[off + p] = 0.0
            bvir[off + p] = 0.0
