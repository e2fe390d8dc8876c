# The Compyle documentation's first example: y = a*sin(x) + b, elementwise.
from math import sin


@annotate(i='int', doublep='x, y, a, b')
def axpb(i, x, y, a, b):
    y[i] = a[i] * sin(x[i]) + b[i]
