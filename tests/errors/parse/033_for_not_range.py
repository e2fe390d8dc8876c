# expect: 8:14: looping over anything but range() is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    s = 0.0
    for v in x:
        s += v
    y[i] = s
