# expect: 7:19: invalid character '$' in source
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = x[i] + $n
