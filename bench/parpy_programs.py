#!/usr/bin/env python3
"""ParPy's typical programs (examples/parpy_programs.py) under smelt.parpy, against NumPy on
the CPU and against CuPy or PyTorch on CUDA, in the same run.

    PYTHONPATH=build/python /usr/bin/python3 bench/parpy_programs.py \\
        [--backend auto|cpu|opencl|cuda] [--scale S] [--repeats R] [--json PATH]

Every program runs with its arguments as parpy buffers on the chosen backend (so on a GPU the
data stays on the device between calls, as with ParPy's buffers), once to compile, then R timed
runs each followed by parpy.sync; the best is reported. The reference runs the same
computation: NumPy on the host; on cuda also CuPy (else PyTorch) on the same card when
importable, with the device synchronised likewise. Sizes are modest by default; --scale
multiplies every program's element count. Results are checked against NumPy before timing.
Timings are reported, never asserted.
"""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))

import smelt  # noqa: E402
import smelt.parpy as parpy  # noqa: E402
from smelt.parpy import buffer  # noqa: E402

import parpy_programs as programs  # noqa: E402

# Elements per program at --scale 1 (matmul: n^(1/3) per side).
SIZES = {"axpy": 1 << 22, "axpy_slices": 1 << 22, "row_sums": 1 << 22,
         "row_sums_reduce": 1 << 22, "row_sums_axis": 1 << 22, "row_extremes": 1 << 22,
         "softmax": 1 << 22, "spmv_csr": 1 << 20, "matmul": 1 << 24}


def _numpy_refs(xp):
    """The programs' computations in a NumPy-like module `xp` (numpy or cupy), on the
    arguments list each program takes, writing the output argument as the program does."""

    def spmv(rows, cols, vals, x, y, n):
        prod = vals * x[cols]
        sums = xp.concatenate([xp.zeros(1, prod.dtype), xp.cumsum(prod)])
        y[:] = sums[rows[1:]] - sums[rows[:-1]]

    def softmax(x, out, n, m):
        e = xp.exp(x - x.max(axis=1, keepdims=True))
        out[:] = e / e.sum(axis=1, keepdims=True)

    def extremes(x, lo, hi, n):
        lo[:] = x.min(axis=1)
        hi[:] = x.max(axis=1)

    def axpy(a, x, y, *n):
        y[:] = a * x + y

    return {
        "axpy": axpy,
        "axpy_slices": axpy,
        "row_sums": lambda x, out, n: out.__setitem__(slice(None), x.sum(axis=1)),
        "row_sums_reduce": lambda x, out, n, m: out.__setitem__(slice(None), x.sum(axis=1)),
        "row_sums_axis": lambda x, out: out.__setitem__(slice(None), x.sum(axis=1)),
        "row_extremes": extremes,
        "softmax": softmax,
        "spmv_csr": spmv,
        "matmul": lambda a, b, c, n, m, k: xp.matmul(a, b, out=c),
    }


def _torch_refs():
    import torch

    def spmv(rows, cols, vals, x, y, n):
        prod = vals * x[cols]
        sums = torch.cat([torch.zeros(1, dtype=prod.dtype, device=prod.device),
                          torch.cumsum(prod, 0)])
        y.copy_(sums[rows[1:]] - sums[rows[:-1]])

    def axpy(a, x, y, *n):
        y.copy_(a * x + y)

    return {
        "axpy": axpy,
        "axpy_slices": axpy,
        "row_sums": lambda x, out, n: out.copy_(x.sum(dim=1)),
        "row_sums_reduce": lambda x, out, n, m: out.copy_(x.sum(dim=1)),
        "row_sums_axis": lambda x, out: out.copy_(x.sum(dim=1)),
        "row_extremes": lambda x, lo, hi, n: (lo.copy_(x.min(dim=1).values),
                                              hi.copy_(x.max(dim=1).values)),
        "softmax": lambda x, out, n, m: out.copy_(torch.softmax(x, dim=1)),
        "spmv_csr": spmv,
        "matmul": lambda a, b, c, n, m, k: torch.matmul(a, b, out=c),
    }


def best_time(run, sync, repeats):
    run()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        sync()
        best = min(best, time.perf_counter() - start)
    return best


def gpu_reference(backend_name):
    """(name, refs, to_device, sync) for CuPy, else PyTorch, on cuda; None elsewhere."""
    if backend_name != "cuda":
        return None
    try:
        import cupy
        return ("cupy", _numpy_refs(cupy), cupy.asarray, cupy.cuda.Device().synchronize)
    except ImportError:
        pass
    try:
        import torch
        if torch.cuda.is_available():
            return ("torch", _torch_refs(), lambda a: torch.as_tensor(a, device="cuda"),
                    torch.cuda.synchronize)
    except ImportError:
        pass
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="auto",
                    choices=["auto", "cpu", "opencl", "cuda", "python"],
                    help="python: CPython, to check this script with tiny --scale")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every size")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--programs", default=",".join(SIZES), help="comma-separated names")
    ap.add_argument("--json", help="write the results to this file")
    a = ap.parse_args()

    resolved = parpy.options.resolve_backend(parpy.par({})) if a.backend == "auto" else a.backend
    backend = {"cpu": parpy.CompileBackend.Cpu, "opencl": parpy.CompileBackend.OpenCL,
               "cuda": parpy.CompileBackend.Cuda, "python": parpy.CompileBackend.Python}[resolved]
    np_refs = _numpy_refs(np)
    gpu = gpu_reference(resolved)
    rows = []
    rng = np.random.default_rng(2024)
    print("backend %s; reference NumPy%s" % (resolved, " and " + gpu[0] if gpu else ""))
    print("%-16s %10s %12s %12s %12s %12s %12s" % ("program", "elements", "smelt [ms]",
                                                   "numpy [ms]", "numpy/smelt", "gpu ref [ms]",
                                                   "ref/smelt"))
    for name in a.programs.split(","):
        n = int(SIZES[name] * a.scale)
        fn, args, opts, expected = programs.PROGRAMS[name](n, rng)
        opts.backend = backend
        host_args = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        bufs = [buffer.from_array(x, backend) if isinstance(x, np.ndarray) else x for x in args]
        fn(*bufs, opts=opts)
        for k, want in expected.items():
            got = bufs[k].numpy()
            tol = 1e-4 if got.dtype == np.float32 else 1e-9
            if name == "row_sums_reduce":
                continue  # accumulates into its output: checked by the tests
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)
        t_smelt = best_time(lambda: fn(*bufs, opts=opts), lambda: parpy.sync(backend), a.repeats)
        t_numpy = best_time(lambda: np_refs[name](*host_args), lambda: None, a.repeats)
        row = {"program": name, "elements": n, "backend": resolved, "smelt_s": t_smelt,
               "numpy_s": t_numpy, "numpy_over_smelt": t_numpy / t_smelt}
        line = "%-16s %10d %12.3f %12.3f %12.2f" % (name, n, 1e3 * t_smelt, 1e3 * t_numpy,
                                                   t_numpy / t_smelt)
        if gpu:
            gname, refs, to_dev, sync = gpu
            dev_args = [to_dev(x) if isinstance(x, np.ndarray) else x for x in host_args]
            t_gpu = best_time(lambda: refs[name](*dev_args), sync, a.repeats)
            row.update({"gpu_reference": gname, "gpu_reference_s": t_gpu,
                        "gpu_reference_over_smelt": t_gpu / t_smelt})
            line += " %12.3f %12.2f" % (1e3 * t_gpu, t_gpu / t_smelt)
        print(line)
        rows.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": platform.node(), "processor": platform.processor(),
                       "smelt": smelt.__version__, "backend": resolved, "scale": a.scale,
                       "repeats": a.repeats, "results": rows}, f, indent=1)
        print("wrote", a.json)


if __name__ == "__main__":
    main()
