# Low-level kernels (smelt::Kernel) for tests/primitives/kernel_test.cpp. Line numbers matter:
# the error test expects the mistake in `bad_kernel` where it is.
from compyle.api import annotate, declare


def group_sum(x, partial, n):
    # Unannotated: typed from the call (one specialisation per dtype of x and partial).
    buf = declare('LOCAL_MEM matrix(64)')
    lid = LID_0
    gid = GID_0 * LDIM_0 + LID_0
    if gid < n:
        buf[lid] = x[gid]
    else:
        buf[lid] = 0
    local_barrier()
    s = LDIM_0 // 2
    while s > 0:
        if lid < s:
            buf[lid] += buf[lid + s]
        local_barrier()
        s = s // 2
    if lid == 0:
        partial[GID_0] = buf[0]


@annotate(x='intp', y='intp', buf='lintp', n='int')
def reverse_groups(x, y, buf, n):
    gid = GID_0 * LDIM_0 + LID_0
    buf[LID_0] = x[gid] if gid < n else -1
    local_barrier()
    if gid < n:
        y[gid] = buf[LDIM_0 - 1 - LID_0]


def reverse_groups_untyped(x, y, buf, n):
    gid = GID_0 * LDIM_0 + LID_0
    buf[LID_0] = x[gid] if gid < n else -1
    local_barrier()
    if gid < n:
        y[gid] = buf[LDIM_0 - 1 - LID_0]


@annotate(x='doublep', counter='intp', slots='intp', n='int', threshold='double')
def count_above(x, counter, slots, n, threshold):
    i = GID_0 * LDIM_0 + LID_0
    if i < n and x[i] > threshold:
        old = atomic_inc(counter[0])
        slots[old] = i


@annotate(out='intp')
def geometry(out):
    group = (GID_2 * GDIM_1 + GID_1) * GDIM_0 + GID_0
    item = (LID_2 * LDIM_1 + LID_1) * LDIM_0 + LID_0
    k = 12 * (group * LDIM_0 * LDIM_1 * LDIM_2 + item)
    out[k] = LID_0
    out[k + 1] = LID_1
    out[k + 2] = LID_2
    out[k + 3] = GID_0
    out[k + 4] = GID_1
    out[k + 5] = GID_2
    out[k + 6] = LDIM_0
    out[k + 7] = LDIM_1
    out[k + 8] = LDIM_2
    out[k + 9] = GDIM_0
    out[k + 10] = GDIM_1
    out[k + 11] = GDIM_2


def fill(x, value):
    i = GID_0 * LDIM_0 + LID_0
    x[i] = value


def bad_kernel(x):
    i = GID_0 * LDIM_0 + LID_0
    x[i] = undefined_name + 1


def group_reverse_plus_total(x, out, n):
    # A LOCAL_MEM scalar shared by the group and a LOCAL_MEM matrix filled and read by helper
    # functions (a __local pointer parameter on OpenCL, a plain one on CUDA).
    total = declare('LOCAL_MEM double')
    buf = declare('LOCAL_MEM matrix(32)')
    t = LID_0
    i = GID_0 * LDIM_0 + t
    put_at(buf, t, x[i] if i < n else 0.0)
    local_barrier()
    if t == 0:
        total = 0.0
        for k in range(LDIM_0):
            total += buf[k]
    local_barrier()
    if i < n:
        out[i] = read_at(buf, LDIM_0 - 1 - t) + total


def put_at(buf, t, v):
    buf[t] = v


def read_at(buf, t):
    return buf[t]
