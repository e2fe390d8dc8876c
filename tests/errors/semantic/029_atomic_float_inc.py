# expect: 4:16: atomic_inc() needs an integer array
@annotate(i='int', x='doublep')
def f(i, x):
    atomic_inc(x[i])
