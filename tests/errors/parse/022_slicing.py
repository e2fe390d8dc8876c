# expect: 7:15: slicing is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[1:3]
