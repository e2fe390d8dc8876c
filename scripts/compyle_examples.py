#!/usr/bin/env python3
"""Runs Compyle's public examples with smelt, as a new user would: each file of a Compyle
checkout's examples/ folder, changed only in its import lines (`compyle` -> `smelt`), run as a
script with small problem sizes on the cpu backend and, where the example takes a backend, on
opencl. Prints one line per run (ok / FAILED with the last line of its error) and exits 1 if a
run that docs/PYTHON.md lists as working fails.

    PYTHONPATH=build/python /usr/bin/python3 scripts/compyle_examples.py /path/to/compyle

The checkout is only read; the copies go to a temporary directory. (Compyle's code is not part
of this repository.)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (folder under examples/, script and arguments, the backend it runs on, expected to run).
# Sizes are cut down from the examples' defaults so that every run takes seconds.
RUNS = [
    ("", "axpb.py", "cython (OpenMP on and off)", True),
    ("", "axpb_jit.py", "opencl (fixed in the file)", True),
    ("", "julia_set.py -n 64", "cython", True),
    ("", "laplace.py --nx 40 --ny 40", "cython", True),
    ("", "laplace.py --nx 40 --ny 40 -b opencl", "opencl", True),
    ("", "vm_elementwise.py -n 2000", "cython", True),
    ("", "vm_elementwise.py -n 2000 -b opencl", "opencl", True),
    ("", "vm_elementwise_jit.py -n 2000", "cython", True),
    ("", "vm_elementwise_jit.py -n 2000 -b opencl", "opencl", True),
    ("", "vm_kernel.py -n 2000 -b opencl", "opencl", True),
    ("", "vm_numba.py", "numba", False),
    ("", "bench_vm.py", "numba + all", False),
    ("molecular_dynamics", "md_simple.py -n 100 --tf 2", "cython", True),
    ("molecular_dynamics", "md_simple.py -n 100 --tf 2 -b opencl", "opencl", True),
    ("molecular_dynamics", "md_nnps.py -n 100 --tf 2", "cython", True),
    ("molecular_dynamics", "md_nnps.py -n 100 --tf 2 --use-count-sort", "cython", True),
    ("molecular_dynamics", "md_nnps.py -n 100 --tf 2 -b opencl", "opencl", True),
    ("molecular_dynamics", "md_nnps.py -n 100 --tf 2 --use-count-sort -b opencl", "opencl", True),
    ("molecular_dynamics", "nnps.py", "cython", True),
    ("molecular_dynamics", "nnps.py opencl", "opencl", True),
    ("molecular_dynamics/3D", "md_simple.py -n 125 --tf 1", "cython", True),
    ("molecular_dynamics/3D", "md_simple.py -n 125 --tf 1 -b opencl", "opencl", True),
    ("molecular_dynamics/3D", "md_nnps.py -n 125 --tf 1", "cython", True),
    ("molecular_dynamics/3D", "md_nnps.py -n 125 --tf 1 --use-count-sort", "cython", True),
    ("molecular_dynamics/3D", "md_nnps.py -n 125 --tf 1 -b opencl", "opencl", True),
    ("molecular_dynamics/3D", "md_nnps_periodic.py -n 125 --tf 1", "cython", True),
    ("molecular_dynamics/3D", "md_nnps_periodic.py -n 125 --tf 1 -b opencl", "opencl", True),
    ("molecular_dynamics/3D", "nnps.py", "cython", True),
    ("molecular_dynamics/3D", "nnps.py opencl", "opencl (indexes Array.dev)", False),
    ("molecular_dynamics/3D", "hoomd_periodic.py", "hoomd", False),
]

IMPORT = re.compile(r"^(\s*(?:from|import)\s+)compyle\b", re.M)


def copy_examples(checkout, dest):
    src = os.path.join(checkout, "examples")
    shutil.copytree(src, dest)
    for folder, _, files in os.walk(dest):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    text = f.read()
                with open(path, "w") as f:
                    f.write(IMPORT.sub(r"\1smelt", text))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "examples")
        copy_examples(argv[1], root)
        env = dict(os.environ, MPLBACKEND="Agg")
        for folder, command, backend, expected in RUNS:
            cwd = os.path.join(root, folder)
            args = [sys.executable] + command.split()
            try:
                r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                                   timeout=600)
                ok, tail = r.returncode == 0, (r.stderr.strip().splitlines() or [""])[-1]
            except subprocess.TimeoutExpired:
                ok, tail = False, "timed out after 600 s"
            where = os.path.join(folder, command)
            print("%-8s %-58s %-28s %s" % ("ok" if ok else "FAILED", where, backend,
                                           "" if ok else tail[:160]), flush=True)
            if expected and not ok:
                failed.append(where)
    if failed:
        print("expected to run but failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
