# expect: 6:12: 'linspace' is imported from 'numpy' (line 2), which is not a kernel file: kernels can only use builtins
from numpy import linspace

@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = linspace(0, 1, 3)
