"""pytocl's API on smelt's engine: a pytocl program runs on every backend after changing its
import to ``from smelt.pytocl import *``::

    def parallel_add(a, b, output):
        i = get_global_id(0)
        output[i] = a[i] + b[i]

    desc_a = CLArgDesc(CLArgType.float32_array, array_size=16)
    desc_b = CLArgDesc(CLArgType.float32_array, array_size=16)
    desc_out = CLArgDesc(CLArgType.float32_array, array_size=16)
    add = CLFunc(CLFuncDesc(parallel_add, (16,))
                 .arg(desc_a).copy_in().arg(desc_b).copy_in()
                 .arg(desc_out, is_readonly=False).copy_out()).compile()
    add(a, b, out)          # or add({desc_a: a, desc_b: b, desc_out: out})

How it runs (docs/PYTHON.md, "pytocl API"): the kernels and the functions of their file they
call are rewritten so that the work-item functions become parameters (pytocl_source.py); a
kernel without local memory or barriers then runs as an Elementwise over the flattened global
range on every backend, one with them as a low-level Kernel (OpenCL and CUDA; backend 'python'
runs both kinds in CPython, pytocl_python.py). Every array descriptor is one buffer on the
backend for the whole CLFunc, shared by the functions that use it, copied from and to the host
arrays as the descriptors say.
"""

import enum
import inspect
import math

import numpy as np

from . import _cpython
from . import backends as _backends
from . import config as _config
from . import errors
from ._source import function_of
from .pytocl_python import (CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, barrier,  # noqa: F401
                            cl_call, cl_inline, get_global_id, get_global_size, get_group_id,
                            get_local_id, get_local_size, get_num_groups, local_barrier)
from . import pytocl_python as _python

__all__ = ["CLArgType", "CLArgDesc", "CLFuncDesc", "CLFunc", "CompiledCLFunc", "get_global_id",
           "get_local_id", "get_group_id", "get_global_size", "get_local_size", "get_num_groups",
           "barrier", "local_barrier", "cl_call", "cl_inline", "CLK_LOCAL_MEM_FENCE",
           "CLK_GLOBAL_MEM_FENCE", "clify", "GlobalIdKernel"]

_CL_NAMES = {"float32": "float", "float64": "double", "int8": "char", "int16": "short",
             "int32": "int", "int64": "long", "uint8": "uchar", "uint16": "ushort",
             "uint32": "uint", "uint64": "ulong", "bool": "bool"}


class CLArgType(enum.Enum):
    """The type of a kernel argument: a scalar (``float32``, ...) or an array of it
    (``float32_array``, ...). pytocl has float32, int32, bool and their arrays; smelt adds the
    other NumPy dtypes its engine takes."""

    float32 = ("float32", False)
    float32_array = ("float32", True)
    float64 = ("float64", False)
    float64_array = ("float64", True)
    int8 = ("int8", False)
    int8_array = ("int8", True)
    int16 = ("int16", False)
    int16_array = ("int16", True)
    int32 = ("int32", False)
    int32_array = ("int32", True)
    int64 = ("int64", False)
    int64_array = ("int64", True)
    uint8 = ("uint8", False)
    uint8_array = ("uint8", True)
    uint16 = ("uint16", False)
    uint16_array = ("uint16", True)
    uint32 = ("uint32", False)
    uint32_array = ("uint32", True)
    uint64 = ("uint64", False)
    uint64_array = ("uint64", True)
    bool = ("bool", False)
    bool_array = ("bool", True)

    # pytocl calls these as CLArgType.is_array(t); t.is_array() works too.
    def is_array(t):
        """Whether the type is an array type."""
        return t.value[1]

    def get_element_byte_size(t):
        """Bytes per element (NumPy's itemsize: 1 for bool, which pytocl counts as 4)."""
        return t.dtype.itemsize

    def get_cl_type_name(t):
        """The OpenCL C type (``float``, ``float*``)."""
        return _CL_NAMES[t.value[0]] + ("*" if t.value[1] else "")

    @property
    def dtype(self):
        """The NumPy dtype of the value or of the array's elements."""
        return np.dtype(self.value[0])

    def __repr__(self):
        return "CLArgType." + self.name


class CLArgDesc:
    """``CLArgDesc(arg_type, array_size=0, no_alloc=False)``: one argument, shared by the
    functions it is given to. ``array_size``: elements of an array (0 for scalars).
    ``no_alloc``: no buffer is made for this array; each call passes the memory itself (a
    ``smelt.Array`` of the backend, used directly, or a NumPy array, used in place on the CPU and
    copied in and back around each launch on a GPU)."""

    def __init__(self, arg_type, array_size=0, no_alloc=False):
        if not isinstance(arg_type, CLArgType):
            raise errors.UsageError("CLArgDesc: arg_type must be a CLArgType, not %r" % (arg_type,))
        array_size = int(array_size)
        if no_alloc and not arg_type.is_array():
            raise errors.UsageError("CLArgDesc(%r, no_alloc=True): only arrays have buffers; a "
                                    "scalar is passed by value" % (arg_type,))
        if arg_type.is_array() and array_size < 1 and not no_alloc:
            raise errors.UsageError("CLArgDesc(%r): an array needs array_size >= 1, not %d"
                                    % (arg_type, array_size))
        self.arg_type = arg_type
        self.array_size = array_size
        self.no_alloc = bool(no_alloc)
        self.byte_size = (max(array_size, 1) if arg_type.is_array() else 1) * \
            arg_type.get_element_byte_size()

    @property
    def dtype(self):
        return self.arg_type.dtype

    def __repr__(self):
        size = ", array_size=%d" % self.array_size if self.arg_type.is_array() else ""
        return "CLArgDesc(%r%s%s)" % (self.arg_type, size, ", no_alloc=True" if self.no_alloc else "")


def _sizes(value, what, func_name):
    if isinstance(value, (int, np.integer)):
        value = (value,)
    try:
        sizes = tuple(int(v) for v in value)
    except TypeError:
        raise errors.UsageError("CLFuncDesc(%s): %s must be a tuple of 1 to 3 sizes, not %r"
                                % (func_name, what, value)) from None
    if not 1 <= len(sizes) <= 3 or any(v < 1 for v in sizes):
        raise errors.UsageError("CLFuncDesc(%s): %s must be 1 to 3 positive sizes, not %r"
                                % (func_name, what, value))
    return sizes


class CLFuncDesc:
    """``CLFuncDesc(func, global_size, local_size=None)``: one launch of `func` on
    ``global_size`` work items (a tuple of 1 to 3 sizes) in work-groups of ``local_size`` (the
    same number of sizes; None: smelt's choice, see docs/PYTHON.md). Its arguments are added in
    the function's parameter order by chained calls: ``.arg(desc, is_readonly=True)``,
    ``.local_arg(arg_type, array_size)``; ``.copy_in(desc=None)`` / ``.copy_out(desc=None)``
    copy the last added argument (or `desc`) from the host before / to the host after the
    launch."""

    def __init__(self, func, global_size, local_size=None):
        self.func = function_of(func)
        self.func_name = self.func.__name__
        self.global_size = _sizes(global_size, "global_size", self.func_name)
        self.local_size = None if local_size is None else _sizes(local_size, "local_size",
                                                                 self.func_name)
        if self.local_size is not None and len(self.local_size) != len(self.global_size):
            raise errors.UsageError("CLFuncDesc(%s): local_size %r and global_size %r have "
                                    "different dimensions" % (self.func_name, self.local_size,
                                                              self.global_size))
        self.arg_descs = []
        self.copy_in_args = []
        self.copy_out_args = []
        self.readonly_args = []
        self.local_args = []

    def is_readonly(self, arg_desc):
        return any(d is arg_desc for d in self.readonly_args)

    def is_local(self, arg_desc):
        return any(d is arg_desc for d in self.local_args)

    def arg(self, arg_desc, is_readonly=True):
        """Adds the next argument; ``is_readonly=False`` for arrays the function writes."""
        if not isinstance(arg_desc, CLArgDesc):
            raise errors.UsageError("%s.arg: expected a CLArgDesc, not %r" % (self.func_name, arg_desc))
        self.arg_descs.append(arg_desc)
        if is_readonly:
            self.readonly_args.append(arg_desc)
        return self

    def local_arg(self, arg_type, array_size):
        """Adds the next argument as local memory: ``array_size`` elements of ``arg_type`` (an
        array type) per work-group, shared by the group's work items."""
        if not isinstance(arg_type, CLArgType) or not arg_type.is_array():
            raise errors.UsageError("%s.local_arg: expected an array CLArgType, not %r"
                                    % (self.func_name, arg_type))
        desc = CLArgDesc(arg_type, array_size)
        self.arg_descs.append(desc)
        self.local_args.append(desc)
        return self

    def _chosen(self, arg_desc, what):
        if arg_desc is None:
            if not self.arg_descs:
                raise errors.UsageError("%s.%s(): no argument added yet" % (self.func_name, what))
            return self.arg_descs[-1]
        if not any(d is arg_desc for d in self.arg_descs):
            raise errors.UsageError("%s.%s(%r): not an argument of this function (add it with "
                                    ".arg first)" % (self.func_name, what, arg_desc))
        return arg_desc

    def copy_in(self, arg_desc=None):
        """Copies the argument (default: the last added) from the host before the launch."""
        desc = self._chosen(arg_desc, "copy_in")
        if self.is_local(desc):
            raise errors.UsageError("%s.copy_in: local memory cannot be copied from the host"
                                    % self.func_name)
        self.copy_in_args.append(desc)
        return self

    def copy_out(self, arg_desc=None):
        """Copies the argument (default: the last added) to the host after the launch."""
        desc = self._chosen(arg_desc, "copy_out")
        if self.is_local(desc):
            raise errors.UsageError("%s.copy_out: local memory cannot be copied to the host"
                                    % self.func_name)
        if self.is_readonly(desc):
            raise errors.UsageError("%s.copy_out: the argument is read-only (is_readonly=True, "
                                    "the default of .arg); copying it out would copy back what "
                                    "was copied in" % self.func_name)
        self.copy_out_args.append(desc)
        return self


class CLFunc:
    """``CLFunc(*func_descs, included_funcs=[], pytocl_types=False)``: the functions run one
    after the other on shared buffers. ``included_funcs``: helper functions (or CLFuncDescs of
    them, as pytocl takes) compiled with the kernels; smelt also finds the functions of the
    kernels' file they call by itself. ``pytocl_types=True``: pytocl's name-based local types
    (i, j, k, i_* int; b_* bool; others float) instead of smelt's inference."""

    def __init__(self, *func_descs, included_funcs=(), pytocl_types=False):
        if not func_descs:
            raise errors.UsageError("CLFunc needs at least one CLFuncDesc")
        for fd in func_descs:
            if not isinstance(fd, CLFuncDesc):
                raise errors.UsageError("CLFunc takes CLFuncDescs, not %r" % (fd,))
        self.func_descs = list(func_descs)
        self.included_funcs = list(included_funcs)
        self.pytocl_types = pytocl_types

    def compile(self, context=None, queue=None, backend=None, pytocl_types=None):
        """The callable running the functions. ``context`` and ``queue`` (pytocl's PyOpenCL
        objects) are accepted and ignored: smelt's engine owns its devices. ``backend``: a smelt
        backend name ('cython', 'opencl', 'cuda', 'python', ...; default: the config's).
        ``pytocl_types`` overrides the CLFunc's."""
        types = self.pytocl_types if pytocl_types is None else pytocl_types
        return CompiledCLFunc(self, backend, bool(types))


def _closure_values(funcs):
    """{name: value} of the closure variables of `funcs` and of the functions in them."""
    out, work, seen = {}, list(funcs), set()
    while work:
        f = work.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        for name, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            out.setdefault(name, value)
            if inspect.isfunction(value):
                work.append(value)
    return out


def _included_function(f):
    return f.func if isinstance(f, CLFuncDesc) else function_of(f)


def _default_local_size(global_size):
    """OpenCL leaves the group size to the implementation; smelt takes the largest divisor of
    the config's wgs (64) dividing the first size, and 1 in the other dimensions, on every
    backend alike."""
    wgs = int(_config.get_config().wgs)
    return (math.gcd(global_size[0], wgs),) + (1,) * (len(global_size) - 1)


def _pad3(sizes):
    return tuple(sizes) + (1,) * (3 - len(sizes))


class _Launch:
    """One CLFuncDesc compiled: its launcher's name, sizes and how it runs."""

    def __init__(self, fd, index, rewrite):
        self.fd = fd
        self.global_size = fd.global_size
        self.local_size = fd.local_size or _default_local_size(fd.global_size)
        for d, (g, l) in enumerate(zip(self.global_size, self.local_size)):
            if g % l:
                raise errors.UsageError(
                    "CLFuncDesc(%s): global_size %r is not a multiple of local_size %r in "
                    "dimension %d (OpenCL requires it)" % (fd.func_name, fd.global_size,
                                                           self.local_size, d))
        self.kernel = bool(fd.local_args) or rewrite.barrier(fd.func_name)
        self.name = "_smelt_pytocl_%d_%s" % (index, fd.func_name)
        self.text = rewrite.launcher(self.name, fd.func_name, len(fd.arg_descs),
                                     _pad3(self.global_size), _pad3(self.local_size), self.kernel)
        self.impl = None


class CompiledCLFunc:
    """What ``CLFunc.compile()`` returns: call it with one array or number per distinct
    CLArgDesc in order of first use (local-memory descriptors included or all left out), or
    with a dict ``{desc: value}``. None (or leaving a descriptor out) for a copy-in keeps the
    buffer's content. ``.backend``; ``.kernel_text``: the Python text the engine compiles;
    ``.source``: the code generated for the launches that have run."""

    def __init__(self, clfunc, backend, pytocl_types):
        from . import pytocl_source
        self.func_descs = list(clfunc.func_descs)
        self.backend = _config.get_backend(backend)
        self._engine = _config.engine_backend(self.backend)
        self.pytocl_types = pytocl_types
        self.arg_descs = []
        for fd in self.func_descs:
            params = list(inspect.signature(fd.func).parameters)
            if len(params) != len(fd.arg_descs):
                raise errors.UsageError(
                    "CLFuncDesc(%s): the function has %d parameters (%s) but %d arguments were "
                    "added with .arg/.local_arg" % (fd.func_name, len(params), ", ".join(params),
                                                    len(fd.arg_descs)))
            for d in fd.arg_descs:
                if not any(d is x for x in self.arg_descs):
                    self.arg_descs.append(d)
        self._labels = self._argument_labels()
        roots = []
        for f in [fd.func for fd in self.func_descs] + [_included_function(f) for f in
                                                          clfunc.included_funcs]:
            if not any(f is r for r in roots):
                roots.append(f)
        self._rewrite = pytocl_source.Rewrite(roots, pytocl_types)
        self._check_readonly()
        self._launches = [_Launch(fd, k, self._rewrite) for k, fd in enumerate(self.func_descs)]
        self._python = self._engine is None
        for launch in self._launches:
            if launch.kernel and not self._python and not _backends.work_groups(self._engine):
                raise errors.BackendUnavailableError(
                    "%s uses %s, so it runs as a low-level Kernel with work-groups, which exist "
                    "only on the %s backends, not on %r ('python' runs it in CPython)"
                    % (launch.fd.func_name, "local memory" if launch.fd.local_args
                       else "a barrier",
                       _backends.text(["'%s'" % f for f in _backends.work_group_families()],
                                      " and "), self.backend))
        self.kernel_text = ""
        self._program = None
        self._typed = None
        if not self._python:
            self._build(roots)
        self._buffers = {}
        for d in self.arg_descs:
            if d.arg_type.is_array() and not d.no_alloc and not self._is_local(d):
                self._buffers[id(d)] = self._new_buffer(d)

    # --- compile ----------------------------------------------------------------------------

    def _argument_labels(self):
        labels = {}
        for k, d in enumerate(self.arg_descs):
            for fd in self.func_descs:
                for pos, x in enumerate(fd.arg_descs):
                    if x is d and id(d) not in labels:
                        param = list(inspect.signature(fd.func).parameters)[pos]
                        labels[id(d)] = "argument %d (%s of %s, %r)" % (k + 1, param, fd.func_name,
                                                                       d.arg_type)
        return labels

    def _check_readonly(self):
        """pytocl compiles read-only arrays as const: storing into one is an error there too."""
        for fd in self.func_descs:
            params = list(inspect.signature(fd.func).parameters)
            stored = self._rewrite.stored_params(fd.func_name)
            for param, desc in zip(params, fd.arg_descs):
                if param in stored and fd.is_readonly(desc) and desc.arg_type.is_array():
                    raise self._rewrite.located(
                        stored[param], "%s stores into '%s', which its CLFuncDesc adds as "
                        "read-only (.arg(desc) has is_readonly=True by default): add it with "
                        ".arg(desc, is_readonly=False)" % (fd.func_name, param))

    def _build(self, roots):
        from . import _smelt
        from ._source import program_for
        from .parallel import Elementwise
        appended = "\n# smelt.pytocl: one launcher per CLFuncDesc\n" + \
            "".join(launch.text for launch in self._launches)
        self._program, _, self.kernel_text = program_for(
            roots, rewrite_def=self._rewrite.rewrite_def, appended=appended)
        single = not _config.get_config().use_double
        for launch in self._launches:
            if launch.kernel:
                launch.impl = _smelt.Kernel(self._program, launch.name, self._engine, single)
            else:
                launch.impl = Elementwise._from_program(self._program, launch.name, launch.fd.func,
                                                        self.backend)

    def _python_function(self, func):
        """The function backend 'python' runs: `func` itself, or with pytocl_types a copy made
        from the text with the name-based types (helpers of its file too; registered with
        linecache so that tracebacks and smelt's CPython typing find it). The copies are
        top-level functions: the closure variables of nested kernels and helpers become
        globals of their module."""
        if not self.pytocl_types:
            return func
        if self._typed is None:
            from ._source import register_source
            name = "<smelt-pytocl-types %s>" % self._rewrite.filename
            text = self._rewrite.typed_text()
            register_source(text, name)
            self._typed = dict(func.__globals__)
            self._typed.update(_closure_values([fd.func for fd in self.func_descs]))
            exec(compile(text, name, "exec"), self._typed)
        return self._typed.get(func.__name__, func)

    def _is_local(self, desc):
        return any(fd.is_local(desc) for fd in self.func_descs)

    def _new_buffer(self, desc):
        if self._python:
            return np.zeros(desc.array_size, desc.dtype)
        from .array import zeros
        return zeros(desc.array_size, desc.dtype, self.backend)

    @property
    def source(self):
        """The code generated for the launches run so far (without smelt's prelude)."""
        from .parallel import _split_source
        parts = []
        for launch in self._launches:
            if launch.impl is not None:
                text = launch.impl.source if launch.kernel else launch.impl.all_source
                if text:
                    parts.append(_split_source(text))
        return "\n".join(parts)

    # --- call -------------------------------------------------------------------------------

    def _bind(self, args):
        """{id(desc): value} of a call's arguments."""
        if len(args) == 1 and isinstance(args[0], dict):
            values = {}
            for desc, value in args[0].items():
                if not any(desc is d for d in self.arg_descs):
                    raise errors.UsageError("%r is not an argument of this CLFunc" % (desc,))
                values[id(desc)] = value
            return values
        ordered = self.arg_descs
        if len(args) != len(ordered):
            ordered = [d for d in self.arg_descs if not self._is_local(d)]
            if len(args) > len(ordered):
                raise errors.UsageError(
                    "the CLFunc takes %d arguments (one per CLArgDesc, in order of first use%s), "
                    "not %d" % (len(ordered), "; local-memory ones may be left out"
                                if len(ordered) != len(self.arg_descs) else "", len(args)))
        return {id(d): v for d, v in zip(ordered, args)}

    def _check_array(self, desc, value, writing):
        label = self._labels[id(desc)]
        if not isinstance(value, np.ndarray):
            raise errors.UsageError("%s: expected a NumPy array, not %s" % (label, type(value).__name__))
        if value.dtype != desc.dtype:
            raise errors.UsageError("%s: the array's dtype is %s, the descriptor's %s"
                                    % (label, value.dtype, desc.dtype))
        if value.size != desc.array_size:
            raise errors.UsageError("%s: the array has %d elements, the descriptor's array_size "
                                    "is %d" % (label, value.size, desc.array_size))
        if writing and not (value.flags.c_contiguous and value.flags.writeable):
            raise errors.UsageError("%s: the array copied out into must be C-contiguous and "
                                    "writable" % label)

    def _copy_in(self, desc, value):
        self._check_array(desc, value, False)
        flat = np.ascontiguousarray(value).reshape(-1)
        buf = self._buffers[id(desc)]
        if isinstance(buf, np.ndarray):
            buf[:] = flat
        else:
            buf.set(flat)

    def _copy_out(self, desc, value):
        label = self._labels[id(desc)]
        if value is None:
            raise errors.UsageError("%s is copied out: pass the array to copy it into" % label)
        self._check_array(desc, value, True)
        buf = self._buffers[id(desc)]
        if not isinstance(buf, np.ndarray):
            buf.pull()
            buf = buf.data
        value.reshape(-1)[:] = buf

    def _argument(self, desc, values):
        """The launch argument for `desc` (local-memory ones: None)."""
        if self._is_local(desc):
            return None
        value = values.get(id(desc))
        label = self._labels[id(desc)]
        if not desc.arg_type.is_array():
            if value is None:
                raise errors.UsageError("%s: a scalar needs a value in every call" % label)
            if isinstance(value, np.ndarray) and value.ndim > 0:
                raise errors.UsageError("%s: a scalar, not an array" % label)
            return self._scalar(desc, value, label)
        if not desc.no_alloc:
            return self._buffers[id(desc)]
        if value is None:
            raise errors.UsageError("%s has no_alloc=True: pass its memory (a smelt Array or "
                                    "NumPy array) in every call" % label)
        if isinstance(value, np.ndarray):
            if value.dtype != desc.dtype or not value.flags.c_contiguous:
                raise errors.UsageError("%s: expected a C-contiguous %s array, not %s"
                                        % (label, desc.dtype, value.dtype))
            return value.reshape(-1)
        if getattr(value, "dtype", None) != desc.dtype:
            raise errors.UsageError("%s: expected memory of dtype %s, not %r" % (label, desc.dtype,
                                                                                  value))
        return _cpython.host(value) if self._python else value

    @staticmethod
    def _scalar(desc, value, label):
        """`value` as the descriptor's type; a value that type cannot hold is an error (pytocl
        would pass its bits)."""
        kind = desc.dtype.kind
        if kind in "iub" and isinstance(value, (float, np.floating)) and value != int(value):
            raise errors.UsageError("%s: %r is not an integer" % (label, value))
        if kind in "iu":
            info = np.iinfo(desc.dtype)
            if not info.min <= int(value) <= info.max:
                raise errors.UsageError("%s: %r is outside %s's range" % (label, value, desc.dtype))
        return desc.dtype.type(value)

    def __call__(self, *args):
        values = self._bind(args)
        for launch in self._launches:
            fd = launch.fd
            for desc in fd.copy_in_args:
                value = values.get(id(desc))
                if value is not None and id(desc) in self._buffers:
                    self._copy_in(desc, value)
            launch_args = [self._argument(d, values) for d in fd.arg_descs]
            self._run(launch, launch_args)
            for desc in fd.copy_out_args:
                if id(desc) in self._buffers:  # no_alloc memory is the caller's already
                    self._copy_out(desc, values.get(id(desc)))

    def _run(self, launch, launch_args):
        fd = launch.fd
        if self._python:
            local = {k: (d.dtype, d.array_size) for k, d in enumerate(fd.arg_descs) if fd.is_local(d)}
            _python.run(self._python_function(fd.func), launch_args, local, _pad3(launch.global_size),
                        _pad3(launch.local_size), self._rewrite.barrier(fd.func_name))
            return
        if launch.kernel:
            from . import _smelt
            args = [_smelt.LocalMem(d.array_size, d.dtype.name) if fd.is_local(d) else a
                    for d, a in zip(fd.arg_descs, launch_args)]
            launch.impl(list(launch.global_size), list(launch.local_size), *args)
        else:
            launch.impl.call_n(int(np.prod(launch.global_size)), *launch_args)


# --- pytocl's style without descriptors (kept from smelt's first pytocl layer) -----------------


class GlobalIdKernel:
    """``clify(func, global_size=None, backend=None)``: `func` (reading its index with
    ``get_global_id(0)``) run on ``global_size`` work items (default: the first array
    argument's length), arrays passed as for any primitive."""

    def __init__(self, func, global_size=None, backend=None):
        from ._source import global_id_rewrite, program_for
        self.func = function_of(func)
        self.global_size = global_size
        self.backend = _config.get_backend(backend)
        self._engine = _config.engine_backend(self.backend)
        self._elementwise = None
        if self._engine is not None:
            from .parallel import Elementwise
            prog = program_for([self.func], rewrite_def={self.func: global_id_rewrite("_smelt_gid")})[0]
            self._elementwise = Elementwise._from_program(prog, self.func.__code__.co_name,
                                                          self.func, self.backend)

    @property
    def source(self):
        return self._elementwise.source if self._elementwise else ""

    def __call__(self, *args):
        n = self.global_size
        if n is None:
            n = next((len(a) for a in args if hasattr(a, "__len__")), None)
            if n is None:
                raise TypeError("no array argument to take the global size from; pass global_size")
        if self._elementwise is not None:
            return self._elementwise.call_n(n, *args)
        views = [_cpython.host(a) for a in args]
        _python.run(self.func, views, {}, (n, 1, 1), (1, 1, 1), False)
        _cpython.push_back(args)


def clify(func, global_size=None, backend=None):
    """`func` (reading its index with get_global_id(0)) as a callable running it on
    `global_size` work items (default: the first array argument's length)."""
    return GlobalIdKernel(func, global_size, backend)
