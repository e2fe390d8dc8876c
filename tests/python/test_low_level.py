# Kernel and LocalMem: work groups and local memory exist only on OpenCL/CUDA. On the CPU they are
# refused with a clear error; the Python side (LocalMem sizing, launch geometry) is checked here.
import numpy as np
import pytest

import smelt
from smelt import Kernel, LocalMem, annotate, declare
from smelt.low_level import GID_0, LDIM_0, LID_0, local_barrier


@annotate(gdoublep='x', ldoublep='xl')
def to_local(x, xl):
    i, t = declare('int', 2)
    t = LID_0
    i = GID_0 * LDIM_0 + t
    xl[t] = x[i]
    local_barrier()


@pytest.mark.parametrize("backend", ["cython", "openmp", "cpu", "python"])
def test_kernel_is_refused_on_the_cpu(backend):
    with pytest.raises(smelt.BackendUnavailableError, match="opencl' or 'cuda") as info:
        Kernel(to_local, backend=backend)
    assert isinstance(info.value, NotImplementedError)


@pytest.mark.parametrize("gpu", ["opencl", "cuda"])
def test_kernel_on_a_gpu_backend_says_what_is_missing(gpu):
    with pytest.raises(smelt.BackendUnavailableError, match=gpu):
        Kernel(to_local, backend=gpu)(np.zeros(8), LocalMem(1))


def test_local_mem_sizes():
    m = LocalMem(2)
    assert m.get("double", 64) == 2 * 64 * 8 and m.get("float", 32) == 2 * 32 * 4


def test_launch_geometry():
    k = Kernel.__new__(Kernel)
    k.func = to_local
    assert k._geometry((np.zeros(100), LocalMem(1)), None, 32) == (128, 32)
    assert k._geometry((np.zeros(100),), 256, None) == (256, smelt.get_config().wgs)


def test_work_item_names_in_cpython():
    # One work item in a group of one, as in smelt.purepy.
    x = np.arange(4.0)
    xl = np.zeros(1)
    to_local(x, xl)
    assert xl[0] == 0.0 and (LID_0, GID_0, LDIM_0) == (0, 0, 1)
