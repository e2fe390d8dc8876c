# expect: 7:5: assert is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    assert i < n
    y[i] = x[i]
