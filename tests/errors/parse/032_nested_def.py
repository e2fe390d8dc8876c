# expect: 7:5: nested functions are not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    def helper(v):
        return 2.0 * v
    y[i] = helper(x[i])
