# expect: 4:10: this expression has no effect
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] + 1.0
