# expect: 8:9: lists are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[i]
    w = [1.0, 2.0]
    y[i] += w[0]
