# expect: 7:17: matrix multiplication (@) is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[i] @ y[i]
