# Loop-parallel functions (ParPy's model) for tests/primitives/loop_function_test.cpp and
# tests/python/test_loop_function.py: ParPy's typical programs on flat (1-D) arrays.
import smelt.parpy as parpy
from math import exp


def axpy(a, x, y, out, N):
    parpy.label('N')
    out[:] = a * x[:] + y[:]


def row_sums(x, out, N, M):
    parpy.label('N')
    for i in range(N):
        s = 0.0
        parpy.label('M')
        for j in range(M):
            s += x[i * M + j]
        out[i] = s


def row_softmax(x, out, N, M):
    parpy.label('N')
    for i in range(N):
        m = x[i * M]
        parpy.label('M')
        for j in range(M):
            m = max(m, x[i * M + j])
        s = 0.0
        for j in range(M):
            s += exp(x[i * M + j] - m)
        for j in range(M):
            out[i * M + j] = exp(x[i * M + j] - m) / s


def softmax(x, out, N):
    m = x[0]
    parpy.label('R')
    for i in range(N):
        m = max(m, x[i])
    s = 0.0
    parpy.label('R')
    for i in range(N):
        s += exp(x[i] - m)
    parpy.label('N')
    for i in range(N):
        out[i] = exp(x[i] - m) / s


def matmul(a, b, c, N, K, M):
    parpy.label('N')
    for i in range(N):
        parpy.label('M')
        for j in range(M):
            s = 0.0
            for k in range(K):
                s += a[i * K + k] * b[k * M + j]
            c[i * M + j] = s


def spmv(rows, cols, vals, x, y, N):
    parpy.label('N')
    for i in range(N):
        s = 0.0
        for k in range(rows[i], rows[i + 1]):
            s += vals[k] * x[cols[k]]
        y[i] = s


def total(x, out, N):
    s = 0.0
    parpy.label('N')
    for i in range(N):
        s += x[i]
    out[0] = s


def total_into(x, out, N):
    parpy.label('N')
    for i in range(N):
        out[0] += x[i]


def scale_by_max(x, out, N):
    m = 0.0
    for i in range(N):
        m = max(m, x[i])
    parpy.label('N')
    for i in range(N):
        out[i] = x[i] / m


def norms(x, out, N, M):
    parpy.label('N')
    for i in range(N):
        out[i] = parpy.sum(x[i * M:(i + 1) * M])


def norms_labelled(x, out, N, M):
    parpy.label('N')
    for i in range(N):
        parpy.label('M')
        out[i] = parpy.sum(x[i * M:(i + 1) * M])


def row_range(x, out, N, M):
    parpy.label('N')
    for i in range(N):
        parpy.label('M')
        hi = parpy.max(x[i * M:(i + 1) * M])
        parpy.label('M')
        lo = parpy.min(x[i * M:(i + 1) * M])
        out[i] = hi - lo


def extremes(x, out):
    parpy.label('R')
    out[0] = parpy.max(x[:])
    parpy.label('R')
    out[1] = parpy.min(x[:])
    out[2] = parpy.float64(parpy.int32(out[0]))
