#!/usr/bin/env python3
"""pytocl's README benchmarks on smelt.pytocl, against NumPy in the same run.

    PYTHONPATH=build/python /usr/bin/python3 bench/pytocl_programs.py [--backend cuda]
        [--sizes 128 256 512 1024 2048] [--repeat 100] [--json out.json]

The three programs pytocl's README measures (its examples/benchmarks.py), as pytocl programs
written against ``smelt.pytocl`` (our own code, float32 as there):

- matrix multiply: ``C = A @ B`` for two n x n matrices, global size (n, n); every call copies A
  and B in and C out, as pytocl's benchmark does;
- sigmoid layer forward pass: ``1 / (1 + exp(-(X @ W + bias)))`` for n x n X and W; W is copied
  in by the first call only (later calls pass None, which keeps the device's copy), X every time;
- 2-layer MLP forward pass, batch 128, n inputs, two n x n weight matrices: two functions in one
  CLFunc sharing the hidden activations on the device; weights copied once.

Each program is timed as ``repeat`` calls after one warm-up call (compilation excluded), against
the same computation in NumPy (``np.dot`` and ``np.exp`` on float32, as pytocl's benchmark), in
the same process. Calls wait for their results (each copies its output back), so GPU times
include the transfers pytocl's timing includes. Variants: ``smelt`` (smelt's type inference:
accumulators start from a literal ``0.0`` or a float parameter) and ``pytocl_types`` (pytocl's
name-based local types). Every result is checked against NumPy (max relative error recorded).
Timings are reported, never asserted.
"""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

import smelt
from smelt.pytocl import *  # noqa: F401,F403

# --- pytocl programs ---------------------------------------------------------------------------


# The index names start with i_ as in pytocl's own benchmarks: under pytocl's name-based types
# (the pytocl_types variant) other names are float.
def matrix_mult(a, b, output, n):
    i_col = get_global_id(0)
    i_row = get_global_id(1)
    value = 0.0
    for k in range(n):
        value += a[i_row * n + k] * b[k * n + i_col]
    output[i_row * n + i_col] = value


def nn_layer(inputs, weights, n_in, n_out, bias, output):
    i_col = get_global_id(0)
    i_row = get_global_id(1)
    value = bias
    for k in range(n_in):
        value += inputs[i_row * n_in + k] * weights[k * n_out + i_col]
    value = 1.0 / (1.0 + cl_call("exp", -value))
    output[i_row * n_out + i_col] = value


def _desc(shape):
    return CLArgDesc(CLArgType.float32_array, int(np.prod(shape)))


def _int():
    return CLArgDesc(CLArgType.int32)


def _float():
    return CLArgDesc(CLArgType.float32)


# --- programs: (smelt callable, NumPy callable, check) ------------------------------------------


def matmul_program(n, backend, types, rng):
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    out = np.zeros((n, n), np.float32)
    da, db, dout, dn = _desc(a.shape), _desc(b.shape), _desc(out.shape), _int()
    f = CLFunc(CLFuncDesc(matrix_mult, (n, n)).arg(da).copy_in().arg(db).copy_in()
               .arg(dout, False).copy_out().arg(dn), pytocl_types=types).compile(backend=backend)

    def run_smelt():
        f(a, b, out, n)

    def run_numpy():
        return np.dot(a, b)

    return run_smelt, run_numpy, lambda: (out, np.dot(a, b))


def sigmoid(x, w, bias):
    return np.float32(1.0) / (np.float32(1.0) + np.exp(-(np.dot(x, w) + bias)))


def layer_program(n, backend, types, rng):
    x = rng.random((n, n), dtype=np.float32)
    w = rng.random((n, n), dtype=np.float32) / n
    bias = np.float32(rng.random())
    out = np.zeros((n, n), np.float32)
    dx, dw, dout, dni, dno, db = _desc(x.shape), _desc(w.shape), _desc(out.shape), _int(), _int(), _float()
    f = CLFunc(CLFuncDesc(nn_layer, (n, n)).arg(dx).copy_in().arg(dw).copy_in().arg(dni)
               .arg(dno).arg(db).arg(dout, False).copy_out(), pytocl_types=types).compile(backend=backend)
    copied = [False]

    def run_smelt():
        f({dx: x, dw: None if copied[0] else w, dni: n, dno: n, db: bias, dout: out})
        copied[0] = True

    def run_numpy():
        return sigmoid(x, w, bias)

    return run_smelt, run_numpy, lambda: (out, sigmoid(x, w, bias))


def mlp_program(n, backend, types, rng, batch=128):
    x = rng.random((batch, n), dtype=np.float32)
    wa = rng.random((n, n), dtype=np.float32) / n
    wb = rng.random((n, n), dtype=np.float32) / n
    ba, bb = np.float32(rng.random()), np.float32(rng.random())
    out = np.zeros((batch, n), np.float32)
    dx, dwa, dwb, dhid, dout = (_desc(x.shape), _desc(wa.shape), _desc(wb.shape),
                                _desc((batch, n)), _desc(out.shape))
    dn, dba, dbb = _int(), _float(), _float()
    layer_a = (CLFuncDesc(nn_layer, (n, batch)).arg(dx).copy_in().arg(dwa).copy_in().arg(dn)
               .arg(dn).arg(dba).arg(dhid, False))
    layer_b = (CLFuncDesc(nn_layer, (n, batch)).arg(dhid).arg(dwb).copy_in().arg(dn).arg(dn)
               .arg(dbb).arg(dout, False).copy_out())
    f = CLFunc(layer_a, layer_b, pytocl_types=types).compile(backend=backend)
    copied = [False]

    def run_smelt():
        f({dx: x, dwa: None if copied[0] else wa, dwb: None if copied[0] else wb, dn: n,
           dba: ba, dbb: bb, dout: out})
        copied[0] = True

    def run_numpy():
        return sigmoid(sigmoid(x, wa, ba), wb, bb)

    return run_smelt, run_numpy, lambda: (out, sigmoid(sigmoid(x, wa, ba), wb, bb))


PROGRAMS = {"matrix_multiply": matmul_program, "sigmoid_layer": layer_program,
            "mlp_2_layers_batch_128": mlp_program}


def timed(fn, repeat):
    fn()  # warm-up: compiles, first copies
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cython", help="smelt backend (cython, opencl, cuda, ...)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[128, 256, 512])
    ap.add_argument("--repeat", type=int, default=10, help="calls timed per program (pytocl: 100)")
    ap.add_argument("--programs", nargs="+", default=list(PROGRAMS), choices=list(PROGRAMS))
    ap.add_argument("--variants", nargs="+", default=["smelt", "pytocl_types"],
                    choices=["smelt", "pytocl_types"])
    ap.add_argument("--json", help="write the results to this file")
    args = ap.parse_args()

    rows = []
    print("%-24s %6s %-13s %12s %12s %8s %9s" % ("program", "n", "variant", "smelt s",
                                                 "numpy s", "ratio", "max rel"))
    for name in args.programs:
        for n in args.sizes:
            for variant in args.variants:
                rng = np.random.default_rng(123)
                run_smelt, run_numpy, check = PROGRAMS[name](n, args.backend,
                                                             variant == "pytocl_types", rng)
                t_smelt = timed(run_smelt, args.repeat)
                t_numpy = timed(run_numpy, args.repeat)
                got, want = check()
                err = float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-30)))
                rows.append(dict(program=name, n=n, variant=variant, repeat=args.repeat,
                                 smelt_s=t_smelt, numpy_s=t_numpy, smelt_over_numpy=t_smelt / t_numpy,
                                 max_rel_err=err))
                print("%-24s %6d %-13s %12.4f %12.4f %8.2f %9.1e" % (name, n, variant, t_smelt,
                                                                    t_numpy, t_smelt / t_numpy, err))
                sys.stdout.flush()
    if args.json:
        meta = dict(backend=args.backend, machine=platform.node(), cpus=os.cpu_count(),
                    load_average_1_5_15_min=os.getloadavg(),  # other work on the machine
                    numpy=np.__version__, smelt=getattr(smelt, "__version__", ""),
                    available_backends=smelt.available_backends(),
                    note="ratio = smelt time / NumPy time for the same calls (< 1: smelt faster)")
        with open(args.json, "w") as out:
            json.dump(dict(meta=meta, results=rows), out, indent=1)


if __name__ == "__main__":
    main()
