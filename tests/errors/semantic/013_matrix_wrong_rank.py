# expect: 5:12: has 2 dimensions but 1 index was given
@annotate(i='int', x='doublep')
def f(i, x):
    m = declare('matrix((2, 2))')
    x[i] = m[0]
