# expect: 7:11: assignment expressions (:=) are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    if (t := x[i]) > 0.0:
        y[i] = t
