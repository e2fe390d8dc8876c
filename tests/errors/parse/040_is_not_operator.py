# expect: 7:10: 'is not' is not supported in kernels; compare values with !=
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    if i is not n:
        y[i] = 1.0
