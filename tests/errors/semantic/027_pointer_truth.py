# expect: 4:8: an array cannot be used as a truth value
@annotate(i='int', x='doublep')
def f(i, x):
    if x:
        x[i] = 1.0
