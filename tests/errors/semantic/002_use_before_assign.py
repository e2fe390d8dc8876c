# expect: 4:12: used before it is assigned
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = t
    t = 2.0
