# smelt.parpy, item by item: LoopPar, par/threads/reduce, CompileOptions, ElemSize, backend
# resolution, the operators' CPython meaning, jit's cache and errors, print_compiled,
# compile_string, external.
import ctypes
import inspect

import numpy as np
import pytest

import smelt
import smelt.parpy as parpy
from smelt.parpy import options as parpy_options

from parpy_support import ALL, COMPILED, backend_param, opts_for

B = parpy.CompileBackend


def line_of(func, marker):
    """The file line number of the first line of `func` containing `marker`."""
    lines, first = inspect.getsourcelines(func)
    return first + next(k for k, line in enumerate(lines) if marker in line)


# --- LoopPar, par, threads, reduce ----------------------------------------------------------

def test_looppar_methods_return_new_objects():
    base = parpy.LoopPar()
    t = base.threads(64)
    r = t.reduce()
    b = r.tpb(128)
    assert (base.nthreads, base.is_reduction, base.threads_per_block) == (0, False, 0)
    assert (t.nthreads, t.is_reduction, t.threads_per_block) == (64, False, 0)
    assert (r.nthreads, r.is_reduction) == (64, True)
    assert (b.nthreads, b.is_reduction, b.threads_per_block) == (64, True, 128)
    assert not base.is_parallel() and t.is_parallel()
    with pytest.raises(AttributeError, match="immutable"):
        t._nthreads = 3
    with pytest.raises(ValueError):
        base.threads(0)
    with pytest.raises(ValueError):
        base.tpb(2.5)


def test_par_threads_reduce():
    opts = parpy.par({"N": parpy.threads(8), "M": parpy.reduce()})
    assert isinstance(opts, parpy.CompileOptions)
    assert opts.parallelize["N"] == parpy.LoopPar().threads(8)
    assert opts.parallelize["M"].is_reduction and not opts.parallelize["M"].is_parallel()
    assert opts.backend is B.Auto
    with pytest.raises(TypeError, match="LoopPar"):
        parpy.par({"N": 8})
    with pytest.raises(TypeError, match="strings"):
        parpy.par({1: parpy.threads(2)})


# --- CompileOptions -------------------------------------------------------------------------

def test_compile_options_defaults():
    o = parpy.CompileOptions()
    assert o.parallelize == {}
    assert o.verbose_backend_resolution is False and o.debug_print is False
    assert o.write_output is False and o.use_cuda_graphs is False
    assert o.use_cuda_thread_block_clusters is False and o.max_thread_blocks_per_cluster == 8
    assert o.backend is B.Auto
    assert o.force_int_size is None and o.force_float_size is None
    assert o.includes == [] and o.libs == [] and o.extra_flags == []


def test_compile_options_validation():
    o = parpy.CompileOptions()
    o.max_thread_blocks_per_cluster = 16
    for bad in (6, 0, -4, True):
        with pytest.raises(ValueError, match="power of two"):
            o.max_thread_blocks_per_cluster = bad
    with pytest.raises(AttributeError, match="no field 'use_graphs'"):
        o.use_graphs = True
    with pytest.raises(TypeError):
        o.backend = "cuda"
    with pytest.raises(ValueError):
        o.force_int_size = parpy.ElemSize.F32
    with pytest.raises(ValueError):
        o.force_float_size = parpy.ElemSize.I32
    with pytest.raises(TypeError):
        o.includes = "/usr/include"
    with pytest.raises(TypeError):
        o.debug_print = 1
    o.includes = ["/opt/include"]
    c = o.copy()
    c.includes.append("/other")
    assert o.includes == ["/opt/include"] and c != o


# --- ElemSize, Target -----------------------------------------------------------------------

def test_elem_size():
    E = parpy.ElemSize
    assert [e.size() for e in (E.Bool, E.I8, E.I16, E.I32, E.I64, E.F16, E.F32, E.F64)] == \
        [1, 1, 2, 4, 8, 2, 4, 8]
    assert E.I32.to_numpy() is np.int32 and E.U16.to_numpy() is np.uint16
    assert E.F64.to_ctype() is ctypes.c_double and E.U8.to_ctype() is ctypes.c_uint8
    assert E.Bool.to_ctype() is ctypes.c_bool
    with pytest.raises(TypeError):
        E.F16.to_ctype()
    assert {t.name for t in parpy.Target} == {"Host", "Device"}


def test_elem_size_to_torch():
    torch = pytest.importorskip("torch")
    assert parpy.ElemSize.I32.to_torch() is torch.int32
    with pytest.raises(TypeError):
        parpy.ElemSize.U32.to_torch()


# --- backend resolution ---------------------------------------------------------------------

@pytest.fixture
def fake_engine(monkeypatch):
    """Sets what the engine reports: fake_engine(cuda=(ok, note), opencl=(ok, note),
    opencl_gpu=(ok, note))."""

    def install(cuda, opencl, opencl_gpu=(True, "")):
        monkeypatch.setattr(parpy_options, "_engine_status",
                            lambda: {"cuda": cuda, "opencl": opencl, "cpu": (True, "")})
        monkeypatch.setattr(parpy_options, "_opencl_gpu", lambda: opencl_gpu)
        monkeypatch.setattr(parpy_options, "_AUTO", [])

    return install


def test_auto_prefers_cuda_then_opencl_gpu_then_cpu(fake_engine, capsys):
    opts = parpy.CompileOptions()
    fake_engine(cuda=(True, ""), opencl=(True, ""))
    assert parpy_options.resolve_backend(opts) == "cuda"
    fake_engine(cuda=(False, "no driver"), opencl=(True, ""))
    assert parpy_options.resolve_backend(opts) == "opencl"
    fake_engine(cuda=(False, "no driver"), opencl=(True, ""), opencl_gpu=(False, "a processor"))
    opts.verbose_backend_resolution = True
    assert parpy_options.resolve_backend(opts) == "cpu"
    out = capsys.readouterr().out
    assert "Cuda: no driver" in out and "OpenCL: a processor" in out and "selects" in out


def test_explicit_backends(fake_engine):
    fake_engine(cuda=(False, "no driver"), opencl=(True, ""))
    opts = parpy.CompileOptions()
    opts.backend = B.Cuda
    with pytest.raises(smelt.BackendUnavailableError, match="no driver"):
        parpy_options.resolve_backend(opts)
    opts.backend = B.Metal
    with pytest.raises(NotImplementedError, match="no Metal backend"):
        parpy_options.resolve_backend(opts)
    opts.backend = B.Cpu
    assert parpy_options.resolve_backend(opts) == "cpu"
    opts.backend = B.Python
    assert parpy_options.resolve_backend(opts) == "python"


# --- operators in CPython -------------------------------------------------------------------

def test_operators_cpython_meaning():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(parpy.sum(x, axis=1), x.sum(axis=1))
    assert parpy.sum(x[1, :]) == 4 + 5 + 6 + 7
    assert parpy.prod(x[0, 1:]) == 6
    assert parpy.min(x[2, :]) == 8 and parpy.max(x, axis=0)[3] == 11
    np.testing.assert_array_equal(parpy.max(x[0, :], x[1, :] - 5), [0, 1, 2, 3])
    assert parpy.float32(1.5) == np.float32(1.5) and type(parpy.float32(1)) is np.float32
    assert parpy.int32(2.7) == 2 and type(parpy.int32(2.7)) is np.int32
    with parpy.gpu:
        parpy.label("N")
    with pytest.raises(TypeError):
        parpy.label(3)


# --- jit: calls, errors ---------------------------------------------------------------------

@parpy.jit
def add_one(x, N):
    parpy.label("N")
    for i in range(N):
        x[i] = x[i] + 1.0


def test_missing_opts_is_an_error():
    with pytest.raises(smelt.UsageError, match="missing required keyword argument opts"):
        add_one(np.zeros(3), 3)
    with pytest.raises(smelt.UsageError, match="unsupported keyword"):
        add_one(np.zeros(3), 3, opts=parpy.par({}), backend="cpu")
    with pytest.raises(smelt.UsageError, match="CompileOptions"):
        add_one(np.zeros(3), 3, opts={"N": parpy.threads(3)})
    with pytest.raises(smelt.UsageError, match="takes 2 arguments"):
        add_one(np.zeros(3), opts=opts_for(B.Python, {}))


def test_python_backend_runs_the_function():
    x = np.arange(4.0)
    add_one(x, 4, opts=opts_for(B.Python, {"N": parpy.threads(4)}))
    np.testing.assert_array_equal(x, [1, 2, 3, 4])


def for_else(x, N):
    for i in range(N):
        x[i] = 0
    else:  # marker: for-else
        x[0] = 1


def while_else(x, N):
    i = 0
    while i < N:
        i += 1
    else:  # marker: while-else
        x[0] = 1


def with_open(x, N):
    with open("f"):  # marker: with
        x[0] = 1


@pytest.mark.parametrize("func, marker, message", [
    (for_else, "for i in range(N):", "for-else"),
    (while_else, "while i < N:", "while-else"),
    (with_open, "with open", "with parpy.gpu"),
])
def test_parpy_rejections_are_located(func, marker, message):
    with pytest.raises(smelt.CompileError, match=message) as info:
        parpy.jit(func)
    assert info.value.lineno == line_of(func, marker)
    assert info.value.filename == inspect.getsourcefile(func)
    assert str(info.value).startswith("%s:%d:" % (info.value.filename, info.value.lineno))


# --- dict arguments -------------------------------------------------------------------------

@parpy.jit
def dict_sum(d, out, N):
    parpy.label("N")
    for i in range(N):
        out[i] = d["a"][i] + d["b"][i] * d["scale"]


def int_key(d, out):
    with parpy.gpu:
        out[0] = d[0][0]  # marker: int key


def test_dict_arguments_python_backend():
    a, b, out = np.arange(3.0), np.ones(3), np.zeros(3)
    dict_sum({"a": a, "b": b, "scale": 2.0}, out, 3, opts=opts_for(B.Python, {"N": parpy.threads(3)}))
    np.testing.assert_array_equal(out, a + 2.0)


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_dict_argument_errors(backend):
    opts = opts_for(backend, {"N": parpy.threads(3)})
    f = parpy.jit(int_key)
    with pytest.raises(smelt.CompileError, match="keys must be strings") as info:
        f({0: np.zeros(1)}, np.zeros(1), opts=opts)
    assert info.value.lineno == line_of(int_key, "marker: int key")
    with pytest.raises(smelt.UsageError, match="nested dictionary"):
        dict_sum({"a": {"x": np.zeros(3)}, "b": np.ones(3), "scale": 1.0}, np.zeros(3), 3,
                 opts=opts)
    with pytest.raises(smelt.UsageError, match="no key 'scale'"):
        dict_sum({"a": np.zeros(3), "b": np.ones(3)}, np.zeros(3), 3, opts=opts)


def test_dict_rewrite_keeps_columns():
    from smelt._source import kernel_text
    from smelt.parpy.rewrite import rewrite_for
    rewrite = rewrite_for({"d": ["a", "b", "scale"]}, ["parpy"])
    _, text = kernel_text([dict_sum.func], rewrite_def={dict_sum.func: rewrite})
    lines = text.splitlines()
    first = line_of(dict_sum.func, "def dict_sum")
    assert lines[first - 1] == "def dict_sum(d__a, d__b, d__scale, out, N):"
    body = line_of(dict_sum.func, 'd["a"][i]')
    with open(inspect.getsourcefile(dict_sum.func)) as f:
        original = f.read().splitlines()[body - 1]
    assert original == '        out[i] = d["a"][i] + d["b"][i] * d["scale"]'
    assert lines[body - 1] == '        out[i] = d__a  [i] + d__b  [i] * d__scale  '


@pytest.mark.parametrize("backend", [backend_param(b) for b in COMPILED])
def test_dict_arguments_compiled(backend):
    a, b, out = np.arange(5.0), np.full(5, 3.0), np.zeros(5)
    dict_sum({"a": a, "b": b, "scale": 0.5}, out, 5, opts=opts_for(backend, {"N": parpy.threads(5)}))
    np.testing.assert_array_equal(out, a + 1.5)


# --- cache, print_compiled, compile_string --------------------------------------------------

@parpy.jit
def scale(x, s, N):
    parpy.label("N")
    for i in range(N):
        x[i] = x[i] * s


@pytest.mark.parametrize("backend", [backend_param(b) for b in COMPILED])
def test_second_call_does_not_recompile(backend, tmp_path, monkeypatch):
    # clear_cache also empties the disk cache it finds through SMELT_CACHE_DIR: point that
    # at a scratch folder, so the test suite's shared kernel cache survives. (The engine's
    # backends chose their cache folder when they started, so compiles still use theirs.)
    monkeypatch.setenv("SMELT_CACHE_DIR", str(tmp_path))
    parpy.clear_cache()
    start = scale.compilations  # counted over the process
    opts = opts_for(backend, {"N": parpy.threads(8)})
    x = np.ones(8)
    scale(x, 2.0, 8, opts=opts)
    scale(x, 2.0, 8, opts=opts)
    assert scale.compilations - start == 1
    np.testing.assert_array_equal(x, np.full(8, 4.0))
    scale(np.ones(16), 2.0, 16, opts=opts)  # another shape and N: a new specialisation
    assert scale.compilations - start == 2
    scale(x, 3.0, 8, opts=opts)  # another float: passed at run time
    assert scale.compilations - start == 2
    np.testing.assert_array_equal(x, np.full(8, 12.0))
    scale(x, 2.0, 4, opts=opts)  # another integer: a constant of the code, as in ParPy
    assert scale.compilations - start == 3
    np.testing.assert_array_equal(x, [24.0] * 4 + [12.0] * 4)
    parpy.clear_cache()
    scale(x, 2.0, 8, opts=opts)
    assert scale.compilations - start == 4


@pytest.mark.parametrize("backend", [backend_param(B.Cpu)])
def test_debug_print(backend, capsys):
    opts = opts_for(backend, {"N": parpy.threads(4)})
    opts.debug_print = True
    x = np.ones(4)
    scale(x, 0.5, 4, opts=opts)
    out = capsys.readouterr().out
    assert "%5d | def scale(x, s, N):" % line_of(scale.func, "def scale") in out
    assert "first call" in out
    np.testing.assert_array_equal(x, 0.5)


@pytest.mark.parametrize("backend", [backend_param(b) for b in COMPILED])
def test_print_compiled(backend):
    def undecorated(x, N):
        parpy.label("N")
        for i in range(N):
            x[i] = x[i] + 1.0

    x = np.zeros(4)
    text = parpy.print_compiled(undecorated, [x, 4], opts_for(backend, {"N": parpy.threads(4)}))
    marker = {B.Cpu: "omp parallel for", B.OpenCL: "__kernel", B.Cuda: "__global__"}[backend]
    assert isinstance(text, str) and marker in text
    assert inspect.getsourcefile(test_print_compiled) in text  # #line directives name it
    np.testing.assert_array_equal(x, 0)  # compiled, not run


def test_print_compiled_needs_a_compiled_backend():
    with pytest.raises(smelt.UsageError, match="compiled backend"):
        parpy.print_compiled(add_one, [np.zeros(2), 2], opts_for(B.Python, {}))


CODE = '''
import smelt.parpy as parpy

def twice(x, N):
    parpy.label("N")
    for i in range(N):
        x[i] = 2 * x[i]
'''


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_compile_string(backend):
    f = parpy.compile_string("twice", CODE, opts_for(backend, {"N": parpy.threads(3)}))
    x = np.array([1.0, 2.0, 3.0])
    f(x, 3)
    np.testing.assert_array_equal(x, [2, 4, 6])


def test_compile_string_refuses_backend_code():
    with pytest.raises(smelt.UsageError, match="not generated backend code"):
        parpy.compile_string("f", "extern \"C\" void f(double *x) { x[0] = 1; }", None)
    with pytest.raises(smelt.UsageError, match="defines no function 'g'"):
        parpy.compile_string("g", CODE, None)


# --- external ------------------------------------------------------------------------------

@parpy.external("my_clamp", B.Cpu, parpy.Target.Device)
def clamp01(v: parpy.types.F64) -> parpy.types.F64:
    return min(max(v, 0.0), 1.0)


@parpy.jit
def clamp_all(x, N):
    parpy.label("N")
    for i in range(N):
        x[i] = clamp01(x[i])


def test_external_declaration():
    from smelt.parpy.external import externals
    decl = externals()["clamp01"][-1]
    assert (decl.ext_name, decl.backend, decl.target, decl.header) == \
        ("my_clamp", B.Cpu, parpy.Target.Device, None)
    assert (decl.params, decl.result) == (["double"], "double")
    assert clamp01(3.0) == 1.0  # still a Python function
    with pytest.raises(smelt.UsageError, match="cannot be parallel"):
        parpy.external("f", B.Cpu, parpy.Target.Host, parallelize=parpy.threads(4))
    with pytest.raises(smelt.UsageError, match="CUDA"):
        parpy.external("f", B.Cuda, parpy.Target.Host)
    with pytest.raises(NotImplementedError, match="Metal"):
        parpy.external("f", B.Metal, parpy.Target.Device)

    def untyped(v):
        return v

    with pytest.raises(smelt.UsageError, match="no type annotation"):
        parpy.external("f", B.Cpu, parpy.Target.Device)(untyped)

    def fill(x: parpy.types.pointer(parpy.types.F32), n: parpy.types.I64):
        pass

    decl = parpy.external("fill_c", B.OpenCL, parpy.Target.Device)(fill).__parpy_external__
    assert (decl.params, decl.result) == (["floatp", "long"], "void")


MY_CLAMP_H = "double my_clamp(double v) { return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v); }\n"


@pytest.mark.parametrize("backend", [backend_param(b) for b in (B.Cpu, B.OpenCL, B.Python)])
def test_external_from_a_header(backend, tmp_path):
    (tmp_path / "my_clamp.h").write_text(MY_CLAMP_H)
    declared_for = B.Cpu if backend is B.Python else backend

    @parpy.external("my_clamp", declared_for, parpy.Target.Device, header="my_clamp.h")
    def clamp(v: parpy.types.F64) -> parpy.types.F64:
        return min(max(v, 0.0), 1.0)

    @parpy.jit
    def clamp_all(x, N):
        parpy.label("N")
        for i in range(N):
            x[i] = clamp(x[i])

    opts = opts_for(backend, {"N": parpy.threads(4)})
    opts.includes = [str(tmp_path)]
    x = np.array([-1.0, 0.25, 2.0, 1.0])
    clamp_all(x, 4, opts=opts)
    np.testing.assert_array_equal(x, [0.0, 0.25, 1.0, 1.0])
    if backend is not B.Python:
        text = parpy.print_compiled(clamp_all, [x, 4], opts)
        assert '#include "my_clamp.h"' in text and "my_clamp(" in text
    if backend is B.OpenCL:
        on_cpu = opts.copy()
        on_cpu.backend = B.Cpu
        with pytest.raises(smelt.UsageError, match="declared for OpenCL, but runs on cpu"):
            clamp_all(x, 4, opts=on_cpu)


def test_external_runs_its_python_body_on_the_python_backend():
    x = np.array([-1.0, 0.5, 2.0])
    clamp_all(x, 3, opts=opts_for(B.Python, {"N": parpy.threads(3)}))
    np.testing.assert_array_equal(x, [0.0, 0.5, 1.0])


# --- element sizes of arguments -------------------------------------------------------------

@parpy.jit
def square_into(x, n):
    parpy.label("one")
    for i in range(1):
        x[i] = n * n


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_force_int_size_sets_the_type_of_integer_arguments(backend):
    x = np.zeros(1, np.int64)
    opts = opts_for(backend, {"one": parpy.threads(1)})
    square_into(x, 70000, opts=opts)
    assert x[0] == 70000 * 70000  # 64-bit by default
    opts.force_int_size = parpy.ElemSize.U32
    square_into(x, 70000, opts=opts)
    assert x[0] == (70000 * 70000) % 2 ** 32  # computed in uint32, which wraps


# --- ParPy's math names -------------------------------------------------------------------

@parpy.jit
def math_names(x, out, N):
    parpy.label("N")
    for i in range(N):
        out[i] = parpy.exp(x[i]) + parpy.math.sqrt(parpy.abs(x[i])) + parpy.min(x[i], parpy.inf)


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_math_names(backend):
    x = np.linspace(-2.0, 2.0, 9)
    out = np.zeros(9)
    math_names(x, out, 9, opts=opts_for(backend, {"N": parpy.threads(9)}))
    np.testing.assert_allclose(out, np.exp(x) + np.sqrt(np.abs(x)) + x, rtol=1e-14)


def unknown_name(d, out, N):
    parpy.label("N")
    for i in range(N):
        out[i] = parpy.exp(d["x"][i]) + not_defined  # noqa: F821  (marker: unknown)


@pytest.mark.parametrize("backend", [backend_param(B.Cpu)])
def test_engine_errors_quote_the_users_line(backend):
    # The engine compiles the rewritten text (d__x, bare exp); the error shows the line as
    # written, with the caret at the same column.
    f = parpy.jit(unknown_name)
    with pytest.raises(smelt.CompileError, match="not_defined") as info:
        f({"x": np.zeros(2)}, np.zeros(2), 2, opts=opts_for(backend, {"N": parpy.threads(2)}))
    line = line_of(unknown_name, "marker: unknown")
    with open(inspect.getsourcefile(unknown_name)) as src:
        text = src.read().splitlines()[line - 1]
    assert info.value.lineno == line and info.value.text == text
    assert info.value.offset == text.index("not_defined") + 1
    assert str(info.value).splitlines()[1:] == [text, " " * text.index("not_defined") + "^"]
