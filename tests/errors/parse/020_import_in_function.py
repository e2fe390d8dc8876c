# expect: 7:5: import inside a function is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    from math import sqrt
    y[i] = sqrt(x[i])
