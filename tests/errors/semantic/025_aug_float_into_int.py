# expect: 5:5: gives a double but 'k' is int
@annotate(i='int', x='doublep')
def f(i, x):
    k = declare('int')
    k /= 2
