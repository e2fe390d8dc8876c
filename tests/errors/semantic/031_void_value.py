# expect: 8:12: returns nothing
@annotate(a='double')
def g(a):
    a = a + 1.0

@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = g(x[i])
