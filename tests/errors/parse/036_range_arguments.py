# expect: 7:14: range() takes 1 to 3 arguments, got 4
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    for j in range(0, n, 1, 2):
        y[j] = x[j]
