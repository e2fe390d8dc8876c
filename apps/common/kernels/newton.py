"""Per-chunk force buffers for Newton's third law on a half neighbour list (CPU backends).

With a half list each pair is evaluated once and its force is added to both particles. So that
no two threads add into one place and the sums never depend on the timing, the particles are cut
into `nchunk` chunks of consecutive indices (chunk_lo); the force kernel runs over the chunks and
each chunk adds the terms of its rows into its own buffer, which covers the index range
[rlo[c], rhi[c]) its rows touch (newton_ranges, after every list build) at offset boff[c] in one
array per quantity. newton_sum then adds, for each particle, the buffers of the chunks whose range
holds it, in chunk order, and clears them for the next step. The chunk count is a property of the
run (never of the thread count), so the result is the same on any number of threads.
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


@annotate(p='int', doublep='fx, fy, fz, pe, vir, bfx, bfy, bfz, bpe, bvir',
          intp='rlo, rhi, boff', nchunk='int')
def newton_sum(p, fx, fy, fz, pe, vir, bfx, bfy, bfz, bpe, bvir, rlo, rhi, boff, nchunk):
    """fx[p] (fy, fz, pe, vir alike) = the sum over the chunks, in chunk order, of their buffer
    entries for particle p; the entries are set back to 0 for the next step (the buffers start
    zeroed). Five quantities in one pass, so each chunk's range is tested once per particle."""
    sx, sy, sz, se, sw = declare('double', 5)
    k = declare('int')
    sx = 0.0
    sy = 0.0
    sz = 0.0
    se = 0.0
    sw = 0.0
    for c in range(nchunk):
        if rlo[c] <= p and p < rhi[c]:
            k = boff[c] + p - rlo[c]
            sx += bfx[k]
            sy += bfy[k]
            sz += bfz[k]
            se += bpe[k]
            sw += bvir[k]
            bfx[k] = 0.0
            bfy[k] = 0.0
            bfz[k] = 0.0
            bpe[k] = 0.0
            bvir[k] = 0.0
    fx[p] = sx
    fy[p] = sy
    fz[p] = sz
    pe[p] = se
    vir[p] = sw
