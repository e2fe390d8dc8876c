# expect: 4:12: call to unknown function 'foo'
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = foo(x[i])
