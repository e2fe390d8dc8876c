# expect: 8:14: keyword arguments are not supported at kernel call sites
@annotate(a='double', return_='double')
def g(a):
    return a * 2.0

@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = g(a=x[i])
