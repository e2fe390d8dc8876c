# Kernel and LocalMem (Compyle's low_level): work groups and local memory exist only on OpenCL and
# CUDA, where kernels run against NumPy (the `gpu` fixture: skipped where the backend is absent;
# PoCL gives OpenCL on any machine). On the CPU backends they are refused with the documented
# BackendUnavailableError. The launch geometry and LocalMem sizes are checked on their own too.
import inspect

import numpy as np
import pytest

import smelt
from smelt import Kernel, LocalMem, annotate, declare, wrap
from smelt.low_level import GDIM_0, GID_0, LDIM_0, LID_0, atomic_inc, local_barrier


@annotate(gdoublep='x', ldoublep='xl')
def to_local(x, xl):
    i, t = declare('int', 2)
    t = LID_0
    i = GID_0 * LDIM_0 + t
    xl[t] = x[i]
    local_barrier()


@annotate(x='doublep', partial='doublep', xl='ldoublep', n='int')
def group_sum(x, partial, xl, n):
    # A work-group sum through a LocalMem argument (Compyle's style of local memory).
    t = LID_0
    i = GID_0 * LDIM_0 + t
    xl[t] = x[i] if i < n else 0.0
    local_barrier()
    s = LDIM_0 // 2
    while s > 0:
        if t < s:
            xl[t] += xl[t + s]
        local_barrier()
        s = s // 2
    if t == 0:
        partial[GID_0] = xl[0]


@annotate(x='intp', y='intp', pairs='lintp', n='int')
def swap_pairs(x, y, pairs, n):
    # Two local elements per work item (LocalMem(2)): item t stores x[i] and -x[i] at 2t, 2t+1,
    # then reads its mirror item's pair.
    t = LID_0
    i = GID_0 * LDIM_0 + t
    pairs[2 * t] = x[i] if i < n else 0
    pairs[2 * t + 1] = -x[i] if i < n else 0
    local_barrier()
    m = LDIM_0 - 1 - t
    if i < n:
        y[i] = pairs[2 * m] * 1000 + pairs[2 * m + 1]


@annotate(x='doublep', counter='intp', slots='intp', n='int', threshold='double')
def count_above(x, counter, slots, n, threshold):
    i = GID_0 * LDIM_0 + LID_0
    if i < n and x[i] > threshold:
        slots[atomic_inc(counter[0])] = i


@annotate(out='intp')
def names(out):
    i = GID_0 * LDIM_0 + LID_0
    out[4 * i] = LID_0
    out[4 * i + 1] = GID_0
    out[4 * i + 2] = LDIM_0
    out[4 * i + 3] = GDIM_0


@annotate(x='doublep')
def broken(x):
    i = GID_0 * LDIM_0 + LID_0
    x[i] = not_defined_anywhere * 2.0  # the mistake: test_error_points_into_this_file


# --- the CPU: refused --------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["cython", "openmp", "cpu", "serial", "python"])
def test_kernel_is_refused_on_the_cpu(backend):
    with pytest.raises(smelt.BackendUnavailableError, match="opencl' or 'cuda") as info:
        Kernel(to_local, backend=backend)
    assert isinstance(info.value, NotImplementedError)
    assert "use Elementwise" in str(info.value)


def test_kernel_follows_the_config_backend():
    with pytest.raises(smelt.BackendUnavailableError):
        Kernel(to_local)  # the default backend is 'cython'


# --- sizes and geometry (no device) ------------------------------------------------------------


def test_local_mem_sizes():
    m = LocalMem(2)
    assert m.get("double", 64) == 2 * 64 * 8 and m.get("float", 32) == 2 * 32 * 4
    assert m._engine_arg(32).count == 64  # elements of the parameter's type per work group


def test_launch_geometry():
    k = Kernel.__new__(Kernel)
    k.func = to_local
    # local_size given: the global size is rounded up to a multiple of it.
    assert k._geometry((np.zeros(100), LocalMem(1)), None, 32) == (128, 32)
    assert k._geometry((np.zeros(100),), (100,), (32,)) == (128, 32)
    # Not given: the largest divisor of wgs (64) dividing the global size: exact coverage.
    assert k._geometry((np.zeros(256),), None, None) == (256, 64)
    assert k._geometry((LocalMem(1), np.zeros(10000)), None, None) == (10000, 16)
    assert k._geometry((np.zeros(7),), None, None) == (7, 1)
    assert k._geometry((np.zeros(9),), 96, None) == (96, 32)
    with smelt.use_config(wgs=128):
        assert k._geometry((np.zeros(1 << 20),), None, None) == (1 << 20, 128)
    with pytest.raises(TypeError, match="global_size"):
        k._geometry((LocalMem(1), 3.0), None, None)


def test_work_item_names_in_cpython():
    # One work item in a group of one, as in smelt.purepy.
    x = np.arange(4.0)
    xl = np.zeros(1)
    to_local(x, xl)
    assert xl[0] == 0.0 and (LID_0, GID_0, LDIM_0) == (0, 0, 1)


# --- on OpenCL / CUDA -------------------------------------------------------------------------


def test_compyle_local_memory_example_runs(gpu):
    # The documentation's example as written (its kernel is to_local): it runs, and the source
    # is the function compiled as a kernel.
    with smelt.use_config(backend=gpu):
        x = wrap(np.linspace(0, 1, 10000))
        xl = LocalMem(1)
        k = Kernel(to_local)
        assert k.source == "" and k.backend == gpu
        k(x, xl)
    assert "to_local" in k.source
    assert ("__kernel void to_local" if gpu == "opencl" else "__global__") in k.all_source
    np.testing.assert_array_equal(x.get(), np.linspace(0, 1, 10000))  # only read


@pytest.mark.parametrize("n, local", [(1000, 64), (512, 32), (5, 8)])
def test_work_group_sum_through_local_mem(gpu, rng, n, local):
    x = rng.integers(-50, 50, n).astype(np.float64)  # integers: every partial sum is exact
    groups = (n + local - 1) // local
    partial = smelt.zeros(groups, np.float64, gpu)
    k = Kernel(group_sum, backend=gpu)
    k(wrap(x, backend=gpu), partial, LocalMem(1), n, local_size=local)
    padded = np.concatenate([x, np.zeros(groups * local - n)])
    np.testing.assert_array_equal(partial.get(), padded.reshape(groups, local).sum(axis=1))


def test_local_mem_of_two_elements_per_item(gpu):
    n, local = 200, 16
    x = np.arange(n, dtype=np.int32) + 1
    y = np.zeros(n, np.int32)
    Kernel(swap_pairs, backend=gpu)(x, y, LocalMem(2), n, local_size=local)  # NumPy arrays
    g = np.arange(n)
    mirror = g // local * local + (local - 1 - g % local)
    xm = np.where(mirror < n, x[np.minimum(mirror, n - 1)], 0)
    np.testing.assert_array_equal(y, xm * 1000 - xm)


def test_atomic_inc_counts(gpu, rng):
    n = 3000
    x = rng.random(n)
    counter = smelt.zeros(1, np.int32, gpu)
    slots = smelt.full(n, -1, np.int32, gpu)
    Kernel(count_above, backend=gpu)(wrap(x, backend=gpu), counter, slots, n, 0.25,
                                     local_size=64)
    want = np.nonzero(x > 0.25)[0]
    assert counter.get()[0] == len(want)
    got = slots.get()
    np.testing.assert_array_equal(np.sort(got[:len(want)]), want)  # each slot handed out once
    assert (got[len(want):] == -1).all()


def test_work_item_names(gpu):
    out = smelt.full(4 * 96, -1, np.int32, gpu)
    Kernel(names, backend=gpu)(out, global_size=96, local_size=32)
    i = np.arange(96)
    want = np.stack([i % 32, i // 32, np.full(96, 32), np.full(96, 3)], axis=1).ravel()
    np.testing.assert_array_equal(out.get(), want)


def test_error_points_into_this_file(gpu):
    lines, first = inspect.getsourcelines(broken)
    k = next(j for j, text in enumerate(lines) if "not_defined_anywhere" in text)
    with pytest.raises(smelt.CompileError) as info:
        Kernel(broken, backend=gpu)(np.zeros(4), local_size=4)
    e = info.value
    assert (e.filename, e.lineno) == (__file__, first + k)
    assert e.offset == lines[k].index("not_defined_anywhere") + 1
    assert "not_defined_anywhere" in e.msg


def test_wrong_calls_are_usage_errors(gpu):
    k = Kernel(group_sum, backend=gpu)
    x = smelt.zeros(64, np.float64, gpu)
    with pytest.raises(smelt.UsageError):  # an array where local memory is expected
        k(x, x, x, 64, local_size=64)
    with pytest.raises(smelt.UsageError):  # local memory where an array is expected
        k(x, LocalMem(1), LocalMem(1), 64, local_size=64)
    with pytest.raises(smelt.UsageError):  # argument count
        k(x, x, LocalMem(1), local_size=64)
    with pytest.raises(smelt.UsageError):  # float32 for a doublep parameter
        k(x, smelt.zeros(1, np.float32, gpu), LocalMem(1), 64, local_size=64)
