# expect: 7:14: negative indices are not supported in kernels; Python would index from the end
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[-1]
