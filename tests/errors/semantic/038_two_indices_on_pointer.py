# expect: 7:17: 'x' has 1 dimension but 2 indices were given
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[i, 0]
