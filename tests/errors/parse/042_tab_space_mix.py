# expect: 8:2: inconsistent use of tabs and spaces in indentation
from smelt import annotate


@annotate(i='int', n='int', x='doublep', y='doublep')
def kernel(i, n, x, y):
    if i < n:
	y[i] = x[i]
