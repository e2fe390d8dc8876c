"""pytocl kernels in CPython (smelt.pytocl's backend 'python', the oracle of the compiled ones).

The work-item functions read the running work item from a thread-local record, which the launch
below sets for each item. A launch runs the work-groups one after the other, dimension 0 varying
fastest, each with its own zeroed local-memory arrays. A kernel that waits at barriers runs each
group's items as threads meeting at a ``threading.Barrier`` (slow, but the meaning of a barrier);
other kernels run the items of a group one after the other.
"""

import itertools
import math
import threading

import numpy as np

from . import purepy
from ._language import language

__all__ = ["get_global_id", "get_local_id", "get_group_id", "get_global_size", "get_local_size",
           "get_num_groups", "barrier", "local_barrier", "cl_call", "cl_inline",
           "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "run"]

CLK_LOCAL_MEM_FENCE = "CLK_LOCAL_MEM_FENCE"
CLK_GLOBAL_MEM_FENCE = "CLK_GLOBAL_MEM_FENCE"


class _Item:
    """One work item: its ids and the launch's sizes (3 dimensions each), and its group's
    barrier (None when the items of the group run one after the other)."""

    def __init__(self, gid=(0, 0, 0), lid=(0, 0, 0), grp=(0, 0, 0), gsz=(1, 1, 1), lsz=(1, 1, 1),
                 barrier=None):
        self.gid, self.lid, self.grp, self.gsz, self.lsz = gid, lid, grp, gsz, lsz
        self.barrier = barrier


_OUTSIDE = _Item()  # outside a launch: one item in a group of one, as OpenCL's first item
_state = threading.local()


def _item():
    return getattr(_state, "item", _OUTSIDE)


def _in(values, dim, outside):
    return values[dim] if 0 <= dim < 3 else outside


def get_global_id(dim):
    """The work item's global index in dimension `dim` (0 past the launch's dimensions)."""
    return _in(_item().gid, dim, 0)


def get_local_id(dim):
    """The work item's index in its work-group."""
    return _in(_item().lid, dim, 0)


def get_group_id(dim):
    """The work-group's index."""
    return _in(_item().grp, dim, 0)


def get_global_size(dim):
    """The number of work items (1 past the launch's dimensions)."""
    return _in(_item().gsz, dim, 1)


def get_local_size(dim):
    """The work-group size."""
    return _in(_item().lsz, dim, 1)


def get_num_groups(dim):
    """The number of work-groups."""
    item = _item()
    return _in(item.gsz, dim, 1) // _in(item.lsz, dim, 1)


def barrier(flags=CLK_LOCAL_MEM_FENCE):
    """Waits until every work item of the group has reached it."""
    b = _item().barrier
    if b is not None:
        b.wait()


def local_barrier():
    """smelt's name of ``barrier(CLK_LOCAL_MEM_FENCE)``."""
    barrier()


def cl_inline(text):
    """pytocl's OpenCL text literal; smelt understands only a barrier's flags."""
    return text


def cl_call(name, *args):
    """pytocl's call of an OpenCL function by name: ``cl_call("exp", x)`` is ``exp(x)`` (the
    kernel language's builtins), ``cl_call("barrier", cl_inline("CLK_LOCAL_MEM_FENCE"))`` a
    barrier."""
    if name == "barrier":
        return barrier(*args)
    fn = getattr(purepy, name, None) or getattr(math, name, None)
    if fn is None:
        raise NameError("cl_call(%r, ...): no such function in the kernel language" % (name,))
    return fn(*args)


def _ranges(sizes):
    """Every index tuple of `sizes` (3 numbers), dimension 0 varying fastest."""
    return [tuple(reversed(t)) for t in itertools.product(*[range(n) for n in reversed(sizes)])]


def run(func, args, local_args, global_size, local_size, threads):
    """Runs `func(*args)` on every work item of `global_size` in groups of `local_size` (3
    numbers each). `local_args`: {argument position: (dtype, elements)}, a new zeroed array per
    group. `threads`: run a group's items as threads (the kernel waits at barriers)."""
    func = language(func)
    groups = [g // l for g, l in zip(global_size, local_size)]
    members = _ranges(local_size)
    with np.errstate(all="ignore"):  # integer kernels wrap, as compiled ones do
        for grp in _ranges(groups):
            call_args = list(args)
            for pos, (dtype, count) in local_args.items():
                call_args[pos] = np.zeros(count, dtype)
            items = [_Item(tuple(g * l + i for g, l, i in zip(grp, local_size, lid)), lid, grp,
                           tuple(global_size), tuple(local_size)) for lid in members]
            if threads:
                _run_threads(func, call_args, items)
            else:
                for item in items:
                    _state.item = item
                    try:
                        func(*call_args)
                    finally:
                        _state.item = _OUTSIDE


_BARRIER_TIMEOUT_S = 60


def _run_threads(func, call_args, items):
    wait = threading.Barrier(len(items), timeout=_BARRIER_TIMEOUT_S)
    failures, broken = [], []

    def body(item):
        item.barrier = wait
        _state.item = item
        try:
            with np.errstate(all="ignore"):
                func(*call_args)
        except threading.BrokenBarrierError:
            broken.append(item)  # another item failed first, or not every item came
        except BaseException as exc:  # noqa: B902 (re-raised in the launching thread)
            failures.append(exc)
            wait.abort()

    threads = [threading.Thread(target=body, args=(item,)) for item in items]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    if broken:
        from .errors import UsageError
        raise UsageError("%s: not every work item of group %s reached the barrier (within %d s): "
                         "a barrier must be reached by the whole group"
                         % (getattr(func, "__name__", func), broken[0].grp, _BARRIER_TIMEOUT_S))
