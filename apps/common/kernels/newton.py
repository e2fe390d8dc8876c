"""Per-chunk force buffers for Newton's third law on a half neighbour list (CPU backends).

With a half list each pair is evaluated once and its force is added to both particles. So that
no two threads add into one place and the sums never depend on the timing, the particles are cut
into `nchunk` chunks of consecutive indices (chunk_lo); the force kernel runs over the chunks and
each chunk adds the terms of its rows into its own buffer, which covers the index range
[rlo[c], rhi[c]) its rows touch (newton_ranges, after every list build) at offset boff[c] in one
array per quantity. The range is circular: rhi[c] may pass n, the indices past n standing for
0, 1, ... (newton_entry), so that a chunk of the last cells, whose neighbours across the periodic
seam are the first particles, does not need a buffer over every index in between. newton_sum
(3D: fx, fy, fz, pe, vir) or newton_sum_2d (fx, fy, pe, vir) then adds, for each particle, the
buffers of the chunks whose range holds it, in chunk order, and clears them for the next step.
The chunk count is a property of the run (never of the thread count), so the result is the same
on any number of threads.
"""

from smelt import annotate, declare


@annotate(int='c, n, nchunk', return_='int')
def chunk_lo(c, n, nchunk):
    """The first particle of chunk c of nchunk (chunk_lo(nchunk, ...) = n); sizes differ by <= 1."""
    return c * (n // nchunk) + min(c, n % nchunk)


@annotate(intp='rlo, rhi', int='c, lo, ahead, behind, n')
def store_range(c, lo, ahead, behind, rlo, rhi, n):
    """Chunk c's circular range from its first particle lo and its farthest neighbours ahead
    and behind; [0, n) when those overlap (newton_ranges)."""
    if ahead + behind >= n:
        rlo[c] = 0
        rhi[c] = n
    else:
        rlo[c] = lo - behind if lo >= behind else lo - behind + n
        rhi[c] = rlo[c] + ahead + behind


@annotate(c='int', intp='nbr_start, nbr_count, nbr_idx, rlo, rhi', int='n, nchunk')
def newton_ranges(c, nbr_start, nbr_count, nbr_idx, rlo, rhi, n, nchunk):
    """Run over the chunks: [rlo[c], rhi[c]) = a circular index range (0 <= rlo[c] < n,
    rlo[c] < rhi[c] <= rlo[c] + n; an index p below rlo[c] stands at p + n) holding chunk c's own
    particles and every neighbour in their lists (rows with entries one apart): from the chunk's
    first particle lo, the farthest neighbour ahead (less than n / 2 past lo, circularly) and the
    farthest behind; [0, n) when those overlap."""
    lo, hi, ahead, behind, s, d = declare('int', 6)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    ahead = hi - lo
    behind = 0
    for i in range(lo, hi):
        s = nbr_start[i]
        # Selects, no branches: the loop runs in SIMD lanes.
        for m in range(nbr_count[i]):
            d = nbr_idx[s + m] - lo
            d = d + n if d < 0 else d
            ahead = max(ahead, d + 1 if 2 * d < n else 0)
            behind = max(behind, n - d if 2 * d >= n else 0)
    store_range(c, lo, ahead, behind, rlo, rhi, n)


@annotate(c='int', intp='nbr_start, nbr_count, nbr_idx, rlo, rhi', int='n, nchunk')
def newton_ranges_packed(c, nbr_start, nbr_count, nbr_idx, rlo, rhi, n, nchunk):
    """newton_ranges for packed rows (CSR: NeighborListSpec::packed): the chunk's entries are
    consecutive, so one loop over them (SIMD lanes) finds the same farthest neighbours ahead and
    behind as the loop per row, and the same range."""
    lo, hi, ahead, behind, d, e0, e1 = declare('int', 7)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    ahead = hi - lo
    behind = 0
    e0 = 0
    e1 = 0
    if hi > lo:
        e0 = nbr_start[lo]
        e1 = nbr_start[hi - 1] + nbr_count[hi - 1]
    for e in range(e0, e1):
        d = nbr_idx[e] - lo
        d = d + n if d < 0 else d
        ahead = max(ahead, d + 1 if 2 * d < n else 0)
        behind = max(behind, n - d if 2 * d >= n else 0)
    store_range(c, lo, ahead, behind, rlo, rhi, n)


@annotate(int='p, off, first, n', return_='int')
def newton_entry(p, off, first, n):
    """The buffer entry of particle p for a chunk whose range starts at `first` (rlo) and whose
    entries start at off + first (off = boff - rlo): p's place in the circular range."""
    return off + p + n if p < first else off + p


@annotate(doublep='f, bf', intp='rlo, rhi, boff', int='lo, hi, n, nchunk')
def newton_sum_column(lo, hi, f, bf, rlo, rhi, boff, n, nchunk):
    """One quantity of the particles [lo, hi) (a chunk): f[p] = 0.0 plus the entries bf holds
    for p in every chunk whose range holds p, in chunk order; the entries are set back to 0 for
    the next step (the buffers start zeroed). Each chunk's entries for these particles are at
    most two runs (its range circular), each added in a loop over consecutive places (SIMD
    lanes). Each f[p] is its own sum, so the quantities can be summed one after another."""
    a, b, off = declare('int', 3)
    for p in range(lo, hi):
        f[p] = 0.0
    for d in range(nchunk):
        a = max(lo, rlo[d])
        b = min(hi, rhi[d])
        off = boff[d] - rlo[d]
        for p in range(a, b):
            f[p] += bf[off + p]
            bf[off + p] = 0.0
        # The part of the range past n: the particles from 0 on.
        b = min(hi, rhi[d] - n)
        for p in range(lo, b):
            f[p] += bf[off + n + p]
            bf[off + n + p] = 0.0


@annotate(c='int', doublep='fx, fy, fz, pe, vir, bfx, bfy, bfz, bpe, bvir',
          intp='rlo, rhi, boff', int='n, nchunk')
def newton_sum(c, fx, fy, fz, pe, vir, bfx, bfy, bfz, bpe, bvir, rlo, rhi, boff, n, nchunk):
    """Run over the chunks: for each particle p of chunk c, fx[p] (fy, fz, pe, vir alike) = 0.0
    plus the entries for p of every chunk whose range holds p, in chunk order, the entries
    cleared (newton_sum_column)."""
    lo, hi = declare('int', 2)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    newton_sum_column(lo, hi, fx, bfx, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, fy, bfy, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, fz, bfz, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, pe, bpe, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, vir, bvir, rlo, rhi, boff, n, nchunk)


@annotate(c='int', doublep='fx, fy, pe, vir, bfx, bfy, bpe, bvir', intp='rlo, rhi, boff',
          int='n, nchunk')
def newton_sum_2d(c, fx, fy, pe, vir, bfx, bfy, bpe, bvir, rlo, rhi, boff, n, nchunk):
    """newton_sum for two axes (fx, fy, pe, vir): the same chunks, order and clearing."""
    lo, hi = declare('int', 2)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    newton_sum_column(lo, hi, fx, bfx, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, fy, bfy, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, pe, bpe, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, vir, bvir, rlo, rhi, boff, n, nchunk)


@annotate(c='int', doublep='fx, fy, bfx, bfy', intp='rlo, rhi, boff', int='n, nchunk')
def newton_sum_2d_forces(c, fx, fy, bfx, bfy, rlo, rhi, boff, n, nchunk):
    """newton_sum_forces for two axes: fx and fy after a force pass that left the energy and
    virial buffers untouched; the same sums in the same order as newton_sum_2d, so the same
    bits; pe and vir are left as they are."""
    lo, hi = declare('int', 2)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    newton_sum_column(lo, hi, fx, bfx, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, fy, bfy, rlo, rhi, boff, n, nchunk)


@annotate(c='int', doublep='fx, fy, fz, bfx, bfy, bfz', intp='rlo, rhi, boff', int='n, nchunk')
def newton_sum_forces(c, fx, fy, fz, bfx, bfy, bfz, rlo, rhi, boff, n, nchunk):
    """newton_sum for the forces alone (a force pass that left the energy and virial buffers
    untouched): the same sums of fx, fy, fz in the same order, so the same bits; pe and vir are
    left as they are."""
    lo, hi = declare('int', 2)
    lo = chunk_lo(c, n, nchunk)
    hi = chunk_lo(c + 1, n, nchunk)
    newton_sum_column(lo, hi, fx, bfx, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, fy, bfy, rlo, rhi, boff, n, nchunk)
    newton_sum_column(lo, hi, fz, bfz, rlo, rhi, boff, n, nchunk)
