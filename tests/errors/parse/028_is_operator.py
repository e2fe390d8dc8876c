# expect: 7:13: 'is' is not supported in kernels; compare values with ==
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    if x[i] is None:
        y[i] = 0.0
