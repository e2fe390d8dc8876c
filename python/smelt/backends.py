"""The engine's backend table (engine/support/backend_table.h) as the Python half reads it, and
Compyle's backend names mapped onto its rows.

The rows come from the compiled engine (``_smelt.backend_rows()``: name, family, alias,
takes_device, work_groups), so a backend added to the table is known here, in `config`,
`low_level`, `pytocl`, `extern` and the rest, without editing the package. Without the engine
(kernel files and the semantics oracle run by CPython) there are no rows: Compyle's CPU names and
'python' are still known, and no engine backend is.

Compyle's names, which are not rows of the table, map onto rows of the engine's CPU backend:

==============  ==========  ======================================================
Compyle         engine row  meaning
==============  ==========  ======================================================
cython          cpu         C++ with OpenMP; one thread when use_openmp is False
openmp, omp     cpu         C++ with OpenMP
serial          cpu:serial  one thread
python          (none)      CPython on NumPy arrays: the oracle, not the engine
==============  ==========  ======================================================
"""

from ._engine import HAVE_ENGINE

__all__ = ["COMPYLE_NAMES", "HOST", "ROWS", "row", "family", "work_groups", "on_device", "known_names",
           "families", "work_group_families", "device_families", "listed_names", "text"]

# Compyle's backend names → the engine row each one runs on.
COMPYLE_NAMES = {"cython": "cpu", "openmp": "cpu", "omp": "cpu", "serial": "cpu:serial"}

# The family of the engine's default backend (backends/registry.cpp, default_backend): host
# memory, where the arrays of every CPU row and of 'python' live.
HOST = "cpu"


def _read_rows():
    if not HAVE_ENGINE:
        return ()
    from . import _smelt
    return tuple(_smelt.backend_rows())


ROWS = _read_rows()


def row(name):
    """The row of an engine backend name: the row named (or aliased) so, else the first row
    whose family is the part of `name` before its colon ("opencl:1"); None if none (the
    engine's find_backend_row)."""
    if not name:
        return None
    for r in ROWS:
        if name == r["name"] or name == r["alias"]:
            return r
    prefix = name.split(":")[0]
    return next((r for r in ROWS if r["family"] == prefix), None)


def family(name):
    """The family of an engine backend name or Compyle name ('cython' → 'cpu'); None for
    'python' and names the engine does not have."""
    name = COMPYLE_NAMES.get(name, name)
    if name in COMPYLE_NAMES.values():
        return HOST
    r = row(name)
    return r["family"] if r else None


def work_groups(name):
    """Whether the backend named so has work-groups and local memory (Kernel, LocalMem,
    barriers)."""
    r = row(COMPYLE_NAMES.get(name, name))
    return bool(r and r["work_groups"])


def _families(keep):
    out = []
    for r in ROWS:
        if keep(r) and r["family"] not in out:
            out.append(r["family"])
    return tuple(out)


def families():
    """Every family, in table order: ('cpu', 'opencl', 'cuda')."""
    return _families(lambda r: True)


def on_device(name):
    """Whether the backend named so keeps its arrays outside host memory (a GPU's)."""
    f = family(name)
    return f is not None and f != HOST


def work_group_families():
    """The families with work-groups, in table order: ('opencl', 'cuda')."""
    return _families(lambda r: r["work_groups"])


def device_families():
    """The families whose arrays live outside host memory, in table order: ('opencl', 'cuda')."""
    return _families(lambda r: r["family"] != HOST)


def known_names():
    """Every name a backend may be given by: Compyle's, the engine rows' names and aliases, and
    'python'."""
    names = list(COMPYLE_NAMES)
    for n in list(COMPYLE_NAMES.values()) + [n for r in ROWS for n in (r["name"], r["alias"])]:
        if n and n not in names:
            names.append(n)
    return tuple(names) + ("python",)


def listed_names():
    """One name per engine row, as available_backends() lists them: Compyle's name for a CPU
    row ('cython', 'serial'), the row's own name otherwise; then 'python'."""
    compyle = {}
    for name, target in COMPYLE_NAMES.items():
        compyle.setdefault(target, name)
    return tuple(compyle.get(r["name"], r["name"]) for r in ROWS) + ("python",)


def text(names, last=" or "):
    """'a, b or c'."""
    names = list(names)
    return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)
