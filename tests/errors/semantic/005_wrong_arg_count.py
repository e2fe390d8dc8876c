# expect: 8:12: 'g' takes 1 argument but 2 were given
@annotate(a='double', return_='double')
def g(a):
    return a * 2.0

@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = g(x[i], 1.0)
