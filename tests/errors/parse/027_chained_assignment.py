# expect: 7:11: chained assignment (a = b = ...) is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    a = b = x[i]
    y[i] = a + b
