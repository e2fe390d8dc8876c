# expect: 4:7: an index must be an integer
@annotate(i='int', x='doublep')
def f(i, x):
    x[1.5] = 0.0
