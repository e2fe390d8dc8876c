# expect: 7:15: indexing with several indices (x[i, j]) is not supported
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[i, 0]
