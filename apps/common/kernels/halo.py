"""Packing for MPI domain decomposition (apps/common/domain/): which particles leave a rank's
sub-box or lie near its faces, and the gathers that pack them, all on the device.

    select:  Scan over the particles with 'a+b' of in_interval: slab_compact writes the indices
             i with lo <= c[i] < hi, in increasing order, into picked[0 : picked_total[0]]
    pack:    gather_real / gather_int (dst[k] = src[order[k]]) for migrants and the ghosts'
             other fields; gather_xyz (3D) and gather_xy (2D) pack the coordinates of a halo
             into one array (a ghost's coordinate carries its periodic image); the host stages
             the packed arrays through MPI.
    place:   place_xyz / place_xy put a received halo's coordinates into the ghost slots.
    split:   Scan over the owned particles with 'a+b' of reads_ghost: split_compact writes the
             indices whose neighbour row holds a ghost (boundary) and the others (interior),
             each in increasing order, so the interior's forces can run while the halo is in
             flight (common/domain/interior_split.h).

The interval is half open, so a particle on a sub-box face belongs to exactly one side.
"""

from smelt import annotate, declare


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


@annotate(i='int', order='intp', doublep='src, dst')
def gather_real(i, order, src, dst):
    dst[i] = src[order[i]]


@annotate(i='int', intp='order, src, dst')
def gather_int(i, order, src, dst):
    dst[i] = src[order[i]]


@annotate(i='int', order='intp', doublep='x, y, z, dst', int='n, axis', shift='double')
def gather_xyz(i, order, x, y, z, dst, n, axis, shift):
    """dst = [x | y | z] of order[0:n], `shift` added along `axis` (a periodic image)."""
    j = declare('int')
    j = order[i]
    dst[i] = x[j] + (shift if axis == 0 else 0.0)
    dst[n + i] = y[j] + (shift if axis == 1 else 0.0)
    dst[2 * n + i] = z[j] + (shift if axis == 2 else 0.0)


@annotate(i='int', doublep='src, x, y, z', int='n, at')
def place_xyz(i, src, x, y, z, n, at):
    """x, y, z[at + i] from src = [x | y | z] of n particles (what gather_xyz packed)."""
    x[at + i] = src[i]
    y[at + i] = src[n + i]
    z[at + i] = src[2 * n + i]


@annotate(i='int', order='intp', doublep='x, y, dst', int='n, axis', shift='double')
def gather_xy(i, order, x, y, dst, n, axis, shift):
    """gather_xyz in 2D: dst = [x | y] of order[0:n], `shift` added along `axis`."""
    j = declare('int')
    j = order[i]
    dst[i] = x[j] + (shift if axis == 0 else 0.0)
    dst[n + i] = y[j] + (shift if axis == 1 else 0.0)


@annotate(i='int', doublep='src, x, y', int='n, at')
def place_xy(i, src, x, y, n, at):
    """place_xyz in 2D: x, y[at + i] from src = [x | y] of n particles."""
    x[at + i] = src[i]
    y[at + i] = src[n + i]


@annotate(i='int', intp='nbr_start, nbr_count, nbr_idx', int='nbr_stride, lanes, n_owned',
          return_='int')
def reads_ghost(i, nbr_start, nbr_count, nbr_idx, nbr_stride, lanes, n_owned):
    """Scan input: 1 when the neighbour row of particle i holds an index >= n_owned (a ghost) in
    any of its lanes (entry l + lanes s of the row is nbr_idx[start + (l + lanes s) stride],
    lane l's count nbr_count[i lanes + l]: common/neighbor_list.h)."""
    p, lane, s = declare('int', 3)
    for lane in range(lanes):
        p = nbr_start[i] + lane * nbr_stride
        for s in range(nbr_count[i * lanes + lane]):
            if nbr_idx[p] >= n_owned:
                return 1
            p += lanes * nbr_stride
    return 0


@annotate(i='int', item='int', prev_item='int', last_item='int',
          intp='boundary, interior, n_boundary')
def split_compact(i, item, prev_item, last_item, boundary, interior, n_boundary):
    """Scan output: i into boundary (its row reads a ghost) or interior, both compacted in index
    order; n_boundary[0] = how many are boundary."""
    if item != prev_item:
        boundary[prev_item] = i
    else:
        interior[i - prev_item] = i
    if i == 0:
        n_boundary[0] = last_item
