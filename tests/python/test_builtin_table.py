"""Every row of the engine's builtin table (engine/lower/builtins.cpp, through
smelt._smelt.builtins()) has a CPython meaning: smelt.purepy defines and exports it (so
`from smelt import *` gives it to a kernel file run by CPython), or Python's own builtin of that
name is its meaning (abs, min, max, int, float, len)."""
import builtins

import pytest

import smelt
from smelt import purepy

ROWS = smelt._smelt.builtins()


def test_the_table_has_the_language_builtins():
    names = {row["name"] for row in ROWS}
    # A few of each kind, so an empty or truncated table cannot pass the test below.
    assert {"sin", "atan2", "isnan", "pi", "NAN", "abs", "min", "len", "declare", "cast",
            "atomic_add", "LID_0", "GDIM_2", "local_barrier"} <= names
    assert len(names) == len(ROWS), "a name has two rows"


@pytest.mark.parametrize("row", ROWS, ids=[row["name"] for row in ROWS])
def test_every_builtin_has_a_cpython_meaning(row):
    name = row["name"]
    if row["cpython"] == "python":
        assert callable(getattr(builtins, name, None)), \
            "%s: the table says Python's builtin is its meaning, but Python has none" % name
        assert name not in purepy.__all__, "%s: purepy would shadow Python's builtin" % name
        return
    assert row["cpython"] == "purepy", row
    assert hasattr(purepy, name), "%s: python/smelt/purepy.py does not define it" % name
    assert name in purepy.__all__, "%s: purepy defines it but does not export it" % name
    value = getattr(purepy, name)
    if row["is_name"]:
        assert not callable(value), "%s is a value in kernels, a function in purepy" % name
    else:
        assert callable(value), "%s is a function in kernels, not callable in purepy" % name
