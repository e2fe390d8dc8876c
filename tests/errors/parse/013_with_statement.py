# expect: 7:5: with statements are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    with open("log") as f:
        y[i] = x[i]
