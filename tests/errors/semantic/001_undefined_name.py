# expect: 4:12: name 'z' is not defined
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = z + 1.0
