# expect: 4:5: cannot rebind the array parameter 'x'
@annotate(i='int', x='doublep')
def f(i, x):
    x = 1.0
