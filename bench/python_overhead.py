#!/usr/bin/env python3
"""Python-side overhead of smelt's primitives, and the point-vortex example against Numba.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [--quick]

1. Overhead per call on the CPU backend, on a tiny array (n = 16), timed with timeit (best of 60
   batches of 500 calls): the public Python objects (smelt.Elementwise / Reduction / Scan) called with smelt
   Arrays and with NumPy arrays, the extension object alone (smelt._smelt, no Python layer), and
   the same engine primitive called in a loop from C++ (`time_calls`: no Python at all). The
   Python overhead is the public call minus the C++ call. Both the OpenMP backend ('cython') and
   the serial one are measured: with OpenMP the C++ call itself includes a parallel region.
   Target: Python overhead <= 10 us (Compyle measures 3-18 us per call).
2. Point vortices, N = 10 000, one velocity evaluation (Biot-Savart sum over all other vortices
   for every target: an elementwise kernel), smelt vs the same code under Numba (@njit, serial
   and parallel=True with prange) when Numba is installed. Compile time is excluded (one warm-up
   call each); best of several runs.

Writes bench/results/python_overhead.json and prints a table. Timings are reported, never
asserted.
"""

import argparse
import json
import os
import platform
import sys
import time
import timeit

import numpy as np

import smelt
from smelt import Elementwise, Reduction, Scan, pi

HERE = os.path.dirname(os.path.abspath(__file__))

# --- kernels (compiled by smelt from this file's source) -------------------------------------


def axpb(i, x, y, a, b):
    y[i] = a * x[i] + b


def ident(i, x):
    return x[i]


def store(i, item, y):
    y[i] = item


def velocity(i, x, y, gamma, u, v, nv, eps2):
    xi = x[i]
    yi = y[i]
    su = 0.0
    sv = 0.0
    for j in range(nv):
        if j != i:
            dx = xi - x[j]
            dy = yi - y[j]
            f = gamma[j] / (2.0 * pi * (dx * dx + dy * dy + eps2))
            su -= f * dy
            sv += f * dx
    u[i] = su
    v[i] = sv


# --- 1. overhead per call -------------------------------------------------------------------


# Many short batches, best one kept: on a machine shared with other work (CI, other builds) a
# long batch is almost always disturbed, a short one often is not.
BATCHES = 60


def best_us(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=BATCHES)) / number * 1e6


def overhead(backend, number):
    n = 16
    xn, yn = np.linspace(0, 1, n), np.zeros(n)
    x, y = smelt.wrap(xn, yn)
    e = Elementwise(axpb, backend=backend)
    r = Reduction("a+b", backend=backend)
    rm = Reduction("a+b", map_func=ident, backend=backend)
    s = Scan(ident, store, "a+b", backend=backend)
    e(x, y, 2.0, 1.0), r(x), rm(x), s(x=x, y=y)  # compile outside the timing
    rows = []
    cases = [
        ("Elementwise axpb(x, y, 2.0, 1.0)", e, lambda: e(x, y, 2.0, 1.0), lambda: e(xn, yn, 2.0, 1.0),
         lambda: e._impl(x, y, 2.0, 1.0), lambda k: e._impl.time_calls(k, x, y, 2.0, 1.0)),
        ("Reduction 'a+b' over x", r, lambda: r(x), lambda: r(xn), lambda: r._impl(x),
         lambda k: r._impl.time_calls(k, x)),
        ("Reduction 'a+b', map ident(i, x)", rm, lambda: rm(x), lambda: rm(xn), lambda: rm._impl(x),
         lambda k: rm._impl.time_calls(k, x)),
        ("Scan ident -> store(i, item, y)", s, lambda: s(x=x, y=y), lambda: s(x=xn, y=yn),
         lambda: s._impl({"x": x, "y": y}), lambda k: s._impl.time_calls(k, {"x": x, "y": y})),
    ]
    for name, _, public, numpy_args, ext_only, cxx in cases:
        cxx_us = min(cxx(number) for _ in range(BATCHES)) / number * 1e6
        pub = best_us(public, number)
        rows.append({
            "case": name, "backend": backend, "engine_backend": e._engine, "n": n,
            "python_api_us": pub,
            "python_api_numpy_args_us": best_us(numpy_args, number),
            "extension_only_us": best_us(ext_only, number),
            "cxx_direct_us": cxx_us,
            "python_overhead_us": pub - cxx_us,
        })
    return rows


# --- 2. point vortices ----------------------------------------------------------------------


def vortex_inputs(n):
    rng = np.random.default_rng(42)
    return rng.random(n), rng.random(n), rng.normal(size=n) / n


def best_seconds(fn, runs):
    fn()  # warm-up (compiles)
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def vortex(n, runs):
    x, y, g = vortex_inputs(n)
    eps2 = 1e-6
    out = {}
    results = {}
    for backend in ("cython", "serial"):
        u, v = np.zeros(n), np.zeros(n)
        e = Elementwise(velocity, backend=backend)
        out["smelt " + backend] = best_seconds(lambda: e(x, y, g, u, v, n, eps2), runs)
        results["smelt " + backend] = (u.copy(), v.copy())
    numba_note = None
    try:
        import numba
    except ImportError as exc:
        numba_note = "Numba not installed (apt-get install -y python3-numba): %s" % exc
        print("note:", numba_note, file=sys.stderr)
    else:
        numba_note = "numba %s" % numba.__version__

        def make(parallel):
            rng = numba.prange if parallel else range

            @numba.njit(parallel=parallel)
            def numba_velocity(x, y, gamma, u, v, nv, eps2):
                for i in rng(nv):
                    xi = x[i]
                    yi = y[i]
                    su = 0.0
                    sv = 0.0
                    for j in range(nv):
                        if j != i:
                            dx = xi - x[j]
                            dy = yi - y[j]
                            f = gamma[j] / (2.0 * np.pi * (dx * dx + dy * dy + eps2))
                            su -= f * dy
                            sv += f * dx
                    u[i] = su
                    v[i] = sv

            return numba_velocity

        for parallel in (False, True):
            f = make(parallel)
            u, v = np.zeros(n), np.zeros(n)
            key = "numba " + ("parallel" if parallel else "serial")
            out[key] = best_seconds(lambda: f(x, y, g, u, v, n, eps2), runs)
            results[key] = (u.copy(), v.copy())
    ref = results["smelt serial"]
    agree = {k: float(max(np.max(np.abs(a - ref[0])), np.max(np.abs(b - ref[1]))) /
                      max(np.max(np.abs(ref[0])), 1e-300))
             for k, (a, b) in results.items()}
    return out, agree, numba_note


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats, N = 2000")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "python_overhead.json"))
    args = ap.parse_args()
    number = 100 if args.quick else 500
    n_vortex = 2000 if args.quick else 10000
    runs = 2 if args.quick else 5

    rows = overhead("cython", number) + overhead("serial", number)
    times, agree, numba_note = vortex(n_vortex, runs)

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    threads = smelt._smelt.devices("cpu")[0][1] if smelt._smelt.devices("cpu") else ""
    report = {
        "machine": {"cpu": cpu, "cpu_backend": threads, "python": sys.version.split()[0],
                    "numpy": np.__version__, "os_cpu_count": os.cpu_count()},
        "overhead_per_call": rows,
        "vortex": {"n": n_vortex, "pairs": n_vortex * (n_vortex - 1), "seconds": times,
                   "gpairs_per_s": {k: n_vortex * (n_vortex - 1) / t / 1e9 for k, t in times.items()},
                   "max_rel_diff_vs_smelt_serial": agree, "numba": numba_note},
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)

    print("Per-call cost, n = 16, CPU (%s; %s), microseconds" % (cpu, threads))
    print("%-36s %-7s %9s %9s %9s %9s %9s" % ("case", "backend", "python", "numpy in", "ext only",
                                              "C++", "overhead"))
    for r in rows:
        print("%-36s %-7s %9.2f %9.2f %9.2f %9.2f %9.2f" % (
            r["case"], r["backend"], r["python_api_us"], r["python_api_numpy_args_us"],
            r["extension_only_us"], r["cxx_direct_us"], r["python_overhead_us"]))
    print("\nPoint vortices, N = %d, one evaluation (%s)" % (n_vortex, numba_note))
    for k, t in times.items():
        print("  %-16s %8.4f s  %6.3f Gpairs/s  max rel diff %.1e" % (
            k, t, report["vortex"]["gpairs_per_s"][k], agree[k]))
    print("\nwritten:", args.out)


if __name__ == "__main__":
    main()
