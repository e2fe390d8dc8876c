# expect: 7:8: star expressions (*x) are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    a, *b = declare("double", 3)
