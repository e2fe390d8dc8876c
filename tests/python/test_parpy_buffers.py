# ParPy's buffer API (smelt.parpy.buffer) and arrays of other libraries.
import gc

import numpy as np
import pytest

import smelt
import smelt.parpy as parpy
from smelt.parpy import buffer

from parpy_support import ALL, backend_param, opts_for

B = parpy.CompileBackend


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_round_trip(backend):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = buffer.from_array(x, backend)
    assert b.shape == (3, 4) and b.dtype is parpy.ElemSize.F32 and b.backend is backend
    assert b.size() == 48
    np.testing.assert_array_equal(b.numpy(), x)
    r = b.reshape(4, 3)
    np.testing.assert_array_equal(r.numpy(), x.reshape(4, 3))
    with pytest.raises(ValueError):
        b.reshape(5, 2)
    c = b.copy()
    np.testing.assert_array_equal(c.numpy(), x)
    as_int = b.with_type(parpy.ElemSize.I32)  # same size: the bits reinterpreted
    np.testing.assert_array_equal(as_int.numpy(), x.view(np.int32))
    as_f64 = b.with_type(np.float64)  # another size: the values converted
    np.testing.assert_array_equal(as_f64.numpy(), x.astype(np.float64))
    z = buffer.zeros((2, 5), parpy.ElemSize.I64, backend)
    assert z.shape == (2, 5) and z.dtype is parpy.ElemSize.I64
    np.testing.assert_array_equal(z.numpy(), np.zeros((2, 5)))
    assert buffer.empty_like(z).shape == (2, 5)
    buffer.sync(backend)


def test_host_buffers_share_memory():
    x = np.zeros(5)
    b = buffer.from_array(x, B.Cpu)
    b.numpy()[2] = 7.0
    assert x[2] == 7.0
    c = b.copy()
    c.numpy()[0] = 1.0
    assert x[0] == 0.0
    h = buffer.from_array(x, None)  # ParPy's host buffer
    assert h.backend is None and h.numpy()[2] == 7.0
    assert float(buffer.from_array(np.array([2.5]), None)) == 2.5


@pytest.mark.parametrize("backend", [backend_param(b)
                                     for b in (B.OpenCL, B.Cuda)])
def test_device_buffer_writes_back_on_release(backend):
    x = np.arange(4.0)
    b = buffer.from_array(x, backend)
    assert not b.on_host
    b._array[1] = 10.0  # a device-side change
    np.testing.assert_array_equal(x, [0, 1, 2, 3])
    del b
    gc.collect()
    np.testing.assert_array_equal(x, [0, 10, 2, 3])


@parpy.jit
def axpy_into(a, x, y, N):
    parpy.label("N")
    for i in range(N):
        y[i] = a * x[i] + y[i]


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_vector_buffers_stay_on_the_backend(backend):
    x = np.linspace(0.0, 1.0, 100)
    bx = buffer.from_array(x, backend)
    by = buffer.zeros(100, parpy.ElemSize.F64, backend)
    opts = opts_for(backend, {"N": parpy.threads(100)})
    axpy_into(2.0, bx, by, 100, opts=opts)
    axpy_into(2.0, bx, by, 100, opts=opts)
    np.testing.assert_allclose(by.numpy(), 4.0 * x, rtol=1e-15)
    with pytest.raises(smelt.UsageError, match="buffer of backend"):
        other = B.Python if backend is not B.Python else B.Cpu
        axpy_into(2.0, bx, by, 100, opts=opts_for(other, {"N": parpy.threads(100)}))


@parpy.jit
def add_rows(x, out, N, M):
    parpy.label("rows")
    for i in range(N):
        for j in range(M):
            out[i] = out[i] + x[i, j]


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_buffers_as_arguments(backend):
    x = np.arange(12.0).reshape(3, 4)
    bx = buffer.from_array(x, backend)
    out = buffer.zeros(3, parpy.ElemSize.F64, backend)
    opts = opts_for(backend, {"rows": parpy.threads(3)})
    add_rows(bx, out, 3, 4, opts=opts)
    add_rows(bx, out, 3, 4, opts=opts)  # the buffer keeps the first call's result
    np.testing.assert_array_equal(out.numpy(), 2 * x.sum(axis=1))


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float64).reshape(2, 3)
    out = torch.zeros(2, dtype=torch.float64)
    add_rows(x, out, 2, 3, opts=opts_for(B.Python, {"rows": parpy.threads(2)}))
    assert out.tolist() == [3.0, 12.0]
    assert buffer.from_array(x, B.Cpu).numpy().tolist() == x.tolist()


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(6, dtype=cupy.float64).reshape(2, 3)
    out = cupy.zeros(2, dtype=cupy.float64)
    add_rows(x, out, 2, 3, opts=opts_for(B.Python, {"rows": parpy.threads(2)}))
    assert out.get().tolist() == [3.0, 12.0]


class DeviceArray:
    """Stands for a CuPy array (memory the host cannot touch): get() copies out, set() in."""

    __module__ = "cupy._core.core"

    def __init__(self, values):
        self._device = np.array(values)
        self.shape = self._device.shape

    def get(self):
        return self._device.copy()

    def set(self, values):
        assert values.shape == self._device.shape
        self._device[...] = values


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_device_arrays_go_through_host_copies(backend):
    x = DeviceArray(np.arange(6.0).reshape(2, 3))
    out = DeviceArray(np.zeros(2))
    add_rows(x, out, 2, 3, opts=opts_for(backend, {"rows": parpy.threads(2)}))
    np.testing.assert_array_equal(out.get(), [3.0, 12.0])
    b = buffer.from_array(out, backend)
    np.testing.assert_array_equal(b.numpy(), [3.0, 12.0])
