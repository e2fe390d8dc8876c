# expect: 6:12: is imported, but kernels can only call
from numpy import linspace

@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = linspace(0, 1, 3)
