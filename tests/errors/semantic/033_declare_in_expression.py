# expect: 4:12: declare() must be the whole right-hand side
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = declare('double') + 1.0
