# expect: 7:5: try/except is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    try:
        y[i] = 1.0 / x[i]
    except ZeroDivisionError:
        y[i] = 0.0
