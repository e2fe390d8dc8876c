# expect: 7:10: lambda is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    sq = lambda v: v * v
    y[i] = sq(x[i])
