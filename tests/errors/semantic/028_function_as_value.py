# expect: 4:9: can only be called, not used as a value
@annotate(i='int', x='doublep')
def f(i, x):
    y = sin
