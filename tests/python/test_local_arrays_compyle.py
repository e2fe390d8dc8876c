# What Compyle's own examples rely on (issue 14): local matrices (declare('matrix(...)')) passed
# to helper functions, annotated or typed from the call; parameters with default values typed by
# the call's arguments, as Compyle's JIT types them; and declare('LOCAL_MEM float') in low-level
# kernels. Each result is checked against NumPy (and the 'python' backend, CPython itself).
import inspect
from math import floor, pi

import numpy as np
import pytest

import smelt
from smelt import Elementwise, Kernel, LocalMem, Reduction, annotate, declare, wrap
from smelt.low_level import GID_0, LDIM_0, LID_0, cast, local_barrier


# --- local matrices passed to helpers -----------------------------------------------------------


@annotate(double='xi, yi, xj, yj, gamma', result='doublep')
def vortex_pair(xi, yi, xj, yj, gamma, result):
    xij = xi - xj
    yij = yi - yj
    r2ij = xij * xij + yij * yij
    if r2ij < 1e-14:
        result[0] = 0.0
        result[1] = 0.0
    else:
        tmp = gamma / (2.0 * pi * r2ij)
        result[0] = -tmp * yij
        result[1] = tmp * xij


@annotate(int='i, nv', gdoublep='x, y, gamma, u, v')
def induced_velocity(i, x, y, gamma, u, v, nv):
    j = declare('int')
    uv = declare('matrix(2)')
    vx = 0.0
    vy = 0.0
    for j in range(nv):
        vortex_pair(x[i], y[i], x[j], y[j], gamma[j], uv)
        vx += uv[0]
        vy += uv[1]
    u[i] = vx
    v[i] = vy


def velocity_numpy(x, y, gamma):
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    r2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(r2 < 1e-14, 0.0, gamma[None, :] / (2.0 * pi * r2))
    return (-t * dy).sum(axis=1), (t * dx).sum(axis=1)


def test_matrix_passed_to_an_annotated_helper(backend, rng):
    # Compyle's vortex example: a 'doublep' helper fills a declare('matrix(2)') of its caller.
    n = 300 if backend != "python" else 40
    x, y = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    y[7] = y[3]
    x[7] = x[3]  # two vortices at one place: the r2 < 1e-14 branch
    gamma = rng.uniform(0.5, 1.5, n)
    u, v = np.zeros(n), np.zeros(n)
    Elementwise(induced_velocity, backend=backend)(x, y, gamma, u, v, n)
    wu, wv = velocity_numpy(x, y, gamma)
    np.testing.assert_allclose(u, wu, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(v, wv, rtol=1e-10, atol=1e-12)


@annotate
def cell_id(x, y, h, c):
    c[0] = cast(floor(x / h), "int")
    c[1] = cast(floor(y / h), "int")


@annotate
def flat_key(p, q, qmax):
    return p * qmax + q


@annotate
def bin_keys(i, x, y, h, cmax, keys, cells):
    c = declare('matrix(2, "int")')
    cell_id(x[i], y[i], h, c)
    keys[i] = flat_key(c[0], c[1], cmax)
    cells[2 * i] = c[0]
    cells[2 * i + 1] = c[1]


def test_int_matrix_passed_to_jit_helpers(backend, rng):
    # Compyle's neighbour-search example: bare @annotate functions typed from the call, an int
    # matrix filled by one of them.
    n = 500
    x, y = rng.uniform(0, 10, n), rng.uniform(0, 10, n)
    keys = np.zeros(n, np.int32)
    cells = np.zeros(2 * n, np.int32)
    Elementwise(bin_keys, backend=backend)(x, y, 1.5, 7, keys, cells)
    cx, cy = np.floor(x / 1.5).astype(np.int32), np.floor(y / 1.5).astype(np.int32)
    np.testing.assert_array_equal(cells, np.stack([cx, cy], axis=1).ravel())
    np.testing.assert_array_equal(keys, cx * 7 + cy)


def outer_into(a, b, m):
    for r in range(3):
        for s in range(3):
            m[r][s] = a[r] * b[s]


def trace_of(m):
    return m[0][0] + m[1][1] + m[2][2]


def add_scaled(dst, src, f, n):
    for k in range(n):
        dst[k] += f * src[k]


def frame(i, pos, out):
    a, b = declare('matrix(3)', 2)
    m = declare('matrix((3, 3))')
    for k in range(3):
        a[k] = pos[3 * i + k]
        b[k] = pos[3 * i + k] - k
    outer_into(a, b, m)
    out[2 * i] = trace_of(m) + m[0][2] - m[2][0]
    add_scaled(a, b, 2.0, 3)        # two local matrices
    add_scaled(out, a, 1.0, 0)      # a global array: another specialisation of the same helper
    out[2 * i + 1] = a[0] + a[1] * a[2]


def test_two_dimensional_and_shared_helpers(backend, rng):
    n = 200
    pos = rng.uniform(-2, 2, 3 * n)
    out = np.zeros(2 * n)
    Elementwise(frame, backend=backend).call_n(n, pos, out)
    a = pos.reshape(n, 3)
    b = a - np.arange(3.0)
    m = a[:, :, None] * b[:, None, :]
    want0 = np.trace(m, axis1=1, axis2=2) + m[:, 0, 2] - m[:, 2, 0]
    s = a + 2.0 * b
    np.testing.assert_allclose(out[0::2], want0, rtol=1e-13)
    np.testing.assert_allclose(out[1::2], s[:, 0] + s[:, 1] * s[:, 2], rtol=1e-13)


@annotate(x='gdoublep', out='gdoublep', n='int')
def group_reverse(x, out, n):
    # A LOCAL_MEM matrix of the kernel filled and read by helpers (OpenCL: a __local pointer).
    buf = declare('LOCAL_MEM matrix(32)')
    t = LID_0
    i = GID_0 * LDIM_0 + t
    put_local(buf, t, x[i] if i < n else 0.0)
    local_barrier()
    if i < n:
        out[i] = get_local(buf, LDIM_0 - 1 - t)


def put_local(buf, t, v):
    buf[t] = v


def get_local(buf, t):
    return buf[t]


def test_local_mem_matrix_passed_to_helpers(gpu, rng):
    n, local = 1000, 32
    x = rng.normal(size=n)
    out = np.zeros(n)
    k = Kernel(group_reverse, backend=gpu)
    k(x, out, n, global_size=(n + local - 1) // local * local, local_size=local)
    g = np.arange(n)
    mirror = g // local * local + (local - 1 - g % local)
    padded = np.concatenate([x, np.zeros(local)])
    np.testing.assert_array_equal(out, padded[mirror])
    if gpu == "opencl":
        assert "__local double buf[32]" in k.source  # the helpers' parameter


def located(func, needle):
    lines, first = inspect.getsourcelines(func)
    k = next(j for j, text in enumerate(lines) if needle in text)
    return first + k, lines[k]


@annotate(buf='ldoublep')
def takes_local(buf):
    buf[0] = 1.0


@annotate(x='doublep')
def passes_private_to_local(x):
    tmp = declare('matrix(4)')
    takes_local(tmp)
    x[GID_0 * LDIM_0 + LID_0] = tmp[0]


def test_private_matrix_for_a_local_pointer_is_a_located_error(gpu):
    with pytest.raises(smelt.CompileError) as info:
        Kernel(passes_private_to_local, backend=gpu)(np.zeros(4), local_size=4)
    e = info.value
    line, text = located(passes_private_to_local, "takes_local(tmp)")
    assert (e.filename, e.lineno, e.offset) == (__file__, line, text.index("tmp)") + 1)
    assert "local array in private memory (matrix(4))" in e.msg and "LOCAL_MEM" in e.msg


# --- default values: a suggestion, the call decides ---------------------------------------------


def axpy_defaults(i, x=[0], y=[0], a=0):
    y[i] = a * x[i] + y[i]


def scaled(v, f=0):
    return v * f


@annotate
def with_default_helper(i, x, y):
    y[i] = scaled(x[i], 0.25)


def map_defaults(i=0, x=[0.0], y=[0.0]):
    return x[i] * y[i]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_defaults_are_typed_by_the_call(backend, rng, dtype):
    # x=[0] suggests longp and a=0 long, but the call's float64/float32/int32 arrays and its
    # scalar type them, as Compyle's JIT does.
    x = (rng.uniform(-5, 5, 100) * 4).astype(dtype)
    y = (rng.uniform(-5, 5, 100) * 4).astype(dtype)
    a = dtype(3) if dtype == np.int32 else 2.5
    want = (a * x + y).astype(dtype)
    Elementwise(axpy_defaults, backend=backend)(x, y, a)
    np.testing.assert_allclose(y, want, rtol=1e-6)


def test_default_of_a_helper_is_typed_by_the_call(backend):
    x = np.arange(10.0)
    y = np.zeros(10)
    Elementwise(with_default_helper, backend=backend)(x, y)
    np.testing.assert_array_equal(y, x * 0.25)  # f=0 (long) would not hold 0.25


def test_reduction_map_with_default_values(backend, rng):
    x = rng.integers(-9, 9, 64).astype(np.int32)
    y = rng.integers(-9, 9, 64).astype(np.int32)
    r = Reduction("a+b", map_func=map_defaults, dtype_out=np.int64, backend=backend)
    assert r(x, y) == int(np.dot(x.astype(np.int64), y))


def test_defaults_type_a_function_compiled_alone():
    # Without a call (smelt.check), the default still gives the type.
    assert smelt.purepy.default_types(axpy_defaults) == {
        "x": smelt.longp, "y": smelt.longp, "a": smelt.long_}
    assert smelt.purepy.declared_types(axpy_defaults) == {"i": smelt.long_}


# --- declare('LOCAL_MEM float') -----------------------------------------------------------------


@annotate(x='floatp', out='floatp', n='int')
def group_max_shift(x, out, n):
    # One float in local memory for the whole group: item 0 finds the group's maximum, every
    # item then subtracts it.
    top = declare('LOCAL_MEM float')
    count = declare('LOCAL_MEM int')
    t = LID_0
    i = GID_0 * LDIM_0 + t
    if t == 0:
        top = -1e30
        count = 0
        for k in range(LDIM_0):
            j = GID_0 * LDIM_0 + k
            if j < n:
                top = max(top, x[j])
                count += 1
    local_barrier()
    if i < n:
        out[i] = x[i] - top + count


def test_local_mem_scalars(gpu, rng):
    n, local = 1000, 64
    x = rng.uniform(-100, 100, n).astype(np.float32)
    out = np.zeros(n, np.float32)
    Kernel(group_max_shift, backend=gpu)(x, out, n, global_size=1024, local_size=local)
    groups = np.arange(n) // local
    top = np.array([x[groups == g].max() for g in range(groups.max() + 1)], np.float32)
    count = np.bincount(groups).astype(np.float32)
    np.testing.assert_array_equal(out, x - top[groups] + count[groups])


def test_local_mem_scalar_in_cpython():
    # CPython sees one work item: the local scalar is an ordinary zero of its type.
    assert declare('LOCAL_MEM float') == np.float32(0)
    assert declare('LOCAL_MEM float').dtype == np.float32
    assert declare('LOCAL_MEM unsigned int').dtype == np.uint32


@annotate(x='floatp')
def indexes_local_scalar(x):
    s = declare('LOCAL_MEM float')
    s[0] = 1.0
    x[LID_0] = s


def test_indexing_a_local_scalar_is_a_located_error(gpu):
    with pytest.raises(smelt.CompileError) as info:
        Kernel(indexes_local_scalar, backend=gpu)(np.zeros(4, np.float32), local_size=4)
    line, text = located(indexes_local_scalar, "s[0] = 1.0")
    assert (info.value.lineno, info.value.offset) == (line, text.index("s[0]") + 1)
    assert "LOCAL_MEM float" in info.value.msg and "cannot be indexed" in info.value.msg
