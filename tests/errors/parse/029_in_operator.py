# expect: 7:10: 'in' is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    if i in y:
        y[i] = 0.0
