"""Typical ParPy programs, written for ``import smelt.parpy as parpy``: with ``import parpy``
instead they are ParPy programs (on ParPy's CUDA backend).

Each program is a jit function, the parallel specification it is meant to run with, and a
NumPy function computing the same thing. tests/python/test_parpy_programs.py checks them
against NumPy on every backend; bench/parpy_programs.py times them.

    PYTHONPATH=build/python python3 examples/parpy_programs.py [cpu|opencl|cuda|python]
"""

import math
import sys

import numpy as np

import smelt.parpy as parpy


@parpy.jit
def axpy(a, x, y, N):
    parpy.label('N')
    for i in range(N):
        y[i] = a * x[i] + y[i]


@parpy.jit
def axpy_slices(a, x, y):
    parpy.label('N')
    y[:] = a * x[:] + y[:]


@parpy.jit
def row_sums(x, out, N):
    parpy.label('rows')
    for i in range(N):
        parpy.label('cols')
        out[i] = parpy.sum(x[i, :])


@parpy.jit
def row_sums_reduce(x, out, N, M):
    # A reduction written as a loop: its label must be given LoopPar.reduce().
    parpy.label('rows')
    for i in range(N):
        parpy.label('cols')
        for j in range(M):
            out[i] += x[i, j]


@parpy.jit
def row_extremes(x, lo, hi, N):
    parpy.label('rows')
    for i in range(N):
        parpy.label('cols')
        lo[i] = parpy.min(x[i, :])
        parpy.label('cols')
        hi[i] = parpy.max(x[i, :])


@parpy.jit
def row_sums_axis(x, out):
    # The reduction along axis 1 of every row at once: a slice statement over the rows.
    parpy.label('rows')
    out[:] = parpy.sum(x[:, :], axis=1)


@parpy.jit
def softmax(x, out, N, M):
    # The reductions over a row carry the reduce label 'cols'; the element-wise loops run
    # sequentially within each row.
    parpy.label('rows')
    for i in range(N):
        parpy.label('cols')
        m = parpy.max(x[i, :])
        for j in range(M):
            out[i, j] = parpy.exp(x[i, j] - m)
        parpy.label('cols')
        s = parpy.sum(out[i, :])
        for j in range(M):
            out[i, j] = out[i, j] / s


@parpy.jit
def spmv_csr(rows, cols, vals, x, y, N):
    parpy.label('rows')
    for i in range(N):
        s = 0.0
        for k in range(rows[i], rows[i + 1]):
            s += vals[k] * x[cols[k]]
        y[i] = s


@parpy.jit
def matmul(a, b, c, N, M, K):
    parpy.label('i')
    for i in range(N):
        parpy.label('j')
        for j in range(M):
            s = 0.0
            for k in range(K):
                s += a[i, k] * b[k, j]
            c[i, j] = s


# ---------------------------------------------------------------------------------------------
# Inputs, specifications and NumPy references: program name -> make(n, rng) giving
# (jit function, arguments, opts, {output argument index: NumPy result}).


def csr_matrix(n, m, density, rng):
    """(row starts, column indices, values, dense matrix) of a random n x m sparse matrix."""
    dense = np.where(rng.random((n, m)) < density, rng.standard_normal((n, m)), 0.0)
    rows = np.zeros(n + 1, np.int64)
    rows[1:] = np.cumsum((dense != 0).sum(axis=1))
    cols = np.nonzero(dense)[1].astype(np.int64)
    return rows, cols, dense[dense != 0].copy(), dense


def make_axpy(n, rng):
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    return axpy, [2.5, x, y, n], parpy.par({'N': parpy.threads(n)}), {2: 2.5 * x + y}


def make_axpy_slices(n, rng):
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    return axpy_slices, [2.5, x, y], parpy.par({'N': parpy.threads(n)}), {2: 2.5 * x + y}


def _rows(n):
    """A matrix of about n elements: (rows, columns)."""
    cols = max(8, int(math.sqrt(n)))
    return max(1, n // cols), cols


def make_row_sums(n, rng):
    r, c = _rows(n)
    x = rng.standard_normal((r, c))
    opts = parpy.par({'rows': parpy.threads(r), 'cols': parpy.threads(64).reduce()})
    return row_sums, [x, np.zeros(r), r], opts, {1: x.sum(axis=1)}


def make_row_sums_reduce(n, rng):
    r, c = _rows(n)
    x = rng.standard_normal((r, c))
    opts = parpy.par({'rows': parpy.threads(r), 'cols': parpy.threads(64).reduce()})
    return row_sums_reduce, [x, np.zeros(r), r, c], opts, {1: x.sum(axis=1)}


def make_row_sums_axis(n, rng):
    r, c = _rows(n)
    x = rng.standard_normal((r, c))
    return row_sums_axis, [x, np.zeros(r)], parpy.par({'rows': parpy.threads(r)}), {1: x.sum(axis=1)}


def make_row_extremes(n, rng):
    r, c = _rows(n)
    x = rng.standard_normal((r, c)).astype(np.float32)
    opts = parpy.par({'rows': parpy.threads(r), 'cols': parpy.threads(32).reduce()})
    lo, hi = np.zeros(r, np.float32), np.zeros(r, np.float32)
    return row_extremes, [x, lo, hi, r], opts, {1: x.min(axis=1), 2: x.max(axis=1)}


def make_softmax(n, rng):
    r, c = _rows(n)
    x = rng.standard_normal((r, c))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    opts = parpy.par({'rows': parpy.threads(r), 'cols': parpy.threads(128).reduce()})
    return softmax, [x, np.zeros_like(x), r, c], opts, {1: e / e.sum(axis=1, keepdims=True)}


def make_spmv_csr(n, rng):
    r, c = _rows(n * 16)
    rows, cols, vals, dense = csr_matrix(r, c, 1.0 / 16, rng)
    x = rng.standard_normal(c)
    opts = parpy.par({'rows': parpy.threads(r)})
    return spmv_csr, [rows, cols, vals, x, np.zeros(r), r], opts, {4: dense @ x}


def make_matmul(n, rng):
    side = max(4, int(round(n ** (1.0 / 3))))
    a = rng.standard_normal((side, side + 1))
    b = rng.standard_normal((side + 1, side + 2))
    opts = parpy.par({'i': parpy.threads(side), 'j': parpy.threads(side + 2)})
    return matmul, [a, b, np.zeros((side, side + 2)), side, side + 2, side + 1], opts, {2: a @ b}


PROGRAMS = {
    "axpy": make_axpy,
    "axpy_slices": make_axpy_slices,
    "row_sums": make_row_sums,
    "row_sums_reduce": make_row_sums_reduce,
    "row_sums_axis": make_row_sums_axis,
    "row_extremes": make_row_extremes,
    "softmax": make_softmax,
    "spmv_csr": make_spmv_csr,
    "matmul": make_matmul,
}


def main(argv):
    backend = {"cpu": parpy.CompileBackend.Cpu, "opencl": parpy.CompileBackend.OpenCL,
               "cuda": parpy.CompileBackend.Cuda, "python": parpy.CompileBackend.Python,
               "auto": parpy.CompileBackend.Auto}[argv[1] if len(argv) > 1 else "auto"]
    rng = np.random.default_rng(1)
    for name, make in PROGRAMS.items():
        fn, args, opts, expected = make(4096, rng)
        opts.backend = backend
        fn(*args, opts=opts)
        worst = max(float(np.max(np.abs(args[k] - v))) for k, v in expected.items())
        print("%-16s largest difference from NumPy: %.2g" % (name, worst))


if __name__ == "__main__":
    main(sys.argv)
