# smelt.pytocl: pytocl's API (CLArgType, CLArgDesc, CLFuncDesc, CLFunc) running pytocl programs,
# changed only in their import, on every backend (the `backend` fixture: cython, python, PoCL's
# opencl, cuda where present). Kernels here are our own ports of pytocl's README examples and
# benchmarks; every result is checked against NumPy.
import numpy as np
import pytest

import smelt
from smelt.pytocl import *  # noqa: F401,F403 (what a pytocl program does, import changed)
from smelt.pytocl import (CLK_LOCAL_MEM_FENCE, CLArgDesc, CLArgType, CLFunc, CLFuncDesc,
                          barrier, cl_call, cl_inline, get_global_id, get_global_size,
                          get_group_id, get_local_id, get_local_size, get_num_groups)


# --- kernels (pytocl's style: work items from get_global_id and its siblings) -----------------

def parallel_add(a, b, output):
    i = get_global_id(0)
    output[i] = a[i] + b[i]


def add_inplace(a, b):
    i = get_global_id(0)
    a[i] = a[i] + b[i]


def mat_mul(a, b, output, rows, inner, cols):
    # global size (cols, rows): dimension 0 runs along a row of the output, as OpenCL programs
    # usually order it.
    col = get_global_id(0)
    row = get_global_id(1)
    acc = 0.0
    for k in range(inner):
        acc += a[row * inner + k] * b[k * cols + col]
    output[row * cols + col] = acc


def sigmoid_layer(inputs, weights, n_in, n_out, bias, output):
    col = get_global_id(0)
    row = get_global_id(1)
    value = bias
    for k in range(n_in):
        value += inputs[row * n_in + k] * weights[k * n_out + col]
    value = 1.0 / (1.0 + cl_call("exp", -value))
    output[row * n_out + col] = value


def flat_index(cols):
    # A helper reading the work item itself: smelt passes it the work-item values.
    return get_global_id(1) * cols + get_global_id(0)


def work_items(ids, cols):
    # Every work-item function, in 2 dimensions, through a helper for the flat position.
    p = 12 * flat_index(cols)
    ids[p] = get_global_id(0)
    ids[p + 1] = get_global_id(1)
    ids[p + 2] = get_local_id(0)
    ids[p + 3] = get_local_id(1)
    ids[p + 4] = get_group_id(0)
    ids[p + 5] = get_group_id(1)
    ids[p + 6] = get_global_size(0)
    ids[p + 7] = get_global_size(1)
    ids[p + 8] = get_local_size(0)
    ids[p + 9] = get_local_size(1)
    ids[p + 10] = get_num_groups(0)
    ids[p + 11] = get_num_groups(1)


def work_items_synced(ids, cols):
    # The same through a barrier: a low-level Kernel on OpenCL/CUDA, threads on 'python'.
    barrier(CLK_LOCAL_MEM_FENCE)
    work_items(ids, cols)


def store_three(a):
    i = get_global_id(0)
    a[i] = 3 + i


def calls_store_three(a):
    store_three(a)


def local_slot():
    return get_local_id(0)


def group_sums(x, scratch, sums):
    # A work-group reduction in local memory, pytocl's barrier spelling.
    i = get_global_id(0)
    t = local_slot()
    scratch[t] = x[i]
    cl_call("barrier", cl_inline("CLK_LOCAL_MEM_FENCE"))
    s = get_local_size(0) // 2
    while s > 0:
        if t < s:
            scratch[t] += scratch[t + s]
        barrier(CLK_LOCAL_MEM_FENCE)
        s = s // 2
    if t == 0:
        sums[get_group_id(0)] = scratch[0]


def accumulate(a, out):
    i = get_global_id(0)
    value = 0.0
    for k in range(100):
        value += a[i]
    i_half = a[i] / 2
    out[i] = value + i_half


def above(x, limit, flip, out):
    i = get_global_id(0)
    b_big = x[i] > limit
    if flip:
        b_big = not b_big
    out[i] = b_big


def scale_by(x, n):
    i = get_global_id(0)
    x[i] = i * n


def writes_readonly(a, b):
    i = get_global_id(0)
    b[i] = a[i]


def dynamic_dim(a, d):
    a[get_global_id(d)] = 1.0


def bad_name_after_id(a):
    a[get_global_id(0)] = not_defined_anywhere  # noqa: F821 (the mistake the test wants)


# --- the README example and the benchmarks' programs -------------------------------------------

def test_readme_vector_add(backend):
    array_size = 16
    arg_desc_a = CLArgDesc(CLArgType.float32_array, array_size=array_size)
    arg_desc_b = CLArgDesc(CLArgType.float32_array, array_size=array_size)
    arg_desc_output = CLArgDesc(CLArgType.float32_array, array_size=array_size)
    func_desc = (CLFuncDesc(parallel_add, (array_size,))
                 .arg(arg_desc_a).copy_in()
                 .arg(arg_desc_b).copy_in()
                 .arg(arg_desc_output, is_readonly=False).copy_out())
    parallel_add_cl = CLFunc(func_desc).compile(backend=backend)
    a = np.array([1] * array_size, dtype=np.float32)
    b = np.arange(array_size, dtype=np.float32)
    output = np.zeros(array_size, dtype=np.float32)
    parallel_add_cl(a, b, output)
    np.testing.assert_array_equal(output, a + b)
    assert parallel_add_cl.backend == backend


def test_matrix_multiply_2d(backend, rng):
    rows, inner, cols = 6, 5, 8
    a = rng.random((rows, inner), dtype=np.float32)
    b = rng.random((inner, cols), dtype=np.float32)
    out = np.zeros((rows, cols), np.float32)
    da = CLArgDesc(CLArgType.float32_array, a.size)
    db = CLArgDesc(CLArgType.float32_array, b.size)
    dout = CLArgDesc(CLArgType.float32_array, out.size)
    dims = [CLArgDesc(CLArgType.int32) for _ in range(3)]
    fd = (CLFuncDesc(mat_mul, (cols, rows)).arg(da).copy_in().arg(db).copy_in()
          .arg(dout, False).copy_out().arg(dims[0]).arg(dims[1]).arg(dims[2]))
    CLFunc(fd).compile(backend=backend)(a, b, out, rows, inner, cols)
    np.testing.assert_allclose(out, a.astype(np.float64) @ b, rtol=1e-5)


def _sigmoid(x, w, bias):
    return 1.0 / (1.0 + np.exp(-(x.astype(np.float64) @ w + bias)))


def test_sigmoid_layer_forward(backend, rng):
    batch, n_in, n_out = 4, 6, 5
    x = rng.random((batch, n_in), dtype=np.float32)
    w = rng.random((n_in, n_out), dtype=np.float32) - 0.5
    out = np.zeros((batch, n_out), np.float32)
    dx, dw = CLArgDesc(CLArgType.float32_array, x.size), CLArgDesc(CLArgType.float32_array, w.size)
    dni, dno = CLArgDesc(CLArgType.int32), CLArgDesc(CLArgType.int32)
    dbias, dout = CLArgDesc(CLArgType.float32), CLArgDesc(CLArgType.float32_array, out.size)
    layer = CLFunc(CLFuncDesc(sigmoid_layer, (n_out, batch)).arg(dx).copy_in().arg(dw).copy_in()
                   .arg(dni).arg(dno).arg(dbias).arg(dout, False).copy_out()).compile(backend=backend)
    layer({dx: x, dw: w, dni: n_in, dno: n_out, dbias: 0.25, dout: out})
    np.testing.assert_allclose(out, _sigmoid(x, w, 0.25), rtol=1e-5)


def test_mlp_two_functions_share_the_hidden_buffer(backend, rng):
    # pytocl's MLP benchmark: layer 1 writes the hidden activations into a buffer that layer 2
    # reads; the hidden buffer is never copied. Weights are copied in once: later calls pass
    # None for them, which keeps the device's copy.
    batch, n_in, n_hidden, n_out = 4, 6, 7, 3
    x = rng.random((batch, n_in), dtype=np.float32)
    w1 = rng.random((n_in, n_hidden), dtype=np.float32) - 0.5
    w2 = rng.random((n_hidden, n_out), dtype=np.float32) - 0.5
    out = np.zeros((batch, n_out), np.float32)
    dx = CLArgDesc(CLArgType.float32_array, x.size)
    dw1 = CLArgDesc(CLArgType.float32_array, w1.size)
    dw2 = CLArgDesc(CLArgType.float32_array, w2.size)
    dhidden = CLArgDesc(CLArgType.float32_array, batch * n_hidden)
    dout = CLArgDesc(CLArgType.float32_array, out.size)
    d_in, d_hid, d_out = (CLArgDesc(CLArgType.int32) for _ in range(3))
    d_b1, d_b2 = CLArgDesc(CLArgType.float32), CLArgDesc(CLArgType.float32)
    layer1 = (CLFuncDesc(sigmoid_layer, (n_hidden, batch)).arg(dx).copy_in().arg(dw1).copy_in()
              .arg(d_in).arg(d_hid).arg(d_b1).arg(dhidden, False))
    layer2 = (CLFuncDesc(sigmoid_layer, (n_out, batch)).arg(dhidden).arg(dw2).copy_in()
              .arg(d_hid).arg(d_out).arg(d_b2).arg(dout, False).copy_out())
    mlp = CLFunc(layer1, layer2).compile(backend=backend)
    # Positional: one value per distinct descriptor in order of first use.
    assert mlp.arg_descs == [dx, dw1, d_in, d_hid, d_b1, dhidden, dw2, d_out, d_b2, dout]
    mlp(x, w1, n_in, n_hidden, 0.1, None, w2, n_out, -0.2, out)
    expected = _sigmoid(_sigmoid(x, w1, 0.1).astype(np.float32), w2, -0.2)
    np.testing.assert_allclose(out, expected, rtol=1e-5)

    x2 = rng.random((batch, n_in), dtype=np.float32)
    mlp({dx: x2, dw1: None, d_in: n_in, d_hid: n_hidden, d_b1: 0.1, dw2: None, d_out: n_out,
         d_b2: -0.2, dout: out})
    np.testing.assert_allclose(out, _sigmoid(_sigmoid(x2, w1, 0.1).astype(np.float32), w2, -0.2),
                               rtol=1e-5)


# --- work items ---------------------------------------------------------------------------------

_STATUS = dict((n, ok) for n, ok, _ in smelt._smelt.list_backends())
_GROUPS = ["python"] + [pytest.param(b, marks=pytest.mark.skipif(
    not _STATUS.get(b), reason="%s not usable here" % b)) for b in ("opencl", "cuda")]


def _work_items(kernel, backend, global_size, local_size):
    g0, g1 = global_size
    ids = np.full(12 * g0 * g1, -1, np.int32)
    dids, dcols = CLArgDesc(CLArgType.int32_array, ids.size), CLArgDesc(CLArgType.int32)
    run = CLFunc(CLFuncDesc(kernel, global_size, local_size).arg(dids, False).copy_out()
                 .arg(dcols)).compile(backend=backend)
    run(ids, g0)
    return ids


def _expected_work_items(global_size, local_size):
    g0, g1 = global_size
    l0, l1 = local_size
    x, y = np.meshgrid(np.arange(g0), np.arange(g1))  # y: dimension 1 (rows), x: dimension 0
    return np.stack([x, y, x % l0, y % l1, x // l0, y // l1, np.full_like(x, g0),
                     np.full_like(x, g1), np.full_like(x, l0), np.full_like(x, l1),
                     np.full_like(x, g0 // l0), np.full_like(x, g1 // l1)], axis=-1)


@pytest.mark.parametrize("backend", _GROUPS)
def test_every_work_item_function_in_a_low_level_kernel(backend):
    ids = _work_items(work_items_synced, backend, (8, 6), (4, 3))
    np.testing.assert_array_equal(ids.reshape(6, 8, 12), _expected_work_items((8, 6), (4, 3)))


@pytest.mark.parametrize("global_size, local_size", [((8, 6), (4, 3)), ((6, 4), None)])
def test_every_work_item_function_in_2d_through_a_helper(backend, global_size, local_size):
    g0, g1 = global_size
    ids = _work_items(work_items, backend, global_size, local_size)
    expected = _expected_work_items(global_size, local_size or (np.gcd(g0, 64), 1))
    np.testing.assert_array_equal(ids.reshape(g1, g0, 12), expected)  # (smelt's default groups)


def test_included_funcs_as_pytocl_gives_them(backend):
    # pytocl's own include test: the helper is passed as a CLFuncDesc in included_funcs.
    shape = (10,)
    desc_a = CLArgDesc(CLArgType.float32_array, shape[0])
    func = CLFunc(CLFuncDesc(calls_store_three, shape).arg(desc_a, False).copy_in().copy_out(),
                  included_funcs=[CLFuncDesc(store_three, shape).arg(desc_a, False)]
                  ).compile(backend=backend)
    a = np.zeros(shape, dtype=np.float32)
    func(a)
    np.testing.assert_array_equal(a, 3 + np.arange(10))


@pytest.mark.parametrize("pytocl_types", [False, True])
def test_nested_kernel_with_a_closure_helper(backend, pytocl_types):
    scale = 3.0

    def shifted(x):
        return x * scale + get_global_id(0)

    def nested(a, out):
        i = get_global_id(0)
        out[i] = shifted(a[i])

    n = 5
    da, dout = CLArgDesc(CLArgType.float64_array, n), CLArgDesc(CLArgType.float64_array, n)
    f = CLFunc(CLFuncDesc(nested, (n,)).arg(da).copy_in().arg(dout, False).copy_out(),
               pytocl_types=pytocl_types).compile(backend=backend)
    a, out = np.linspace(-1, 1, n), np.zeros(n)
    f(a, out)
    np.testing.assert_array_equal(out, a * 3.0 + np.arange(n))


def test_work_item_functions_outside_a_launch():
    # In plain CPython, outside any launch: the first work item of a launch of one.
    assert (get_global_id(0), get_local_id(1), get_group_id(2)) == (0, 0, 0)
    assert (get_global_size(0), get_local_size(0), get_num_groups(0)) == (1, 1, 1)
    assert cl_call("exp", 0.0) == 1.0


# --- local memory and barriers ------------------------------------------------------------------

def _group_sums(backend, n, local):
    x = np.arange(n, dtype=np.float32) % 7
    sums = np.zeros(n // local, np.float32)
    dx, dsums = CLArgDesc(CLArgType.float32_array, n), CLArgDesc(CLArgType.float32_array, n // local)
    f = CLFunc(CLFuncDesc(group_sums, (n,), (local,)).arg(dx).copy_in()
               .local_arg(CLArgType.float32_array, local).arg(dsums, False).copy_out()
               ).compile(backend=backend)
    f({dx: x, dsums: sums})
    return x, sums


@pytest.mark.parametrize("backend", _GROUPS)
def test_local_memory_and_barriers(backend):
    n, local = 128, 16
    x, sums = _group_sums(backend, n, local)
    np.testing.assert_array_equal(sums, x.reshape(-1, local).sum(axis=1))


@pytest.mark.parametrize("backend", ["cython", "serial"])
def test_local_memory_and_barriers_on_the_cpu_are_refused(backend):
    with pytest.raises(smelt.BackendUnavailableError, match="group_sums uses local memory.*'opencl'"):
        _group_sums(backend, 32, 8)
    with pytest.raises(smelt.BackendUnavailableError, match="work_items_synced uses a barrier"):
        _work_items(work_items_synced, backend, (4, 2), (2, 2))


# --- calls: dict form, None, buffers kept, errors -------------------------------------------------

def test_none_keeps_the_device_copy_and_buffers_persist(backend):
    n = 8
    da = CLArgDesc(CLArgType.int32_array, n)
    db = CLArgDesc(CLArgType.int32_array, n)
    dout = CLArgDesc(CLArgType.int32_array, n)
    add = CLFunc(CLFuncDesc(parallel_add, (n,)).arg(da).copy_in().arg(db).copy_in()
                 .arg(dout, False).copy_out()).compile(backend=backend)
    a, b, out = np.arange(n, dtype=np.int32), np.full(n, 10, np.int32), np.zeros(n, np.int32)
    add({da: a, db: b, dout: out})
    np.testing.assert_array_equal(out, a + 10)
    add({da: 2 * a, dout: out})  # db left out: its buffer still holds b
    np.testing.assert_array_equal(out, 2 * a + 10)
    add(None, 3 * b, out)  # None for a copy-in: the buffer still holds 2 * a
    np.testing.assert_array_equal(out, 2 * a + 30)


def test_in_place_and_64_bit_types(backend):
    n = 5
    da = CLArgDesc(CLArgType.float64_array, n)
    db = CLArgDesc(CLArgType.float64_array, n)

    f = CLFunc(CLFuncDesc(add_inplace, (n,)).arg(da, False).copy_in().copy_out()
               .arg(db).copy_in()).compile(backend=backend)
    a, b = np.linspace(0, 1, n), np.full(n, 1e-12)
    expected = a + b
    f(a, b)
    np.testing.assert_array_equal(a, expected)  # float64 all the way


@pytest.mark.parametrize("pytocl_types", [False, True])
def test_bool_and_int64_arguments(backend, pytocl_types):
    n = 7
    dx, dlimit = CLArgDesc(CLArgType.int64_array, n), CLArgDesc(CLArgType.int64)
    dflip, dout = CLArgDesc(CLArgType.bool), CLArgDesc(CLArgType.bool_array, n)
    f = CLFunc(CLFuncDesc(above, (n,)).arg(dx).copy_in().arg(dlimit).arg(dflip)
               .arg(dout, False).copy_out(), pytocl_types=pytocl_types).compile(backend=backend)
    x, out = np.arange(n, dtype=np.int64) - 2, np.zeros(n, bool)
    f(x, 2, False, out)
    np.testing.assert_array_equal(out, x > 2)
    f(x, 2, True, out)
    np.testing.assert_array_equal(out, x <= 2)


def test_no_alloc_takes_the_callers_memory(backend):
    n = 6
    da = CLArgDesc(CLArgType.float32_array, n, no_alloc=True)
    db = CLArgDesc(CLArgType.float32_array, n)
    dout = CLArgDesc(CLArgType.float32_array, n)
    f = CLFunc(CLFuncDesc(parallel_add, (n,)).arg(da).arg(db).copy_in()
               .arg(dout, False).copy_out()).compile(backend=backend)
    a = smelt.wrap(np.arange(n, dtype=np.float32), backend=backend)
    out = np.zeros(n, np.float32)
    f(a, np.ones(n, np.float32), out)
    np.testing.assert_array_equal(out, np.arange(n) + 1)


def test_argument_errors_name_the_argument():
    n = 4
    da = CLArgDesc(CLArgType.float32_array, n)
    db = CLArgDesc(CLArgType.float32_array, n)
    dout = CLArgDesc(CLArgType.float32_array, n)
    add = CLFunc(CLFuncDesc(parallel_add, (n,)).arg(da).copy_in().arg(db).copy_in()
                 .arg(dout, False).copy_out()).compile(backend="cython")
    ok = np.zeros(n, np.float32)
    with pytest.raises(smelt.UsageError, match=r"argument 2 \(b of parallel_add, "
                       r"CLArgType.float32_array\): the array's dtype is float64, the "
                       r"descriptor's float32"):
        add(ok, np.zeros(n), ok)
    with pytest.raises(smelt.UsageError, match="argument 1 .* 5 elements, .* array_size is 4"):
        add(np.zeros(5, np.float32), ok, ok)
    with pytest.raises(smelt.UsageError, match=r"argument 3 \(output .* is copied out: pass"):
        add(ok, ok, None)
    with pytest.raises(smelt.UsageError, match="takes 3 arguments"):
        add(ok, ok, ok, ok)
    with pytest.raises(smelt.UsageError, match="not an argument of this CLFunc"):
        add({CLArgDesc(CLArgType.float32_array, n): ok})
    dx, dn = CLArgDesc(CLArgType.float64_array, 4), CLArgDesc(CLArgType.int32)
    scaled = CLFunc(CLFuncDesc(scale_by, (4,)).arg(dx, False).copy_out().arg(dn)).compile(backend="cython")
    x = np.ones(4)
    with pytest.raises(smelt.UsageError, match=r"argument 2 \(n of scale_by, CLArgType.int32\): "
                       r"0.5 is not an integer"):
        scaled(x, 0.5)
    with pytest.raises(smelt.UsageError, match="outside int32's range"):
        scaled(x, 2 ** 40)
    with pytest.raises(smelt.UsageError, match="a scalar needs a value"):
        scaled(x, None)
    scaled(x, 3.0)  # an integral float is fine
    np.testing.assert_array_equal(x, [0.0, 3.0, 6.0, 9.0])


def test_descriptor_errors():
    da = CLArgDesc(CLArgType.float32_array, 4)
    with pytest.raises(smelt.UsageError, match="read-only"):
        CLFuncDesc(parallel_add, (4,)).arg(da).copy_out()
    with pytest.raises(smelt.UsageError, match="local memory cannot be copied"):
        CLFuncDesc(parallel_add, (4,)).local_arg(CLArgType.float32_array, 4).copy_in()
    with pytest.raises(smelt.UsageError, match="no_alloc"):
        CLArgDesc(CLArgType.int32, no_alloc=True)
    with pytest.raises(smelt.UsageError, match="different dimensions"):
        CLFuncDesc(parallel_add, (4, 4), (2,))
    with pytest.raises(smelt.UsageError, match="has 3 parameters .* 2 arguments"):
        CLFunc(CLFuncDesc(parallel_add, (4,)).arg(da).arg(da)).compile(backend="cython")
    with pytest.raises(smelt.UsageError, match=r"\(6,\) is not a multiple of local_size \(4,\)"):
        CLFunc(CLFuncDesc(store_three, (6,), (4,)).arg(da, False)).compile(backend="cython")
    assert CLArgType.is_array(CLArgType.float32_array) and not CLArgType.int32.is_array()
    assert CLArgType.get_cl_type_name(CLArgType.float32_array) == "float*"
    assert CLArgType.float64.get_element_byte_size() == 8


def test_kernel_errors_are_located():
    da = CLArgDesc(CLArgType.float32_array, 4)
    with pytest.raises(smelt.CompileError, match="writes_readonly stores into 'b'.*is_readonly=False") as e:
        CLFunc(CLFuncDesc(writes_readonly, (4,)).arg(da).arg(da)).compile(backend="cython")
    assert e.value.lineno == writes_readonly.__code__.co_firstlineno + 2
    with pytest.raises(smelt.CompileError, match="literal dimension") as e:
        CLFunc(CLFuncDesc(dynamic_dim, (4,)).arg(da, False).arg(CLArgDesc(CLArgType.int32))
               ).compile(backend="cython")
    assert e.value.lineno == dynamic_dim.__code__.co_firstlineno + 1


def test_columns_after_a_work_item_call_are_the_users():
    # get_global_id(0) becomes a parameter padded to its length, so the engine's diagnostic for
    # the undefined name points at the column the file has.
    da = CLArgDesc(CLArgType.float32_array, 4)
    f = CLFunc(CLFuncDesc(bad_name_after_id, (4,)).arg(da, False)).compile(backend="cython")
    with pytest.raises(smelt.CompileError) as e:
        f(None)
    line = "    a[get_global_id(0)] = not_defined_anywhere"
    assert e.value.lineno == bad_name_after_id.__code__.co_firstlineno + 1
    assert e.value.offset == line.index("not_defined_anywhere") + 1


# --- pytocl's name-based local types -------------------------------------------------------------

def test_name_based_types_are_an_opt_in(backend):
    # `value` accumulates a float32 element 100 times: smelt's inference makes it a double (the
    # literal 0.0), pytocl's names a float. `i_half` is int by its name: pytocl truncates.
    n = 6
    a = (np.arange(n, dtype=np.float32) + 1) / np.float32(3)
    da, dout = CLArgDesc(CLArgType.float32_array, n), CLArgDesc(CLArgType.float32_array, n)
    value64, value32 = np.zeros(n), np.zeros(n, np.float32)
    for _ in range(100):  # the kernel's additions, rounded to double / to float at every step
        value64 = value64 + a
        value32 = value32 + a
    as_double = (value64 + a / np.float32(2)).astype(np.float32)
    as_pytocl = value32 + np.trunc(a / np.float32(2))
    assert not np.array_equal(as_double, as_pytocl)  # the test can tell them apart

    results = {}
    for types in (False, True):
        out = np.zeros(n, np.float32)
        CLFunc(CLFuncDesc(accumulate, (n,)).arg(da).copy_in().arg(dout, False).copy_out(),
               pytocl_types=types).compile(backend=backend)(a, out)
        results[types] = out
    np.testing.assert_array_equal(results[False], as_double)
    np.testing.assert_array_equal(results[True], as_pytocl)


# --- the documentation's example ------------------------------------------------------------------

def test_the_documented_example_runs(tmp_path):
    # docs/PYTHON.md's pytocl example, as written, from a file of its own (smelt compiles kernels
    # from their source file).
    import os
    import re
    import runpy
    doc = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "PYTHON.md")
    with open(doc) as f:
        text = f.read()
    section = text[text.index("## pytocl API"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    path = tmp_path / "pytocl_doc_example.py"
    path.write_text(code)
    ns = runpy.run_path(str(path), run_name="pytocl_doc_example")
    np.testing.assert_array_equal(ns["output"], ns["a"] + ns["b"])
    assert ns["parallel_add_cl"].backend == "cython"
