# expect: 9:5: for ... else is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    for j in range(n):
        y[j] = x[j]
    else:
        y[i] = 0.0
