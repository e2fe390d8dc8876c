"""Packing for MPI domain decomposition (apps/common/domain/): which particles leave a rank's
sub-box or lie near its faces, and the gathers that pack them, all on the device.

    select:  Scan over the particles with 'a+b' of in_interval: slab_compact writes the indices
             i with lo <= c[i] < hi, in increasing order, into picked[0 : picked_total[0]]
    pack:    gather_real_shift / gather_int (dst[k] = src[order[k]] (+ shift)), then the host
             stages the packed arrays through MPI.

The interval is half open, so a particle on a sub-box face belongs to exactly one side.
"""

from smelt import annotate


@annotate(i='int', c='doublep', double='lo, hi', return_='int')
def in_interval(i, c, lo, hi):
    """Scan input: 1 when lo <= c[i] < hi."""
    if c[i] >= lo and c[i] < hi:
        return 1
    return 0


@annotate(i='int', item='int', prev_item='int', last_item='int', c='doublep',
          double='lo, hi', intp='picked, picked_total')
def slab_compact(i, item, prev_item, last_item, c, lo, hi, picked, picked_total):
    """Scan output: the selected indices, compacted in index order; picked_total[0] = count."""
    if item != prev_item:
        picked[prev_item] = i
    if i == 0:
        picked_total[0] = last_item


@annotate(i='int', order='intp', doublep='src, dst', shift='double')
def gather_real_shift(i, order, src, dst, shift):
    """dst[i] = src[order[i]] + shift (a ghost's coordinate carries its periodic image)."""
    dst[i] = src[order[i]] + shift


@annotate(i='int', intp='order, src, dst')
def gather_int(i, order, src, dst):
    dst[i] = src[order[i]]
