# expect: 7:12: await is not supported in kernels
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    y[i] = await x[i]
