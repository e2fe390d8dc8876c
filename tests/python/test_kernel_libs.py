# Kernel libraries from Python: kernels whose file imports helpers from another kernel file, and
# helpers imported into a test module and called by a kernel defined here. Each result is checked
# against the same functions run by CPython on NumPy arrays (the oracle).
import os
import sys

import numpy as np
import pytest

import smelt
from smelt import Elementwise, Reduction

LIBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel_libs")
sys.path.insert(0, LIBS)  # as a user would: the kernel libraries are importable Python

import md_kernels  # noqa: E402
from box_lib import min_image, pair_dist2  # noqa: E402


def positions(n, L, rng):
    return (rng.random(n) * 3.4 - 1.7) * L


def cpython(kernel, n, *args):
    for i in range(n):
        kernel(i, *args)


def test_kernel_file_importing_a_library_matches_cpython(rng):
    n, L = 513, 1.5
    x, y = positions(n, L, rng), positions(n, L, rng)
    out, want = np.zeros(n), np.zeros(n)
    Elementwise(md_kernels.wrap_positions, backend="cython")(x, out, L)
    cpython(md_kernels.wrap_positions, n, x, want, L)
    np.testing.assert_allclose(out, want, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(out, x - L * np.floor(x / L + 0.5), rtol=1e-14, atol=1e-15)

    # Two functions named sq (md_kernels' and box_lib's) and a transitive import (vec_lib).
    Elementwise(md_kernels.mixed, backend="cython")(x, y, out, L)
    cpython(md_kernels.mixed, n, x, y, want, L)
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-14)


def test_reduction_over_an_imported_helper(rng):
    n, L = 300, 2.0
    x, y = positions(n, L, rng), positions(n, L, rng)
    total = Reduction("a+b", map_func=md_kernels.pair_energy, backend="cython")(x, y, L)
    want = sum(md_kernels.pair_energy(i, x, y, L) for i in range(n))
    assert total == pytest.approx(want, rel=1e-12)


# A kernel defined in this test module, calling helpers this module imported from box_lib.
def nearest_image_dist2(i, x, y, out, L):
    out[i] = pair_dist2(x, y, 0, i, L) + min_image(x[i], L) * 0.0


def test_helpers_imported_into_a_python_module(rng):
    n, L = 257, 1.25
    x, y = positions(n, L, rng), positions(n, L, rng)
    out, want = np.zeros(n), np.zeros(n)
    Elementwise(nearest_image_dist2, backend="cython")(x, y, out, L)
    cpython(nearest_image_dist2, n, x, y, want, L)
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-14)
    text = smelt.kernel_text(nearest_image_dist2)
    # The engine reads the helpers from box_lib.py itself: only the import is in the text.
    assert "from box_lib import min_image\n" in text
    assert "from box_lib import pair_dist2\n" in text
    assert "def pair_dist2" not in text


def test_generated_code_points_into_the_library(rng):
    n, L = 8, 1.0
    k = Elementwise(md_kernels.wrap_positions, backend="cython")
    k(positions(n, L, rng), np.zeros(n), L)
    box = os.path.join(LIBS, "box_lib.py")
    line = 1 + open(box).read().splitlines().index("def min_image(dx, L):")
    assert '#line %d "%s"' % (line, box) in k.source


def test_error_in_a_library_function_is_located_in_its_file(tmp_path, monkeypatch):
    (tmp_path / "broken_lib.py").write_text("def bad(x):\n    y = [x]\n    return x\n")
    (tmp_path / "uses_broken.py").write_text(
        "from broken_lib import bad\n\n"
        "def k(i, x):\n    x[i] = bad(x[i])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import uses_broken
    try:
        with pytest.raises(smelt.CompileError) as err:
            Elementwise(uses_broken.k, backend="cython")(np.zeros(3))
        assert "broken_lib.py:2:9: error: lists are not supported" in str(err.value)
    finally:
        sys.modules.pop("uses_broken", None)
        sys.modules.pop("broken_lib", None)


from annotated_lib import index_of_max, scaled_cube  # noqa: E402


def cube_kernel(i, x, y, a):
    y[i] = scaled_cube(x[i], a)


def prefix_argmax(i, x, out):
    out[i] = index_of_max(x, i + 1)


def test_annotated_helpers_of_another_module_on_every_backend(backend, rng):
    # Compyle's way: @annotate'd functions imported from another module, found through this
    # module's globals and compiled with the kernel.
    x = rng.normal(size=64)
    y = np.zeros(64)
    Elementwise(cube_kernel, backend=backend)(x, y, 2.0)
    np.testing.assert_allclose(y, 2.0 * x ** 3, rtol=1e-14)
    out = np.zeros(64, np.int32)
    Elementwise(prefix_argmax, backend=backend)(x, out)
    np.testing.assert_array_equal(out, [np.argmax(x[:k + 1]) for k in range(64)])
