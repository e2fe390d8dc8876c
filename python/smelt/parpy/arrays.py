"""Arrays of other libraries as NumPy arrays: torch tensors and CuPy arrays are accepted when
those packages are installed, and never imported otherwise.

A CPU torch tensor (and anything with NumPy's array interface) is viewed without a copy, so a
function writes into it directly. A CUDA tensor or a CuPy array is copied to the host, and its
values are written back after the call: correct on every backend, but two copies per call, so
buffers (``parpy.buffer.from_array``) are the way to keep data on a GPU between calls.
"""

import numbers

import numpy as np

from .. import errors

__all__ = ["host_view", "write_back", "is_array"]


def _library(a):
    return type(a).__module__.split(".", 1)[0]


def is_array(a):
    """True for the array types the ParPy API accepts (NumPy, torch, CuPy, array-likes with an
    array interface); False for numbers, dicts and the rest."""
    if isinstance(a, np.ndarray):
        return True
    if isinstance(a, (np.generic, numbers.Number)):  # NumPy scalars have an array interface
        return False
    if _library(a) in ("torch", "cupy"):
        return hasattr(a, "shape")
    return hasattr(a, "__array_interface__") or hasattr(a, "__cuda_array_interface__")


def host_view(a):
    """(NumPy array with `a`'s values, callable writing that array back into `a` or None when it
    is `a`'s own memory)."""
    if isinstance(a, np.ndarray):
        return a, None
    lib = _library(a)
    if lib == "torch":
        if a.device.type == "cpu":
            return a.detach().numpy(), None
        host = a.detach().cpu().numpy()
        return host, lambda: write_back(a, host)
    if lib == "cupy":
        host = a.get()
        return host, lambda: write_back(a, host)
    if hasattr(a, "__array_interface__"):
        return np.asarray(a), None
    raise errors.UsageError("cannot use %s as an array: ParPy functions take NumPy arrays, "
                            "parpy buffers, and torch or CuPy arrays" % type(a).__name__)


def write_back(dest, values):
    """Copies the NumPy array `values` into `dest` (NumPy, torch or CuPy) in place."""
    lib = _library(dest)
    if lib == "torch":
        import torch
        dest.copy_(torch.from_numpy(np.ascontiguousarray(values)))
    elif lib == "cupy":
        dest.set(np.ascontiguousarray(values))
    else:
        np.copyto(np.asarray(dest), values.reshape(np.shape(dest)))
