# expect: 4:17: cannot declare 'matrix(n)'
@annotate(i='int', x='doublep')
def f(i, x):
    m = declare('matrix(n)')
