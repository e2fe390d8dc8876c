# Compyle's config, types, profile and utils modules under smelt's names (issue 14, items 6, 7, 8
# and 10): every option, the C type spellings, the profile's shapes and the argument parser.
import csv
import os
import subprocess
import sys

import numpy as np
import pytest

import smelt
from smelt import Elementwise, annotate, declare, get_config, use_config, wrap
from smelt.config import set_config
from smelt.profile import (ProfileContext, get_profile_info, named_profile, profile,
                           profile2csv, profile_ctx, profile_kernel)
from smelt.types import (KnownType, NP_TYPE_LIST, ctype_to_dtype, dtype_to_ctype,
                         dtype_to_knowntype, get_declare_info, knowntype_to_ctype, type_of)
from smelt.utils import ArgumentParser, getsource


# --- config --------------------------------------------------------------------------------

def test_every_compyle_option_and_set_config_none():
    cfg = get_config()
    assert cfg.omp_schedule == ("dynamic", 64)
    assert cfg.use_local_memory is False and cfg.suppress_warnings is False
    cfg.set_omp_schedule("guided,8")
    assert cfg.omp_schedule == ("guided", 8)
    cfg.set_omp_schedule("static")
    assert cfg.omp_schedule == ("static", None)
    with pytest.raises(ValueError):
        cfg.omp_schedule = ("sometimes", 4)
    cfg.use_local_memory = True
    cfg.suppress_warnings = True
    cfg.wgs = 128
    set_config(None)
    fresh = get_config()
    assert fresh is not cfg and fresh.wgs == 64 and fresh.use_local_memory is False
    with use_config(use_openmp=False) as inner:
        assert get_config() is inner and inner.use_openmp is False
    assert get_config() is fresh


def _run_python(code, **env):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True,
                          timeout=120)


def test_user_config_file(tmp_path):
    path = tmp_path / "config.py"
    path.write_text("# my defaults\nuse_openmp = False\nwgs = 2 * 16\n")
    r = _run_python("import smelt; c = smelt.get_config(); print(c.use_openmp, c.wgs);"
                    "smelt.config.set_config(None); print(smelt.get_config().wgs)",
                    SMELT_CONFIG=str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "32", "32"]
    path.write_text("use_openmp = True\nuse_opencll = True\n")
    r = _run_python("import smelt", SMELT_CONFIG=str(path))
    assert r.returncode != 0 and "%s:2: unknown smelt config option 'use_opencll'" % path in r.stderr


# --- types ---------------------------------------------------------------------------------

@annotate(i="int", x="unsigned int*", y="GLOBAL_MEM unsigned long*", n="unsigned int")
def c_spelled(i, x, y, n):
    k = declare("unsigned int")
    k = x[i] + n
    y[i] = k


def test_c_type_spellings_in_annotate_and_declare(backend):
    x = np.arange(10, dtype=np.uint32)
    y = np.zeros(10, np.uint64)
    Elementwise(c_spelled, backend=backend)(x, y, np.uint32(5))
    np.testing.assert_array_equal(y, x.astype(np.uint64) + 5)
    assert c_spelled.__annotations__["x"] == type_of("uintp")
    assert c_spelled.__annotations__["y"] == type_of("gulongp")
    assert type(declare("unsigned short")) is np.uint16
    assert declare("matrix((2, 3), 'unsigned int')").dtype == np.uint32


@annotate(x="intp", int="k, return_")  # Compyle's form: the result's type among the names
def shifted(j, x, k):
    return x[j] + k


def use_shifted(i, x, y):
    y[i] = shifted(i, x, 3)


def test_return_type_in_a_names_list(backend):
    assert shifted.__annotations__["return"] == type_of("int")
    x = np.arange(5, dtype=np.int32)
    y = np.zeros(5, np.int64)
    Elementwise(use_shifted, backend=backend)(x, y)
    np.testing.assert_array_equal(y, x + 3)


def test_known_type_forms():
    assert KnownType("float*", "float") == type_of("floatp")
    g = KnownType("GLOBAL_MEM unsigned int*", "unsigned int")
    assert g == type_of("guintp") and g.type == "GLOBAL_MEM unsigned int*"
    assert g.base_type == "unsigned int"
    assert KnownType("unsigned long").dtype == np.uint64 and KnownType("double").base_type == ""
    assert type_of("ldoublep").type == "LOCAL_MEM double*" and type_of("doublep").type == "double*"
    with pytest.raises(ValueError, match="struct"):
        KnownType("Particle*", "Particle")


def test_dtype_ctype_helpers():
    assert dtype_to_ctype(np.uint32) == "unsigned int" and dtype_to_ctype(np.float32) == "float"
    assert ctype_to_dtype("unsigned long") == np.uint64 and ctype_to_dtype("char") == np.int8
    assert np.int32 in NP_TYPE_LIST and np.float64 in NP_TYPE_LIST
    assert dtype_to_knowntype(np.float64, "global") == "gdoublep"
    assert dtype_to_knowntype(np.uint32, "ptr") == "uintp"
    assert knowntype_to_ctype("gfloatp") == "GLOBAL_MEM float*"
    assert get_declare_info("LOCAL_MEM matrix(64)") == ("matrix", "LOCAL_MEM", "double", 64)
    assert get_declare_info("matrix((2, 2), 'int')") == ("matrix", "", "int", (2, 2))
    assert get_declare_info("unsigned int") == ("primitive", "", "unsigned int", None)


# --- profile -------------------------------------------------------------------------------

def double_it(i, x):
    x[i] = 2 * x[i]


def test_profile_levels_and_shapes(tmp_path, backend):
    x = wrap(np.ones(16), backend=backend)
    e = Elementwise(double_it, backend=backend)

    @profile(name="outer step")
    def step():
        e(x)

    with use_config(profile=True):
        step()
        with profile_ctx("block") as start:
            assert isinstance(start, float)
            e(x)
        p = ProfileContext("manual")
        p.stop()
    info = get_profile_info()
    assert set(info) == {0, 1}
    assert info[0]["outer step"]["calls"] == 1 and info[0]["block"]["calls"] == 1
    assert info[0]["manual"]["calls"] == 1
    assert info[1]["Elementwise(double_it)"]["calls"] == 2  # inside the timed blocks
    np.testing.assert_array_equal(x.get(), np.full(16, 4.0))
    out = tmp_path / "profile.csv"
    profile2csv(str(out))
    rows = list(csv.DictReader(out.open()))
    assert {(r["rank"], r["level"], r["function"], r["calls"]) for r in rows} == {
        ("0", "0", "outer step", "1"), ("0", "0", "block", "1"), ("0", "0", "manual", "1"),
        ("0", "1", "Elementwise(double_it)", "2")}


def test_profile_kernel_and_named_profile():
    calls = []
    k = lambda v: calls.append(v)  # noqa: E731
    assert profile_kernel(k, "k") is k  # profiling off: the kernel itself
    with use_config(profile=True):
        wrapped = profile_kernel(k, "raw kernel")
        wrapped(1)

        @named_profile("made")
        def make():
            return k

        make()(2)
    assert calls == [1, 2]
    info = get_profile_info()[0]
    assert info["raw kernel"]["calls"] == 1 and info["made"]["calls"] == 1


# --- utils ---------------------------------------------------------------------------------

def test_argument_parser_sets_the_config():
    opts = ArgumentParser().parse_args(["-b", "opencl", "--openmp", "--use-double"])
    cfg = get_config()
    assert opts.backend == "opencl" and cfg.use_opencl and cfg.use_openmp and cfg.use_double
    set_config(None)
    ArgumentParser().parse_args([])
    cfg = get_config()
    assert cfg.use_openmp is False and cfg.use_double is True and not cfg.use_opencl
    assert smelt.get_backend() == "cython"


def test_getsource():
    assert getsource(double_it).startswith("def double_it(i, x):")
    e = Elementwise(double_it)
    e(np.ones(3))
    assert "double_it" in getsource(e)  # no Python source: the generated code


def test_kwtype_to_annotation():
    from smelt.types import kwtype_to_annotation
    got = kwtype_to_annotation({"i": "int", "doublep": "x, y", "float": "s, return_"})
    assert got == {"i": type_of("int"), "x": type_of("doublep"), "y": type_of("doublep"),
                   "s": type_of("float"), "return": type_of("float")}
