# expect: 7:9: list comprehensions are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    t = [x[j] for j in range(n)]
