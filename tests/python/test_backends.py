# smelt.backends: the backend names of the Python half come from the engine's backend table
# (engine/primitives/backend_table.cpp), read through _smelt.backend_rows(), and without the
# compiled engine the package still imports and knows Compyle's CPU names.
import os
import subprocess
import sys

import pytest

import smelt
from smelt import backends, config

SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                           "python"))


def test_rows_are_the_engines_table():
    # The table as written in engine/primitives/backend_table.cpp, and as `smelt devices` (the
    # engine's list_backends) names its rows.
    assert [r["name"] for r in backends.ROWS] == ["cpu", "cpu:serial", "opencl", "cuda"]
    assert [name for name, _, _ in smelt._smelt.list_backends()] == [r["name"] for r in
                                                                      backends.ROWS]
    assert backends.families() == ("cpu", "opencl", "cuda")
    assert backends.work_group_families() == ("opencl", "cuda")
    assert backends.device_families() == ("opencl", "cuda")


def test_names_map_onto_rows():
    assert backends.row("cpu:openmp")["name"] == "cpu"  # the alias
    assert backends.row("opencl:1")["name"] == "opencl"  # a device spec
    assert backends.row("vulkan") is None and backends.row(None) is None
    assert [backends.family(n) for n in ("cython", "omp", "serial", "cpu:serial", "cuda:0")] == \
        ["cpu", "cpu", "cpu", "cpu", "cuda"]
    assert backends.family("python") is None
    assert [backends.work_groups(n) for n in ("cython", "cpu", "opencl", "cuda")] == \
        [False, False, True, True]
    assert not backends.on_device("serial") and backends.on_device("opencl")
    assert backends.text(["a", "b", "c"]) == "a, b or c" and backends.text(["a"]) == "a"


def test_config_names_come_from_the_table():
    assert set(config.KNOWN_BACKENDS) == {"cython", "openmp", "omp", "serial", "cpu",
                                          "cpu:serial", "cpu:openmp", "opencl", "cuda", "python"}
    assert config.engine_backend("cpu:openmp") == "cpu"
    assert config.array_backend("serial") == "cpu" and config.array_backend("python") == "cpu"
    assert backends.listed_names() == ("cython", "serial", "opencl", "cuda", "python")
    with pytest.raises(ValueError, match="unknown backend 'vulkan'"):
        config.get_backend("vulkan")


def test_without_the_engine_the_cpu_names_remain():
    # The source tree has no _smelt: the package imports, the table is empty, and an engine
    # backend's name is not refused before the engine could say whether it exists.
    code = ("import smelt, smelt.low_level, smelt.config as c, smelt.backends as b\n"
            "assert not smelt.HAVE_ENGINE and b.ROWS == ()\n"
            "assert c.engine_backend('cython') == 'cpu' and c.array_backend('serial') == 'cpu'\n"
            "assert c.get_backend('opencl') == 'opencl' and b.listed_names() == ('python',)\n")
    env = dict(os.environ, PYTHONPATH=SOURCE_DIR)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
