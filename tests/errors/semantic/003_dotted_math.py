# expect: 6:12: dotted calls are not supported
import math

@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = math.sin(x[i])
