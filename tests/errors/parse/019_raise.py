# expect: 8:9: raise is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    if i >= n:
        raise IndexError(i)
