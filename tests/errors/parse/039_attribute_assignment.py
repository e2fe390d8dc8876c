# expect: 7:5: assignment to an attribute is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    x.shape = n
