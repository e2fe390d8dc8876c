# expect: 5:14: convert it explicitly with int(...)
@annotate(i='int', x='doublep')
def f(i, x):
    k = declare('int')
    k = x[i] * 2.0
