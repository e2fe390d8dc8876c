# Kernels for the checked modes in every primitive (tests/primitives/checked_modes_cases.h).
# The tests find lines by their text: each checked access sits on a line of its own.
from compyle.api import annotate, declare
from checked_helpers import neighbour_sum


def smoothed(i, x, y):
    y[i] = neighbour_sum(x, i)


def smoothed_inside(i, x, y):
    y[i] = neighbour_sum(x, i + 1)


def element(a, j):
    return a[j]


def weight_of(i, k, w):
    return element(w, k[i])


def inverse(i, x):
    return 1.0 / x[i]


def load_item(i, x):
    return x[i]


def store_next(i, item, y):
    y[i + 1] = item


def store_item(i, item, y):
    y[i] = item


def store_root(i, item, y):
    y[i] = sqrt(item)


@annotate(x='doublep', y='doublep', n='int')
def local_shift(x, y, n):
    buf = declare('LOCAL_MEM matrix(8)')
    gid = GID_0 * LDIM_0 + LID_0
    buf[LID_0] = x[gid]
    local_barrier()
    y[gid] = buf[LID_0 + 1]


@annotate(x='doublep', y='doublep', buf='ldoublep', n='int')
def param_shift(x, y, buf, n):
    lid = LID_0
    gid = GID_0 * LDIM_0 + lid
    buf[lid] = x[gid]
    local_barrier()
    y[gid] = buf[(lid + 1) % n]


@annotate(k='intp', counts='intp')
def histogram(k, counts):
    gid = GID_0 * LDIM_0 + LID_0
    atomic_inc(counts[k[gid]])


@annotate(x='doublep', y='doublep')
def gathered(x, y):
    gid = GID_0 * LDIM_0 + LID_0
    y[gid] = element(x, gid * 2)


@annotate(x='doublep', y='doublep')
def reciprocal(x, y):
    gid = GID_0 * LDIM_0 + LID_0
    y[gid] = 1.0 / x[gid]


def chosen(i, x, y, out, flag):
    src = x if flag > 0 else y
    out[i] = src[i + 1]


@annotate(i='int', k='intp', out='doublep')
def grid_lookup(i, k, out):
    g = declare('matrix((2, 3))')
    for r in range(2):
        for c in range(3):
            g[r][c] = r * 3 + c
    out[i] = g[k[i]][2]
