# expect: 7:21: generator expressions are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = sum(x[j] for j in range(n))
