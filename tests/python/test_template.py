# Compyle's Template (issue 14, item 9): kernel functions rendered from Mako templates, run by every
# backend and compared with NumPy. Skipped where Mako (python3-mako) is not installed.
import numpy as np
import pytest

pytest.importorskip("mako", reason="python3-mako is not installed (scripts/install_deps.sh)")

from smelt import Elementwise, annotate  # noqa: E402
from smelt.template import Template  # noqa: E402


class SetConstant(Template):
    # The example of Compyle's documentation: sets any number of arrays to sin(value).
    def __init__(self, name, arrays):
        super().__init__(name=name)
        self.arrays = arrays

    def my_func(self, value):
        '''The contents of this function are directly injected.
        '''
        tmp = sin(value)  # noqa: F821  (the kernel language's sin)

    def extra_args(self):
        return self.arrays, {"doublep": ",".join(self.arrays)}

    @annotate(i="int", value="double")
    def template(self, i, value):
        '''Set the arrays to a constant value.'''
        '''
        ${obj.inject(obj.my_func)}
        % for arr in obj.arrays:
        ${arr}[i] = tmp
        % endfor
        '''


class Choose(Template):
    def __init__(self, name, cond):
        super().__init__(name=name)
        self.cond = cond

    def extra_args(self):
        return ["x", "y"], {}

    def template(self, i):
        '''
        % if obj.cond:
        y[i] = 2 * x[i]
        % else:
        y[i] = x[i] - 1
        % endif
        '''


def test_set_constant_example(backend):
    f = SetConstant("set_const", ["x", "y", "z"]).function
    assert f.__name__ == "set_const"
    src = f.source
    assert "def set_const(i, value, x, y, z):" in src and "    x[i] = tmp" in src
    assert "    tmp = sin(value)" in src and "directly injected" not in src
    x, y, z = np.zeros(5), np.zeros(5), np.zeros(5)
    Elementwise(f, backend=backend)(0.5, x, y, z)  # n: the length of the first array
    for a in (x, y, z):
        np.testing.assert_allclose(a, np.sin(0.5))


@pytest.mark.parametrize("cond", [True, False])
def test_rendered_branches_and_untyped_extra_args(backend, cond):
    f = Choose("choose_%d" % cond, cond).function
    x = np.arange(6.0)
    y = np.zeros(6)
    Elementwise(f, backend=backend)(x, y)
    np.testing.assert_array_equal(y, 2 * x if cond else x - 1)
    assert f(0, np.array([3.0]), y) is None and y[0] == (6.0 if cond else 2.0)


def test_inject_indents_every_line():
    def f(x):
        '''Docs
        '''
        for i in range(5):
            x += i
        return x + 1

    lines = ["for i in range(5):\n", "    x += i\n", "return x + 1\n"]
    for indent in (0, 1, 2):
        assert Template("t").inject(f, indent=indent) == "".join(" " * 4 * indent + ln
                                                                 for ln in lines)
