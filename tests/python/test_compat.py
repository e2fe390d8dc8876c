# The thin layers: specialize (compile-time constants), compile_source / kernel_text, pytocl's
# get_global_id style (ParPy's API has its own tests: test_parpy_*.py).
import numpy as np
import pytest

import smelt
from smelt import Elementwise, specialize
from smelt.pytocl import clify, get_global_id

N = 2


def block_sum(i, x, out):
    s = 0.0
    for k in range(N):
        s += x[N * i + k]
    out[i] = s


def scaled_block_sum(i, x, out):
    block_sum(i, x, out)
    out[i] = out[i] * N


def parallel_add(a, b, output):
    i = get_global_id(0)
    output[i] = a[i] + b[i]


def test_specialize_substitutes_module_constants(backend):
    x = np.arange(12.0)
    for n in (2, 3, 4):
        f = block_sum if n == N else specialize(block_sum, N=n)
        out = np.zeros(12 // n)
        Elementwise(f, backend=backend).call_n(len(out), x, out)  # n is len(x) by default
        np.testing.assert_array_equal(out, x.reshape(-1, n).sum(axis=1))
    # the helper sees the value too, in the engine and in CPython
    g = specialize(scaled_block_sum, N=3)
    out = np.zeros(4)
    Elementwise(g, backend=backend).call_n(4, x, out)
    np.testing.assert_array_equal(out, x.reshape(-1, 3).sum(axis=1) * 3)
    assert block_sum.__globals__["N"] == 2  # the original is unchanged
    text = smelt.kernel_text(g)
    assert "N = 3" in text and "def scaled_block_sum" in text and "def block_sum" in text


def test_specialize_rejects_non_numbers():
    with pytest.raises(smelt.UsageError):
        specialize(block_sum, N="three")


def test_kernel_text_keeps_lines_and_blanks_the_rest():
    text = smelt.kernel_text(block_sum)
    with open(__file__) as f:
        original = f.read().splitlines()
    lines = text.splitlines()
    k = original.index("def block_sum(i, x, out):")
    assert lines[k] == original[k]  # same line number in both
    assert "import numpy" not in text and "def parallel_add" not in text
    assert lines[original.index("N = 2")] == "N = 2"


def test_compile_source(backend):
    mod = smelt.compile_source("def twice(i, x):\n    x[i] = 2 * x[i]\n")
    x = np.arange(5.0)
    Elementwise(mod.twice, backend=backend)(x)
    np.testing.assert_array_equal(x, np.arange(5.0) * 2)
    bad = smelt.compile_source("def oops(i, x):\n    x[i] = [1][0]\n", name="<mine>")
    with pytest.raises(smelt.CompileError) as info:
        Elementwise(bad.oops, backend="cython")(x)
    assert (info.value.filename, info.value.lineno) == ("<mine>", 2)


def test_pytocl_style(backend):
    a, b = np.arange(16, dtype=np.float32), np.ones(16, np.float32)
    out = np.zeros(16, np.float32)
    add = clify(parallel_add, backend=backend)
    add(a, b, out)
    np.testing.assert_array_equal(out, a + b)
    out[:] = 0
    clify(parallel_add, global_size=4, backend=backend)(a, b, out)
    np.testing.assert_array_equal(out, np.r_[a[:4] + 1, np.zeros(12)])
    if backend != "python":
        assert "_smelt_gid" in add.source and "get_global_id" not in add.source


def test_source_edited_after_import_falls_back_to_the_function(tmp_path, monkeypatch):
    # A module whose file stops parsing after import (edited on disk): the function's own lines
    # (inspect.getsourcelines) are compiled alone, at their line numbers.
    path = tmp_path / "edited_kernels.py"
    path.write_text("K = 3\n\n\ndef add_k(i, x):\n    x[i] = x[i] + 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import edited_kernels
    path.write_text("K = 3\n\n\ndef add_k(i, x):\n    x[i] = x[i] + 3\n\nthis is not python\n")
    x = np.zeros(4)
    Elementwise(edited_kernels.add_k, backend="cython")(x)
    np.testing.assert_array_equal(x, [3, 3, 3, 3])
    text = smelt.kernel_text(edited_kernels.add_k)
    assert text.splitlines()[3] == "def add_k(i, x):" and "not python" not in text


def test_partial_is_not_unwrapped():
    import functools
    with pytest.raises(smelt.UsageError, match="Python function"):
        Elementwise(functools.partial(block_sum, 0))
