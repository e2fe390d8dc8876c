# expect: 10:5: while ... else is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    j = 0
    while j < n:
        j += 1
    else:
        y[i] = 0.0
